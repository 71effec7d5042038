// --savePerOpDataCSV's files checked up front: per_op_files.hpp.
#include "mdbench/run/per_op_files.hpp"

#include <fmt/format.h>

#include "mdbench/util/file_io.hpp"
#include "phase_hooks.hpp"

namespace mdbench {
namespace {

constexpr std::string_view kRole = "per-op file (--savePerOpDataCSV)";

std::string fileProblem(const std::string& path) {
  const OutputCheck check = checkOutput(path, kRole);
  if (check.state == OutputState::kRefused) return check.problem;
  if (check.state == OutputState::kRegularFile) {
    return fmt::format("{} {} exists: choose another prefix or remove it (never overwritten)", kRole, path);
  }
  return {};
}

}  // namespace

std::string perOpFilesProblem(const std::string& prefix, std::uint32_t ranks,
                              const std::vector<std::uint32_t>& steps) {
  if (prefix.empty()) return {};
  const bool sweep = !steps.empty();
  const std::size_t runs = sweep ? steps.size() : 1;
  for (std::size_t step = 0; step < runs; ++step) {
    const std::uint32_t count = sweep ? steps[step] : ranks;
    for (std::uint32_t rank = 0; rank < count; ++rank) {
      const auto number = sweep ? static_cast<std::uint32_t>(step + 1) : 0;
      if (std::string problem = fileProblem(PerOpLog::pathFor(prefix, rank, number)); !problem.empty())
        return problem;
    }
  }
  return {};
}

}  // namespace mdbench
