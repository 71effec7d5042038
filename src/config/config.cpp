// Command line to Config: the option rows' Boost table, a tokenizer that reports every problem, conversion
// of each row's value into Config, resolution of implied values, and validation.
#include "mdbench/config/config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "config_presets.hpp"
#include "config_table.hpp"
#include "config_tokenizer.hpp"
#include "config_values.hpp"
#include "mdbench/util/tree_math.hpp"

namespace mdbench {
namespace {

namespace po = boost::program_options;
using namespace config_detail;  // the option rows (config_table.hpp), tokenizer, values and presets

// Rows whose given value was refused: the Config holds the default there, and a cross-check involving it
// would complain about a value the user never gave.
class Refused {
 public:
  bool operator()(OptionRef option) const { return rows_[rowIndex(*option)]; }
  void mark(const OptionRow& option) { rows_[rowIndex(option)] = true; }
  bool tree() const { return (*this)("depth") || (*this)("branching"); }

 private:
  std::bitset<kOptionRows.size()> rows_;
};

// A row's value converted by its kind: "" when it lands, else the problem (without the option's name).
std::string convertNumber(const OptionRow& option, const std::string& text, Config& config) {
  if (option.kind == OptionKind::kSeconds) {
    const ConvertedSeconds converted = toSeconds(text);
    if (!converted.problem) option.land.seconds(config, converted.value);
    return converted.problem.value_or("");
  }
  const Converted converted =
      option.kind == OptionKind::kBytes ? toByteCount(text) : toWholeNumber(text, option.land.max);
  if (!converted.problem) option.land.number(config, converted.value);
  return converted.problem.value_or("");
}

bool isNumber(const OptionRow& option) {
  return option.kind == OptionKind::kCount || option.kind == OptionKind::kOptionalCount ||
         option.kind == OptionKind::kBytes || option.kind == OptionKind::kSeconds;
}

// Every switch given, -R's "random" whether or not a seed followed, -v's count.
void landSwitches(const RawOptions& raw, Config& config) {
  for (const OptionRow& option : kOptionRows) {
    if (!raw[option].given) continue;
    if (option.land.on != nullptr) option.land.on(config);
    if (option.kind == OptionKind::kCounter) option.land.number(config, raw[option].count);
  }
  // mdtest's -F -D: both set, files and directories, as with neither.
  if (raw["files-only"].given && raw["dirs-only"].given) config.kinds = ItemKinds::kBoth;
}

// The numbers, in the order of their messages; a refused one is marked.
void convertNumbers(const RawOptions& raw, Config& config, Refused& refused,
                    std::vector<std::string>& errors) {
  for (const OptionRow* option : kConversionOrder) {
    const std::optional<std::string>& text = raw[*option].text;
    if (!isNumber(*option) || !text) continue;
    if (const std::string problem = convertNumber(*option, *text, config); !problem.empty()) {
      errors.push_back(fmt::format("{}: {}", shown(*option), problem));
      refused.mark(*option);
    }
  }
  // -I 0 is mdtest's default, items spread over the tree's directories: Config's 0, as if not given.
}

// -o's values: at most one results file and one console style (the words mdtest and mdbench).
void convertOutput(const std::vector<std::string>& values, Config& config, std::vector<std::string>& errors) {
  int files = 0;
  int styles = 0;
  for (const std::string& value : values) {
    if (isConsoleStyle(value)) {
      landConsoleStyle(config, value);
      ++styles;
    } else {
      checkOutputValue(label("output"), value, errors);
      config.output = value;
      ++files;
    }
  }
  if (files > 1 || styles > 1) {
    errors.push_back(
        fmt::format("{}: given more than once (at most a results file and a console style, "
                    "mdtest or mdbench)",
                    label("output")));
  }
}

// --fault-at/--fault-cmd: pairs by position, --fault-phase's names (the CLI checks them against the phases).
// Not with -B: the ranks' phases start apart, no common moment.
void convertFaults(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  const std::vector<std::string>& times = raw[row("fault-at")].texts;
  const std::vector<std::string>& commands = raw[row("fault-cmd")].texts;
  config.fault_phases = raw[row("fault-phase")].texts;
  if (times.size() != commands.size()) {
    errors.push_back(fmt::format("{} and {} go in pairs: {} times and {} commands given", label("fault-at"),
                                 label("fault-cmd"), times.size(), commands.size()));
    return;
  }
  for (std::size_t i = 0; i < times.size(); ++i) {
    const ConvertedSeconds at = toSeconds(times[i]);
    if (times[i].starts_with('-')) {
      errors.push_back(
          fmt::format("{} {}: a negative time (seconds into the phase)", label("fault-at"), times[i]));
    } else if (at.problem) {
      errors.push_back(fmt::format("{}: {}", label("fault-at"), *at.problem));
    }
    checkCommandValue(label("fault-cmd"), commands[i], errors);
    config.faults.push_back(FaultSpec{at.value, commands[i]});
  }
  if (!config.fault_phases.empty() && times.empty()) {
    errors.push_back(
        fmt::format("{} without {}: no fault to place", label("fault-phase"), label("fault-at")));
  }
  if (config.no_barriers && !times.empty()) {
    errors.push_back(
        fmt::format("{} and {} exclude each other: without barriers the ranks start a phase at "
                    "different times",
                    label("fault-at"), label("no-barriers")));
  }
}

// Paths and names: each row's check, then its value lands (the sweep's are read by convertSweep).
void convertTexts(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  for (const OptionRow* option : kConversionOrder) {
    const std::optional<std::string>& text = raw[*option].text;
    if (option->kind != OptionKind::kText || !text) continue;
    if (option == &row("output")) {
      convertOutput(raw[*option].texts, config, errors);
      continue;
    }
    if (option == &row("server-stats")) {
      for (const std::string& value : raw[*option].texts) {
        checkServerStatsValue(shown(*option), value, errors);
        config.server_stats.push_back(value);
      }
      continue;
    }
    if (option == &row("fault-at") || option == &row("fault-cmd") || option == &row("fault-phase")) continue;
    if (option->check != nullptr) option->check(shown(*option), *text, errors);
    if (option->land.text != nullptr) option->land.text(config, *text);
  }
  // IO500 has no default item count: a preset run without one would silently be a different benchmark.
  if (!config.preset.empty() && !raw["items"].given && config.items_per_dir == 0) {
    errors.push_back(
        fmt::format("{} {} needs {} (items per rank)", label("preset"), config.preset, label("items")));
  }
}

constexpr std::uint64_t kMaxSweepSteps = 65536;

// -f, -l, -s: whole numbers >= 1 (default 1, none, 1). False when one was refused.
bool convertSweepNumbers(const RawOptions& raw, std::array<std::uint32_t, 3>& values,
                         std::vector<std::string>& errors) {
  const std::array<OptionRef, 3> options = {"sweep-first", "sweep-last", "sweep-stride"};
  bool refused = false;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::optional<std::string>& text = raw[options[i]].text;
    if (!text) continue;
    const Converted converted = toWholeNumber(*text, std::numeric_limits<std::uint32_t>::max());
    if (converted.problem) {
      errors.push_back(fmt::format("{}: {}", shown(*options[i]), *converted.problem));
      refused = true;
    } else {
      values[i] = static_cast<std::uint32_t>(converted.value);
    }
  }
  // mdtest ignores -f and -s without -l and runs once: IO500-style scripts pass the same options to every
  // job.
  if (refused || !raw["sweep-last"].text) return false;
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (values[i] == 0) {
      errors.push_back(fmt::format("{}: must be at least 1, got 0", shown(*options[i])));
      refused = true;
    }
  }
  return !refused;
}

