// `mdbench validate`: a results file is checked in two passes, and the first problem found ends the check.
//
// 1. Structure, driven by the compiled-in results-schema/schema.json (nothing about the layout is written
//    here): every object the schema lists below every existing parent matching its path pattern, its kind,
//    attribute types and allowed values, dataset types, shapes and compound fields. Objects and attributes
//    the schema does not list are allowed (a newer minor addition) and only noted.
// 2. Consistency, on the file as read by readResultsFile(): every derived number is recomputed from the
//    per-rank rows with the functions in metrics.hpp (the only place the formulas live) and compared, and
//    every rank's planned ops from the plan (plan.hpp) of the stored config, node_of_rank and the phase's
//    items; the items themselves and the stonewall fields follow the rules of results-schema/README.md.
//
// Inside, a problem is thrown as a `Problem` so each check is one line; validateResultsFile catches it and
// every other exception, so nothing escapes to the caller.
#include "mdbench/validate.hpp"

#include <fmt/format.h>
#include <hdf5.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mdbench/config.hpp"
#include "mdbench/metrics.hpp"
#include "mdbench/phase.hpp"
#include "mdbench/plan.hpp"
#include "mdbench/result.hpp"
#include "mdbench/results_file.hpp"
#include "mdbench/stats.hpp"
#include "results_layout.hpp"
#include "validate_h5.hpp"

