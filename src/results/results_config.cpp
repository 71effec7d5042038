// The config group's rows (results_config.hpp) and the three uses of them: write, read, export.
#include "results_config.hpp"

#include <fmt/format.h>

#include <array>
#include <type_traits>

#include "mdbench/config/backends.hpp"
#include "mdbench/results/results_file.hpp"
#include "results_attributes.hpp"
#include "results_layout.hpp"

namespace mdbench::results {
namespace {

// A row for an option that is a member of Config, stored as it is (a bool as a flag).
template <auto kMember>
constexpr ConfigAttribute member(std::string_view name, std::uint32_t since = 1,
                                 void (*absent)(ConfigRecord&) = nullptr) {
  return {name,
          since,
          [](const ConfigRecord& r) { return ConfigValue{r.config.*kMember}; },
          [](ConfigRecord& r, const ConfigValue& v) {
            using T = std::remove_cvref_t<decltype(r.config.*kMember)>;
            r.config.*kMember = std::get<T>(v);
            return true;
          },
          absent,
          nullptr};
}

// A phase switch: a member of Config::phases.
template <bool PhaseSelection::*kSwitch>
constexpr ConfigAttribute phaseSwitch(std::string_view name, std::uint32_t since = 1,
                                      void (*absent)(ConfigRecord&) = nullptr) {
  return {name,
          since,
          [](const ConfigRecord& r) { return ConfigValue{r.config.phases.*kSwitch}; },
          [](ConfigRecord& r, const ConfigValue& v) {
            r.config.phases.*kSwitch = std::get<bool>(v);
            return true;
          },
          absent,
          nullptr};
}

// An enum option, stored by its name in the enum's one table of names.
template <auto kMember, const auto& kNames>
constexpr ConfigAttribute named(std::string_view name) {
  return {name,
          1,
          [](const ConfigRecord& r) { return ConfigValue{std::string(nameOf(kNames, r.config.*kMember))}; },
          [](ConfigRecord& r, const ConfigValue& v) {
            const auto value = valueOf(kNames, std::get<std::string>(v));
            if (value) r.config.*kMember = *value;
            return value.has_value();
          },
          nullptr,
          [] { return namesText(kNames); }};
}

const std::array kRows = {
    member<&Config::items>("items"),
    member<&Config::target>("target"),
    ConfigAttribute{"targets", 1,
                    [](const ConfigRecord& r) { return ConfigValue{joinTargets(r.config.targets)}; },
                    [](ConfigRecord& r, const ConfigValue& v) {
                      r.config.targets = splitTargets(std::get<std::string>(v));
                      return true;
                    },
                    nullptr, nullptr},
    named<&Config::sharing, kTreeSharingNames>("sharing"),
    member<&Config::depth>("depth"),
    member<&Config::branching>("branching"),
    member<&Config::items_per_dir>("items_per_dir"),
    member<&Config::leaf_only>("leaf_only"),
    named<&Config::kinds, kItemKindsNames>("kinds"),
    phaseSwitch<&PhaseSelection::create>("phase_create"),
    phaseSwitch<&PhaseSelection::stat>("phase_stat"),
    phaseSwitch<&PhaseSelection::read>("phase_read"),
    phaseSwitch<&PhaseSelection::remove>("phase_remove"),
    phaseSwitch<&PhaseSelection::rename>("phase_rename"),
    phaseSwitch<&PhaseSelection::readdir>("phase_readdir"),
    // Before version 8 the rename switch renamed files and directories together.
    phaseSwitch<&PhaseSelection::file_rename>(
        "phase_file_rename", kFileRenameSchemaVersion,
        [](ConfigRecord& r) { r.config.phases.file_rename = r.config.phases.rename; }),
    member<&Config::iterations>("iterations"),
    member<&Config::write_bytes>("write_bytes"),
    member<&Config::read_bytes>("read_bytes"),
    member<&Config::keep>("keep"),
    member<&Config::shift>("shift"),
    ConfigAttribute{"shift_used", 1, [](const ConfigRecord& r) { return ConfigValue{r.shift_used}; },
                    [](ConfigRecord& r, const ConfigValue& v) {
                      r.shift_used = std::get<std::uint32_t>(v);
                      return true;
                    },
                    nullptr, nullptr},
    member<&Config::random_order>("random_order"),
    member<&Config::random_seed>("random_seed"),
    member<&Config::stonewall_s>("stonewall_s"),
    member<&Config::stonewall_file>("stonewall_file"),
    member<&Config::renamed>("renamed"),
    member<&Config::fsync_writes>("fsync_writes"),
    member<&Config::sync_phases>("sync_phases"),
    member<&Config::verify_read>("verify_read"),
    member<&Config::shared_files>("shared_files"),
    member<&Config::pre_delay_s>("pre_delay_s"),
    member<&Config::preset>("preset"),
    member<&Config::series_interval_s>("series_interval_s", kSeriesSchemaVersion),
    member<&Config::steady_rounds>("steady_rounds", kSeriesSchemaVersion),
    member<&Config::datasets>("datasets", kSeriesSchemaVersion),
    member<&Config::collective_creates>("collective_creates", kMdtestSchemaVersion),
    member<&Config::sync_creates_only>("sync_creates_only", kMdtestSchemaVersion),
    member<&Config::cmd_before_phase>("cmd_before_phase", kMdtestSchemaVersion),
    member<&Config::cmd_after_phase>("cmd_after_phase", kMdtestSchemaVersion),
    member<&Config::per_op_csv_prefix>("per_op_csv_prefix", kMdtestSchemaVersion),
};

// The value a row's type has before anything is read: what the file's attribute is read as.
ConfigValue typeOf(const ConfigAttribute& row) { return row.get(ConfigRecord{}); }

}  // namespace

std::span<const ConfigAttribute> configAttributes() { return kRows; }

std::string_view configTypeName(const ConfigAttribute& row) {
  static constexpr std::array<std::string_view, std::variant_size_v<ConfigValue>> kNames = {
      "uint8", "uint32", "uint64", "float64", "string"};
  return kNames[typeOf(row).index()];
}

void writeConfigGroup(hid_t group, const ConfigRecord& record) {
  for (const ConfigAttribute& row : kRows) {
    std::visit(
        [&](const auto& v) {
          if constexpr (std::is_same_v<std::remove_cvref_t<decltype(v)>, bool>) {
            h5::writeAttribute(group, std::string(row.name), flag(v));
          } else {
            h5::writeAttribute(group, std::string(row.name), v);
          }
        },
        row.get(record));
  }
  for (const BackendOptionValue& option : backendOptionValues(record.config)) {
    std::visit([&](const auto& value) { h5::writeAttribute(group, option.name, value); }, option.value);
  }
}

ConfigRecord readConfigGroup(hid_t group, std::uint32_t version) {
  ConfigRecord record;
  for (const ConfigAttribute& row : kRows) {
    if (row.since > version) {
      if (row.absent != nullptr) row.absent(record);
      continue;
    }
    const std::string name(row.name);
    const ConfigValue value = std::visit(
        [&](const auto& type) -> ConfigValue {
          using T = std::remove_cvref_t<decltype(type)>;
          if constexpr (std::is_same_v<T, bool>) {
            return readFlag(group, name);
          } else {
            return h5::readAttribute<T>(group, name);
          }
        },
        typeOf(row));
    if (!row.set(record, value)) {
      throw h5::Error(fmt::format("{}: attribute '{}' is '{}', expected {}", h5::pathOf(group), name,
                                  std::get<std::string>(value), row.expected()));
    }
  }
  return record;
}

void readBackendOptions(hid_t group, Config& config) {
  for (const BackendOptionValue& option : backendOptionValues(config)) {
    if (H5Aexists(group, option.name.c_str()) <= 0) continue;
    if (std::holds_alternative<std::string>(option.value)) {
      setBackendOption(config, option.name, h5::readAttribute<std::string>(group, option.name));
    } else {
      setBackendOption(config, option.name, h5::readAttribute<std::uint64_t>(group, option.name));
    }
  }
}

nlohmann::ordered_json configGroupJson(const ConfigRecord& record, std::uint32_t version) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const ConfigAttribute& row : kRows) {
    if (row.since > version && row.absent == nullptr) continue;  // the file has no such value
    std::visit([&](const auto& v) { j[std::string(row.name)] = v; }, row.get(record));
  }
  if (version >= kMdtestSchemaVersion) {
    for (const BackendOptionValue& option : backendOptionValues(record.config)) {
      std::visit([&](const auto& value) { j[option.name] = value; }, option.value);
    }
  }
  return j;
}

}  // namespace mdbench::results
