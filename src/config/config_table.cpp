// The Boost table generated from the option rows (config_table.hpp), and the text options' checks.
#include "config_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "config_presets.hpp"
#include "config_values.hpp"
#include "mdbench/config/backends.hpp"

namespace mdbench::config_detail {
namespace {

// The semantic Boost parses a row's occurrences with: it tells the tokenizer whether the option takes a
// value (and whether it may be left out, or repeated), and stores each occurrence into slot.
po::value_semantic* semanticOf(const OptionRow& option, RawValue& slot) {
  switch (option.kind) {
    case OptionKind::kSwitch:  // "-F=0" (the tokenizer's "0") turns it off: mdtest's OPTION_FLAG
      return po::bool_switch()->notifier([&slot](bool on) { slot.given = on; });
    case OptionKind::kCounter:  // Boost's "composing": occurrences combine rather than conflict
      // No token: one more; "-v=3": the tokenizer's checked number replaces the count.
      return po::value<std::string>()
          ->zero_tokens()
          ->implicit_value(std::string{}, "")
          ->composing()
          ->notifier([&slot](const std::string& value) {
            slot.given = true;
            if (value.empty()) {
              ++slot.count;
            } else {
              slot.count = static_cast<std::uint32_t>(
                  toWholeNumber(value, std::numeric_limits<std::uint32_t>::max()).value);
            }
          });
    case OptionKind::kOptionalCount:
      // A list of at most one token, empty when the value is left out, so that "--random=" (an empty seed,
      // refused) differs from "--random" (none).
      return po::value<std::vector<std::string>>()
          ->implicit_value({}, "")
          ->value_name(std::string(option.value_name))
          ->notifier([&slot](const std::vector<std::string>& value) {
            slot.given = true;
            // The last occurrence wins, with or without its value ("-R5 -R" has no seed).
            slot.text = value.empty() ? std::nullopt : std::optional<std::string>(value.front());
          });
    case OptionKind::kCount:
    case OptionKind::kBytes:
    case OptionKind::kSeconds:
    case OptionKind::kText:
      break;
  }
  if (std::find(kRepeatedTexts.begin(), kRepeatedTexts.end(), option.long_name) != kRepeatedTexts.end()) {
    return po::value<std::string>()
        ->value_name(std::string(option.value_name))
        ->composing()
        ->notifier([&slot](const std::string& value) {
          slot.given = true;
          slot.text = value;
          slot.texts.push_back(value);
        });
  }
  return po::value<std::string>()
      ->value_name(std::string(option.value_name))
      ->notifier([&slot](const std::string& value) {
        slot.given = true;
        slot.text = value;
      });
}

// A path the kernel would refuse (too long, a name too long), named with its option.
void checkPath(const std::string& label, const std::string& path, std::vector<std::string>& errors,
               std::size_t max_last_name = kMaxNameBytes) {
  if (const auto problem = pathProblem(path, max_last_name)) {
    errors.push_back(fmt::format("{}: {}", label, *problem));
  }
}

// The names a text option takes and what each means; `names` lists them for messages.
template <typename Value, std::size_t kCount>
struct Choices {
  EnumNames<Value, kCount> values;
  std::string_view names;
  bool any_case = false;  // mdtest compares API names without regard to case
};

template <typename Value, std::size_t kCount>
std::optional<Value> choose(const Choices<Value, kCount>& choices, const std::string& given) {
  const auto same = [&](std::string_view name) {
    if (!choices.any_case) return name == given;
    return std::equal(name.begin(), name.end(), given.begin(), given.end(), [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
  };
  for (const EnumName<Value>& choice : choices.values) {
    if (same(choice.name)) return choice.value;
  }
  return std::nullopt;
}

// The other names mdtest 4.1's -a knows (ior's aiori.c, any case; IM is IME's old name), so that a job
// script's line is told what mdbench lacks rather than that the name is unknown.
enum class IorApi : std::uint8_t {
  kLater,   // planned for mdbench
  kMdtest,  // an ior backend mdtest runs
  kIorOnly  // an ior backend mdtest refuses ("Backend doesn't support MDTest")
};
constexpr Choices<IorApi, 19> kIorApis{{{{IorApi::kMdtest, "AIO"},
                                         {IorApi::kMdtest, "CHFS"},
                                         {IorApi::kMdtest, "DFS"},
                                         {IorApi::kMdtest, "FINCHFS"},
                                         {IorApi::kMdtest, "Gfarm"},
                                         {IorApi::kMdtest, "HDFS"},
                                         {IorApi::kMdtest, "IME"},
                                         {IorApi::kMdtest, "IM"},
                                         {IorApi::kMdtest, "S3-4c"},
                                         {IorApi::kMdtest, "S3_plus"},
                                         {IorApi::kMdtest, "S3_EMC"},
                                         {IorApi::kMdtest, "S3-curl"},
                                         {IorApi::kMdtest, "S3-libs3"},
                                         {IorApi::kIorOnly, "HDF5"},
                                         {IorApi::kIorOnly, "MMAP"},
                                         {IorApi::kIorOnly, "MPIIO"},
                                         {IorApi::kIorOnly, "NCMPI"},
                                         {IorApi::kIorOnly, "PMDK"},
                                         {IorApi::kIorOnly, "RADOS"}}},
                                       "",
                                       true};
constexpr Choices<PathStyle, 2> kPathStyles{kPathStyleNames, "full or dirfd"};
constexpr Choices<SyncCall, 2> kSyncCalls{kSyncCallNames, "sync or syncfs"};
// mdtest's parsePacketType reads the first letter only; the whole names and the letters are accepted here.
constexpr Choices<DataPacket, 8> kPackets{{{kDataPacketNames[0],
                                            kDataPacketNames[1],
                                            kDataPacketNames[2],
                                            kDataPacketNames[3],
                                            {DataPacket::kTimestamp, "t"},
                                            {DataPacket::kOffset, "o"},
                                            {DataPacket::kIncompressible, "i"},
                                            {DataPacket::kRandom, "r"}}},
                                          "timestamp, offset, incompressible, random or t, o, i, r"};
constexpr Choices<ConsoleStyle, 2> kConsoleStyles{kConsoleStyleNames, "mdbench or mdtest"};

template <typename Value, std::size_t kCount>
void checkChoice(const Choices<Value, kCount>& choices, std::string_view what, const std::string& label,
                 const std::string& value, std::vector<std::string>& errors) {
  if (!choose(choices, value)) {
    errors.push_back(fmt::format("{}: unknown {} '{}' (expected {})", label, what, value, choices.names));
  }
}

// mdtest reads -G as an int.
std::optional<std::int32_t> toOffset(const std::string& value) {
  std::int32_t offset = 0;
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, offset);
  if (value.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return offset;
}

}  // namespace

void checkApiValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  if (apiNamed(value)) return;
  const std::string names = apiNames(", ", " and ");
  const std::optional<IorApi> ior = choose(kIorApis, value);
  if (!ior) {
    errors.push_back(fmt::format("{}: unknown API '{}' (mdbench supports {})", label, value, names));
    return;
  }
  const std::string_view what = *ior == IorApi::kLater    ? "is not supported yet (it is planned)"
                                : *ior == IorApi::kMdtest ? "is an ior backend of mdtest's that mdbench lacks"
                                                          : "is an ior backend that mdtest cannot run either";
  errors.push_back(fmt::format("{}: {} {} (mdbench supports {})", label, value, what, names));
}
void checkPathStyleValue(const std::string& label, const std::string& value,
                         std::vector<std::string>& errors) {
  checkChoice(kPathStyles, "path style", label, value, errors);
}
void checkSyncCallValue(const std::string& label, const std::string& value,
                        std::vector<std::string>& errors) {
  checkChoice(kSyncCalls, "sync call", label, value, errors);
}
void checkPacketValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  checkChoice(kPackets, "packet type", label, value, errors);
}
void checkOffsetValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  if (!toOffset(value)) {
    errors.push_back(fmt::format("{}: '{}' is not a whole number from {} to {}", label, value,
                                 std::numeric_limits<std::int32_t>::min(),
                                 std::numeric_limits<std::int32_t>::max()));
  }
}
void checkCommandValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  if (value.empty()) errors.push_back(fmt::format("{}: empty value, expected a command", label));
}
void checkFileValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  checkOutputValue(label, value, errors);
}

