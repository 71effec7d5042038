// Names, value spellings and row layouts of the results file (results-schema/README.md), shared by its
// writer and reader so that the two cannot drift apart.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "h5.hpp"
#include "mdbench/config/config.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/result.hpp"
#include "mdbench/model/steady.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench::results {

inline constexpr const char* kRunsGroup = "runs";
inline constexpr std::string_view kRateFormula = "ops_ok / max(t_global_end - t_start)";
inline constexpr std::string_view kUnknownHost = "unknown";
// Throughput over time (schema version 5), in each phase group.
inline constexpr const char* kOpsPerInterval = "ops_per_interval";             // uint32 [ranks][intervals]
inline constexpr const char* kOpsPerIntervalTotal = "ops_per_interval_total";  // uint64 [intervals]
inline constexpr const char* kIntervalAttribute = "interval_s";                // on ops_per_interval
// --steady (schema version 5): iterations/iter-NNNN/steady, beside the phase groups (a steady run has none).
inline constexpr const char* kSteadyGroup = "steady";

// "latency_stat": a steady phase's histogram of one op type.
inline std::string steadyLatencyName(OpKind op) { return fmt::format("latency_{}", opKindName(op)); }

inline std::optional<OpKind> parseOpKind(std::string_view name) { return valueOf(kOpKindNames, name); }

inline std::optional<SweepPlacement> parseSweepPlacement(std::string_view name) {
  return valueOf(kSweepPlacementNames, name);
}

inline std::string iterationGroupName(std::uint32_t iteration) {
  return fmt::format("iter-{:04}", iteration);
}

inline std::string_view sharingName(TreeSharing sharing) { return nameOf(kTreeSharingNames, sharing); }
inline std::optional<TreeSharing> parseSharing(std::string_view name) {
  return valueOf(kTreeSharingNames, name);
}
inline std::string_view kindsName(ItemKinds kinds) { return nameOf(kItemKindsNames, kinds); }
inline std::optional<ItemKinds> parseKinds(std::string_view name) { return valueOf(kItemKindsNames, name); }

inline std::optional<Phase> parsePhase(std::string_view name) { return parsePhaseName(name); }

// -d A@B@C: the config attribute `targets` joins the targets with '@' ("" when there are none), an '@' in a
// target's name written "\@" as -d takes it, so the text splits back into the same list.
inline constexpr char kTargetSeparator = '@';

inline std::string joinTargets(const std::vector<std::string>& targets) {
  std::string text;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (i > 0) text += kTargetSeparator;
    for (const char c : targets[i]) {
      if (c == kTargetSeparator) text += '\\';  // as -d takes it: "\@" belongs to the name
      text += c;
    }
  }
  return text;
}

inline std::vector<std::string> splitTargets(std::string_view text) {
  std::vector<std::string> targets;
  if (text.empty()) return targets;
  targets.emplace_back();
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == kTargetSeparator) {
      targets.back() += kTargetSeparator;
      ++i;
    } else if (text[i] == kTargetSeparator) {
      targets.emplace_back();
    } else {
      targets.back() += text[i];
    }
  }
  return targets;
}

// A string field of a row as read (HDF5 gives a null pointer for a null string): "" for none.
inline std::string textOf(const char* text) { return text != nullptr ? std::string(text) : std::string(); }

// A row of an `errors` dataset in memory, of either workload: a --steady phase's rows also name the kind of
// op that failed (its `op` column, kSteadyErrorFields).
struct ErrorRow {
  std::uint32_t rank = 0;
  std::int32_t err = 0;
  const char* errno_name = nullptr;
  const char* path = nullptr;
  const char* op = nullptr;
};

// A row of a phase's `ranks` table in memory: the rank's record, and the columns the writer derives from it
// and stores beside it (the reader keeps the record only; validate compares the stored derived columns
// with rankRowOf's).
struct RankRow {
  std::uint32_t rank = 0;
  std::uint32_t node = 0;  // node_of_rank[rank]
  double rate = 0.0;       // rankRate(record)
  RankPhaseRecord record;
};

inline RankRow rankRowOf(std::uint32_t rank, std::uint32_t node, const RankPhaseRecord& record) {
  return {rank, node, rankRate(record), record};
}

// Where a member of the record (offsetof(RankPhaseRecord, member)) lies in a RankRow.
constexpr std::size_t inRecord(std::size_t member) { return offsetof(RankRow, record) + member; }