// mdtest's -f FIRST -l LAST -s STRIDE: FIRST, FIRST+STRIDE, ... <= LAST. Without -l, one run on every rank.
void convertSweepRange(const RawOptions& raw, SweepSpec& sweep, std::vector<std::string>& errors) {
  std::array<std::uint32_t, 3> values = {1, 0, 1};
  if (!convertSweepNumbers(raw, values, errors)) return;
  const auto [first, last, stride] = values;
  if (first > last) {
    errors.push_back(
        fmt::format("{} {} is more than {} {}", label("sweep-first"), first, label("sweep-last"), last));
    return;
  }
  // Each step is a whole run; the steps are a list, so "-l 4294967295" must not become four billion of them.
  if (const std::uint64_t count = (last - first) / stride + 1; count > kMaxSweepSteps) {
    errors.push_back(fmt::format("{} {} {} {} {} {}: {} steps, at most {} (each step is a whole run)",
                                 label("sweep-first"), first, label("sweep-last"), last,
                                 label("sweep-stride"), stride, count, kMaxSweepSteps));
    return;
  }
  sweep.kind = SweepSpec::Kind::kList;
  for (std::uint64_t k = first; k <= last; k += stride) sweep.steps.push_back(static_cast<std::uint32_t>(k));
}

std::string joinCommandLine(const std::vector<std::string>& args) {
  std::string line = "mdbench";
  for (const std::string& arg : args) {  // appended piecewise: "x" + string trips GCC 12's -Wrestrict at -O2
    line += ' ';
    line += config_detail::shellQuote(arg);
  }
  return line;
}

