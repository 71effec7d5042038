// Phase commands and the per-op record: phase_hooks.hpp.
#include "phase_hooks.hpp"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/file_io.hpp"

extern char** environ;

namespace mdbench {
namespace {

constexpr std::string_view kCsvHeader = "phase,iteration,rank,op,start_s,duration_s\n";

bool overridden(const char* entry) {
  for (const char* name : {"MDBENCH_PHASE=", "MDBENCH_ITERATION=", "MDBENCH_RANK="}) {
    if (std::strncmp(entry, name, std::strlen(name)) == 0) return true;
  }
  return false;
}

}  // namespace

std::string runPhaseCommand(const std::string& command, std::string_view phase, std::uint32_t iteration,
                            std::uint32_t rank) {
  std::vector<std::string> added = {fmt::format("MDBENCH_PHASE={}", phase),
                                    fmt::format("MDBENCH_ITERATION={}", iteration),
                                    fmt::format("MDBENCH_RANK={}", rank)};
  std::vector<char*> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (!overridden(*e)) env.push_back(*e);
  }
  for (std::string& a : added) env.push_back(a.data());
  env.push_back(nullptr);
  std::string sh = "sh";
  std::string dash_c = "-c";
  std::string text = command;
  char* argv[] = {sh.data(), dash_c.data(), text.data(), nullptr};
  pid_t pid = 0;
  if (const int err = posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, env.data()); err != 0) {
    return fmt::format("cannot run /bin/sh: {}", describeErrno(err));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return fmt::format("cannot wait for /bin/sh: {}", describeErrno(errno));
  }
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    if (code == 0) return {};
    return code == 127 ? "exit status 127 (command not found?)" : fmt::format("exit status {}", code);
  }
  if (WIFSIGNALED(status)) {
    const char* abbreviation = sigabbrev_np(WTERMSIG(status));
    return abbreviation != nullptr ? fmt::format("killed by SIG{}", abbreviation)
                                   : fmt::format("killed by signal {}", WTERMSIG(status));
  }
  return fmt::format("wait status {}", status);
}

std::string PerOpLog::pathFor(const std::string& prefix, std::uint32_t rank, std::uint32_t sweep_step) {
  return sweep_step == 0 ? fmt::format("{}-{:05}.csv", prefix, rank)
                         : fmt::format("{}-step{}-{:05}.csv", prefix, sweep_step, rank);
}

PerOpLog::PerOpLog(std::size_t max_ops) : max_ops_(max_ops) {}
PerOpLog::~PerOpLog() = default;

std::string PerOpLog::open(const std::string& path) {
  static constexpr std::string_view kRole = "per-op file (--savePerOpDataCSV)";
  const OutputCheck check = checkOutput(path, kRole);
  if (check.state == OutputState::kRegularFile) {
    return fmt::format("{} {} exists: choose another prefix or remove it (never overwritten)", kRole, path);
  }
  if (check.state == OutputState::kRefused) return check.problem;
  file_ = std::make_unique<NewFile>(path, kRole);
  if (!file_->error().empty()) {
    std::string problem = file_->error();
    file_.reset();
    return problem;
  }
  error_ = file_->write(kCsvHeader);
  return error_;
}

void PerOpLog::begin(std::int64_t t_start_ns, std::uint64_t planned) {
  t_start_ns_ = t_start_ns;
  ops_.clear();
  ops_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(planned, max_ops_)));
  dropped_ = 0;
}

std::uint64_t PerOpLog::end(std::string_view phase, std::uint32_t iteration, std::uint32_t rank) {
  std::string rows;
  rows.reserve(ops_.size() * 48);
  for (const Op& op : ops_) {
    fmt::format_to(std::back_inserter(rows), "{},{},{},{},{:.9f},{:.9f}\n", phase, iteration, rank, op.op,
                   static_cast<double>(op.start_ns - t_start_ns_) * 1e-9,
                   static_cast<double>(op.duration_ns) * 1e-9);
  }
  if (file_ != nullptr && error_.empty()) error_ = file_->write(rows);
  ops_.clear();
  return dropped_;
}

std::string PerOpLog::finish() {
  if (file_ == nullptr) return error_;
  if (error_.empty()) error_ = file_->commit(Replace::kNothing);
  file_.reset();
  return error_;
}

}  // namespace mdbench
