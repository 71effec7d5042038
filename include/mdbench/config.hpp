// Run configuration: a plain value, parsed from the command line, resolved and validated before any I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mdbench {

enum class TreeSharing : std::uint8_t { kShared, kUnique };            // -u selects kUnique
enum class ItemKinds : std::uint8_t { kBoth, kFilesOnly, kDirsOnly };  // -F / -D

enum class OutputMode : std::uint8_t {
  kCreate,  // the results file must not exist
  kForce,   // --force: replace an existing file
  kAppend,  // --append: add a run group to an existing results file (or create it)
};

// -C -T -E -r. When none is given, all four are selected (read only when files are in play: not with -D).
struct PhaseSelection {
  bool create = false;
  bool stat = false;
  bool read = false;
  bool remove = false;
  bool any() const { return create || stat || read || remove; }
};

struct Config {
  std::uint64_t items = 1000;  // -n, --items: items per rank, exact
  std::string target;          // -d, --dir: empty means a fresh mdbench.<stamp> directory in the cwd
  TreeSharing sharing = TreeSharing::kShared;
  std::uint32_t depth = 0;          // -z, --depth
  std::uint32_t branching = 1;      // -b, --branching
  std::uint64_t items_per_dir = 0;  // -I, --items-per-dir; 0: spread -n evenly over the directories
  bool leaf_only = false;           // -L, --leaf-only
  ItemKinds kinds = ItemKinds::kBoth;
  PhaseSelection phases;          // after resolve(): at least one selected
  std::uint32_t iterations = 1;   // -i, --iterations
  std::uint64_t write_bytes = 0;  // -w, --write-bytes
  std::uint64_t read_bytes = 0;   // -e, --read-bytes
  bool keep = false;              // --keep: leave the tree in place after the run
  std::string output;             // -o, --output: results file; empty: a default name in the cwd
  OutputMode output_mode = OutputMode::kCreate;  // --force, --append
  std::string command_line;                      // the arguments as given, for the record
};

enum class CliAction : std::uint8_t { kRun, kHelp, kVersion };

struct CliRequest {
  CliAction action = CliAction::kRun;
  Config config;
  // Every problem found, each naming the option and the offending value. Non-empty means exit 2.
  std::vector<std::string> errors;
};

// Parses, resolves and validates. args excludes argv[0]. Never throws for bad user input, never does I/O.
CliRequest parseCommandLine(const std::vector<std::string>& args);

// Checks a resolved Config for contradictions and impossible values; returns every problem found.
std::vector<std::string> validate(const Config& config);

// The --help text.
std::string helpText();

}  // namespace mdbench
