// The config group of a run (results-schema/README.md): every resolved option, one row per attribute. The
// writer, the reader and the export all go through these rows, and a test holds them against the schema's
// list, so that an option's attribute name, type and schema version are written once. Private to
// src/results/.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "h5.hpp"
#include "mdbench/config/config.hpp"

namespace mdbench::results {

// What a config group holds: the options, and the rank shift the plan settled on (-N can be raised on
// several nodes; Config::shift keeps -N as given).
struct ConfigRecord {
  Config config;
  std::uint32_t shift_used = 0;
};

// An attribute's value as the file types it: bool is a uint8 flag (0 or 1), the others as they are.
using ConfigValue = std::variant<bool, std::uint32_t, std::uint64_t, double, std::string>;

struct ConfigAttribute {
  std::string_view name;
  std::uint32_t since;  // the schema version that added it; 1: every version
  ConfigValue (*get)(const ConfigRecord&);
  // Sets the value read back. False: the text spells no value of the option (an enum's name).
  bool (*set)(ConfigRecord&, const ConfigValue&);
  // A file older than `since`: sets what such a file implies (nullptr: the option's default stays, and the
  // export leaves the attribute out).
  void (*absent)(ConfigRecord&);
  std::string (*expected)();  // an enum's: its names, for the message on a value that is none of them
};

// Every row, in the order the writer stores them (the backend's own options follow: backends.hpp's rows).
std::span<const ConfigAttribute> configAttributes();

// The schema's type name of a row's value: "uint8", "uint32", "uint64", "float64", "string".
std::string_view configTypeName(const ConfigAttribute& row);

// Writes every row and the backend's own options (those of config.api) into the config group.
void writeConfigGroup(hid_t group, const ConfigRecord& record);

// Reads the rows a file of `version` has (the others as `absent` says). The backend's options need the
// run's api, which is a run attribute: readBackendOptions reads them once it is known. Throws h5::Error
// naming the attribute whose value is not one the option takes.
ConfigRecord readConfigGroup(hid_t group, std::uint32_t version);
void readBackendOptions(hid_t group, Config& config);

// The config group as JSON, as a file of `version` holds it: flags as booleans, text as stored, the
// backend's options from version 6 (kMdtestSchemaVersion) on.
nlohmann::ordered_json configGroupJson(const ConfigRecord& record, std::uint32_t version);

}  // namespace mdbench::results
