// Failover in a results file (schema version 9, issue 34): each phase group's stall attributes and, with
// --fault-at, its `faults` table. Shared by the writer, the reader and the validator.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mdbench/model/fault.hpp"

namespace mdbench::results {

inline constexpr std::uint32_t kFailoverSchemaVersion = 9;
inline constexpr const char* kFaultsDataset = "faults";

// The attributes stall_s, stall_t_start, stall_t_end, stall_resolution_s; the `faults` table when `faults`
// is not empty.
void writeFailover(hid_t phase_group, const PhaseStall& stall, const std::vector<FaultRecord>& faults);
// What writeFailover wrote (a file of version 9 or later). Throws h5::Error on a missing attribute.
void readFailover(hid_t phase_group, PhaseStall& stall, std::vector<FaultRecord>& faults);

// `mdbench export`'s JSON of them, beside the phase's other attributes, under the same names: the four
// stall attributes (a file of version 9 or later) and `faults` (when given), recovery_s NaN as null.
void addFailoverJson(nlohmann::ordered_json& phase, const PhaseStall& stall,
                     const std::vector<FaultRecord>& faults);

// What is wrong with a phase's stall and faults, given the phase's [t_start, t_end] (seconds since the
// run's epoch): a stall outside it or longer than it, a fault started before its time, a recovery that is
// neither NaN, -1 nor within the phase after the fault. "" when consistent.
std::string failoverProblem(const PhaseStall& stall, const std::vector<FaultRecord>& faults, double t_start,
                            double t_end);

}  // namespace mdbench::results
