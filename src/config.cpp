// Command line to Config: the Boost.Program_options table, a tokenizer that reports every problem, resolution
// of implied values, validation, and the help text.
#include "mdbench/config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cstddef>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config_values.hpp"
#include "mdbench/tree_math.hpp"

namespace mdbench {
namespace {

namespace po = boost::program_options;
using config_detail::Converted;

// Each option's names once: as Boost wants them, and as messages show them.
struct OptionName {
  const char* boost;
  const char* shown;
};
constexpr OptionName kItems{"items,n", "-n/--items"};
constexpr OptionName kDir{"dir,d", "-d/--dir"};
constexpr OptionName kUniqueDir{"unique-dir,u", "-u/--unique-dir"};
constexpr OptionName kDepth{"depth,z", "-z/--depth"};
constexpr OptionName kBranching{"branching,b", "-b/--branching"};
constexpr OptionName kItemsPerDir{"items-per-dir,I", "-I/--items-per-dir"};
constexpr OptionName kLeafOnly{"leaf-only,L", "-L/--leaf-only"};
constexpr OptionName kFilesOnly{"files-only,F", "-F/--files-only"};
constexpr OptionName kDirsOnly{"dirs-only,D", "-D/--dirs-only"};
constexpr OptionName kCreate{"create,C", "-C/--create"};
constexpr OptionName kStat{"stat,T", "-T/--stat"};
constexpr OptionName kRead{"read,E", "-E/--read"};
constexpr OptionName kRemove{"remove,r", "-r/--remove"};
constexpr OptionName kIterations{"iterations,i", "-i/--iterations"};
constexpr OptionName kWriteBytes{"write-bytes,w", "-w/--write-bytes"};
constexpr OptionName kReadBytes{"read-bytes,e", "-e/--read-bytes"};
constexpr OptionName kKeep{"keep", "--keep"};
constexpr OptionName kOutput{"output,o", "-o/--output"};
constexpr OptionName kForce{"force", "--force"};
constexpr OptionName kAppend{"append", "--append"};
constexpr OptionName kHelp{"help,h", "-h/--help"};
constexpr OptionName kVersion{"version", "--version"};

// What the command line said, before conversion. Values stay strings so that a bad one becomes a message,
// not an exception; nullopt means "not given".
struct RawOptions {
  std::optional<std::string> items, dir, depth, branching, items_per_dir, iterations, write_bytes, read_bytes,
      output;
  bool unique_dir = false, leaf_only = false, files_only = false, dirs_only = false;
  bool create = false, stat = false, read = false, remove = false, keep = false, help = false,
       version = false, force = false, append = false;
};

struct OptionTable {
  std::vector<std::pair<std::string, std::shared_ptr<po::options_description>>> groups;  // caption, options
  po::options_description all;
};

po::typed_value<std::string>* text(std::optional<std::string>& slot, const char* value_name) {
  return po::value<std::string>()->value_name(value_name)->notifier([&slot](const std::string& value) {
    slot = value;
  });
}

// The one option table: lookups while parsing and the help text both come from it. Bound to raw.
OptionTable buildOptionTable(RawOptions& raw) {
  OptionTable table;
  const auto group = [&table](const char* caption) {
    table.groups.emplace_back(caption, std::make_shared<po::options_description>());
    return table.groups.back().second->add_options();
  };
  // clang-format off
  group("Workload")
      (kItems.boost, text(raw.items, "N"), "items per rank, exact (default 1000)")
      (kFilesOnly.boost, po::bool_switch(&raw.files_only), "files only (default: files and directories)")
      (kDirsOnly.boost, po::bool_switch(&raw.dirs_only), "directories only");
  group("Tree")
      (kDir.boost, text(raw.dir, "DIR"), "directory to run in (default: a new mdbench.<stamp> in the current one)")
      (kUniqueDir.boost, po::bool_switch(&raw.unique_dir), "a tree per rank (default: one tree shared by all)")
      (kDepth.boost, text(raw.depth, "N"), "tree depth (default 0: the tree is one directory)")
      (kBranching.boost, text(raw.branching, "N"), "subdirectories per directory (default 1)")
      (kItemsPerDir.boost, text(raw.items_per_dir, "N"),
       "fill item directories N at a time, in order (default: spread -n\n"
       "evenly); without -n, -n is N times the number of item directories")
      (kLeafOnly.boost, po::bool_switch(&raw.leaf_only), "items only in the leaf directories");
  group("Phases (none given: all, without read for -D)")
      (kCreate.boost, po::bool_switch(&raw.create), "create the items")
      (kStat.boost, po::bool_switch(&raw.stat), "stat the items")
      (kRead.boost, po::bool_switch(&raw.read), "read the files (-e bytes each)")
      (kRemove.boost, po::bool_switch(&raw.remove), "remove the items");
  group("Data (B: bytes, or with suffix k, m, g for KiB, MiB, GiB; at most 1g)")
      (kWriteBytes.boost, text(raw.write_bytes, "B"), "bytes written to each file it creates (default 0)")
      (kReadBytes.boost, text(raw.read_bytes, "B"), "bytes read from each file in the read phase (default 0)");
  group("Output and run")
      (kIterations.boost, text(raw.iterations, "N"), "repeat the selected phases N times (default 1)")
      (kKeep.boost, po::bool_switch(&raw.keep), "leave the tree in place after the run")
      (kOutput.boost, text(raw.output, "FILE"),
       "HDF5 results file (default: mdbench-<UTC time>[-<job id>].h5 in the\n"
       "current directory); never overwritten unless --force")
      (kForce.boost, po::bool_switch(&raw.force), "replace an existing results file")
      (kAppend.boost, po::bool_switch(&raw.append), "add this run to an existing results file")
      (kHelp.boost, po::bool_switch(&raw.help), "print this help and exit")
      (kVersion.boost, po::bool_switch(&raw.version), "print the version and exit");
  // clang-format on
  for (const auto& entry : table.groups) table.all.add(*entry.second);
  return table;
}

// "-n/--items", or "--keep" for an option without a short name.
std::string shownName(const po::option_description& option) {
  const std::string short_name = option.canonical_display_name(po::command_line_style::allow_dash_for_short);
  const std::string long_name = "--" + option.long_name();
  return short_name.size() == 2 && short_name[0] == '-' ? short_name + "/" + long_name : long_name;
}

bool takesValue(const po::option_description& option) { return option.semantic()->max_tokens() > 0; }

// Exact lookups only: with Boost's prefix guessing, an abbreviation in a job script ("--dep") changes meaning
// or becomes ambiguous when an option is added.
const po::option_description* findLong(const po::options_description& all, const std::string& name) {
  if (name.empty() || name[0] == '-') return nullptr;  // "---n" must not find "-n"
  return all.find_nothrow(name, /*approx=*/false);
}
const po::option_description* findShort(const po::options_description& all, char letter) {
  return all.find_nothrow(std::string{'-', letter}, /*approx=*/false);
}

// Splits the arguments into options and values without ever stopping at the first problem, then hands each
// value to the option's Boost semantic. Boost's own parser throws on the first syntax error (a missing value,
// "--keep=1"), which would hide every later problem, so the tokenizer is ours; the table is Boost's.
class Tokenizer {
 public:
  Tokenizer(const std::vector<std::string>& args, const po::options_description& all,
            std::vector<std::string>& errors)
      : args_(args), all_(all), errors_(errors) {}