// The compound fields, in file order, exactly as results-schema/schema.json lists them (the file's rows are
// packed in this order, whatever the order in memory).
// Fields added in version 2 come last, so the version 1 fields keep their offsets in the packed rows.
inline constexpr std::array<h5::Field, 12> kRankFields = {{
    {"rank", h5::Type::kUint32, offsetof(RankRow, rank)},
    {"node", h5::Type::kUint32, offsetof(RankRow, node)},
    {"planned", h5::Type::kUint64, inRecord(offsetof(RankPhaseRecord, planned))},
    {"ok", h5::Type::kUint64, inRecord(offsetof(RankPhaseRecord, ok))},
    {"failed", h5::Type::kUint64, inRecord(offsetof(RankPhaseRecord, failed))},
    {"bytes", h5::Type::kUint64, inRecord(offsetof(RankPhaseRecord, bytes))},
    {"t_start", h5::Type::kFloat64, inRecord(offsetof(RankPhaseRecord, t_start))},
    {"t_local_end", h5::Type::kFloat64, inRecord(offsetof(RankPhaseRecord, t_local_end))},
    {"t_global_end", h5::Type::kFloat64, inRecord(offsetof(RankPhaseRecord, t_global_end))},
    {"rate", h5::Type::kFloat64, offsetof(RankRow, rate)},
    {"ops_at_stonewall", h5::Type::kUint64, inRecord(offsetof(RankPhaseRecord, ops_at_stonewall))},
    {"t_stonewall", h5::Type::kFloat64, inRecord(offsetof(RankPhaseRecord, t_stonewall))},
}};

inline constexpr std::array<h5::Field, 4> kErrorFields = {{
    {"rank", h5::Type::kUint32, offsetof(ErrorRow, rank)},
    {"errno", h5::Type::kInt32, offsetof(ErrorRow, err)},
    {"errno_name", h5::Type::kString, offsetof(ErrorRow, errno_name)},
    {"path", h5::Type::kString, offsetof(ErrorRow, path)},
}};

// A row of a steady phase's `ranks` table in memory: the rank's record, with the rank and its node stored
// beside it (the reader keeps the record only, its sums made by sumKinds; validate compares the two with the
// row's index and node_of_rank). The file keeps the mix's rounds_at_stonewall as ops_at_stonewall.
struct SteadyRankRow {
  std::uint32_t rank = 0;
  std::uint32_t node = 0;
  RankPhaseRecord record;
};

// Where a member of the record (offsetof(RankPhaseRecord, member)) lies in a SteadyRankRow.
constexpr std::size_t inSteadyRecord(std::size_t member) { return offsetof(SteadyRankRow, record) + member; }

// The ok and failed counters of the op type with index `op` (opKindIndex) in a SteadyRankRow.
constexpr std::size_t steadyOkAt(std::size_t op) {
  return inSteadyRecord(offsetof(RankPhaseRecord, kinds)) + op * sizeof(OpCounts) + offsetof(OpCounts, ok);
}
constexpr std::size_t steadyFailedAt(std::size_t op) {
  return inSteadyRecord(offsetof(RankPhaseRecord, kinds)) + op * sizeof(OpCounts) +
         offsetof(OpCounts, failed);
}

// A steady phase's rows: the fixed fields, then <op>_ok and <op>_failed for all six op types in
// OpKind order (the names must be literals, hence written out).
inline constexpr std::array<h5::Field, 21> kSteadyRankFields = {{
    {"rank", h5::Type::kUint32, offsetof(SteadyRankRow, rank)},
    {"node", h5::Type::kUint32, offsetof(SteadyRankRow, node)},
    {"t_start", h5::Type::kFloat64, inSteadyRecord(offsetof(RankPhaseRecord, t_start))},
    {"t_local_end", h5::Type::kFloat64, inSteadyRecord(offsetof(RankPhaseRecord, t_local_end))},
    {"t_global_end", h5::Type::kFloat64, inSteadyRecord(offsetof(RankPhaseRecord, t_global_end))},
    {"bytes", h5::Type::kUint64, inSteadyRecord(offsetof(RankPhaseRecord, bytes))},
    {"rounds", h5::Type::kUint64, inSteadyRecord(offsetof(RankPhaseRecord, rounds))},
    {"rounds_at_stonewall", h5::Type::kUint64, inSteadyRecord(offsetof(RankPhaseRecord, ops_at_stonewall))},
    {"t_stonewall", h5::Type::kFloat64, inSteadyRecord(offsetof(RankPhaseRecord, t_stonewall))},
    {"mkdir_ok", h5::Type::kUint64, steadyOkAt(0)},
    {"mkdir_failed", h5::Type::kUint64, steadyFailedAt(0)},
    {"stat_ok", h5::Type::kUint64, steadyOkAt(1)},
    {"stat_failed", h5::Type::kUint64, steadyFailedAt(1)},
    {"read_ok", h5::Type::kUint64, steadyOkAt(2)},
    {"read_failed", h5::Type::kUint64, steadyFailedAt(2)},
    {"delete_ok", h5::Type::kUint64, steadyOkAt(3)},
    {"delete_failed", h5::Type::kUint64, steadyFailedAt(3)},
    {"create_ok", h5::Type::kUint64, steadyOkAt(4)},
    {"create_failed", h5::Type::kUint64, steadyFailedAt(4)},
    {"rmdir_ok", h5::Type::kUint64, steadyOkAt(5)},
    {"rmdir_failed", h5::Type::kUint64, steadyFailedAt(5)},
}};
static_assert(kOpKindCount == 6 && static_cast<std::size_t>(OpKind::kRmdir) == 5,
              "kSteadyRankFields lists the op types in OpKind order");