// --sweep-placement: both problems at once, a bad name is reported even when --sweep is missing too.
void convertSweepPlacement(const std::string& placement, bool sweep_given, SweepSpec& sweep,
                           std::vector<std::string>& errors) {
  // "none" names a run that is no sweep step; it is no placement to ask for.
  const std::optional<SweepPlacement> chosen = valueOf(kSweepPlacementNames, placement);
  const bool known = chosen && *chosen != SweepPlacement::kNone;
  if (!known) {
    errors.push_back(fmt::format("{}: unknown placement '{}' (expected block or spread)",
                                 label("sweep-placement"), placement));
  }
  if (!sweep_given) {
    errors.push_back(fmt::format("{}: needs {} (or -f/-l/-s)", label("sweep-placement"), label("sweep")));
  } else if (known) {
    sweep.placement = *chosen;
  }
}

// --sweep, or mdtest's -f/-l/-s expanded into the same list, and --sweep-placement.
void convertSweep(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  SweepSpec& sweep = config.sweep;
  const std::optional<std::string>& steps = raw["sweep"].text;
  const bool range = raw["sweep-first"].text || raw["sweep-last"].text || raw["sweep-stride"].text;
  if (steps && range) {
    errors.push_back(
        fmt::format("{} and {}, {}, {} exclude each other (-f/-l/-s are mdtest's spelling of a sweep)",
                    label("sweep"), label("sweep-first"), label("sweep-last"), label("sweep-stride")));
  } else if (steps && *steps == "pow2") {
    sweep.kind = SweepSpec::Kind::kPow2;
  } else if (steps) {
    ConvertedSteps list = toStepList(*steps);
    if (list.problem) {
      errors.push_back(fmt::format("{}: {}", label("sweep"), *list.problem));
    } else {
      sweep.kind = SweepSpec::Kind::kList;
      sweep.steps = std::move(list.steps);
    }
  } else if (range) {
    convertSweepRange(raw, sweep, errors);
  }
  if (const std::optional<std::string>& placement = raw["sweep-placement"].text) {
    convertSweepPlacement(*placement, steps || range, sweep, errors);
  }
}

// Switches whose fields cannot hold both: a contradiction, and the Config keeps what neither says.
void checkExclusiveSwitches(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  if (raw["force"].given && raw["append"].given) {
    errors.push_back(fmt::format("{} and {} exclude each other", label("force"), label("append")));
    config.output_mode = OutputMode::kCreate;
  }
}

// Converts the values, including the problems only the command line can show (Config cannot say "-I 0 given",
// "-d ''" or "-F and -D").
Refused convert(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  Refused refused;
  landSwitches(raw, config);
  convertNumbers(raw, config, refused, errors);
  convertTexts(raw, config, errors);
  convertFaults(raw, config, errors);
  convertSweep(raw, config, errors);
  checkExclusiveSwitches(raw, config, errors);
  return refused;
}

std::optional<std::uint64_t> itemDirCount(const Config& config) {
  return config.leaf_only ? treeLeafCount(config.depth, config.branching)
                          : treeDirCount(config.depth, config.branching);
}

std::string dirsText(std::uint64_t count, const Config& config) {
  return fmt::format("{} {}{}", count, config.leaf_only ? "leaf " : "",
                     count == 1 ? "directory" : "directories");
}

// -n with -I, as mdtest's md_validate_tests_rank0: with -u one or the other; over a shared tree -n must be a
// multiple of -I (n/I loops, each a whole tree of -I items per directory).
void checkItemsPerDir(const Config& config, Refused& refused, std::vector<std::string>& errors) {
  if (refused("items") || refused("items-per-dir")) return;
  if (config.sharing == TreeSharing::kUnique) {
    errors.push_back(
        fmt::format("{} and {}: only specify the number of items or the number of items per "
                    "directory with {} (as mdtest)",
                    label("items"), label("items-per-dir"), label("unique-dir")));
    refused.mark(*OptionRef("items"));
  } else if (config.items % config.items_per_dir != 0) {
    errors.push_back(
        fmt::format("{}: {} is not a multiple of {} {} (over a shared tree, as in mdtest, -n/-I "
                    "loops, each a whole tree of -I items per directory)",
                    label("items"), config.items, label("items-per-dir"), config.items_per_dir));
    refused.mark(*OptionRef("items"));
  }
}