  void run() {
    bool options_ended = false;
    for (next_ = 0; next_ < args_.size();) {
      const std::string& arg = args_[next_++];
      if (options_ended || arg.size() < 2 || arg[0] != '-') {
        errors_.push_back(fmt::format("unexpected argument '{}'", arg));
      } else if (arg == "--") {
        options_ended = true;
      } else if (arg[1] == '-') {
        longOption(arg);
      } else {
        shortGroup(arg);
      }
    }
  }

 private:
  void longOption(const std::string& arg) {
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const po::option_description* option = findLong(all_, name);
    if (option == nullptr) {
      errors_.push_back(fmt::format("unknown option '--{}'", name));
    } else if (eq != std::string::npos && !takesValue(*option)) {
      errors_.push_back(fmt::format("{}: takes no value, got '{}'", shownName(*option), arg));
    } else if (eq != std::string::npos) {
      apply(*option, arg.substr(eq + 1));
    } else if (takesValue(*option)) {
      applyWithNextValue(*option);
    } else {
      apply(*option, std::nullopt);
    }
  }

  // "-uFL", "-n5", "-uFn 5": switches may be grouped; a value option takes the rest of the word or the next
  // one.
  void shortGroup(const std::string& arg) {
    for (std::size_t pos = 1; pos < arg.size(); ++pos) {
      const po::option_description* option = findShort(all_, arg[pos]);
      if (option == nullptr) {
        // Whether the unknown option takes a value is unknowable, so the rest of the word is not guessed at.
        errors_.push_back(arg.size() == 2 ? fmt::format("unknown option '-{}'", arg[pos])
                                          : fmt::format("unknown option '-{}' in '{}'", arg[pos], arg));
        return;
      }
      if (!takesValue(*option)) {
        apply(*option, std::nullopt);
      } else if (pos + 1 < arg.size()) {
        apply(*option, arg.substr(pos + 1));
        return;
      } else {
        applyWithNextValue(*option);
        return;
      }
    }
  }

