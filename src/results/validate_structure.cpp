// Pass 1 of `mdbench validate`: the structure of a results file, driven by the compiled-in
// results-schema/schema.json (nothing about the layout is written here). Every object the schema lists
// below every existing parent matching its path pattern, its kind, attribute types and allowed values,
// dataset types, shapes and compound fields; first the root's schema name and version. Objects and
// attributes the schema does not list are allowed (a newer minor addition) and only noted; those it lists
// with "since": N are required only in files of version N or later.
#include "validate_structure.hpp"

#include <fmt/format.h>
#include <hdf5.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mdbench/results/validate.hpp"
#include "validate_h5.hpp"

namespace mdbench::validation {
namespace {

// ---------------------------------------------------------------------------------------------------------
// The schema, as parsed from schema.json.

struct AttributeSpec {
  std::string name;
  std::string type;
  std::optional<std::string> value;
  std::vector<std::string> one_of;
  std::uint64_t since = 0;  // the first schema version that has it (0: every version)
  bool optional = false;    // present only in some files (a backend's options: its runs only)
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

// "when": "end_utc != " (the run wrote its end): the object is required only while the condition holds,
// evaluated on the nearest enclosing object holding the attribute.
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
  std::uint64_t since = 0;  // the first schema version that has it (0: every version)
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
// "*!a!b" matches what '*' does except the names a and b: the phase groups are every child of an iteration
// but its `steady` group, which has an entry of its own.
bool matchComponent(const std::string& pattern, const std::string& name) {
  if (const std::size_t bang = pattern.find('!'); bang != std::string::npos) {
    std::size_t start = bang + 1;
    while (start <= pattern.size()) {
      const std::size_t end = std::min(pattern.find('!', start), pattern.size());
      if (pattern.compare(start, end - start, name) == 0) return false;
      start = end + 1;
    }
    return matchComponent(pattern.substr(0, bang), name);
  }
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
  spec.since = j.value("since", std::uint64_t{0});
  if (j.contains("when")) spec.when = parseCondition(j.at("when").get<std::string>());
  for (const nlohmann::json& a : j.value("attributes", nlohmann::json::array())) {
    AttributeSpec attribute{
        a.at("name").get<std::string>(), a.at("type").get<std::string>(), std::nullopt, {}, 0};
    if (a.contains("value")) attribute.value = a.at("value").get<std::string>();
    attribute.one_of = a.value("one_of", std::vector<std::string>{});
    attribute.since = a.value("since", std::uint64_t{0});
    attribute.optional = a.value("optional", false);
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
// Checking a file against the schema.

std::string describeShape(const std::vector<hsize_t>& dims) {
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

void checkAttribute(hid_t object, const std::string& path, const AttributeSpec& spec,
                    std::uint64_t file_version) {
  if (H5Aexists(object, spec.name.c_str()) <= 0) {
    if (file_version < spec.since || spec.optional) return;  // added later, or not in every file
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
  StructureChecker(hid_t file, const Schema& schema, std::uint64_t file_version,
                   std::vector<std::string>& notes)
      : file_(file), schema_(schema), file_version_(file_version), notes_(notes) {}

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
    if (spec.optional || file_version_ < spec.since) return false;
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
    // A dataset's type and shape first: a dataset that is not what the schema says has no attributes worth
    // checking.
    if (spec.kind == Kind::kDataset) checkDataset(spec, object.get(), path);
    for (const AttributeSpec& attribute : spec.attributes) {
      checkAttribute(object.get(), path, attribute, file_version_);
    }
    // An attribute is the schema's when any object entry matching this path lists it (a group's attributes
    // may come in several entries: the steady phases' own and, since version 10, the stall's).
    std::vector<const ObjectSpec*> specs;
    for (const ObjectSpec& other : schema_.objects) {
      if (matchesPath(other, path)) specs.push_back(&other);
    }
    for (const std::string& name : attributeNames(object.get())) {
      const auto listed = [&](const ObjectSpec* s) {
        return std::any_of(s->attributes.begin(), s->attributes.end(),
                           [&](const AttributeSpec& a) { return a.name == name; });
      };
      if (std::none_of(specs.begin(), specs.end(), listed)) {
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

  static bool matchesPath(const ObjectSpec& spec, const std::string& path) {
    const std::vector<std::string> components = splitPath(path);
    if (spec.components.size() != components.size()) return false;
    for (std::size_t i = 0; i < components.size(); ++i) {
      if (!matchComponent(spec.components[i], components[i])) return false;
    }
    return true;
  }

  bool listed(const std::string& path) const {
    return std::any_of(schema_.objects.begin(), schema_.objects.end(),
                       [&](const ObjectSpec& spec) { return matchesPath(spec, path); });
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
  std::uint64_t file_version_;
  std::vector<std::string>& notes_;
};

// The README's first rule for readers: the root names the schema and its version. Returns the version.
std::uint64_t checkIdentity(hid_t file, const Schema& schema) {
  const h5::Handle root(H5Oopen(file, "/", H5P_DEFAULT));
  const std::optional<std::string> name = readStringAttribute(root.get(), "schema");
  if (!name) fail("/", fmt::format("no string attribute schema: not an {} file", schema.name));
  if (*name != schema.name) {
    fail("/", fmt::format("attribute schema: expected \"{}\", found \"{}\"", schema.name, *name));
  }
  const std::optional<std::uint64_t> version = readUnsignedAttribute(root.get(), "schema_version");
  if (!version) fail("/", "no integer attribute schema_version");
  // Every version since the oldest readable one only added objects, so its files are checked against this
  // schema, without what the schema marks as added later ("since").
  if (*version < kOldestReadableSchemaVersion || *version > schema.version) {
    fail("/", fmt::format("attribute schema_version: this validator knows versions {} to {}, found {}",
                          kOldestReadableSchemaVersion, schema.version, *version));
  }
  return *version;
}

}  // namespace

void checkStructure(hid_t file, std::vector<std::string>& notes) {
  const Schema schema = parseSchema(schemaJson());
  const std::uint64_t version = checkIdentity(file, schema);
  StructureChecker(file, schema, version, notes).run();
}

}  // namespace mdbench::validation