// -n with -I over a shared tree, once checked: mdtest's n/I loops of a whole tree with -I items in each item
// directory, so the items per rank (Config::items, what every later step counts) are n x item directories.
void resolveLoops(Config& config, Refused& refused, std::vector<std::string>& errors) {
  if (refused("items") || refused.tree()) return;
  const std::optional<std::uint64_t> dirs = itemDirCount(config);
  if (!dirs) return;  // the tree itself is reported
  if (const auto items = loopedItemCount(config.items, config.items_per_dir, *dirs)) {
    config.items = *items;
    return;
  }
  errors.push_back(fmt::format("{}: {} loops of {} items over {} is out of range (at most {} items)",
                               label("items"), config.items / config.items_per_dir, config.items_per_dir,
                               dirsText(*dirs, config), std::numeric_limits<std::uint64_t>::max()));
  refused.mark(*OptionRef("items"));
}

// With none of -C -T -E -r -U, mdtest's phases: create, stat, read, remove and directory rename (a preset:
// its own). The rename rotates names, so a run that keeps its items leaves them under the names it made.
// Reading applies to files; -D alone would otherwise select a phase validate() refuses. --readdir adds to
// the default rather than replace it.
void resolvePhases(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  PhaseSelection& phases = config.phases;
  if (!phases.create && !phases.stat && !phases.read && !phases.remove && !phases.rename) {
    const config_detail::Preset* preset = config_detail::findPreset(config.preset);
    const bool readdir = phases.readdir;
    if (preset != nullptr) {
      phases = preset->phases;
    } else {
      phases.create = phases.stat = phases.remove = true;
      phases.read = config.kinds != ItemKinds::kDirsOnly;
      phases.rename = true;
    }
    phases.readdir = readdir;
  }
  if (config.keep) {
    // --keep means the tree stays: no remove phase runs. Asking for both is a contradiction.
    if (raw["remove"].given)
      errors.push_back(fmt::format("{} and {} exclude each other", label("keep"), label("remove")));
    phases.remove = false;
  }
  // IO500 gives -Y to its create job only.
  config.sync_creates_only = !config.preset.empty() && config.sync_phases;
}

// Implied values: files only for -S, the phase selection, and -n from -I.
void resolve(const RawOptions& raw, Config& config, Refused& refused, std::vector<std::string>& errors) {
  // As in mdtest, shared files leave out directories (-S -D too).
  if (config.shared_files) config.kinds = ItemKinds::kFilesOnly;
  // As in mdtest, the branching factor means nothing without depth: -b 0 -z 0 is the one directory of -b 1.
  if (config.depth == 0 && config.branching == 0 && !refused.tree()) config.branching = 1;
  config.default_phases = config.preset.empty() && !config.phases.create && !config.phases.stat &&
                          !config.phases.read && !config.phases.remove && !config.phases.rename;
  resolvePhases(raw, config, errors);
  if (config.items_per_dir > 0 && raw["items"].given) {
    checkItemsPerDir(config, refused, errors);
    resolveLoops(config, refused, errors);
    return;
  }
  if (raw["items"].given || config.items_per_dir == 0) return;
  // -I alone: one loop, every item directory holding -I items (-u too).
  const std::optional<std::uint64_t> dirs = refused.tree() ? std::nullopt : itemDirCount(config);
  if (!dirs) {
    refused.mark(*OptionRef("items"));  // the tree itself is reported; -n is unknown
  } else if (config.items_per_dir > std::numeric_limits<std::uint64_t>::max() / *dirs) {
    errors.push_back(fmt::format("{}: {} items over {} is out of range (at most {} items)",
                                 label("items-per-dir"), config.items_per_dir, dirsText(*dirs, config),
                                 std::numeric_limits<std::uint64_t>::max()));
    refused.mark(*OptionRef("items"));
  } else {
    config.items = config.items_per_dir * *dirs;
  }
}

void checkTree(const Config& config, const Refused& refused, std::vector<std::string>& errors) {
  if (refused.tree()) return;
  if (config.branching == 0) {  // resolve() makes -b 0 -z 0 -b 1
    errors.push_back(fmt::format("{}: must be at least 1 for a tree of {} {}, got 0 (as mdtest)",
                                 label("branching"), label("depth"), config.depth));
  } else if (!treeDirCount(config.depth, config.branching)) {
    errors.push_back(
        fmt::format("{}, {}: a tree of depth {} and branching {} has more than {} directories (the limit)",
                    label("depth"), label("branching"), config.depth, config.branching, kMaxTreeDirs));
  }
}

