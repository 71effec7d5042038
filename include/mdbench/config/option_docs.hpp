// The option tables as data, for what documents them (man page, shell completion): the same definitions
// --help prints, so the documentation cannot drift from the parser.
#pragma once

#include <string>
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

}  // namespace mdbench