  // As Boost does: the next word is the value unless it is one of our options ("-d -u" lacks a value).
  void applyWithNextValue(const po::option_description& option) {
    if (next_ < args_.size() && !isKnownOption(args_[next_])) {
      apply(option, args_[next_++]);
    } else {
      errors_.push_back(fmt::format("{}: needs a value", shownName(option)));
    }
  }

  bool isKnownOption(const std::string& word) const {
    if (word == "--") return true;
    if (word.size() < 2 || word[0] != '-') return false;
    if (word[1] != '-') return findShort(all_, word[1]) != nullptr;
    return findLong(all_, word.substr(2, word.find('=') - 2)) != nullptr;
  }

  void apply(const po::option_description& option, const std::optional<std::string>& value) {
    if (++seen_[&option] == 2) errors_.push_back(fmt::format("{}: given more than once", shownName(option)));
    if (seen_[&option] > 1) return;
    std::vector<std::string> tokens;
    if (value) tokens.push_back(*value);
    try {
      boost::any stored;
      option.semantic()->parse(stored, tokens, /*utf8=*/false);
      option.semantic()->notify(stored);
    } catch (const po::error& e) {  // not expected for string and switch semantics; reported, never thrown
      errors_.push_back(fmt::format("{}: {}", shownName(option), e.what()));
    }
  }

  const std::vector<std::string>& args_;
  const po::options_description& all_;
  std::vector<std::string>& errors_;
  std::size_t next_ = 0;
  std::map<const po::option_description*, int> seen_;
};

// Fields whose given value was refused: the Config holds the default there, and a cross-check involving it
// would complain about a value the user never gave.
struct Refused {
  bool items = false;
  bool items_per_dir = false;
  bool tree = false;  // depth or branching
  bool write_bytes = false;
  bool read_bytes = false;
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

 private:
  // True when the value was given and refused.
  template <typename T, typename Convert>
  bool take(const std::optional<std::string>& raw, const OptionName& name, T& out, Convert convert) {
    if (!raw) return false;
    const Converted converted = convert(*raw);
    if (converted.problem) {
      errors_.push_back(fmt::format("{}: {}", name.shown, *converted.problem));
      return true;
    }
    out = static_cast<T>(converted.value);
    return false;
  }