void checkData(const Config& config, const Refused& refused, std::vector<std::string>& errors) {
  const bool dirs_only = config.kinds == ItemKinds::kDirsOnly;
  const std::array<std::pair<OptionRef, std::uint64_t>, 2> byte_options = {
      {{OptionRef("write-bytes"), config.write_bytes}, {OptionRef("read-bytes"), config.read_bytes}}};
  for (const auto& [name, value] : byte_options) {
    if (value > config_detail::kMaxIoBytes) {
      errors.push_back(fmt::format("{}: {} is more than 1 GiB", label(name), value));
    }
  }
  if (config.phases.read && dirs_only) {
    errors.push_back(
        fmt::format("{}: the read phase reads files, not with {}", label("read"), label("dirs-only")));
  }
  if (config.phases.create && config.phases.read && !dirs_only && !refused("write-bytes") &&
      !refused("read-bytes") && config.read_bytes > config.write_bytes) {
    errors.push_back(fmt::format("{}: {} is more than {} {}: the files this run creates would be too short",
                                 label("read-bytes"), config.read_bytes, label("write-bytes"),
                                 config.write_bytes));
  }
  // Without a read phase: checkVerifyGiven (the command line's rule; a stored Config may hold the preset's
  // -X).
  if (config.verify_read && config.phases.read) {
    if (dirs_only) {
      errors.push_back(
          fmt::format("{}: nothing read to verify: {} has no files", label("verify"), label("dirs-only")));
    } else if (config.read_bytes == 0 && !refused("read-bytes")) {
      errors.push_back(
          fmt::format("{}: nothing read to verify: needs {} > 0", label("verify"), label("read-bytes")));
    }
  }
}

// Combinations mdtest 4.1 refuses (md_validate_tests_rank0), in its words where they are clear.
void checkMdtestRules(const Config& config, std::vector<std::string>& errors) {
  if (config.no_barriers && config.shift > 0) {
    errors.push_back(
        fmt::format("{} and {} {} exclude each other: without barriers a rank may work on items "
                    "another has not made yet (as mdtest)",
                    label("no-barriers"), label("shift"), config.shift));
  }
  if (config.collective_creates) {
    const std::array<std::pair<bool, std::string>, 3> excluded = {
        {{config.shared_files, label("shared-files")},
         {config.targets.size() > 1, "several " + label("dir") + " directories"},
         {config.no_barriers, label("no-barriers")}}};
    for (const auto& [conflict, other] : excluded) {
      if (conflict) {
        errors.push_back(
            fmt::format("{} and {} exclude each other (as mdtest)", label("collective-creates"), other));
      }
    }
  }
  if (config.make_node && config.write_bytes > 0) {
    errors.push_back(fmt::format("{} and {} {} exclude each other: mknod makes empty files (as mdtest)",
                                 label("mknod"), label("write-bytes"), config.write_bytes));
  }
}

// The command line's rule (a stored run is what it is): DUMMY stores nothing, so a listing has no entries
// to count and a read no bytes to check.
void checkDummyGiven(const Config& config, std::vector<std::string>& errors) {
  const BackendRow& backend = backendRow(config.api);
  if (!backend.stores_nothing) return;
  if (config.phases.readdir) {
    errors.push_back(fmt::format("{} {} and {} exclude each other: {} stores nothing to list", label("api"),
                                 backend.name, label("readdir"), backend.name));
  }
  if (config.verify_read) {
    errors.push_back(fmt::format("{} {} and {} exclude each other: {} reads no bytes to check", label("api"),
                                 backend.name, label("verify"), backend.name));
  }
}

// Who works where: shared files, several target directories, the rank shift.
void checkSharing(const Config& config, std::vector<std::string>& errors) {
  if (config.shared_files) {
    if (config.sharing == TreeSharing::kUnique) {
      errors.push_back(
          fmt::format("{} and {} exclude each other", label("shared-files"), label("unique-dir")));
    }
    if (config.kinds == ItemKinds::kDirsOnly) {
      errors.push_back(
          fmt::format("{}: shared files are files, not with {}", label("shared-files"), label("dirs-only")));
    } else if (config.kinds == ItemKinds::kBoth) {  // parsing implies -F; a Config built otherwise may not
      errors.push_back(
          fmt::format("{}: shared files are files, needs {}", label("shared-files"), label("files-only")));
    }
  }
  if (std::any_of(config.targets.begin(), config.targets.end(), [](const auto& t) { return t.empty(); })) {
    errors.push_back(fmt::format("{}: an empty directory name in the list", label("dir")));
  }
  if (config.targets.size() > 1) {
    const std::string list = fmt::format("{}", fmt::join(config.targets, "@"));
    if (config.sharing == TreeSharing::kShared) {
      errors.push_back(fmt::format("{}: '{}' needs {}: a shared tree cannot span several directories",
                                   label("dir"), list, label("unique-dir")));
    }
    if (config.shift > 0) {
      // mdtest refuses it too ("cannot have multiple directory paths with -N strides").
      errors.push_back(fmt::format("{}: {} and several {} directories exclude each other", label("shift"),
                                   config.shift, label("dir")));
    }
  }
}