// A steady phase's `errors` (schema version 5): the op column second.
inline constexpr std::array<h5::Field, 5> kSteadyErrorFields = {{
    {"rank", h5::Type::kUint32, offsetof(ErrorRow, rank)},
    {"op", h5::Type::kString, offsetof(ErrorRow, op)},
    {"errno", h5::Type::kInt32, offsetof(ErrorRow, err)},
    {"errno_name", h5::Type::kString, offsetof(ErrorRow, errno_name)},
    {"path", h5::Type::kString, offsetof(ErrorRow, path)},
}};

// The `errors` columns of a phase of either workload.
inline std::span<const h5::Field> errorFieldsOf(Phase phase) {
  if (phaseInfo(phase).steady()) return kSteadyErrorFields;
  return kErrorFields;
}

// Imported results of other tools (schema version 4): /datapath/import-NNNN for IOR and IOzone,
// /metadata-imports/import-NNNN for mdtest, each with the attributes kProvenance lists and a `results` table.
inline constexpr const char* kDataPathGroup = "datapath";
inline constexpr const char* kMetadataImportsGroup = "metadata-imports";

// Rows in memory: strings as const char* (variable-length strings in the file).
struct DataPathFileRow {
  const char* operation = nullptr;
  std::uint32_t clients = 0;
  std::uint32_t nodes = 0;
  std::uint32_t iterations = 0;
  double mib_per_s_max = 0.0;
  double mib_per_s_min = 0.0;
  double mib_per_s_mean = 0.0;
  double mib_per_s_stddev = 0.0;
  double ops_per_s_mean = 0.0;
  std::uint64_t transfer_bytes = 0;
  std::uint64_t block_bytes = 0;
};

struct MetadataFileRow {
  const char* phase = nullptr;
  const char* operation = nullptr;
  std::uint32_t ranks = 0;
  std::uint32_t nodes = 0;
  std::uint32_t iterations = 0;
  double ops_per_s_max = 0.0;
  double ops_per_s_min = 0.0;
  double ops_per_s_mean = 0.0;
  double ops_per_s_stddev = 0.0;
  double time_s_mean = 0.0;
};

// File order, exactly as results-schema/schema.json lists the fields.
inline constexpr std::array<h5::Field, 11> kDataPathFields = {{
    {"operation", h5::Type::kString, offsetof(DataPathFileRow, operation)},
    {"clients", h5::Type::kUint32, offsetof(DataPathFileRow, clients)},
    {"nodes", h5::Type::kUint32, offsetof(DataPathFileRow, nodes)},
    {"iterations", h5::Type::kUint32, offsetof(DataPathFileRow, iterations)},
    {"mib_per_s_max", h5::Type::kFloat64, offsetof(DataPathFileRow, mib_per_s_max)},
    {"mib_per_s_min", h5::Type::kFloat64, offsetof(DataPathFileRow, mib_per_s_min)},
    {"mib_per_s_mean", h5::Type::kFloat64, offsetof(DataPathFileRow, mib_per_s_mean)},
    {"mib_per_s_stddev", h5::Type::kFloat64, offsetof(DataPathFileRow, mib_per_s_stddev)},
    {"ops_per_s_mean", h5::Type::kFloat64, offsetof(DataPathFileRow, ops_per_s_mean)},
    {"transfer_bytes", h5::Type::kUint64, offsetof(DataPathFileRow, transfer_bytes)},
    {"block_bytes", h5::Type::kUint64, offsetof(DataPathFileRow, block_bytes)},
}};

