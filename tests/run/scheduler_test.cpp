// Scheduler detection from the environment and the default results file name.
#include "mdbench/run/scheduler.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace mdbench {
namespace {

EnvLookup fakeEnv(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(Scheduler, NoneOutsideAJob) {
  const SchedulerInfo info = detectScheduler(fakeEnv({{"HOME", "/root"}}));
  EXPECT_EQ(info.scheduler, "none");
  EXPECT_EQ(info.job_id, "");
  EXPECT_EQ(info.job_name, "");
}

TEST(Scheduler, Slurm) {
  const SchedulerInfo info = detectScheduler(fakeEnv({{"SLURM_JOB_ID", "4711"}, {"SLURM_JOB_NAME", "md"}}));
  EXPECT_EQ(info.scheduler, "slurm");
  EXPECT_EQ(info.job_id, "4711");
  EXPECT_EQ(info.job_name, "md");
}

TEST(Scheduler, Pbs) {
  const SchedulerInfo info = detectScheduler(fakeEnv({{"PBS_JOBID", "12.server"}, {"PBS_JOBNAME", "acc"}}));
  EXPECT_EQ(info.scheduler, "pbs");
  EXPECT_EQ(info.job_id, "12.server");
  EXPECT_EQ(info.job_name, "acc");
}

TEST(Scheduler, SlurmWinsWhenBothAreSet) {
  const SchedulerInfo info = detectScheduler(fakeEnv({{"SLURM_JOB_ID", "9"}, {"PBS_JOBID", "9.pbs"}}));
  EXPECT_EQ(info.scheduler, "slurm");
  EXPECT_EQ(info.job_id, "9");
}

TEST(Scheduler, EmptyIdIsNoJob) {
  EXPECT_EQ(detectScheduler(fakeEnv({{"SLURM_JOB_ID", ""}})).scheduler, "none");
}

TEST(Scheduler, DefaultResultsName) {
  const std::time_t t = 1796044986;  // 2026-11-30T13:23:06Z
  EXPECT_EQ(defaultResultsName({}, t), "mdbench-20261130-132306.h5");
  EXPECT_EQ(defaultResultsName({"slurm", "4711", "x"}, t), "mdbench-20261130-132306-4711.h5");
  EXPECT_EQ(defaultResultsName({"pbs", "12[3].srv/a b", ""}, t), "mdbench-20261130-132306-12_3_.srv_a_b.h5");
}

}  // namespace
}  // namespace mdbench