  std::vector<std::string>& errors_;
};

std::string joinCommandLine(const std::vector<std::string>& args) {
  std::string line = "mdbench";
  for (const std::string& arg : args) line += " " + config_detail::shellQuote(arg);
  return line;
}

// Converts the values, including the problems only the command line can show (Config cannot say "-I 0 given",
// "-d ''" or "-F and -D").
Refused convert(const RawOptions& raw, Config& config, std::vector<std::string>& errors) {
  Converter converter(errors);
  Refused refused;
  refused.items = converter.number(raw.items, kItems, config.items);
  refused.items_per_dir = converter.number(raw.items_per_dir, kItemsPerDir, config.items_per_dir);
  refused.tree = converter.number(raw.depth, kDepth, config.depth);
  refused.tree = converter.number(raw.branching, kBranching, config.branching) || refused.tree;
  converter.number(raw.iterations, kIterations, config.iterations);
  refused.write_bytes = converter.bytes(raw.write_bytes, kWriteBytes, config.write_bytes);
  refused.read_bytes = converter.bytes(raw.read_bytes, kReadBytes, config.read_bytes);
  if (raw.items_per_dir && !refused.items_per_dir && config.items_per_dir == 0) {
    errors.push_back(fmt::format("{}: must be at least 1, got '0' (leave it out to spread -n evenly)",
                                 kItemsPerDir.shown));
    refused.items_per_dir = true;
  }
  if (raw.dir) {
    if (raw.dir->empty()) errors.push_back(fmt::format("{}: empty value, expected a directory", kDir.shown));
    config.target = *raw.dir;
  }
  if (raw.files_only && raw.dirs_only) {
    errors.push_back(fmt::format("{} and {} exclude each other", kFilesOnly.shown, kDirsOnly.shown));
  } else if (raw.files_only) {
    config.kinds = ItemKinds::kFilesOnly;
  } else if (raw.dirs_only) {
    config.kinds = ItemKinds::kDirsOnly;
  }
  config.sharing = raw.unique_dir ? TreeSharing::kUnique : TreeSharing::kShared;
  config.leaf_only = raw.leaf_only;
  config.keep = raw.keep;
  if (raw.output) {
    if (raw.output->empty())
      errors.push_back(fmt::format("{}: empty value, expected a file name", kOutput.shown));
    config.output = *raw.output;
  }
  if (raw.force && raw.append) {
    errors.push_back(fmt::format("{} and {} exclude each other", kForce.shown, kAppend.shown));
  }
  config.output_mode = raw.force    ? OutputMode::kForce
                       : raw.append ? OutputMode::kAppend
                                    : OutputMode::kCreate;
  config.phases = {raw.create, raw.stat, raw.read, raw.remove};
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

// Implied values: the default phase selection, and -n from -I.
void resolve(const RawOptions& raw, Config& config, Refused& refused, std::vector<std::string>& errors) {
  if (!config.phases.any()) {
    // Reading applies to files; -D alone would otherwise select a phase validate() refuses.
    config.phases = {true, true, config.kinds != ItemKinds::kDirsOnly, true};
  }
  if (config.keep) {
    // --keep means the tree stays: no remove phase runs. Asking for both is a contradiction.
    if (raw.remove) errors.push_back(fmt::format("{} and {} exclude each other", kKeep.shown, kRemove.shown));
    config.phases.remove = false;
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
}

void validateInto(const Config& config, const Refused& refused, std::vector<std::string>& errors) {
  checkTree(config, refused, errors);
  if (config.items == 0 && !refused.items)
    errors.push_back(fmt::format("{}: must be at least 1, got 0", kItems.shown));
  if (config.iterations == 0)
    errors.push_back(fmt::format("{}: must be at least 1, got 0", kIterations.shown));
  if (!config.phases.any()) {
    errors.push_back(fmt::format("no phase selected ({}, {}, {}, {})", kCreate.shown, kStat.shown,
                                 kRead.shown, kRemove.shown));
  }
  checkData(config, refused, errors);
}

}  // namespace

// Help and version win over every other problem: "mdbench <anything> --help" prints the help and exits 0, as
// GNU tools do, so a CliRequest with kHelp or kVersion always has empty errors (header: non-empty means exit
// 2).
CliRequest parseCommandLine(const std::vector<std::string>& args) {
  CliRequest request;
  request.config.command_line = joinCommandLine(args);
  RawOptions raw;
  const OptionTable table = buildOptionTable(raw);
  Tokenizer(args, table.all, request.errors).run();
  if (raw.help || raw.version) {
    request.action = raw.help ? CliAction::kHelp : CliAction::kVersion;
    request.errors.clear();
    return request;
  }
  Refused refused = convert(raw, request.config, request.errors);
  resolve(raw, request.config, refused, request.errors);
  validateInto(request.config, refused, request.errors);
  return request;
}

std::vector<std::string> validate(const Config& config) {
  std::vector<std::string> errors;
  validateInto(config, Refused{}, errors);
  return errors;
}

std::string helpText() {
  RawOptions unused;
  const OptionTable table = buildOptionTable(unused);
  const auto left_column = [](const po::option_description& option) {
    const std::string short_name =
        option.canonical_display_name(po::command_line_style::allow_dash_for_short);
    std::string text = short_name.size() == 2 && short_name[0] == '-' ? "  " + short_name + ", " : "      ";
    text += "--" + option.long_name();
    if (takesValue(option)) text += " " + option.semantic()->name();
    return text;
  };
  std::size_t width = 0;
  for (const auto& option : table.all.options()) width = std::max(width, left_column(*option).size());
  width += 2;

  std::string help =
      "Usage: mpiexec -n RANKS mdbench [OPTIONS]   (or: mdbench [OPTIONS] for a single rank)\n"
      "\n"
      "File system metadata benchmark in the manner of mdtest: each rank creates, stats, reads and removes\n"
      "its own items (files and directories) in a tree of directories, one phase at a time between\n"
      "barriers, and the rate of every phase is reported.\n";
  for (const auto& [caption, group] : table.groups) {
    help += "\n" + caption + ":\n";
    for (const auto& option : group->options()) {
      std::string left = left_column(*option);
      left.resize(width, ' ');
      std::string description = option->description();
      for (std::size_t nl = description.find('\n'); nl != std::string::npos;
           nl = description.find('\n', nl + 1)) {
        description.insert(nl + 1, width, ' ');
      }
      help += left + description + "\n";
    }
  }
  help +=
      "\n"
      "Names: items are file.mdbench.<rank>.<i> and dir.mdbench.<rank>.<i> in the tree directories\n"
      "mdbench_tree.<d> (shared) or mdbench_tree.<rank>.<d> (unique, -u), numbered breadth-first and "
      "nested,\n"
      "under <dir>/mdbench.iter.<iteration>. -n is exact: when the item directories do not divide it, the\n"
      "first directories hold one item more; nothing is rounded.\n"
      "\n"
      "Exit status: 0 every operation succeeded; 1 an operation failed or the run could not start;\n"
      "2 bad options (reported all at once; nothing was touched).\n";
  return help;
}

}  // namespace mdbench
