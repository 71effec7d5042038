// The main command's --help text, and its options and presets exported for the man page and the bash
// completion (option_docs.hpp), all from the one option table (config_table.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "config_presets.hpp"
#include "config_table.hpp"
#include "config_tokenizer.hpp"
#include "mdbench/config/config.hpp"
#include "mdbench/config/option_docs.hpp"

namespace mdbench {

using config_detail::buildOptionTable;
using config_detail::OptionTable;
using config_detail::RawOptions;
using config_detail::takesValue;
namespace po = boost::program_options;

namespace {

OptionDoc optionDoc(const po::option_description& option) {
  OptionDoc doc;
  doc.long_name = option.long_name();
  const std::string short_name = option.canonical_display_name(po::command_line_style::allow_dash_for_short);
  if (short_name.size() == 2 && short_name[0] == '-') doc.short_name = short_name.substr(1);
  if (takesValue(option)) doc.value_name = option.semantic()->name();
  doc.value_optional = config_detail::valueOptional(option);
  doc.repeatable = config_detail::repeatable(option);
  doc.description = option.description();
  return doc;
}

}  // namespace

std::vector<OptionGroupDoc> mainOptionDocs() {
  RawOptions unused;
  const OptionTable table = buildOptionTable(unused);
  std::vector<OptionGroupDoc> docs;
  OptionGroupDoc hidden{"Accepted for mdtest scripts (not in --help)", false, {}};
  for (const auto& [caption, group] : table.groups) {
    OptionGroupDoc& doc = docs.emplace_back(OptionGroupDoc{caption, true, {}});
    for (const auto& option : group->options()) doc.options.push_back(optionDoc(*option));
  }
  // The table holds every option once; what no --help group holds is the hidden mdtest spelling.
  for (const auto& option : table.all.options()) {
    const bool shown = std::any_of(docs.begin(), docs.end(), [&option](const OptionGroupDoc& group) {
      return std::any_of(group.options.begin(), group.options.end(),
                         [&option](const OptionDoc& doc) { return doc.long_name == option->long_name(); });
    });
    if (!shown) hidden.options.push_back(optionDoc(*option));
  }
  docs.push_back(std::move(hidden));
  return docs;
}

std::vector<PresetDoc> presetDocs() {
  std::vector<PresetDoc> docs;
  for (const config_detail::Preset& preset : config_detail::kPresets) {
    docs.push_back({std::string(preset.name), std::string(preset.options)});
  }
  return docs;
}

std::string helpText() {
  RawOptions unused;
  const OptionTable table = buildOptionTable(unused);
  const auto left_column = [](const po::option_description& option) {
    const std::string short_name =
        option.canonical_display_name(po::command_line_style::allow_dash_for_short);
    const bool has_short = short_name.size() == 2 && short_name[0] == '-';
    return fmt::format("  {:4}--{}{}{}", has_short ? short_name + "," : "", option.long_name(),
                       takesValue(option) ? " " : "", takesValue(option) ? option.semantic()->name() : "");
  };
  std::size_t width = 0;
  for (const auto& option : table.all.options()) width = std::max(width, left_column(*option).size());
  width += 2;

  std::string help =
      "Usage: mpiexec -n RANKS mdbench [OPTIONS]   (or: mdbench [OPTIONS] for a single rank)\n"
      "\n"
      "File system metadata benchmark in the manner of mdtest: each rank creates, stats, reads and removes\n"
      "its own items (files and directories) in a tree of directories, one phase at a time between\n"
      "barriers, and the rate of every phase is reported. Short options are mdtest's letters (its -P and -t\n"
      "are accepted: mdbench always does what they ask).\n"
      "Subcommands: validate|export|import|report|check on results files, clean DIR for leftovers "
      "(--help).\n";
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
      "Presets: --preset NAME -n N reads NAME's options first; later options replace its values (-W 5),\n"
      "but cannot turn its switches off. IO500 gives -Y to its create job only; mdbench's -Y syncs every "
      "phase.\n";
  for (const config_detail::Preset& preset : config_detail::kPresets) {
    help += fmt::format("  {:<12}{}\n", preset.name, preset.options);
  }
  help +=
      "\n"
      "Names: <dir>/mdbench.iter.<iteration>/mdbench_tree.<d> (-u: mdbench_tree.<rank>.<d>), nested, hold\n"
      "file.mdbench.<rank>.<i> and dir.mdbench.<rank>.<i>; -n is exact (the first directories get one "
      "more).\n"
      "\n"
      "Exit status: 0 every operation succeeded; 1 an operation failed or the run could not start; 2 bad\n"
      "options (all reported, nothing touched); 128+N stopped by signal N (INT, TERM, HUP, QUIT, PIPE).\n";
  return help;
}

}  // namespace mdbench