inline constexpr std::array<h5::Field, 10> kMetadataFields = {{
    {"phase", h5::Type::kString, offsetof(MetadataFileRow, phase)},
    {"operation", h5::Type::kString, offsetof(MetadataFileRow, operation)},
    {"ranks", h5::Type::kUint32, offsetof(MetadataFileRow, ranks)},
    {"nodes", h5::Type::kUint32, offsetof(MetadataFileRow, nodes)},
    {"iterations", h5::Type::kUint32, offsetof(MetadataFileRow, iterations)},
    {"ops_per_s_max", h5::Type::kFloat64, offsetof(MetadataFileRow, ops_per_s_max)},
    {"ops_per_s_min", h5::Type::kFloat64, offsetof(MetadataFileRow, ops_per_s_min)},
    {"ops_per_s_mean", h5::Type::kFloat64, offsetof(MetadataFileRow, ops_per_s_mean)},
    {"ops_per_s_stddev", h5::Type::kFloat64, offsetof(MetadataFileRow, ops_per_s_stddev)},
    {"time_s_mean", h5::Type::kFloat64, offsetof(MetadataFileRow, time_s_mean)},
}};

// What sets the two kinds of import apart in the file: the group their import-NNNN groups are under, the
// row of their `results` table and its fields, and the conversion of a row each way.
template <class Import>
struct ImportKind;

template <>
struct ImportKind<DataPathImport> {
  using FileRow = DataPathFileRow;
  static constexpr const char* kParent = kDataPathGroup;
  static constexpr std::span<const h5::Field> fields() { return kDataPathFields; }
  static FileRow toFile(const DataPathRow& r) {
    return {r.operation.c_str(), r.clients,        r.nodes,          r.iterations,
            r.mib_per_s_max,     r.mib_per_s_min,  r.mib_per_s_mean, r.mib_per_s_stddev,
            r.ops_per_s_mean,    r.transfer_bytes, r.block_bytes};
  }
  static DataPathRow fromFile(const FileRow& r) {
    return {textOf(r.operation), r.clients,        r.nodes,          r.iterations,
            r.mib_per_s_max,     r.mib_per_s_min,  r.mib_per_s_mean, r.mib_per_s_stddev,
            r.ops_per_s_mean,    r.transfer_bytes, r.block_bytes};
  }
};

template <>
struct ImportKind<MetadataImport> {
  using FileRow = MetadataFileRow;
  static constexpr const char* kParent = kMetadataImportsGroup;
  static constexpr std::span<const h5::Field> fields() { return kMetadataFields; }
  static FileRow toFile(const MetadataImportRow& r) {
    return {r.phase.c_str(),    r.operation.c_str(), r.ranks,         r.nodes,
            r.iterations,       r.ops_per_s_max,     r.ops_per_s_min, r.ops_per_s_mean,
            r.ops_per_s_stddev, r.time_s_mean};
  }
  static MetadataImportRow fromFile(const FileRow& r) {
    return {textOf(r.phase),    textOf(r.operation), r.ranks,         r.nodes,
            r.iterations,       r.ops_per_s_max,     r.ops_per_s_min, r.ops_per_s_mean,
            r.ops_per_s_stddev, r.time_s_mean};
  }
};

// The attributes of every import group, whatever the tool, in file order.
template <class Import>
inline constexpr std::array<std::pair<const char*, std::string Import::*>, 7> kProvenance = {{
    {"tool", &Import::tool},
    {"tool_version", &Import::tool_version},
    {"command_line", &Import::command_line},
    {"began", &Import::began},
    {"source", &Import::source},
    {"imported_utc", &Import::imported_utc},
    {"mdbench_version", &Import::mdbench_version},
}};

// Why an open file is not a results file this mdbench can use ("" if it is). `verb` is "writes" or
// "reads", for the version message.
inline std::string rootProblem(hid_t file, const std::string& path, std::string_view verb) {
  std::string schema;
  try {
    schema = h5::readAttribute<std::string>(file, "schema");
  } catch (const h5::Error&) {
    return fmt::format("{} is not an mdbench results file (no string attribute 'schema' at its root)", path);
  }
  if (schema != kSchemaName) {
    return fmt::format("{} is not an mdbench results file (its schema is '{}', not '{}')", path, schema,
                       kSchemaName);
  }
  std::uint32_t version = 0;
  try {
    version = h5::readAttribute<std::uint32_t>(file, "schema_version");
  } catch (const h5::Error& e) {
    return fmt::format("{} is not a valid mdbench results file ({})", path, e.what());
  }
  const bool readable = verb == "reads" ? version >= kOldestReadableSchemaVersion && version <= kSchemaVersion
                                        : version == kSchemaVersion;
  if (!readable) {
    return verb == "reads" ? fmt::format("{} has schema version {}, this mdbench reads versions {} to {}",
                                         path, version, kOldestReadableSchemaVersion, kSchemaVersion)
                           : fmt::format("{} has schema version {}, this mdbench writes {}", path, version,
                                         kSchemaVersion);
  }
  if (!h5::exists(file, kRunsGroup)) {
    return fmt::format("{} is not a valid mdbench results file (no /{} group)", path, kRunsGroup);
  }
  return {};
}

}  // namespace mdbench::results