void checkPhaseOptions(const Config& config, std::vector<std::string>& errors) {
  const PhaseSelection& phases = config.phases;
  if (config.renamed && phases.file_rename) {
    errors.push_back(fmt::format("{} and {} exclude each other: files cannot be renamed twice",
                                 label("renamed"), label("file-rename")));
  }
  if (config.renamed && phases.create) {
    errors.push_back(fmt::format("{} and {} exclude each other: the items this run creates are not renamed",
                                 label("renamed"), label("create")));
  }
}

// The most --datasets: each keeps up to 3 directory handles open per rank (steady.hpp).
constexpr std::uint32_t kMaxDatasets = 256;

// The finest --series-interval: a millisecond (finer would cost the hot loop a tick every few ops).
constexpr double kMinSeriesInterval = 0.001;

// Parsing cannot produce a bad duration or preset; a Config built otherwise can.
void checkValues(const Config& config, std::vector<std::string>& errors) {
  const std::array<std::pair<OptionRef, double>, 2> durations = {
      {{OptionRef("stonewall"), config.stonewall_s}, {OptionRef("pre-delay"), config.pre_delay_s}}};
  for (const auto& [name, value] : durations) {
    if (!(value >= 0.0 && value <= config_detail::kMaxSeconds)) {  // NaN fails both
      errors.push_back(fmt::format("{}: {} is not between 0 and {} seconds", label(name), value,
                                   config_detail::kMaxSeconds));
    }
  }
  if (!(config.series_interval_s >= kMinSeriesInterval &&
        config.series_interval_s <= config_detail::kMaxSeconds)) {
    errors.push_back(fmt::format("{}: {} is not between {} and {} seconds", label("series-interval"),
                                 config.series_interval_s, kMinSeriesInterval, config_detail::kMaxSeconds));
  }
  // Not given: the default (-1, decided by whether rank 0 writes to a terminal).
  if (!(config.progress_s < 0.0 || config.progress_s <= config_detail::kMaxSeconds)) {
    errors.push_back(fmt::format("{}: {} is more than {} seconds", label("progress"), config.progress_s,
                                 config_detail::kMaxSeconds));
  }
  if (!config.preset.empty() && config_detail::findPreset(config.preset) == nullptr) {
    errors.push_back(fmt::format("{}: unknown preset '{}' (expected {})", label("preset"), config.preset,
                                 config_detail::presetNames()));
  }
}

// A sweep step is a whole run: each step creates its items and removes them again, so that the next step
// starts from the same empty target.
void checkSweep(const Config& config, std::vector<std::string>& errors) {
  const SweepSpec& sweep = config.sweep;
  if (!sweep.active()) return;
  if (config.keep) {
    errors.push_back(fmt::format("{}: every step creates and removes its items: not with {}", label("sweep"),
                                 label("keep")));
  } else if (!config.phases.create || !config.phases.remove) {
    errors.push_back(fmt::format(
        "{}: every step creates and removes its items: the phases must include {} and {} (or leave out "
        "{} {} {} {} for all of them)",
        label("sweep"), label("create"), label("remove"), label("create"), label("stat"), label("read"),
        label("remove")));
  }
  if (sweep.placement == SweepPlacement::kNone) {
    errors.push_back(fmt::format("{}: placement none is not a placement", label("sweep-placement")));
  }
  // Parsing guarantees these; a Config built otherwise may not.
  const bool increasing = std::adjacent_find(sweep.steps.begin(), sweep.steps.end(),
                                             [](auto a, auto b) { return a >= b; }) == sweep.steps.end();
  if (sweep.kind == SweepSpec::Kind::kList &&
      (sweep.steps.empty() || sweep.steps.front() == 0 || !increasing)) {
    errors.push_back(
        fmt::format("{}: the steps must be strictly increasing rank counts >= 1", label("sweep")));
  }
}