void landApi(Config& config, const std::string& value) { config.api = apiNamed(value).value_or(config.api); }
void landPathStyle(Config& config, const std::string& value) {
  config.path_style = choose(kPathStyles, value).value_or(config.path_style);
}
void landSyncCall(Config& config, const std::string& value) {
  config.sync_call = choose(kSyncCalls, value).value_or(config.sync_call);
}
void landPacket(Config& config, const std::string& value) {
  config.data_packet = choose(kPackets, value).value_or(config.data_packet);
}
void landOffset(Config& config, const std::string& value) {
  if (const auto offset = toOffset(value)) config.buffer_offset = *offset;
}
bool isConsoleStyle(const std::string& value) { return choose(kConsoleStyles, value).has_value(); }
void landConsoleStyle(Config& config, const std::string& value) {
  config.console = choose(kConsoleStyles, value).value_or(config.console);
}

po::options_description buildOptionTable(RawOptions& raw) {
  po::options_description table;
  for (const OptionRow& option : kOptionRows) {
    std::string names(option.long_name);
    if (option.short_name != 0) names += std::string{',', option.short_name};
    table.add_options()(names.c_str(), semanticOf(option, raw[option]), std::string(option.help).c_str());
  }
  return table;
}

const OptionRow& rowOf(const po::option_description& option) {
  for (const OptionRow& candidate : kOptionRows) {
    if (candidate.long_name == option.long_name()) return candidate;
  }
  throw std::logic_error("an option the rows did not make: " + option.long_name());
}

