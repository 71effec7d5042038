// Command line to Config: the Boost.Program_options table, a tokenizer that reports every problem, resolution
// of implied values, validation, and the help text.
#include "mdbench/config/config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
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
using namespace config_detail;  // the option table (config_table.hpp), tokenizer, values and presets

// Fields whose given value was refused: the Config holds the default there, and a cross-check involving it
// would complain about a value the user never gave.
struct Refused {
  bool items = false;
  bool items_per_dir = false;
  bool tree = false;  // depth or branching
  bool write_bytes = false;
  bool read_bytes = false;
  bool steady = false;
};

class Converter {
 public:
  explicit Converter(std::vector<std::string>& errors) : errors_(errors) {}

  template <typename T>
  bool number(const std::optional<std::string>& raw, const OptionName& name, T& out) {
    return take(raw, name, out, [](const std::string& text) {
      return config_detail::toWholeNumber(text, std::numeric_limits<T>::max());
    });
  }
  bool bytes(const std::optional<std::string>& raw, const OptionName& name, std::uint64_t& out) {
    return take(raw, name, out, [](const std::string& text) { return config_detail::toByteCount(text); });
  }
  bool seconds(const std::optional<std::string>& raw, const OptionName& name, double& out) {
    return take(raw, name, out, [](const std::string& text) { return config_detail::toSeconds(text); });
  }

 private:
  // True when the value was given and refused.
  template <typename T, typename Convert>
  bool take(const std::optional<std::string>& raw, const OptionName& name, T& out, Convert convert) {
    if (!raw) return false;
    const auto converted = convert(*raw);
    if (converted.problem) {
      errors_.push_back(fmt::format("{}: {}", name.shown, *converted.problem));
      return true;
    }
    out = static_cast<T>(converted.value);
    return false;
  }

  std::vector<std::string>& errors_;
};

constexpr std::uint64_t kMaxSweepSteps = 65536;