void validateInto(const Config& config, const Refused& refused, std::vector<std::string>& errors) {
  checkTree(config, refused, errors);
  if (config.items == 0 && !refused("items"))
    errors.push_back(fmt::format("{}: must be at least 1, got 0", label("items")));
  if (config.iterations == 0)
    errors.push_back(fmt::format("{}: must be at least 1, got 0", label("iterations")));
  if (!config.phases.any()) {
    errors.push_back(fmt::format("no phase selected ({}, {}, {}, {}, {}, {})", label("create"), label("stat"),
                                 label("read"), label("remove"), label("rename"), label("readdir")));
  }
  checkData(config, refused, errors);
  checkMdtestRules(config, errors);
  checkSharing(config, errors);
  checkPhaseOptions(config, errors);
  checkValues(config, errors);
  checkSweep(config, errors);
}

// The user's --preset, if it names one: its options are applied first.
const config_detail::Preset* presetIn(const std::vector<Given>& given) {
  for (const Given& occurrence : given) {
    if (&rowOf(*occurrence.option) == &*OptionRef("preset") && occurrence.value) {
      return config_detail::findPreset(*occurrence.value);
    }
  }
  return nullptr;
}

void applyPreset(const config_detail::Preset* preset, const po::options_description& all) {
  if (preset == nullptr) return;
  std::vector<std::string> problems;
  const std::vector<Given> given =
      config_detail::Tokenizer(config_detail::presetArgs(*preset), all, problems).run();
  config_detail::applyGiven(given, problems);
  if (!problems.empty()) {  // the preset table is ours: a programmer error (and tested)
    throw std::logic_error(fmt::format("--preset {}: {}", preset->name, fmt::join(problems, "; ")));
  }
}

// --steady and --datasets: their own values, and what they exclude (the rows marked so, named as given, all
// at once).
void checkSteady(const RawOptions& raw, const std::vector<Given>& given, const Config& config,
                 const Refused& refused, std::vector<std::string>& errors) {
  if (!raw["steady"].given) {
    if (raw["datasets"].given)
      errors.push_back(fmt::format("{}: needs {}", label("datasets"), label("steady")));
    return;
  }
  if (!refused("steady") && config.steady_rounds == 0) {
    errors.push_back(fmt::format("{}: must be at least 1 round, got 0", label("steady")));
  }
  std::vector<std::string> excluded;
  for (const Given& g : given) {
    const OptionRow& option = rowOf(*g.option);
    const std::string name = shown(option);
    // raw's given: a switch turned off again ("-u -u=0", mdtest's off) excludes nothing.
    if (option.steady == WithSteady::kNo && raw[option].given &&
        std::find(excluded.begin(), excluded.end(), name) == excluded.end()) {
      excluded.push_back(name);
    }
  }
  if (!excluded.empty()) {
    errors.push_back(
        fmt::format("{} runs its own phases (precreate, mix, cleanup) in its own directories: "
                    "not with {}",
                    label("steady"), fmt::join(excluded, ", ")));
  }
  // mdtest's output has a line per mdtest phase and none of the steady state's (md-workbench's workload):
  // its tables would show zeros for a run that measured.
  if (config.console == ConsoleStyle::kMdtest) {
    errors.push_back(
        fmt::format("{}: mdtest's output has no steady-state phases to print; not with {} mdtest",
                    label("steady"), label("output")));
  }
  if (raw["datasets"].given && config.datasets == 0) {
    errors.push_back(fmt::format("{}: must be at least 1, got 0", label("datasets")));
  } else if (config.datasets > kMaxDatasets) {
    errors.push_back(fmt::format("{}: {} is more than {} (each rank keeps 3 directories open per dataset)",
                                 label("datasets"), config.datasets, kMaxDatasets));
  } else if (config.datasets > 0 && config.items % config.datasets != 0) {
    errors.push_back(
        fmt::format("{} {} is not a multiple of {} {}: the working set is {} directories of the "
                    "same number of objects",
                    label("items"), config.items, label("datasets"), config.datasets, config.datasets));
  } else if (config.datasets > 0 && !refused("steady") && !refused("items")) {
    // Round f creates object P + f (steady.hpp), so P + rounds must stay below 2^63.
    constexpr std::uint64_t kObjectLimit = std::uint64_t{1} << 63;
    const std::uint64_t per_dataset = config.items / config.datasets;
    if (config.steady_rounds >= kObjectLimit - per_dataset) {
      errors.push_back(
          fmt::format("{}: {} rounds after {} objects per dataset: object numbers must stay below "
                      "2^63",
                      label("steady"), config.steady_rounds, per_dataset));
    }
  }
}

