// The main command's --help text, and its options and presets exported for the man page and the bash
// completion (option_docs.hpp), all from the option rows (config_table.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "config_presets.hpp"
#include "config_table.hpp"
#include "mdbench/config/backends.hpp"
#include "mdbench/config/config.hpp"
#include "mdbench/config/option_docs.hpp"

namespace mdbench {

using config_detail::GroupRow;
using config_detail::kOptionGroups;
using config_detail::kOptionRows;
using config_detail::OptionGroup;
using config_detail::OptionKind;
using config_detail::OptionRow;

namespace {

bool takesValue(const OptionRow& option) {
  return option.kind != OptionKind::kSwitch && option.kind != OptionKind::kCounter;
}

OptionDoc optionDoc(const OptionRow& option) {
  OptionDoc doc;
  doc.long_name = option.long_name;
  if (option.short_name != 0) doc.short_name = std::string{option.short_name};
  doc.value_name = option.value_name;
  doc.value_optional = option.kind == OptionKind::kOptionalCount;
  doc.repeatable = option.kind == OptionKind::kCounter;
  doc.description = option.help;
  return doc;
}

// "  -n, --items N", "      --keep": the column --help prints the names in.
std::string leftColumn(const OptionRow& option) {
  const std::string short_name = option.short_name != 0 ? std::string{'-', option.short_name, ','} : "";
  return fmt::format("  {:4}--{}{}{}", short_name, option.long_name, takesValue(option) ? " " : "",
                     option.value_name);
}

// A group's lines of --help, descriptions aligned at `width`.
std::string helpGroup(const GroupRow& group, std::string_view caption, std::size_t width) {
  std::string help = "\n" + std::string(caption) + ":\n";
  for (const OptionRow& option : kOptionRows) {
    if (option.group != group.id) continue;
    std::string left = leftColumn(option);
    // Names wider than the column (mdtest's --saveRankPerformanceDetails FILE) get a line of their own.
    if (left.size() + 2 > width) left += "\n";
    left.resize(left.back() == '\n' ? left.size() + width : width, ' ');
    std::string description(option.help);
    for (std::size_t nl = description.find('\n'); nl != std::string::npos;
         nl = description.find('\n', nl + 1)) {
      description.insert(nl + 1, width, ' ');
    }
    help += left + description + "\n";
  }
  return help;
}

// The caption --help gives the group of mdtest's spellings and further options: the table's caption is the
// man page's, which describes them at length.
constexpr std::string_view kMdtestCaption =
    "mdtest's spellings and further options, with mdtest's meaning (-f -l -s: the rank counts of a --sweep;\n"
    "docs/mdtest.md)";

}  // namespace

std::vector<OptionGroupDoc> mainOptionDocs() {
  std::vector<OptionGroupDoc> docs;
  for (const GroupRow& group : kOptionGroups) {
    OptionGroupDoc& doc = docs.emplace_back(OptionGroupDoc{std::string(group.caption), group.in_help, {}});
    for (const OptionRow& option : kOptionRows) {
      if (option.group == group.id) doc.options.push_back(optionDoc(option));
    }
  }
  return docs;
}

std::string optionLabel(std::string_view long_name) {
  for (const OptionRow& option : kOptionRows) {
    if (option.long_name == long_name) return config_detail::shown(option);
  }
  throw std::invalid_argument(fmt::format("no option --{}", long_name));
}

std::vector<PresetDoc> presetDocs() {
  std::vector<PresetDoc> docs;
  for (const config_detail::Preset& preset : config_detail::kPresets) {
    docs.push_back({std::string(preset.name), std::string(preset.options)});
  }
  return docs;
}

std::string helpText() {
  // Every option the parser accepts is shown, mdtest's own group last: a user reading an mdtest script
  // finds -P, -t, -f, -l, -s, ... here, not only in the man page.
  // The widest names of the main groups but the backends' and -a's, which grow with the backend rows
  // (mdtest's --cephfs.remote_prefix PATH and -a's list of every backend get a line of their own rather
  // than pushing every description right).
  std::size_t width = 0;
  for (const OptionRow& option : kOptionRows) {
    if (kOptionGroups[static_cast<std::size_t>(option.group)].in_help &&
        option.group != OptionGroup::kBackend && option.long_name != "api") {
      width = std::max(width, leftColumn(option).size());
    }
  }
  width += 2;

  std::string help =
      "Usage: mpiexec -n RANKS mdbench [OPTIONS]   (or: mdbench [OPTIONS] for a single rank)\n"
      "\n"
      "File system metadata benchmark in the manner of mdtest: each rank creates, stats, reads and removes\n"
      "its own items (files and directories) in a tree of directories, one phase at a time between\n"
      "barriers, and the rate of every phase is reported. Short options are mdtest's letters (its -P and -t\n"
      "are accepted: mdbench always does what they ask; -X is also --verify-read).\n"
      "Subcommands: validate|export|import|report|check on results files, clean DIR for leftovers "
      "(--help).\n";
  for (const GroupRow& group : kOptionGroups) {
    if (group.in_help) help += helpGroup(group, group.caption, width);
  }
  for (const GroupRow& group : kOptionGroups) {
    if (!group.in_help) help += helpGroup(group, kMdtestCaption, width);
  }
  help += "\nBackends (-a, any case; each row's options are in Backend options):\n";
  for (const BackendRow& backend : kBackendRows) {
    help += fmt::format("  {:<12}{}\n", backend.name, backend.summary);
  }
  help +=
      "\n"
      "Presets: --preset NAME -n N reads NAME's options first; later ones replace its values (-W 5, -F=0).\n"
      "No phase letter: IO500's phases; -Y syncs the create phase only, as IO500 gives -Y to its create "
      "job.\n";
  for (const config_detail::Preset& preset : config_detail::kPresets) {
    help += fmt::format("  {:<12}{}   (phases {})\n", preset.name, preset.options, preset.phase_letters);
  }
  help +=
      "\n"
      "mdtest: its spellings parse (-n 5, -n5, -n=5, --items=5; a switch given 0 is off, any other number "
      "on:\n"
      "-F=1, -u=0; -v=3); a backend's options only with its -a. Refused as mdtest refuses\n"
      "them: -B with -N; -c with -S, -B or several -d; -S with -u; several -d without -u or with -N; -k "
      "with\n"
      "-w; -X with -e 0 or (typed) without -E; -e > -w creating and reading; -n with -I under -u; -n not a\n"
      "multiple of -I. Refused as they would corrupt counts: -E with -D (no files: a rate of nothing); a\n"
      "sweep without -C and -r (each step starts from an empty tree); --keep with -r, --renamed with -C or\n"
      "--file-rename (files not where looked for).\n";
  help +=
      "\n"
      "Names: <dir>/mdbench.iter.<iteration>/mdbench_tree.<d> (-u: mdbench_tree.<rank>.<d>), nested, hold\n"
      "file.mdbench.<rank>.<i> and dir.mdbench.<rank>.<i>; -n is exact (the first directories get one\n"
      "more), but for -n with -I over a shared tree: -n/-I whole trees of -I items per directory "
      "(mdtest's).\n"
      "\n"
      "Exit status: 0 every operation succeeded; 1 an operation failed or the run could not start; 2 bad\n"
      "options (all reported, nothing touched); 128+N stopped by signal N (INT, TERM, HUP, QUIT, PIPE).\n";
  return help;
}

}  // namespace mdbench
