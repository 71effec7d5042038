// Failover in a results file: results_faults.hpp.
#include "results_faults.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <utility>

#include "h5.hpp"

namespace mdbench::results {
namespace {

struct FaultRow {
  double at_s = 0.0;
  const char* command = nullptr;
  std::uint8_t injected = 0;
  double t_start = 0.0;
  std::int32_t exit_status = -1;
  const char* problem = nullptr;
  const char* output = nullptr;
  double recovery_s = 0.0;
};

// In file order, exactly as results-schema/schema.json lists them.
inline constexpr std::array<h5::Field, 8> kFaultFields = {{
    {"at_s", h5::Type::kFloat64, offsetof(FaultRow, at_s)},
    {"command", h5::Type::kString, offsetof(FaultRow, command)},
    {"injected", h5::Type::kUint8, offsetof(FaultRow, injected)},
    {"t_start", h5::Type::kFloat64, offsetof(FaultRow, t_start)},
    {"exit_status", h5::Type::kInt32, offsetof(FaultRow, exit_status)},
    {"problem", h5::Type::kString, offsetof(FaultRow, problem)},
    {"output", h5::Type::kString, offsetof(FaultRow, output)},
    {"recovery_s", h5::Type::kFloat64, offsetof(FaultRow, recovery_s)},
}};

// The phase group's stall attributes, in file order, with the member each holds.
inline constexpr std::array<std::pair<const char*, double PhaseStall::*>, 4> kStallAttributes = {{
    {"stall_s", &PhaseStall::stall_s},
    {"stall_t_start", &PhaseStall::t_start},
    {"stall_t_end", &PhaseStall::t_end},
    {"stall_resolution_s", &PhaseStall::resolution_s},
}};

std::string text(const char* s) { return s != nullptr ? std::string(s) : std::string(); }

}  // namespace

void writeFailover(hid_t phase_group, const PhaseStall& stall, const std::vector<FaultRecord>& faults) {
  for (const auto& [name, member] : kStallAttributes) h5::writeAttribute(phase_group, name, stall.*member);
  if (faults.empty()) return;
  std::vector<FaultRow> rows;
  rows.reserve(faults.size());
  for (const FaultRecord& f : faults) {
    rows.push_back({f.at_s, f.command.c_str(), static_cast<std::uint8_t>(f.injected ? 1 : 0), f.t_start,
                    f.exit_status, f.problem.c_str(), f.output.c_str(), f.recovery_s});
  }
  h5::writeCompound<FaultRow>(phase_group, kFaultsDataset, kFaultFields, rows);
}

void readFailover(hid_t phase_group, PhaseStall& stall, std::vector<FaultRecord>& faults) {
  stall.measured = true;
  for (const auto& [name, member] : kStallAttributes)
    stall.*member = h5::readAttribute<double>(phase_group, name);
  faults.clear();
  if (!h5::exists(phase_group, kFaultsDataset)) return;
  faults = h5::readCompound<FaultRow>(phase_group, kFaultsDataset, kFaultFields, [](const FaultRow& r) {
    FaultRecord f;
    f.at_s = r.at_s;
    f.command = text(r.command);
    f.injected = r.injected != 0;
    f.t_start = r.t_start;
    f.exit_status = r.exit_status;
    f.problem = text(r.problem);
    f.output = text(r.output);
    f.recovery_s = r.recovery_s;
    return f;
  });
}

void addFailoverJson(nlohmann::ordered_json& phase, const PhaseStall& stall,
                     const std::vector<FaultRecord>& faults) {
  if (!stall.measured) return;
  for (const auto& [name, member] : kStallAttributes) phase[name] = stall.*member;
  if (faults.empty()) return;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const FaultRecord& f : faults) {
    nlohmann::ordered_json row;
    row[kFaultFields[0].name] = f.at_s;
    row[kFaultFields[1].name] = f.command;
    row[kFaultFields[2].name] = f.injected ? 1 : 0;
    row[kFaultFields[3].name] = f.t_start;
    row[kFaultFields[4].name] = f.exit_status;
    row[kFaultFields[5].name] = f.problem;
    row[kFaultFields[6].name] = f.output;
    // NaN (not measurable) is JSON's null; -1 (never came back) stays -1.
    row[kFaultFields[7].name] =
        std::isnan(f.recovery_s) ? nlohmann::ordered_json() : nlohmann::ordered_json(f.recovery_s);
    rows.push_back(std::move(row));
  }
  phase[kFaultsDataset] = std::move(rows);
}

std::string failoverProblem(const PhaseStall& stall, const std::vector<FaultRecord>& faults, double t_start,
                            double t_end) {
  constexpr double kSlack = 1e-6;
  if (!(stall.stall_s >= 0) || !(stall.resolution_s >= 0)) {
    return fmt::format("stall_s {} or stall_resolution_s {} is not a length", stall.stall_s,
                       stall.resolution_s);
  }
  if (stall.stall_s > 0 && (stall.t_start < t_start - kSlack || stall.t_end > t_end + kSlack ||
                            std::abs(stall.t_end - stall.t_start - stall.stall_s) > kSlack)) {
    return fmt::format("the stall [{}, {}] of {} s is not within the phase [{}, {}]", stall.t_start,
                       stall.t_end, stall.stall_s, t_start, t_end);
  }
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const FaultRecord& f = faults[i];
    if (!(f.at_s >= 0)) return fmt::format("fault {}: at_s {} is negative", i, f.at_s);
    if (!f.injected) {
      if (!std::isnan(f.recovery_s)) return fmt::format("fault {}: not injected, yet a recovery", i);
      continue;
    }
    if (f.t_start < f.at_s - 0.001) {
      return fmt::format("fault {}: started at {} s, before its time {} s", i, f.t_start, f.at_s);
    }
    const bool recovery_ok = std::isnan(f.recovery_s) || f.recovery_s == FaultRecord::kNotRecovered ||
                             (f.recovery_s >= 0 && f.t_start + f.recovery_s <= t_end - t_start + kSlack);
    if (!recovery_ok) {
      return fmt::format("fault {}: recovery {} s is not after the fault within the phase", i, f.recovery_s);
    }
  }
  return {};
}

}  // namespace mdbench::results
