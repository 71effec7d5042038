#include "mdbench/run/scheduler.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>

namespace mdbench {
namespace {

std::string lookup(const EnvLookup& env, const char* name) {
  const char* value = env(name);
  return value ? std::string(value) : std::string();
}

}  // namespace

SchedulerInfo detectScheduler(const EnvLookup& env) {
  SchedulerInfo info;
  if (std::string id = lookup(env, "SLURM_JOB_ID"); !id.empty()) {
    info.scheduler = "slurm";
    info.job_id = std::move(id);
    info.job_name = lookup(env, "SLURM_JOB_NAME");
  } else if (std::string pbs_id = lookup(env, "PBS_JOBID"); !pbs_id.empty()) {
    info.scheduler = "pbs";
    info.job_id = std::move(pbs_id);
    info.job_name = lookup(env, "PBS_JOBNAME");
  }
  return info;
}

SchedulerInfo detectScheduler() {
  return detectScheduler([](const char* name) { return std::getenv(name); });
}

std::string defaultResultsName(const SchedulerInfo& scheduler, std::time_t now) {
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  std::string name = fmt::format("mdbench-{}", stamp);
  if (!scheduler.job_id.empty()) {
    name += '-';
    for (const char c : scheduler.job_id) {
      const bool safe = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
      name += safe ? c : '_';
    }
  }
  return name + ".h5";
}

}  // namespace mdbench