// mdtest's -f FIRST -l LAST -s STRIDE: FIRST, FIRST+STRIDE, ... <= LAST. mdtest ignores -f and -s without -l
// (one run on every rank); here that is an error rather than a surprise.
void convertSweepRange(const RawOptions& raw, SweepSpec& sweep, std::vector<std::string>& errors) {
  std::uint32_t first = 1, last = 0, stride = 1;
  Converter converter(errors);
  bool refused = converter.number(raw.sweep_first, kSweepFirst, first);
  refused = converter.number(raw.sweep_last, kSweepLast, last) || refused;
  refused = converter.number(raw.sweep_stride, kSweepStride, stride) || refused;
  if (!raw.sweep_last) {
    errors.push_back(fmt::format("{} and {} need {} (the largest step; mdtest ignores them without it)",
                                 kSweepFirst.shown, kSweepStride.shown, kSweepLast.shown));
    return;
  }
  if (refused) return;
  const std::array<std::pair<const OptionName*, std::uint32_t>, 3> values = {
      {{&kSweepFirst, first}, {&kSweepLast, last}, {&kSweepStride, stride}}};
  for (const auto& [name, value] : values) {
    if (value == 0) {
      errors.push_back(fmt::format("{}: must be at least 1, got 0", name->shown));
      refused = true;
    }
  }
  if (refused) return;
  if (first > last) {
    errors.push_back(
        fmt::format("{} {} is more than {} {}", kSweepFirst.shown, first, kSweepLast.shown, last));
    return;
  }
  // Each step is a whole run; the steps are a list, so "-l 4294967295" must not become four billion of them.
  if (const std::uint64_t count = (last - first) / stride + 1; count > kMaxSweepSteps) {
    errors.push_back(fmt::format("{} {} {} {} {} {}: {} steps, at most {} (each step is a whole run)",
                                 kSweepFirst.shown, first, kSweepLast.shown, last, kSweepStride.shown, stride,
                                 count, kMaxSweepSteps));
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

// --sweep, or mdtest's -f/-l/-s expanded into the same list, and --sweep-placement.
void convertSweep(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  SweepSpec& sweep = config.sweep;
  const bool range = raw.sweep_first || raw.sweep_last || raw.sweep_stride;
  if (raw.sweep && range) {
    errors.push_back(
        fmt::format("{} and {}, {}, {} exclude each other (-f/-l/-s are mdtest's spelling of a sweep)",
                    kSweep.shown, kSweepFirst.shown, kSweepLast.shown, kSweepStride.shown));
  } else if (raw.sweep && *raw.sweep == "pow2") {
    sweep.kind = SweepSpec::Kind::kPow2;
  } else if (raw.sweep) {
    config_detail::ConvertedSteps list = config_detail::toStepList(*raw.sweep);
    if (list.problem) {
      errors.push_back(fmt::format("{}: {}", kSweep.shown, *list.problem));
    } else {
      sweep.kind = SweepSpec::Kind::kList;
      sweep.steps = std::move(list.steps);
    }
  } else if (range) {
    convertSweepRange(raw, sweep, errors);
  }
  if (!raw.sweep_placement) return;
  // Both problems at once: a bad name is reported even when --sweep is missing too.
  if (*raw.sweep_placement != "block" && *raw.sweep_placement != "spread") {
    errors.push_back(fmt::format("{}: unknown placement '{}' (expected block or spread)",
                                 kSweepPlacement.shown, *raw.sweep_placement));
  }
  if (!raw.sweep && !range) {
    errors.push_back(fmt::format("{}: needs {} (or -f/-l/-s)", kSweepPlacement.shown, kSweep.shown));
  } else if (*raw.sweep_placement == "block" || *raw.sweep_placement == "spread") {
    sweep.placement = *raw.sweep_placement == "block" ? SweepPlacement::kBlock : SweepPlacement::kSpread;
  }
}

Refused convertNumbers(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  Converter converter(errors);
  Refused refused;
  refused.items = converter.number(raw.items, kItems, config.items);
  refused.items_per_dir = converter.number(raw.items_per_dir, kItemsPerDir, config.items_per_dir);
  refused.tree = converter.number(raw.depth, kDepth, config.depth);
  refused.tree = converter.number(raw.branching, kBranching, config.branching) || refused.tree;
  converter.number(raw.iterations, kIterations, config.iterations);
  refused.write_bytes = converter.bytes(raw.write_bytes, kWriteBytes, config.write_bytes);
  refused.read_bytes = converter.bytes(raw.read_bytes, kReadBytes, config.read_bytes);
  converter.number(raw.shift, kShift, config.shift);
  converter.number(raw.random_seed, kRandom, config.random_seed);
  converter.seconds(raw.stonewall, kStonewall, config.stonewall_s);
  converter.seconds(raw.pre_delay, kPreDelay, config.pre_delay_s);
  converter.seconds(raw.series_interval, kSeriesInterval, config.series_interval_s);
  refused.steady = converter.number(raw.steady, kSteady, config.steady_rounds);
  converter.number(raw.datasets, kDatasets, config.datasets);
  converter.seconds(raw.progress, kProgress, config.progress_s);
  if (raw.items_per_dir && !refused.items_per_dir && config.items_per_dir == 0) {
    errors.push_back(fmt::format("{}: must be at least 1, got '0' (leave it out to spread -n evenly)",
                                 kItemsPerDir.shown));
    refused.items_per_dir = true;
  }
  return refused;
}

// A path the kernel would refuse (too long, a name too long), named with its option.
void checkPath(const OptionName& name, const std::string& path, std::vector<std::string>& errors,
               std::size_t max_last_name = config_detail::kMaxNameBytes) {
  if (const auto problem = config_detail::pathProblem(path, max_last_name)) {
    errors.push_back(fmt::format("{}: {}", name.shown, *problem));
  }
}

// -d's directories are also sent to every rank one per line, and a newline in a directory name is far more
// often a script's mistake ("$(ls ...)" giving two lines) than a name anyone chose.
void checkPaths(const OptionName& name, const std::vector<std::string>& paths,
                std::vector<std::string>& errors) {
  for (const std::string& path : paths) {
    if (path.find('\n') != std::string::npos) {
      errors.push_back(fmt::format("{}: a directory name with a newline in it is not supported", name.shown));
    }
    checkPath(name, path, errors);
  }
}

// Paths and names. A refused -d leaves targets empty, so that no cross-check counts its parts.
void convertTexts(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  if (raw.dir) {
    config.target = *raw.dir;
    if (raw.dir->empty()) {
      errors.push_back(fmt::format("{}: empty value, expected a directory", kDir.shown));
    } else if (auto targets = config_detail::splitTargets(*raw.dir)) {
      config.targets = std::move(*targets);
      checkPaths(kDir, config.targets, errors);
    } else {
      errors.push_back(fmt::format("{}: '{}' has an empty directory name (DIR@DIR@...: one '@' between two)",
                                   kDir.shown, *raw.dir));
    }
  }
  if (raw.stonewall_file) {
    if (raw.stonewall_file->empty())
      errors.push_back(fmt::format("{}: empty value, expected a file name", kStonewallFile.shown));
    // The file is written through FILE.tmp: its name needs room for the suffix.
    checkPath(kStonewallFile, *raw.stonewall_file, errors, config_detail::kMaxNameBytes - 4);
    config.stonewall_file = *raw.stonewall_file;
  }
  if (raw.output) {
    if (raw.output->empty())
      errors.push_back(fmt::format("{}: empty value, expected a file name", kOutput.shown));
    checkPath(kOutput, *raw.output, errors);
    config.output = *raw.output;
  }
  if (raw.preset) {
    if (config_detail::findPreset(*raw.preset) == nullptr) {
      errors.push_back(fmt::format("{}: unknown preset '{}' (expected {})", kPreset.shown, *raw.preset,
                                   config_detail::presetNames()));
    } else {
      config.preset = *raw.preset;
      // IO500 has no default item count: a preset run without one would silently be a different benchmark.
      if (!raw.items && !raw.items_per_dir)
        errors.push_back(
            fmt::format("{} {} needs {} (items per rank)", kPreset.shown, *raw.preset, kItems.shown));
    }
  }
}

// Converts the values, including the problems only the command line can show (Config cannot say "-I 0 given",
// "-d ''" or "-F and -D").
Refused convert(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  const Refused refused = convertNumbers(raw, config, errors);
  convertTexts(raw, config, errors);
  convertSweep(raw, config, errors);
  if (raw.files_only && raw.dirs_only) {
    errors.push_back(fmt::format("{} and {} exclude each other", kFilesOnly.shown, kDirsOnly.shown));
  } else if (raw.files_only) {
    config.kinds = ItemKinds::kFilesOnly;
  } else if (raw.dirs_only) {
    config.kinds = ItemKinds::kDirsOnly;
  }
  config.sharing = raw.unique_dir ? TreeSharing::kUnique : TreeSharing::kShared;
  config.leaf_only = raw.leaf_only;
  config.shared_files = raw.shared_files;
  config.keep = raw.keep;
  config.renamed = raw.renamed;
  config.random_order = raw.random;
  config.fsync_writes = raw.fsync;
  config.sync_phases = raw.sync;
  config.verify_read = raw.verify;
  config.verbosity = raw.verbosity;
  if (raw.force && raw.append) {
    errors.push_back(fmt::format("{} and {} exclude each other", kForce.shown, kAppend.shown));
  }
  config.output_mode = raw.force    ? OutputMode::kForce
                       : raw.append ? OutputMode::kAppend
                                    : OutputMode::kCreate;
  config.phases = {raw.create, raw.stat, raw.read, raw.remove, raw.rename, raw.readdir};
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

// Implied values: files only for -S, the default phase selection, and -n from -I.
void resolve(const RawOptions& raw, Config& config, Refused& refused, std::vector<std::string>& errors) {
  // As in mdtest, shared files leave out directories; with -D, validate() reports the contradiction.
  if (config.shared_files && config.kinds == ItemKinds::kBoth) config.kinds = ItemKinds::kFilesOnly;
  PhaseSelection& phases = config.phases;
  if (!phases.create && !phases.stat && !phases.read && !phases.remove) {
    // Reading applies to files; -D alone would otherwise select a phase validate() refuses. -U and --readdir
    // add to this default rather than replace it.
    phases.create = phases.stat = phases.remove = true;
    phases.read = config.kinds != ItemKinds::kDirsOnly;
  }
  if (config.keep) {
    // --keep means the tree stays: no remove phase runs. Asking for both is a contradiction.
    if (raw.remove) errors.push_back(fmt::format("{} and {} exclude each other", kKeep.shown, kRemove.shown));
    phases.remove = false;
  }
  if (raw.items || config.items_per_dir == 0) return;
  const std::optional<std::uint64_t> dirs = refused.tree ? std::nullopt : itemDirCount(config);
  if (!dirs) {
    refused.items = true;  // the tree itself is reported; -n is unknown
  } else if (config.items_per_dir > std::numeric_limits<std::uint64_t>::max() / *dirs) {
    errors.push_back(fmt::format("{}: {} items over {} is out of range (at most {} items)",
                                 kItemsPerDir.shown, config.items_per_dir, dirsText(*dirs, config),
                                 std::numeric_limits<std::uint64_t>::max()));
    refused.items = true;
  } else {
    config.items = config.items_per_dir * *dirs;
  }
}

void checkTree(const Config& config, const Refused& refused, std::vector<std::string>& errors) {
  if (refused.tree) return;
  if (config.branching == 0) {
    errors.push_back(fmt::format("{}: must be at least 1, got 0", kBranching.shown));
  } else if (!treeDirCount(config.depth, config.branching)) {
    errors.push_back(
        fmt::format("{}, {}: a tree of depth {} and branching {} has more than {} directories (the limit)",
                    kDepth.shown, kBranching.shown, config.depth, config.branching, kMaxTreeDirs));
  } else if (config.items_per_dir > 0 && !refused.items && !refused.items_per_dir) {
    const std::uint64_t dirs = *itemDirCount(config);
    const std::uint64_t needed_per_dir = config.items / dirs + (config.items % dirs != 0 ? 1 : 0);
    if (needed_per_dir > config.items_per_dir) {  // then I x D < items: no overflow below
      errors.push_back(fmt::format("{}: -n {} does not fit -I {} over {} (at most {} items)", kItems.shown,
                                   config.items, config.items_per_dir, dirsText(dirs, config),
                                   config.items_per_dir * dirs));
    }
  }
}

void checkData(const Config& config, const Refused& refused, std::vector<std::string>& errors) {
  const bool dirs_only = config.kinds == ItemKinds::kDirsOnly;
  const std::array<std::pair<const OptionName*, std::uint64_t>, 2> byte_options = {
      {{&kWriteBytes, config.write_bytes}, {&kReadBytes, config.read_bytes}}};
  for (const auto& [name, value] : byte_options) {
    if (value > config_detail::kMaxIoBytes) {
      errors.push_back(fmt::format("{}: {} is more than 1 GiB", name->shown, value));
    }
    if (value > 0 && dirs_only) {
      errors.push_back(
          fmt::format("{}: {} applies to files only, not with {}", name->shown, value, kDirsOnly.shown));
    }
  }
  if (config.phases.read && dirs_only) {
    errors.push_back(
        fmt::format("{}: the read phase reads files, not with {}", kRead.shown, kDirsOnly.shown));
  }
  if (config.phases.create && config.phases.read && !dirs_only && !refused.write_bytes &&
      !refused.read_bytes && config.read_bytes > config.write_bytes) {
    errors.push_back(fmt::format("{}: {} is more than {} {}: the files this run creates would be too short",
                                 kReadBytes.shown, config.read_bytes, kWriteBytes.shown, config.write_bytes));
  }
  // -X only matters where the read phase runs: job scripts pass the same options to every phase's job.
  if (config.verify_read && config.phases.read) {
    if (dirs_only) {
      errors.push_back(
          fmt::format("{}: nothing read to verify: {} has no files", kVerify.shown, kDirsOnly.shown));
    } else if (config.read_bytes == 0 && !refused.read_bytes) {
      errors.push_back(
          fmt::format("{}: nothing read to verify: needs {} > 0", kVerify.shown, kReadBytes.shown));
    }
  }
  if (config.fsync_writes && config.write_bytes == 0 && !refused.write_bytes) {
    errors.push_back(fmt::format("{}: needs {} > 0", kFsync.shown, kWriteBytes.shown));
  }
}

// Who works where: shared files, several target directories, the rank shift.
void checkSharing(const Config& config, std::vector<std::string>& errors) {
  if (config.shared_files) {
    if (config.sharing == TreeSharing::kUnique) {
      errors.push_back(fmt::format("{} and {} exclude each other", kSharedFiles.shown, kUniqueDir.shown));
    }
    if (config.kinds == ItemKinds::kDirsOnly) {
      errors.push_back(
          fmt::format("{}: shared files are files, not with {}", kSharedFiles.shown, kDirsOnly.shown));
    } else if (config.kinds == ItemKinds::kBoth) {  // parsing implies -F; a Config built otherwise may not
      errors.push_back(
          fmt::format("{}: shared files are files, needs {}", kSharedFiles.shown, kFilesOnly.shown));
    }
  }
  if (std::any_of(config.targets.begin(), config.targets.end(), [](const auto& t) { return t.empty(); })) {
    errors.push_back(fmt::format("{}: an empty directory name in the list", kDir.shown));
  }
  if (config.targets.size() > 1) {
    const std::string list = fmt::format("{}", fmt::join(config.targets, "@"));
    if (config.sharing == TreeSharing::kShared) {
      errors.push_back(fmt::format("{}: '{}' needs {}: a shared tree cannot span several directories",
                                   kDir.shown, list, kUniqueDir.shown));
    }
    if (config.shift > 0) {
      // mdtest refuses it too ("cannot have multiple directory paths with -N strides").
      errors.push_back(fmt::format("{}: {} and several {} directories exclude each other", kShift.shown,
                                   config.shift, kDir.shown));
    }
  }
}

void checkPhaseOptions(const Config& config, std::vector<std::string>& errors) {
  const PhaseSelection& phases = config.phases;
  if (config.random_order && !phases.stat && !phases.read && !phases.readdir) {
    errors.push_back(
        fmt::format("{}: nothing to randomize: needs the stat, read or readdir phase ({}, {}, {})",
                    kRandom.shown, kStat.shown, kRead.shown, kReaddir.shown));
  }
  if (config.renamed && phases.rename) {
    errors.push_back(fmt::format("{} and {} exclude each other: items cannot be renamed twice",
                                 kRenamed.shown, kRename.shown));
  }
  if (config.renamed && phases.create) {
    errors.push_back(fmt::format("{} and {} exclude each other: the items this run creates are not renamed",
                                 kRenamed.shown, kCreate.shown));
  }
}

// The most --datasets: each keeps up to 3 directory handles open per rank (steady.hpp).
constexpr std::uint32_t kMaxDatasets = 256;

// The finest --series-interval: a millisecond (finer would cost the hot loop a tick every few ops).
constexpr double kMinSeriesInterval = 0.001;

// Parsing cannot produce a bad duration or preset; a Config built otherwise can.
void checkValues(const Config& config, std::vector<std::string>& errors) {
  const std::array<std::pair<const OptionName*, double>, 2> durations = {
      {{&kStonewall, config.stonewall_s}, {&kPreDelay, config.pre_delay_s}}};
  for (const auto& [name, value] : durations) {
    if (!(value >= 0.0 && value <= config_detail::kMaxSeconds)) {  // NaN fails both
      errors.push_back(fmt::format("{}: {} is not between 0 and {} seconds", name->shown, value,
                                   config_detail::kMaxSeconds));
    }
  }
  if (!(config.series_interval_s >= kMinSeriesInterval &&
        config.series_interval_s <= config_detail::kMaxSeconds)) {
    errors.push_back(fmt::format("{}: {} is not between {} and {} seconds", kSeriesInterval.shown,
                                 config.series_interval_s, kMinSeriesInterval, config_detail::kMaxSeconds));
  }
  // Not given: the default (-1, decided by whether rank 0 writes to a terminal).
  if (!(config.progress_s < 0.0 || config.progress_s <= config_detail::kMaxSeconds)) {
    errors.push_back(fmt::format("{}: {} is more than {} seconds", kProgress.shown, config.progress_s,
                                 config_detail::kMaxSeconds));
  }
  if (!config.preset.empty() && config_detail::findPreset(config.preset) == nullptr) {
    errors.push_back(fmt::format("{}: unknown preset '{}' (expected {})", kPreset.shown, config.preset,
                                 config_detail::presetNames()));
  }
}

// A sweep step is a whole run: each step creates its items and removes them again, so that the next step
// starts from the same empty target.
void checkSweep(const Config& config, std::vector<std::string>& errors) {
  const SweepSpec& sweep = config.sweep;
  if (!sweep.active()) return;
  if (config.keep) {
    errors.push_back(
        fmt::format("{}: every step creates and removes its items: not with {}", kSweep.shown, kKeep.shown));
  } else if (!config.phases.create || !config.phases.remove) {
    errors.push_back(fmt::format(
        "{}: every step creates and removes its items: the phases must include {} and {} (or leave out "
        "{} {} {} {} for all of them)",
        kSweep.shown, kCreate.shown, kRemove.shown, kCreate.shown, kStat.shown, kRead.shown, kRemove.shown));
  }
  if (sweep.placement == SweepPlacement::kNone) {
    errors.push_back(fmt::format("{}: placement none is not a placement", kSweepPlacement.shown));
  }
  // Parsing guarantees these; a Config built otherwise may not.
  const bool increasing = std::adjacent_find(sweep.steps.begin(), sweep.steps.end(),
                                             [](auto a, auto b) { return a >= b; }) == sweep.steps.end();
  if (sweep.kind == SweepSpec::Kind::kList &&
      (sweep.steps.empty() || sweep.steps.front() == 0 || !increasing)) {
    errors.push_back(fmt::format("{}: the steps must be strictly increasing rank counts >= 1", kSweep.shown));
  }
}

void validateInto(const Config& config, const Refused& refused, std::vector<std::string>& errors) {
  checkTree(config, refused, errors);
  if (config.items == 0 && !refused.items)
    errors.push_back(fmt::format("{}: must be at least 1, got 0", kItems.shown));
  if (config.iterations == 0)
    errors.push_back(fmt::format("{}: must be at least 1, got 0", kIterations.shown));
  if (!config.phases.any()) {
    errors.push_back(fmt::format("no phase selected ({}, {}, {}, {}, {}, {})", kCreate.shown, kStat.shown,
                                 kRead.shown, kRemove.shown, kRename.shown, kReaddir.shown));
  }
  checkData(config, refused, errors);
  checkSharing(config, errors);
  checkPhaseOptions(config, errors);
  checkValues(config, errors);
  checkSweep(config, errors);
}

// The user's --preset, if it names one: its options are applied first.
const config_detail::Preset* presetIn(const std::vector<Given>& given) {
  for (const Given& occurrence : given) {
    if (occurrence.option->long_name() == "preset" && occurrence.value) {
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

}  // namespace

// The options that have no meaning in the steady-state mix (its phases, directories and names are its own).
constexpr std::array<const OptionName*, 24> kNotWithSteady = {
    &kCreate,    &kStat,      &kRead,        &kRemove,    &kRename,        &kReaddir,
    &kRenamed,   &kUniqueDir, &kDepth,       &kBranching, &kItemsPerDir,   &kLeafOnly,
    &kFilesOnly, &kDirsOnly,  &kSharedFiles, &kRandom,    &kStonewallFile, &kReadBytes,
    &kFsync,     &kSync,      &kVerify,      &kKeep,      &kPreset,        &kSweepPlacement};

// --steady and --datasets: their own values, and what they exclude (named as given, all at once).
void checkSteady(const RawOptions& raw, const std::vector<Given>& given, const Config& config,
                 const Refused& refused, std::vector<std::string>& errors) {
  if (!raw.steady) {
    if (raw.datasets) errors.push_back(fmt::format("{}: needs {}", kDatasets.shown, kSteady.shown));
    return;
  }
  if (!refused.steady && config.steady_rounds == 0) {
    errors.push_back(fmt::format("{}: must be at least 1 round, got 0", kSteady.shown));
  }
  std::vector<std::string> excluded;
  for (const Given& g : given) {
    for (const OptionName* name : kNotWithSteady) {
      const std::string shown = config_detail::shownName(*g.option);
      if (shown == name->shown && std::find(excluded.begin(), excluded.end(), shown) == excluded.end()) {
        excluded.push_back(shown);
      }
    }
  }
  if (!excluded.empty()) {
    errors.push_back(
        fmt::format("{} runs its own phases (precreate, mix, cleanup) in its own directories: "
                    "not with {}",
                    kSteady.shown, fmt::join(excluded, ", ")));
  }
  if (raw.datasets && config.datasets == 0) {
    errors.push_back(fmt::format("{}: must be at least 1, got 0", kDatasets.shown));
  } else if (config.datasets > kMaxDatasets) {
    errors.push_back(fmt::format("{}: {} is more than {} (each rank keeps 3 directories open per dataset)",
                                 kDatasets.shown, config.datasets, kMaxDatasets));
  } else if (config.datasets > 0 && config.items % config.datasets != 0) {
    errors.push_back(
        fmt::format("{} {} is not a multiple of {} {}: the working set is {} directories of the "
                    "same number of objects",
                    kItems.shown, config.items, kDatasets.shown, config.datasets, config.datasets));
  } else if (config.datasets > 0 && !refused.steady && !refused.items) {
    // Round f creates object P + f (steady.hpp), so P + rounds must stay below 2^63.
    constexpr std::uint64_t kObjectLimit = std::uint64_t{1} << 63;
    const std::uint64_t per_dataset = config.items / config.datasets;
    if (config.steady_rounds >= kObjectLimit - per_dataset) {
      errors.push_back(
          fmt::format("{}: {} rounds after {} objects per dataset: object numbers must stay below "
                      "2^63",
                      kSteady.shown, config.steady_rounds, per_dataset));
    }
  }
}

// Help and version win over every other problem: "mdbench <anything> --help" prints the help and exits 0, as
// GNU tools do, so a CliRequest with kHelp or kVersion always has empty errors (header: non-empty means exit
// 2).
CliRequest parseCommandLine(const std::vector<std::string>& args) {
  CliRequest request;
  request.config.command_line = joinCommandLine(args);
  RawOptions raw;
  const OptionTable table = buildOptionTable(raw);
  const std::vector<Given> given = config_detail::Tokenizer(args, table.all, request.errors).run();
  applyPreset(presetIn(given), table.all);  // first, so that the command line overrides it
  config_detail::applyGiven(given, request.errors);
  if (raw.help || raw.version) {
    request.action = raw.help ? CliAction::kHelp : CliAction::kVersion;
    request.errors.clear();
    return request;
  }
  Refused refused = convert(raw, request.config, request.errors);
  resolve(raw, request.config, refused, request.errors);
  validateInto(request.config, refused, request.errors);
  checkSteady(raw, given, request.config, refused, request.errors);
  return request;
}

std::vector<std::string> validate(const Config& config) {
  std::vector<std::string> errors;
  validateInto(config, Refused{}, errors);
  return errors;
}

std::string_view sweepPlacementName(SweepPlacement placement) {
  switch (placement) {
    case SweepPlacement::kNone:
      return "none";
    case SweepPlacement::kBlock:
      return "block";
    case SweepPlacement::kSpread:
      return "spread";
  }
  return "?";
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
                           kDir.shown, given[i], given[j], normal[i]);
      }
      for (const auto& [outer, inner] : {std::pair{i, j}, std::pair{j, i}}) {
        if (inside(normal[outer], normal[inner])) {
          return fmt::format("{}: '{}' is inside '{}': no target may hold another, their trees would mix",
                             kDir.shown, given[inner], given[outer]);
        }
      }
    }
  }
  return {};
}

}  // namespace mdbench
