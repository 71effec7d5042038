// The backends -a selects, one row each (as fio registers an engine and IOR an aiori): the name -a takes,
// what --help and the man page say of it, the prefix of its own options (--posix.odirect belongs to POSIX),
// and what it can do. -a's choices, its value name in the completion, the results file's `api` value (and
// the schema's list, checked against these rows by a test) come from here. Adding a backend: an Api value,
// a row here, its options' rows (config_table.hpp, group "Backend options", named <prefix>.<name>), its
// Backend and Storage classes in src/backend and its case in makeStorage (src/README.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "mdbench/config/config.hpp"

namespace mdbench {

struct BackendRow {
  Api api;
  std::string_view name;     // as -a takes it (any case) and the results file's `api` stores it
  std::string_view summary;  // --help's and the man page's line
  std::string_view prefix;   // its options are --<prefix>.<name>
  // -d names directories the backend stores: the run checks, makes, describes and removes them through
  // the backend's Storage (backend/storage.hpp). False: -d is a name only (DUMMY).
  bool local_paths;
  // Keeps nothing (DUMMY): no listing, no bytes to read back, no record of names found taken.
  bool stores_nothing;
};

// clang-format off
inline constexpr std::array<BackendRow, 4> kBackendRows{{
    {Api::kPosix, "POSIX", "the file system's POSIX calls (default)", "posix", true, false},
    {Api::kDummy, "DUMMY", "no file-system I/O: the harness alone, as mdtest's DUMMY", "dummy", false, true},
    {Api::kCephfs, "CEPHFS", "CephFS's metadata servers through libcephfs, each rank its own client, as mdtest's CEPHFS", "cephfs", true, false},
    {Api::kLibnfs, "LIBNFS", "an NFS server (v3 or v4) through libnfs, each rank its own client, as mdtest's LIBNFS", "libnfs", true, false},
}};
// clang-format on

// -a's value name, for --help and the completion (which offers the words between the bars); checked
// against the rows while compiling.
inline constexpr std::string_view kApiValueName = "POSIX|DUMMY|CEPHFS|LIBNFS";
consteval bool joinsRowNames(std::string_view joined) {
  std::size_t pos = 0;
  for (std::size_t i = 0; i < kBackendRows.size(); ++i) {
    if (i > 0 && joined.substr(pos++, 1) != "|") return false;
    if (joined.substr(pos, kBackendRows[i].name.size()) != kBackendRows[i].name) return false;
    pos += kBackendRows[i].name.size();
  }
  return pos == joined.size();
}
static_assert(joinsRowNames(kApiValueName), "kApiValueName must list kBackendRows' names");

constexpr const BackendRow& backendRow(Api api) {
  for (const BackendRow& row : kBackendRows) {
    if (row.api == api) return row;
  }
  return kBackendRows.front();
}

// -a's value, compared without regard to case (as mdtest); nullopt for a name no row has.
std::optional<Api> apiNamed(std::string_view name);
// Every row's name, joined: "POSIX and DUMMY" (separator ", " and last " and "), or "POSIX|DUMMY".
std::string apiNames(std::string_view separator, std::string_view last);
// The backend whose option `long_name` is (prefix + '.'), or nullptr for an option of no backend.
const BackendRow* optionBackend(std::string_view long_name);

// The selected backend's options as the results file's config group records them: the option's long
// name and its value (a flag as 0/1, a count as itself, a text as given).
struct BackendOptionValue {
  std::string name;  // "posix.odirect"
  std::variant<std::uint64_t, std::string> value;
};
std::vector<BackendOptionValue> backendOptionValues(const Config& config);
// The reverse, for a results file read back: sets the backend option `name` to `value` as the command
// line would have (a switch: on when not 0). Returns false for a name no backend option has, or a value
// of the other kind.
bool setBackendOption(Config& config, std::string_view name,
                      const std::variant<std::uint64_t, std::string>& value);

// The backend options that say where a backend's storage is and how to reach it (the text ones:
// --cephfs.conf, --cephfs.user, --libnfs.url, ...), for the tools that reach a run's storage without a run
// (`mdbench clean -a CEPHFS`): the option's long name, its value's name and --help's line for it.
struct BackendPlaceOption {
  std::string_view name;
  std::string_view value_name;
  std::string_view help;
};
std::vector<BackendPlaceOption> backendPlaceOptions();

}  // namespace mdbench
