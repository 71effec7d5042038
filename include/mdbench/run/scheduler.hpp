// The batch scheduler a run is inside (SLURM or PBS), read from the environment, and names derived from it.
#pragma once

#include <ctime>
#include <functional>
#include <string>

namespace mdbench {

struct SchedulerInfo {
  std::string scheduler = "none";  // "slurm", "pbs" or "none"
  std::string job_id;
  std::string job_name;
};

using EnvLookup = std::function<const char*(const char*)>;

// SLURM_JOB_ID / SLURM_JOB_NAME first (PBS wrappers on Slurm sites set both), else PBS_JOBID / PBS_JOBNAME.
SchedulerInfo detectScheduler(const EnvLookup& env);
SchedulerInfo detectScheduler();  // from the process environment

// "mdbench-20261130-132306.h5", or "mdbench-20261130-132306-<job id>.h5" inside a job; characters other
// than letters, digits, '.', '_' and '-' in the job id become '_'.
std::string defaultResultsName(const SchedulerInfo& scheduler, std::time_t now);

}  // namespace mdbench
