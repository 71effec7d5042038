// The option table of the main command, shared by parsing (config.cpp) and the help text and the man page's
// option export (config_help.cpp): each option's names, the raw values it fills, and the Boost table.
// Private to src/config*.cpp.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mdbench::config_detail {

namespace po = boost::program_options;

// Each option's names once: as Boost wants them, and as messages show them. Short names are mdtest's letters.
struct OptionName {
  const char* boost;
  const char* shown;
};
inline constexpr OptionName kItems{"items,n", "-n/--items"};
inline constexpr OptionName kDir{"dir,d", "-d/--dir"};
inline constexpr OptionName kUniqueDir{"unique-dir,u", "-u/--unique-dir"};
inline constexpr OptionName kDepth{"depth,z", "-z/--depth"};
inline constexpr OptionName kBranching{"branching,b", "-b/--branching"};
inline constexpr OptionName kItemsPerDir{"items-per-dir,I", "-I/--items-per-dir"};
inline constexpr OptionName kLeafOnly{"leaf-only,L", "-L/--leaf-only"};
inline constexpr OptionName kFilesOnly{"files-only,F", "-F/--files-only"};
inline constexpr OptionName kDirsOnly{"dirs-only,D", "-D/--dirs-only"};
inline constexpr OptionName kSharedFiles{"shared-files,S", "-S/--shared-files"};
inline constexpr OptionName kPreset{"preset", "--preset"};
inline constexpr OptionName kCreate{"create,C", "-C/--create"};
inline constexpr OptionName kStat{"stat,T", "-T/--stat"};
inline constexpr OptionName kRead{"read,E", "-E/--read"};
inline constexpr OptionName kRemove{"remove,r", "-r/--remove"};
inline constexpr OptionName kRename{"rename,U", "-U/--rename"};
inline constexpr OptionName kReaddir{"readdir", "--readdir"};
inline constexpr OptionName kRenamed{"renamed", "--renamed"};
inline constexpr OptionName kShift{"shift,N", "-N/--shift"};
inline constexpr OptionName kRandom{"random,R", "-R/--random"};
inline constexpr OptionName kStonewall{"stonewall,W", "-W/--stonewall"};
inline constexpr OptionName kStonewallFile{"stonewall-file,x", "-x/--stonewall-file"};
inline constexpr OptionName kPreDelay{"pre-delay,p", "-p/--pre-delay"};
inline constexpr OptionName kPrintRateAndTime{"print-rate-and-time,P", "-P/--print-rate-and-time"};
inline constexpr OptionName kTimeUniqueOverhead{"time-unique-overhead,t", "-t/--time-unique-overhead"};
inline constexpr OptionName kWriteBytes{"write-bytes,w", "-w/--write-bytes"};
inline constexpr OptionName kReadBytes{"read-bytes,e", "-e/--read-bytes"};
inline constexpr OptionName kFsync{"fsync,y", "-y/--fsync"};
inline constexpr OptionName kSync{"sync,Y", "-Y/--sync"};
inline constexpr OptionName kVerify{"verify,X", "-X/--verify"};
inline constexpr OptionName kIterations{"iterations,i", "-i/--iterations"};
inline constexpr OptionName kKeep{"keep", "--keep"};
inline constexpr OptionName kOutput{"output,o", "-o/--output"};
inline constexpr OptionName kForce{"force", "--force"};
inline constexpr OptionName kAppend{"append", "--append"};
inline constexpr OptionName kSweep{"sweep", "--sweep"};
inline constexpr OptionName kSweepPlacement{"sweep-placement", "--sweep-placement"};
inline constexpr OptionName kSweepFirst{"sweep-first,f", "-f/--sweep-first"};
inline constexpr OptionName kSweepLast{"sweep-last,l", "-l/--sweep-last"};
inline constexpr OptionName kSweepStride{"sweep-stride,s", "-s/--sweep-stride"};
inline constexpr OptionName kSteady{"steady", "--steady"};
inline constexpr OptionName kDatasets{"datasets", "--datasets"};
inline constexpr OptionName kSeriesInterval{"series-interval", "--series-interval"};
inline constexpr OptionName kProgress{"progress", "--progress"};
inline constexpr OptionName kVerbose{"verbose,v", "-v/--verbose"};
inline constexpr OptionName kHelp{"help,h", "-h/--help"};
inline constexpr OptionName kVersion{"version", "--version"};

// What the command line said, before conversion. Values stay strings so that a bad one becomes a message,
// not an exception; nullopt means "not given".
struct RawOptions {
  std::optional<std::string> items, dir, depth, branching, items_per_dir, iterations, write_bytes, read_bytes,
      output, shift, random_seed, stonewall, stonewall_file, pre_delay, preset, series_interval, progress,
      steady, datasets;
  std::optional<std::string> sweep, sweep_placement, sweep_first, sweep_last, sweep_stride;
  bool unique_dir = false, leaf_only = false, files_only = false, dirs_only = false, shared_files = false;
  bool create = false, stat = false, read = false, remove = false, rename = false, readdir = false,
       renamed = false;
  bool random = false, fsync = false, sync = false, verify = false;
  bool print_rate_and_time = false, time_unique_overhead = false;  // mdtest's; nothing to change
  bool keep = false, help = false, version = false, force = false, append = false;
  std::uint32_t verbosity = 0;
};

struct OptionTable {
  std::vector<std::pair<std::string, std::shared_ptr<po::options_description>>> groups;  // caption, options
  po::options_description all;
};

// The one option table: lookups while parsing and the help text both come from it. Bound to raw.
OptionTable buildOptionTable(RawOptions& raw);

}  // namespace mdbench::config_detail