namespace mdbench {
namespace validation {
namespace {

// Where (an object path, or "" for the file itself) and what is wrong.
struct Problem {
  std::string object;
  std::string what;
};

[[noreturn]] void fail(std::string object, std::string what) {
  throw Problem{std::move(object), std::move(what)};
}

// ---------------------------------------------------------------------------------------------------------
// The schema, as parsed from schema.json.

struct AttributeSpec {
  std::string name;
  std::string type;
  std::optional<std::string> value;
  std::vector<std::string> one_of;
};

struct FieldSpec {
  std::string name;
  std::string type;
};

// One dimension of a dataset's shape: a fixed size, any size ("*"), or the value of an attribute of the
// nearest enclosing object that has it ("ranks": the run's ranks).
struct DimSpec {
  std::optional<std::uint64_t> fixed;
  std::string attribute;  // empty: any size (unless fixed)
};

// "when": "status != running": the object is required only while the condition holds, evaluated on the
// nearest enclosing object holding the attribute.
struct Condition {
  std::string attribute;
  bool equal = true;
  std::string value;
};

enum class Kind : std::uint8_t { kGroup, kDataset };

struct ObjectSpec {
  std::string path;
  std::vector<std::string> components;
  Kind kind = Kind::kGroup;
  bool optional = false;
  std::optional<Condition> when;
  std::vector<AttributeSpec> attributes;
  std::string type;  // datasets
  std::vector<DimSpec> shape;
  std::vector<FieldSpec> fields;
};

struct Schema {
  std::string name;
  std::uint64_t version = 0;
  std::vector<ObjectSpec> objects;
};

std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start < path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string::npos ? path.size() : slash;
    if (end > start) parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

std::string joinPath(const std::string& parent, const std::string& name) {
  return parent == "/" ? "/" + name : parent + "/" + name;
}

std::string parentPath(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

// '*' matches one whole component, or the rest of it after a literal prefix ("run-*"); never an empty name.
bool matchComponent(const std::string& pattern, const std::string& name) {
  const std::size_t star = pattern.find('*');
  if (star == std::string::npos) return pattern == name;
  const std::string prefix = pattern.substr(0, star);
  const std::string suffix = pattern.substr(star + 1);
  return name.size() > prefix.size() + suffix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string_view kindName(H5I_type_t type) {
  switch (type) {
    case H5I_GROUP:
      return "group";
    case H5I_DATASET:
      return "dataset";
    case H5I_DATATYPE:
      return "named datatype";
    default:
      return "object of another kind";
  }
}

std::optional<std::uint64_t> parseUnsigned(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool hasWildcard(const std::string& component) { return component.find('*') != std::string::npos; }

Condition parseCondition(const std::string& text) {
  for (const auto& [op, equal] : {std::pair<std::string, bool>{" != ", false}, {" == ", true}}) {
    const std::size_t at = text.find(op);
    if (at != std::string::npos) return Condition{text.substr(0, at), equal, text.substr(at + op.size())};
  }
  throw std::invalid_argument(fmt::format("cannot parse condition \"{}\"", text));
}

ObjectSpec parseObject(const nlohmann::json& j) {
  ObjectSpec spec;
  spec.path = j.at("path").get<std::string>();
  spec.components = splitPath(spec.path);
  const std::string kind = j.at("kind").get<std::string>();
  if (kind != "group" && kind != "dataset") throw std::invalid_argument("unknown kind " + kind);
  spec.kind = kind == "group" ? Kind::kGroup : Kind::kDataset;
  spec.optional = j.value("optional", false);
  if (j.contains("when")) spec.when = parseCondition(j.at("when").get<std::string>());
  for (const nlohmann::json& a : j.value("attributes", nlohmann::json::array())) {
    AttributeSpec attribute{
        a.at("name").get<std::string>(), a.at("type").get<std::string>(), std::nullopt, {}};
    if (a.contains("value")) attribute.value = a.at("value").get<std::string>();
    attribute.one_of = a.value("one_of", std::vector<std::string>{});
    spec.attributes.push_back(std::move(attribute));
  }
  spec.type = j.value("type", std::string{});
  for (const nlohmann::json& d : j.value("shape", nlohmann::json::array())) {
    if (d.is_number_unsigned()) {
      spec.shape.push_back(DimSpec{d.get<std::uint64_t>(), {}});
    } else {
      const std::string name = d.get<std::string>();
      spec.shape.push_back(DimSpec{std::nullopt, name == "*" ? std::string{} : name});
    }
  }
  for (const nlohmann::json& f : j.value("fields", nlohmann::json::array())) {
    spec.fields.push_back(FieldSpec{f.at("name").get<std::string>(), f.at("type").get<std::string>()});
  }
  return spec;
}

Schema parseSchema(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  Schema schema;
  schema.name = j.at("schema").get<std::string>();
  schema.version = j.at("version").get<std::uint64_t>();
  for (const nlohmann::json& o : j.at("objects")) schema.objects.push_back(parseObject(o));
  return schema;
}

// ---------------------------------------------------------------------------------------------------------
// Pass 1: structure.

std::string describeShape(const std::vector<hsize_t>& dims) {
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

void checkAttribute(hid_t object, const std::string& path, const AttributeSpec& spec) {
  if (H5Aexists(object, spec.name.c_str()) <= 0) {
    fail(path, fmt::format("attribute {} missing (expected type {})", spec.name, spec.type));
  }
  const h5::Handle attribute(H5Aopen(object, spec.name.c_str(), H5P_DEFAULT));
  const h5::Handle type(H5Aget_type(attribute.get()));
  const h5::Handle space(H5Aget_space(attribute.get()));
  if (!attribute.valid() || !type.valid() || !space.valid()) {
    fail(path, fmt::format("attribute {} cannot be read", spec.name));
  }
  if (!typeMatches(type.get(), spec.type)) {
    fail(path, fmt::format("attribute {}: expected type {}, found {}", spec.name, spec.type,
                           h5::describeType(type.get())));
  }
  if (H5Sget_simple_extent_type(space.get()) != H5S_SCALAR) {
    fail(path, fmt::format("attribute {}: expected a scalar, found {} value(s)", spec.name,
                           elementCount(space.get())));
  }
  if (!spec.value && spec.one_of.empty()) return;
  const std::optional<std::string> value = readStringAttribute(attribute.get());
  if (!value) fail(path, fmt::format("attribute {} cannot be read as a string", spec.name));
  if (spec.value && *value != *spec.value) {
    fail(path, fmt::format("attribute {}: expected \"{}\", found \"{}\"", spec.name, *spec.value, *value));
  }
  if (!spec.one_of.empty() &&
      std::find(spec.one_of.begin(), spec.one_of.end(), *value) == spec.one_of.end()) {
    fail(path, fmt::format("attribute {}: expected one of {}, found \"{}\"", spec.name,
                           fmt::join(spec.one_of, "|"), *value));
  }
}

class StructureChecker {
 public:
  StructureChecker(hid_t file, const Schema& schema, std::vector<std::string>& notes)
      : file_(file), schema_(schema), notes_(notes) {}

  void run() {
    for (const ObjectSpec& spec : schema_.objects) {
      if (!spec.components.empty()) {
        for (const std::string& parent : expand(spec.components, spec.components.size() - 1)) {
          checkPresent(spec, parent);
        }
      }
      for (const std::string& path : expand(spec.components, spec.components.size())) checkObject(spec, path);
    }
    noteUnknownBelow("/");
  }

 private:
  h5::Handle open(const std::string& path) const {
    return h5::Handle(H5Oopen(file_, path.c_str(), H5P_DEFAULT));
  }

  bool isGroup(const std::string& path) const {
    const h5::Handle object = open(path);
    return object.valid() && H5Iget_type(object.get()) == H5I_GROUP;
  }

  // Every existing object whose path matches the first `count` components of a pattern.
  std::vector<std::string> expand(const std::vector<std::string>& components, std::size_t count) const {
    std::vector<std::string> paths = {"/"};
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<std::string> next;
      for (const std::string& path : paths) {
        const h5::Handle group(H5Gopen2(file_, path.c_str(), H5P_DEFAULT));
        if (!group.valid()) continue;  // not a group: its own spec reports the kind
        for (const std::string& name : h5::childNames(group.get())) {
          if (matchComponent(components[i], name)) next.push_back(joinPath(path, name));
        }
      }
      paths = std::move(next);
    }
    return paths;
  }

  // The value of `attribute` on `path` or its nearest enclosing object having it, as text.
  std::optional<std::string> inheritedText(std::string path, const std::string& attribute) const {
    while (true) {
      const h5::Handle object = open(path);
      if (object.valid() && H5Aexists(object.get(), attribute.c_str()) > 0) {
        if (auto text = readStringAttribute(object.get(), attribute)) return text;
        if (auto number = readUnsignedAttribute(object.get(), attribute)) return std::to_string(*number);
        return std::nullopt;
      }
      if (path == "/") return std::nullopt;
      path = parentPath(path);
    }
  }

  bool required(const ObjectSpec& spec, const std::string& parent) const {
    if (spec.optional) return false;
    if (!spec.when) return true;
    const std::optional<std::string> value = inheritedText(parent, spec.when->attribute);
    if (!value) return true;  // cannot tell: the stricter reading
    return (*value == spec.when->value) == spec.when->equal;
  }

  void checkPresent(const ObjectSpec& spec, const std::string& parent) const {
    if (!isGroup(parent) || !required(spec, parent)) return;
    const std::string& last = spec.components.back();
    const std::string kind = spec.kind == Kind::kGroup ? "group" : "dataset";
    if (!hasWildcard(last)) {
      if (H5Lexists(file_, joinPath(parent, last).c_str(), H5P_DEFAULT) <= 0) {
        fail(joinPath(parent, last), fmt::format("missing (a required {})", kind));
      }
      return;
    }
    const h5::Handle group(H5Gopen2(file_, parent.c_str(), H5P_DEFAULT));
    const std::vector<std::string> names = h5::childNames(group.get());
    if (std::none_of(names.begin(), names.end(),
                     [&](const std::string& n) { return matchComponent(last, n); })) {
      fail(parent, fmt::format("no {} matching \"{}\" (at least one is required)", kind, last));
    }
  }

  void checkObject(const ObjectSpec& spec, const std::string& path) const {
    const h5::Handle object = open(path);
    if (!object.valid()) fail(path, "cannot be opened (a dangling link?)");
    const H5I_type_t type = H5Iget_type(object.get());
    const H5I_type_t want = spec.kind == Kind::kGroup ? H5I_GROUP : H5I_DATASET;
    if (type != want) fail(path, fmt::format("expected a {}, found a {}", kindName(want), kindName(type)));
    for (const AttributeSpec& attribute : spec.attributes) checkAttribute(object.get(), path, attribute);
    if (spec.kind == Kind::kDataset) checkDataset(spec, object.get(), path);
    for (const std::string& name : attributeNames(object.get())) {
      const auto listed = [&](const AttributeSpec& a) { return a.name == name; };
      if (std::none_of(spec.attributes.begin(), spec.attributes.end(), listed)) {
        notes_.push_back(fmt::format("{}: attribute {} is not in the schema", path, name));
      }
    }
  }

  void checkDataset(const ObjectSpec& spec, hid_t dataset, const std::string& path) const {
    const h5::Handle type(H5Dget_type(dataset));
    if (!type.valid()) fail(path, "datatype cannot be read");
    if (!typeMatches(type.get(), spec.type)) {
      fail(path, fmt::format("expected type {}, found {}", spec.type, h5::describeType(type.get())));
    }
    for (const FieldSpec& field : spec.fields) {
      const int index = H5Tget_member_index(type.get(), field.name.c_str());
      if (index < 0) {
        fail(path, fmt::format("compound field {} missing (expected type {})", field.name, field.type));
      }
      const h5::Handle member(H5Tget_member_type(type.get(), static_cast<unsigned>(index)));
      if (!typeMatches(member.get(), field.type)) {
        fail(path, fmt::format("compound field {}: expected type {}, found {}", field.name, field.type,
                               h5::describeType(member.get())));
      }
    }
    checkShape(spec, dataset, path);
  }

  void checkShape(const ObjectSpec& spec, hid_t dataset, const std::string& path) const {
    const h5::Handle space(H5Dget_space(dataset));
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 0) fail(path, "dataspace cannot be read");
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    if (dims.size() != spec.shape.size()) {
      fail(path,
           fmt::format("expected {} dimension(s), found shape {}", spec.shape.size(), describeShape(dims)));
    }
    for (std::size_t d = 0; d < dims.size(); ++d) {
      const DimSpec& want = spec.shape[d];
      std::optional<std::uint64_t> size = want.fixed;
      if (!size && !want.attribute.empty()) {
        const std::optional<std::string> text = inheritedText(parentPath(path), want.attribute);
        if (!text) fail(path, fmt::format("shape: no enclosing object has the attribute {}", want.attribute));
        size = parseUnsigned(*text);
        if (!size) {
          fail(path, fmt::format("shape: attribute {} is \"{}\", not a size", want.attribute, *text));
        }
      }
      if (size && dims[d] != *size) {
        const std::string why = want.attribute.empty() ? "" : fmt::format(" ({})", want.attribute);
        fail(path, fmt::format("expected shape dimension {} = {}{}, found shape {}", d, *size, why,
                               describeShape(dims)));
      }
    }
  }

  bool listed(const std::string& path) const {
    const std::vector<std::string> components = splitPath(path);
    return std::any_of(schema_.objects.begin(), schema_.objects.end(), [&](const ObjectSpec& spec) {
      if (spec.components.size() != components.size()) return false;
      for (std::size_t i = 0; i < components.size(); ++i) {
        if (!matchComponent(spec.components[i], components[i])) return false;
      }
      return true;
    });
  }

  // Notes the topmost objects the schema does not list (newer minor additions are allowed). Only listed
  // paths are descended into, so the recursion is as deep as the schema at most, even with link cycles.
  void noteUnknownBelow(const std::string& path) {
    const h5::Handle group(H5Gopen2(file_, path.c_str(), H5P_DEFAULT));
    if (!group.valid()) return;
    for (const std::string& name : h5::childNames(group.get())) {
      const std::string child = joinPath(path, name);
      if (!listed(child)) {
        notes_.push_back(fmt::format("{}: not in the schema", child));
      } else {
        noteUnknownBelow(child);
      }
    }
  }

  hid_t file_;
  const Schema& schema_;
  std::vector<std::string>& notes_;
};

// The README's first rule for readers: the root names the schema and its version.
void checkIdentity(hid_t file, const Schema& schema) {
  const h5::Handle root(H5Oopen(file, "/", H5P_DEFAULT));
  const std::optional<std::string> name = readStringAttribute(root.get(), "schema");
  if (!name) fail("/", fmt::format("no string attribute schema: not an {} file", schema.name));
  if (*name != schema.name) {
    fail("/", fmt::format("attribute schema: expected \"{}\", found \"{}\"", schema.name, *name));
  }
  const std::optional<std::uint64_t> version = readUnsignedAttribute(root.get(), "schema_version");
  if (!version) fail("/", "no integer attribute schema_version");
  if (*version != schema.version) {
    fail("/", fmt::format("attribute schema_version: this validator knows version {}, found {}",
                          schema.version, *version));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Pass 2: consistency.

// Doubles are compared with a relative tolerance of 1e-9: the writer uses the same formulas
// (metrics.hpp), so they normally agree bit for bit, but a file rewritten by another tool or a writer that
// sums in another order may differ in the last bits, while a real inconsistency is far larger. `scale` is
// the magnitude the rounding error is relative to when that is not the value itself (a standard deviation
// of nearly equal rates is tiny, but its rounding error follows the rates).
constexpr double kRelativeTolerance = 1e-9;

bool nearlyEqual(double expected, double found, double scale = 0.0) {
  if (expected == found) return true;
  if (!std::isfinite(expected) || !std::isfinite(found)) return false;
  const double magnitude = std::max({std::fabs(expected), std::fabs(found), std::fabs(scale)});
  return std::fabs(expected - found) <= kRelativeTolerance * magnitude;
}

template <typename T>
void expectEqual(const std::string& object, std::string_view name, T expected, T found,
                 std::string_view how) {
  if (expected != found) {
    fail(object, fmt::format("{}: expected {} ({}), found {}", name, expected, how, found));
  }
}

void expectNear(const std::string& object, std::string_view name, double expected, double found,
                std::string_view how, double scale = 0.0) {
  if (!nearlyEqual(expected, found, scale)) {
    fail(object, fmt::format("{}: expected {} ({}), found {}", name, expected, how, found));
  }
}

// "2026-11-30T13:23:06Z"
bool isIsoUtc(const std::string& text) {
  constexpr std::string_view kPattern = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != kPattern.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (kPattern[i] == 'd' ? !digit : text[i] != kPattern[i]) return false;
  }
  return true;
}

RankPhaseRecord toRecord(const StoredRankRow& row) {
  RankPhaseRecord record;
  record.planned = row.planned;
  record.ok = row.ok;
  record.failed = row.failed;
  record.bytes = row.bytes;
  record.t_start = row.t_start;
  record.t_local_end = row.t_local_end;
  record.t_global_end = row.t_global_end;
  record.ops_at_stonewall = row.ops_at_stonewall;
  record.t_stonewall = row.t_stonewall;
  return record;
}

std::uint64_t failedOps(const StoredRun& run) {
  std::uint64_t failed = 0;
  for (const StoredPhase& phase : run.phases) failed += phase.aggregate.failed;
  return failed;
}

void checkAggregate(const StoredPhase& phase) {
  std::vector<RankPhaseRecord> records;
  for (const StoredRankRow& row : phase.ranks) records.push_back(toRecord(row));
  const PhaseAggregate want = aggregate(records);
  const PhaseAggregate& got = phase.aggregate;
  const std::string& g = phase.group;
  expectEqual(g, "ops_ok", want.ok, got.ok, "sum of ranks.ok");
  expectEqual(g, "ops_failed", want.failed, got.failed, "sum of ranks.failed");
  expectEqual(g, "bytes", want.bytes, got.bytes, "sum of ranks.bytes");
  expectNear(g, "time_s", want.time_s, got.time_s, "max of ranks.t_global_end - t_start");
  expectNear(g, "ops_per_s", want.ops_per_s, got.ops_per_s, "ops_ok / time_s");
  expectEqual(g, "active_ranks", want.active_ranks, got.active_ranks, "ranks with planned > 0");
  expectNear(g, "rank_rate_min", want.rank_rate_min, got.rank_rate_min, "min of active ranks' rate");
  expectNear(g, "rank_rate_max", want.rank_rate_max, got.rank_rate_max, "max of active ranks' rate");
  expectNear(g, "rank_rate_mean", want.rank_rate_mean, got.rank_rate_mean, "mean of active ranks' rate");
  expectNear(g, "balance", want.balance, got.balance, "rank_rate_min / rank_rate_max");
  expectEqual(g, "stonewalled", want.stonewalled, got.stonewalled, "some rank has t_stonewall > 0");
  expectEqual(g, "ops_at_stonewall", want.ops_at_stonewall, got.ops_at_stonewall,
              "sum of ranks.ops_at_stonewall when stonewalled, else 0");
  expectNear(g, "stonewall_time_s", want.stonewall_time_s, got.stonewall_time_s,
             "max of t_stonewall - t_start over ranks with t_stonewall > 0");
  expectNear(g, "ops_per_s_at_stonewall", want.ops_per_s_at_stonewall, got.ops_per_s_at_stonewall,
             "ops_at_stonewall / stonewall_time_s");
}

void checkLatency(const StoredPhase& phase) {
  const std::string path = phase.group + "/latency";
  expectEqual<std::size_t>(path, "length", LatencyHistogram::kBuckets, phase.latency.size(),
                           "histogram buckets");
  LatencyHistogram histogram;
  std::copy(phase.latency.begin(), phase.latency.end(), histogram.counts().begin());
  expectEqual(path, "sum of counts", phase.aggregate.ok, histogram.count(), "ops_ok");
  const LatencySummary want = latencySummary(histogram);
  const LatencySummary& got = phase.latency_summary;
  const std::string& g = phase.group;
  const std::string_view how = "from the latency histogram";
  expectEqual(g, "latency_p50_ns", want.p50_ns, got.p50_ns, how);
  expectEqual(g, "latency_p90_ns", want.p90_ns, got.p90_ns, how);
  expectEqual(g, "latency_p99_ns", want.p99_ns, got.p99_ns, how);
  expectEqual(g, "latency_p999_ns", want.p999_ns, got.p999_ns, how);
  expectEqual(g, "latency_max_ns", want.max_ns, got.max_ns, how);
}

void checkErrors(const StoredPhase& phase) {
  const std::string path = phase.group + "/errors";
  std::vector<bool> has_row(phase.ranks.size(), false);
  for (std::size_t i = 0; i < phase.errors.size(); ++i) {
    const StoredError& e = phase.errors[i];
    if (e.rank >= phase.ranks.size()) {
      fail(path, fmt::format("row {}: rank {} is not a rank of the run", i, e.rank));
    }
    if (has_row[e.rank]) fail(path, fmt::format("row {}: a second row for rank {}", i, e.rank));
    has_row[e.rank] = true;
    if (phase.ranks[e.rank].failed == 0) {
      fail(path, fmt::format("row {}: rank {} has no failed operation in this phase", i, e.rank));
    }
    if (e.err == 0) fail(path, fmt::format("row {}: errno: expected an error number, found 0", i));
    if (e.errno_name.empty()) fail(path, fmt::format("row {}: errno_name is empty", i));
  }
  for (std::size_t r = 0; r < phase.ranks.size(); ++r) {
    if (phase.ranks[r].failed > 0 && !has_row[r]) {
      fail(path, fmt::format("no row for rank {}, which failed {} operation(s)", r, phase.ranks[r].failed));
    }
  }
}

// What -W does in a phase (results-schema/README.md, "Stonewall"): creates, stats and reads stop at the
// firing and wear out; renames and removes note the firing and go on; tree and readdir phases have none.
enum class StonewallRule : std::uint8_t { kNone, kStopAndWearOut, kNoteOnly };

StonewallRule stonewallRule(Phase phase) {
  switch (phase) {
    case Phase::kDirCreate:
    case Phase::kDirStat:
    case Phase::kFileCreate:
    case Phase::kFileStat:
    case Phase::kFileRead:
      return StonewallRule::kStopAndWearOut;
    case Phase::kDirRename:
    case Phase::kDirRemove:
    case Phase::kFileRename:
    case Phase::kFileRemove:
      return StonewallRule::kNoteOnly;
    case Phase::kTreeCreate:
    case Phase::kTreeRemove:
    case Phase::kDirReaddir:
    case Phase::kFileReaddir:
      break;
  }
  return StonewallRule::kNone;
}

class RunChecker {
 public:
  RunChecker(const StoredRun& run, std::vector<std::string>& notes) : run_(run), notes_(notes) {}

  void check() {
    checkStatus();
    checkNodes();
    checkBuckets();
    makePlan();
    for (const StoredPhase& phase : run_.phases) checkPhase(phase);
    checkCompleteness();
    if (run_.status != "running") {
      checkSummary();
    } else {
      notes_.push_back(fmt::format("{}: status running (still being written, or killed): summary not checked",
                                   run_.group));
    }
  }

 private:
  void checkStatus() const {
    const std::string& g = run_.group;
    if (!isIsoUtc(run_.info.start_utc)) {
      fail(g, fmt::format("start_utc: expected an ISO 8601 UTC time, found \"{}\"", run_.info.start_utc));
    }
    if (run_.status == "running") {
      expectEqual<std::int32_t>(g, "exit_status", -1, run_.exit_status, "status running");
      if (!run_.info.end_utc.empty()) {
        fail(g, fmt::format("end_utc: expected \"\" (status running), found \"{}\"", run_.info.end_utc));
      }
      return;
    }
    if (!isIsoUtc(run_.info.end_utc)) {
      fail(g, fmt::format("end_utc: expected an ISO 8601 UTC time (status {}), found \"{}\"", run_.status,
                          run_.info.end_utc));
    }
    if (run_.status == "complete") {
      expectEqual<std::int32_t>(g, "exit_status", 0, run_.exit_status, "status complete");
      expectEqual<std::uint64_t>(g, "status complete: failed operations", 0, failedOps(run_),
                                 "a run with a failed operation exits 1");
    } else if (run_.exit_status <= 0) {
      fail(g, fmt::format("exit_status: expected a positive exit status (status {}), found {}", run_.status,
                          run_.exit_status));
    }
  }

  void checkNodes() const {
    const std::string& g = run_.group;
    const std::vector<std::string>& hosts = run_.info.host_of_rank;
    expectEqual<std::size_t>(g + "/hosts", "length", run_.info.ranks, hosts.size(), "ranks");
    expectEqual<std::size_t>(g + "/node_of_rank", "length", run_.info.ranks, run_.node_of_rank.size(),
                             "ranks");
    const NodeLayout layout = nodeLayout(hosts);
    for (std::size_t r = 0; r < hosts.size(); ++r) {
      if (layout.node_of_rank[r] != run_.node_of_rank[r]) {
        fail(g + "/node_of_rank", fmt::format("element {}: expected {} (host \"{}\", hosts numbered by first "
                                              "appearance), found {}",
                                              r, layout.node_of_rank[r], hosts[r], run_.node_of_rank[r]));
      }
    }
    expectEqual(g, "nodes", layout.nodes, run_.info.nodes, "distinct hosts");
    expectEqual(g, "ranks_per_node_min", layout.ranks_per_node_min, run_.ranks_per_node_min, "from hosts");
    expectEqual(g, "ranks_per_node_max", layout.ranks_per_node_max, run_.ranks_per_node_max, "from hosts");
  }

  void checkBuckets() const {
    const auto check = [&](const std::vector<std::uint64_t>& stored, const std::string& name, auto bound) {
      const std::string path = run_.group + "/" + name;
      expectEqual<std::size_t>(path, "length", LatencyHistogram::kBuckets, stored.size(),
                               "histogram buckets");
      for (std::size_t b = 0; b < stored.size(); ++b) {
        expectEqual<std::uint64_t>(path, fmt::format("element {}", b), bound(b), stored[b], "bucket bound");
      }
    };
    check(run_.bucket_low, "latency_bucket_low", &LatencyHistogram::bucketLow);
    check(run_.bucket_high, "latency_bucket_high", &LatencyHistogram::bucketHigh);
  }

  // The plan the stored configuration gives: what each rank was planned to do, which phases run in
  // which order.
  void makePlan() {
    const std::string config_group = run_.group + "/config";
    const std::vector<std::string> problems = validate(run_.config);
    if (!problems.empty()) fail(config_group, "invalid configuration: " + problems.front());
    if (run_.info.ranks == 0) fail(run_.group, "ranks: expected at least 1, found 0");
    plan_.emplace(run_.config, run_.node_of_rank);  // node-aware: the rank shift depends on the nodes
    expectEqual(config_group, "shift_used", plan_->shift(), run_.shift_used,
                "the plan's shift for the stored config and node_of_rank");
  }

  // The plan a phase worked to: the stored config's, with the phase's items (a stonewalled create's count,
  // or -x's, replaces -n). Tree phases build the same tree whatever the count.
  const Plan& planFor(const StoredPhase& phase) {
    if (isTreePhase(phase.phase) || phase.items == run_.config.items) return *plan_;
    const auto known = item_plans_.find(phase.items);
    if (known != item_plans_.end()) return known->second;
    if (phase.items > 0) {
      Config config = run_.config;
      config.items = phase.items;
      const std::vector<std::string> problems = validate(config);
      if (!problems.empty()) {
        fail(phase.group, fmt::format("items: {} gives no valid plan with the stored config: {}", phase.items,
                                      problems.front()));
      }
    }
    return item_plans_.emplace(phase.items, plan_->withItems(phase.items)).first->second;
  }

  // Without -W, and without -x reading another job's counts, every item phase works on -n items. A
  // stonewall (-W) can stop a create, stat or read short of -n (all ranks wear out to one count), never
  // beyond. Within an iteration no phase works on more items than its kind's create made, and rename and
  // remove work on all of them (they run to the end: what they skipped would be left behind).
  void checkItems(const StoredPhase& phase) {
    if (isTreePhase(phase.phase)) return;
    const Config& c = run_.config;
    const bool reads_counts = !c.stonewall_file.empty() && !c.phases.create;
    if (c.stonewall_s == 0.0 && !reads_counts) {
      expectEqual(phase.group, "items", c.items, phase.items, "config items: no -W, no counts read with -x");
      return;
    }
    if (!reads_counts && phase.items > c.items) {
      fail(phase.group, fmt::format("items: expected at most config items = {} (a stonewall only stops "
                                    "early), found {}",
                                    c.items, phase.items));
    }
    const auto key = std::make_pair(phase.iteration, itemKindOf(phase.phase));
    if (phase.phase == Phase::kDirCreate || phase.phase == Phase::kFileCreate) {
      created_[key] = {phase.items, phase.group};
      return;
    }
    const auto create = created_.find(key);
    if (create == created_.end()) return;
    const auto& [created, create_group] = create->second;
    const bool all = phase.phase == Phase::kDirRename || phase.phase == Phase::kFileRename ||
                     phase.phase == Phase::kDirRemove || phase.phase == Phase::kFileRemove;
    if (all ? phase.items != created : phase.items > created) {
      fail(phase.group, fmt::format("items: expected {}{} ({} made that many; {}), found {}",
                                    all ? "" : "at most ", created, create_group,
                                    all ? "rename and remove work on all of them" : "no phase works on more",
                                    phase.items));
    }
  }

  void checkPhase(const StoredPhase& phase) {
    const std::string& g = phase.group;
    const std::vector<Phase>& order = plan_->phases();
    const auto at = std::find(order.begin(), order.end(), phase.phase);
    if (at == order.end()) {
      fail(g, fmt::format("phase {} is not selected by the stored config", phaseName(phase.phase)));
    }
    const std::string expected_group =
        fmt::format("{}/iterations/{}/{}", run_.group, results::iterationGroupName(phase.iteration),
                    phaseName(phase.phase));
    if (g != expected_group) {
      fail(g, fmt::format("its attributes (phase {}, iteration {}) belong in {}", phaseName(phase.phase),
                          phase.iteration, expected_group));
    }
    if (phase.iteration >= run_.config.iterations) {
      fail(g, fmt::format("iteration: expected less than config iterations = {}, found {}",
                          run_.config.iterations, phase.iteration));
    }
    expectEqual<std::uint32_t>(g, "order", static_cast<std::uint32_t>(at - order.begin()), phase.order,
                               "position in the execution order");
    if (phase.rate_formula != results::kRateFormula) {
      fail(g, fmt::format("rate_formula: expected \"{}\", found \"{}\"", results::kRateFormula,
                          phase.rate_formula));
    }
    checkItems(phase);
    checkRows(phase, planFor(phase));
    checkWearOut(phase);
    checkAggregate(phase);
    checkLatency(phase);
    checkErrors(phase);
  }

  void checkRows(const StoredPhase& phase, const Plan& plan) const {
    const std::string path = phase.group + "/ranks";
    expectEqual<std::size_t>(path, "rows", run_.info.ranks, phase.ranks.size(), "ranks");
    for (std::uint32_t r = 0; r < phase.ranks.size(); ++r) {
      const StoredRankRow& row = phase.ranks[r];
      const std::string at = fmt::format("row {}", r);
      expectEqual(path, at + ": rank", r, row.rank, "rows are in rank order");
      expectEqual(path, at + ": node", run_.node_of_rank[r], row.node, "node_of_rank");
      expectEqual(path, at + ": planned", plan.plannedOps(phase.phase, r), row.planned,
                  "the stored config's plan for the phase's items");
      if (row.ok > row.planned || row.planned - row.ok != row.failed) {
        fail(path, fmt::format("{}: ok + failed = {} + {}, expected planned = {}", at, row.ok, row.failed,
                               row.planned));
      }
      if (!(row.t_start <= row.t_local_end && row.t_local_end <= row.t_global_end)) {
        fail(path, fmt::format("{}: expected t_start <= t_local_end <= t_global_end, found {}, {}, {}", at,
                               row.t_start, row.t_local_end, row.t_global_end));
      }
      expectNear(path, at + ": rate", rankRate(toRecord(row)), row.rate, "ok / (t_local_end - t_start)");
      checkStonewallRow(path, at, row, phase.phase);
    }
  }

  // A rank whose timer never fired (t_stonewall = 0) had done all its ops "at the stonewall"; one whose
  // timer fired had done at most all of them, at a time inside its own run of the phase.
  void checkStonewallRow(const std::string& path, const std::string& at, const StoredRankRow& row,
                         Phase phase) const {
    if (row.t_stonewall == 0.0) {
      if (row.ops_at_stonewall != row.ok) {
        fail(path, fmt::format("{}: ops_at_stonewall: expected ok = {} (t_stonewall = 0: the timer "
                               "never fired), found {}",
                               at, row.ok, row.ops_at_stonewall));
      }
      return;
    }
    if (row.ops_at_stonewall > row.ok) {
      fail(path, fmt::format("{}: ops_at_stonewall: expected at most ok = {}, found {}", at, row.ok,
                             row.ops_at_stonewall));
    }
    if (!(row.t_start <= row.t_stonewall && row.t_stonewall <= row.t_local_end)) {
      fail(path,
           fmt::format("{}: expected t_stonewall = 0 or t_start <= t_stonewall <= t_local_end, found {} "
                       "(t_start {}, t_local_end {})",
                       at, row.t_stonewall, row.t_start, row.t_local_end));
    }
    if (!(run_.config.stonewall_s > 0.0)) {
      fail(path, fmt::format("{}: t_stonewall: expected 0 (config stonewall_s = 0: no stonewall), found {}",
                             at, row.t_stonewall));
    }
    if (stonewallRule(phase) == StonewallRule::kNone) {
      fail(path, fmt::format("{}: t_stonewall: expected 0 ({} has no stonewall), found {}", at,
                             phaseName(phase), row.t_stonewall));
    }
  }

  // A stonewalled create, stat or read stops every rank at its firing and then takes all ranks on to the
  // largest count any rank reached: that is the phase's items.
  void checkWearOut(const StoredPhase& phase) const {
    if (stonewallRule(phase.phase) != StonewallRule::kStopAndWearOut) return;
    const auto fired = [](const StoredRankRow& row) { return row.t_stonewall > 0.0; };
    if (std::none_of(phase.ranks.begin(), phase.ranks.end(), fired)) return;
    std::uint64_t reached = 0;
    for (const StoredRankRow& row : phase.ranks) reached = std::max(reached, row.ops_at_stonewall);
    if (phase.items < reached) {
      fail(phase.group, fmt::format("items: expected at least the largest ranks.ops_at_stonewall = {} (every "
                                    "rank wears out to the furthest count), found {}",
                                    reached, phase.items));
    }
  }

  // A complete run ran every selected phase in every iteration.
  void checkCompleteness() const {
    if (run_.status != "complete") return;
    for (std::uint32_t i = 0; i < run_.config.iterations; ++i) {
      for (const Phase p : plan_->phases()) {
        const auto same = [&](const StoredPhase& s) { return s.iteration == i && s.phase == p; };
        if (std::none_of(run_.phases.begin(), run_.phases.end(), same)) {
          fail(fmt::format("{}/iterations/{}/{}", run_.group, results::iterationGroupName(i), phaseName(p)),
               "missing: the run is complete and its config selects this phase");
        }
      }
    }
  }

  void checkSummary() const {
    std::map<Phase, std::vector<double>> ops_per_s;  // iteration order: the reader's order
    for (const StoredPhase& phase : run_.phases) ops_per_s[phase.phase].push_back(phase.aggregate.ops_per_s);
    std::set<Phase> summarized;
    for (const StoredSummary& s : run_.summaries) {
      const std::string path = fmt::format("{}/summary/{}", run_.group, phaseName(s.phase));
      const auto values = ops_per_s.find(s.phase);
      if (values == ops_per_s.end()) fail(path, "summary of a phase that has no phase group");
      if (!summarized.insert(s.phase).second) fail(path, "a second summary of this phase");
      const IterationSummary want = summarize(values->second);
      expectEqual(path, "iterations", want.iterations, s.summary.iterations, "phase groups of this phase");
      expectNear(path, "ops_per_s_max", want.max, s.summary.max, "max of the iterations' ops_per_s");
      expectNear(path, "ops_per_s_min", want.min, s.summary.min, "min of the iterations' ops_per_s");
      expectNear(path, "ops_per_s_mean", want.mean, s.summary.mean, "mean of the iterations' ops_per_s");
      expectNear(path, "ops_per_s_stddev", want.stddev, s.summary.stddev,
                 "sample standard deviation of the iterations' ops_per_s", std::max(want.max, -want.min));
    }
    for (const auto& [phase, values] : ops_per_s) {
      if (!summarized.contains(phase)) {
        fail(fmt::format("{}/summary/{}", run_.group, phaseName(phase)),
             fmt::format("missing: the phase ran in {} iteration(s)", values.size()));
      }
    }
  }

  const StoredRun& run_;
  std::vector<std::string>& notes_;
  std::optional<Plan> plan_;
  std::map<std::uint64_t, Plan> item_plans_;  // by phase items, when they differ from config items
  // The create phase of each (iteration, item kind) seen so far: its items and group.
  std::map<std::pair<std::uint32_t, ItemKind>, std::pair<std::uint64_t, std::string>> created_;
};

void checkFile(const std::string& path, std::vector<std::string>& notes) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) fail("", "no such file");
  if (!std::filesystem::is_regular_file(path, error)) fail("", "not a regular file");
  const h5::QuietErrors quiet;
  const htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
  if (is_hdf5 == 0) fail("", "not an HDF5 file");
  if (is_hdf5 < 0) fail("", "cannot be read (permissions?)");

  const Schema schema = parseSchema(schemaJson());
  {
    const h5::Handle access = h5::fileAccess();
    const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()));
    if (!file.valid()) {
      const std::string detail = h5::errorDetail();
      fail("", fmt::format("cannot be opened read-only with HDF5 ({}; damaged, or still open for writing?)",
                           detail.empty() ? "no detail" : detail));
    }
    checkIdentity(file.get(), schema);
    StructureChecker(file.get(), schema, notes).run();
  }

  const StoredResults results = readResultsFile(path);
  for (const StoredRun& run : results.runs) RunChecker(run, notes).check();
}

}  // namespace
}  // namespace validation

ValidationResult validateResultsFile(const std::string& path) {
  ValidationResult result;
  const auto failed = [&](const std::string& problem) {
    result.ok = false;
    result.first_problem = problem;
  };
  try {
    validation::checkFile(path, result.notes);
  } catch (const validation::Problem& p) {
    failed(p.object.empty() ? fmt::format("{}: {}", path, p.what)
                            : fmt::format("{}: {}: {}", path, p.object, p.what));
  } catch (const ResultsFileError& e) {
    // The reader names the file and the object.
    const std::string what = e.what();
    failed(what.starts_with(path) ? what : fmt::format("{}: {}", path, what));
  } catch (const std::exception& e) {
    failed(fmt::format("{}: internal error while validating: {}", path, e.what()));
  }
  return result;
}

}  // namespace mdbench