// -d's directories are also sent to every rank one per line, and a newline in a directory name is far more
// often a script's mistake ("$(ls ...)" giving two lines) than a name anyone chose.
void checkDirValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  if (value.empty()) {
    errors.push_back(fmt::format("{}: empty value, expected a directory", label));
    return;
  }
  const std::optional<std::vector<std::string>> targets = splitTargets(value);
  if (!targets) {
    errors.push_back(
        fmt::format("{}: '{}' has an empty directory name (DIR@DIR@...: one '@' between two)", label, value));
    return;
  }
  for (const std::string& path : *targets) {
    if (path.find('\n') != std::string::npos) {
      errors.push_back(fmt::format("{}: a directory name with a newline in it is not supported", label));
    }
    checkPath(label, path, errors);
  }
}

// A refused -d leaves targets empty, so that no cross-check counts its parts.
void landDir(Config& config, const std::string& value) {
  config.target = value;
  if (auto targets = splitTargets(value)) config.targets = std::move(*targets);
}

void checkStonewallFileValue(const std::string& label, const std::string& value,
                             std::vector<std::string>& errors) {
  if (value.empty()) errors.push_back(fmt::format("{}: empty value, expected a file name", label));
  // The file is written through FILE.tmp: its name needs room for the suffix.
  checkPath(label, value, errors, kMaxNameBytes - 4);
}

void checkOutputValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  if (value.empty()) errors.push_back(fmt::format("{}: empty value, expected a file name", label));
  checkPath(label, value, errors);
}

void checkPresetValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  if (findPreset(value) == nullptr) {
    errors.push_back(fmt::format("{}: unknown preset '{}' (expected {})", label, value, presetNames()));
  }
}

void landPreset(Config& config, const std::string& value) {
  if (findPreset(value) != nullptr) config.preset = value;
}

// --server-stats: the kind of source only; whether it can be read is checked before the run (serverstats).
void checkServerStatsValue(const std::string& label, const std::string& value,
                           std::vector<std::string>& errors) {
  // `--server-stats $VAR` where VAR holds whole options (the test bed's MDBENCH_TESTBED_SERVER_STATS):
  // the first word is taken as this flag's value.
  if (value.starts_with('-')) {
    errors.push_back(
        fmt::format("{}: '{}' is an option, not a source: give each source its own --server-stats "
                    "SOURCE, and put a variable that holds whole options (MDBENCH_TESTBED_SERVER_STATS) "
                    "on the command line by itself, without --server-stats before it",
                    label, value));
    return;
  }
  for (const std::string_view kind : {"ceph-mds:", "lustre-mdt:", "ganesha:", "cmd:"}) {
    if (value.starts_with(kind) && value.size() > kind.size()) return;
  }
  errors.push_back(fmt::format(
      "{}: '{}': expected ceph-mds:ADMIN_SOCKET, lustre-mdt:PATH_GLOB, ganesha:DBUS_ADDRESS or cmd:COMMAND",
      label, value));
}

}  // namespace mdbench::config_detail

namespace mdbench {

std::string_view apiName(Api api) { return backendRow(api).name; }

}  // namespace mdbench
