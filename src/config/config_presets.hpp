// The --preset table: IO500's mdtest workloads as mdbench options (private to config).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/config/config.hpp"

namespace mdbench::config_detail {

// A preset is a list of options read before the user's, so an option given on the command line replaces a
// value the preset sets (-W 5, -N 0), and mdtest's "-F=0" turns off a switch it sets. --help prints
// `options` as written here, so what the help shows is what runs.
struct Preset {
  std::string_view name;
  std::string_view options;        // space separated, parsed by the same tokenizer as the command line
  PhaseSelection phases;           // when the command line selects none of -C -T -E -r -U
  std::string_view phase_letters;  // the same, for --help
};

// From IO500 (IO500/io500, src/phase_mdtest_{easy,hard}*.c), which runs each phase as its own mdtest job:
//   easy: -n N -u -L -F -P -N 1 -d DIR -x FILE; the write job adds -C -Y -W 300; then -T; then -r.
//   hard: -n N -t -w 3901 -e 3901 -P -N 1 -F -d DIR -x FILE; the write job adds -C -Y -W 300; then -T;
//         then -E -X; then -r.
// Left out: -n, which IO500 takes from its ini file and mdbench requires beside a preset; -d and -x, paths
// of the installation; -P, as mdbench always prints rate and time; -G, a data offset mdbench has no use
// for; the phase letters, which are the preset's default phases instead (IO500's jobs: easy has no read),
// so that one mdbench run does them all, or the user picks some as IO500's separate jobs do. -W only ever
// stops the create phase, as in mdtest. -Y: IO500 passes it to the write job only, so under a preset -Y
// syncs the create phase only (Config::sync_creates_only). -X: IO500's hard read job verifies; it applies
// only when the read phase runs. -t is kept for the record: mdbench always times tree creation itself.
inline constexpr std::array<Preset, 2> kPresets = {{
    {"io500-easy", "-u -L -F -N 1 -W 300 -Y", {.create = true, .stat = true, .remove = true}, "-C -T -r"},
    {"io500-hard",
     "-t -w 3901 -e 3901 -N 1 -F -W 300 -Y -X",
     {.create = true, .stat = true, .read = true, .remove = true},
     "-C -T -E -r"},
}};

inline const Preset* findPreset(std::string_view name) {
  for (const Preset& preset : kPresets) {
    if (preset.name == name) return &preset;
  }
  return nullptr;
}

inline std::vector<std::string> presetArgs(const Preset& preset) {
  std::vector<std::string> args;
  for (std::size_t start = 0; start < preset.options.size();) {
    const std::size_t space = preset.options.find(' ', start);
    const std::size_t end = space == std::string_view::npos ? preset.options.size() : space;
    args.emplace_back(preset.options.substr(start, end - start));
    start = end + 1;
  }
  return args;
}

// "io500-easy or io500-hard", for messages.
inline std::string presetNames() {
  std::string names;
  for (std::size_t i = 0; i < kPresets.size(); ++i) {
    if (i > 0) names += i + 1 == kPresets.size() ? " or " : ", ";
    names += kPresets[i].name;
  }
  return names;
}

}  // namespace mdbench::config_detail