// -X (or mdtest's --verify-read) typed on the command line needs the read phase, as in mdtest; the preset's
// -X is IO500's read job's, and applies only when the read phase runs.
// As mdtest, -X also needs -e > 0 whatever the phases.
void checkVerifyGiven(const std::vector<Given>& given, const Config& config, const Refused& refused,
                      std::vector<std::string>& errors) {
  if (!config.verify_read || config.phases.read) return;
  if (config.read_bytes == 0 && !refused("read-bytes")) {
    errors.push_back(
        fmt::format("{}: nothing read to verify: needs {} > 0", label("verify"), label("read-bytes")));
  }
  for (const Given& g : given) {
    const OptionRow& option = rowOf(*g.option);
    if (&option == &*OptionRef("verify") || &option == &*OptionRef("verify-read")) {
      errors.push_back(
          fmt::format("{}: needs the read phase ({}), as in mdtest", label("verify"), label("read")));
      return;
    }
  }
}

// mdtest's startup warnings; --warningAsErrors makes them usage errors. A read phase of the default
// selection warns only then: mdtest warns on every default run, which would only teach users to ignore it
// (--output mdtest prints mdtest's WARNING line as mdtest does).
void collectWarnings(const RawOptions& raw, CliRequest& request) {
  const Config& config = request.config;
  std::vector<std::string> warnings;
  const bool read_asked = raw["read"].given || config.warnings_as_errors;
  if (config.steady_rounds == 0 && config.phases.read && read_asked && config.kinds != ItemKinds::kDirsOnly &&
      config.read_bytes == 0) {
    warnings.push_back(fmt::format("{}: {} is 0: the read phase only opens and closes each file",
                                   label("read"), label("read-bytes")));
  }
  for (std::string& warning : warnings) {
    if (config.warnings_as_errors) {
      request.errors.push_back(warning + fmt::format(" ({})", label("warningAsErrors")));
    } else {
      request.warnings.push_back(std::move(warning));
    }
  }
}

}  // namespace

// Help and version win over every other problem: "mdbench <anything> --help" prints the help and exits 0, as
// GNU tools do, so a CliRequest with kHelp or kVersion always has empty errors (header: non-empty means exit
// 2).
CliRequest parseCommandLine(const std::vector<std::string>& args) {
  CliRequest request;
  request.config.command_line = joinCommandLine(args);
  request.config.arguments = args;
  RawOptions raw;
  const po::options_description table = buildOptionTable(raw);
  const std::vector<Given> given = config_detail::Tokenizer(args, table, request.errors).run();
  applyPreset(presetIn(given), table);  // first, so that the command line overrides it
  config_detail::applyGiven(given, request.errors);
  if (raw["help"].given || raw["version"].given) {
    request.action = raw["help"].given ? CliAction::kHelp : CliAction::kVersion;
    request.errors.clear();
    return request;
  }
  Refused refused = convert(raw, request.config, request.errors);
  resolve(raw, request.config, refused, request.errors);
  validateInto(request.config, refused, request.errors);
  checkVerifyGiven(given, request.config, refused, request.errors);
  checkDummyGiven(request.config, request.errors);
  config_detail::checkBackendOptions(raw, request.config.api, request.errors);
  checkSteady(raw, given, request.config, refused, request.errors);
  collectWarnings(raw, request);
  return request;
}

std::vector<std::string> validate(const Config& config) {
  std::vector<std::string> errors;
  validateInto(config, Refused{}, errors);
  return errors;
}

std::string nestedTargets(const std::vector<std::string>& given, const std::vector<std::string>& normal) {
  const auto inside = [](const std::string& outer, const std::string& inner) {
    if (outer == "/") return inner != "/";
    return inner.size() > outer.size() && inner.starts_with(outer) && inner[outer.size()] == '/';
  };
  for (std::size_t i = 0; i < normal.size() && i < given.size(); ++i) {
    for (std::size_t j = i + 1; j < normal.size() && j < given.size(); ++j) {
      if (normal[i] == normal[j]) {
        return fmt::format("{}: '{}' and '{}' are the same directory ({}): each target must be its own",
                           label("dir"), given[i], given[j], normal[i]);
      }
      for (const auto& [outer, inner] : {std::pair{i, j}, std::pair{j, i}}) {
        if (inside(normal[outer], normal[inner])) {
          return fmt::format("{}: '{}' is inside '{}': no target may hold another, their trees would mix",
                             label("dir"), given[inner], given[outer]);
        }
      }
    }
  }
  return {};
}

}  // namespace mdbench
