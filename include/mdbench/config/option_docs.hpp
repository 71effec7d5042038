// The option rows as data, for what documents them (man page, shell completion) and what names an option
// outside config: the same rows the parser and --help are made from, so nothing can drift from them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mdbench {

struct OptionDoc {
  std::string long_name;        // without dashes: "items"
  std::string short_name;       // without the dash, empty when none: "n"
  std::string value_name;       // empty for a switch: "N", "[SEED]"
  bool value_optional = false;  // -R [SEED]: the value may be left out
  bool repeatable = false;      // -v: each occurrence counts
  std::string description;      // may hold '\n' where --help breaks the line
};

struct OptionGroupDoc {
  std::string caption;
  bool in_help = true;  // false: accepted (mdtest's spelling) but left out of --help
  std::vector<OptionDoc> options;
};

struct PresetDoc {
  std::string name;
  std::string options;  // the options it stands for, as --help prints them
};

// The benchmark's options (config.cpp), grouped as --help groups them, then the group --help leaves out.
std::vector<OptionGroupDoc> mainOptionDocs();
std::vector<PresetDoc> presetDocs();

// An option of the benchmark as messages name it, from its row: "-o/--output" for "output", "--sweep" for
// "sweep". Throws std::invalid_argument for a name no row has (a programmer error).
std::string optionLabel(std::string_view long_name);

}  // namespace mdbench
