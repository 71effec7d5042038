// Tests of the command line: options, strict numbers, resolution, validation, help.
#include "mdbench/config/config.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/config/backends.hpp"

namespace mdbench {
namespace {

using Args = std::vector<std::string>;
using Errors = std::vector<std::string>;

// The Config of a command line that must be accepted.
Config configOf(const Args& args) {
  const CliRequest request = parseCommandLine(args);
  EXPECT_EQ(request.action, CliAction::kRun);
  EXPECT_EQ(request.errors, Errors{}) << "for: " << request.config.command_line;
  return request.config;
}

Errors errorsOf(const Args& args) { return parseCommandLine(args).errors; }

// The single error of a command line with exactly one problem.
std::string errorOf(const Args& args) {
  const Errors errors = errorsOf(args);
  EXPECT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  return errors.empty() ? "" : errors.front();
}

PhaseSelection phases(bool create, bool stat, bool read, bool remove) { return {create, stat, read, remove}; }

// Phases by letter: C T E r U as in mdtest (U: the directory rename), d readdir, f --file-rename.
// phasesOf("CTrU").
PhaseSelection phasesOf(std::string_view letters) {
  PhaseSelection selection;
  for (const char letter : letters) {
    bool& phase = letter == 'C'   ? selection.create
                  : letter == 'T' ? selection.stat
                  : letter == 'E' ? selection.read
                  : letter == 'r' ? selection.remove
                  : letter == 'U' ? selection.rename
                  : letter == 'f' ? selection.file_rename
                                  : selection.readdir;
    phase = true;
  }
  return selection;
}

void expectPhases(const Config& config, const PhaseSelection& expected) {
  EXPECT_EQ(config.phases.create, expected.create);
  EXPECT_EQ(config.phases.stat, expected.stat);
  EXPECT_EQ(config.phases.read, expected.read);
  EXPECT_EQ(config.phases.remove, expected.remove);
  EXPECT_EQ(config.phases.rename, expected.rename);
  EXPECT_EQ(config.phases.readdir, expected.readdir);
  EXPECT_EQ(config.phases.file_rename, expected.file_rename);
}

// Every field but preset and command_line, so that two command lines can be compared for their effect.
std::string describe(const Config& c) {
  std::ostringstream out;
  const PhaseSelection& p = c.phases;
  out << "n=" << c.items << " d=" << c.target << " targets=";
  for (const std::string& target : c.targets) out << target << ";";
  out << " sharing=" << static_cast<int>(c.sharing) << " z=" << c.depth << " b=" << c.branching
      << " I=" << c.items_per_dir << " L=" << c.leaf_only << " kinds=" << static_cast<int>(c.kinds)
      << " phases=" << p.create << p.stat << p.read << p.remove << p.rename << p.readdir
      << " i=" << c.iterations << " w=" << c.write_bytes << " e=" << c.read_bytes << " keep=" << c.keep
      << " N=" << c.shift << " R=" << c.random_order << "/" << c.random_seed << " W=" << c.stonewall_s
      << " x=" << c.stonewall_file << " renamed=" << c.renamed << " y=" << c.fsync_writes
      << " Y=" << c.sync_phases << " X=" << c.verify_read << " S=" << c.shared_files << " v=" << c.verbosity
      << " p=" << c.pre_delay_s << " o=" << c.output << " mode=" << static_cast<int>(c.output_mode)
      << " a=" << apiName(c.api) << " style=" << pathStyleName(c.path_style)
      << " sync=" << syncCallName(c.sync_call) << " console=" << static_cast<int>(c.console)
      << " k=" << c.make_node << " c=" << c.collective_creates << " B=" << c.no_barriers
      << " Z=" << c.print_time << " all=" << c.print_all_procs << " ranks=" << c.show_rank_statistics
      << " rankcsv=" << c.rank_details_csv << " opcsv=" << c.per_op_csv_prefix << " vw=" << c.verify_write
      << " packet=" << dataPacketName(c.data_packet) << " G=" << c.buffer_offset
      << " wae=" << c.warnings_as_errors << " before=" << c.cmd_before_phase
      << " after=" << c.cmd_after_phase;
  return out.str();
}

// A Config as parseCommandLine() returns it for no arguments: a valid base for validate() tests.
Config validConfig() {
  Config config;
  config.phases = phases(true, true, true, true);
  return config;
}

// ---- defaults and each option

TEST(ConfigParse, Defaults) {
  const Config config = configOf({});
  EXPECT_EQ(config.items, 1000u);
  EXPECT_EQ(config.target, "");
  EXPECT_EQ(config.sharing, TreeSharing::kShared);
  EXPECT_EQ(config.depth, 0u);
  EXPECT_EQ(config.branching, 1u);
  EXPECT_EQ(config.items_per_dir, 0u);
  EXPECT_FALSE(config.leaf_only);
  EXPECT_EQ(config.kinds, ItemKinds::kBoth);
  expectPhases(config, phasesOf("CTErU"));  // mdtest's, its directory rename included
  EXPECT_EQ(config.iterations, 1u);
  EXPECT_EQ(config.write_bytes, 0u);
  EXPECT_EQ(config.read_bytes, 0u);
  EXPECT_FALSE(config.keep);
  EXPECT_EQ(config.targets, std::vector<std::string>{});
  EXPECT_EQ(config.shift, 0u);
  EXPECT_FALSE(config.random_order);
  EXPECT_EQ(config.random_seed, 0u);
  EXPECT_EQ(config.stonewall_s, 0.0);
  EXPECT_EQ(config.stonewall_file, "");
  EXPECT_FALSE(config.renamed);
  EXPECT_FALSE(config.fsync_writes);
  EXPECT_FALSE(config.sync_phases);
  EXPECT_FALSE(config.verify_read);
  EXPECT_FALSE(config.shared_files);
  EXPECT_EQ(config.verbosity, 0u);
  EXPECT_EQ(config.pre_delay_s, 0.0);
  EXPECT_EQ(config.preset, "");
  EXPECT_EQ(config.command_line, "mdbench");
  EXPECT_EQ(parseCommandLine({}).action, CliAction::kRun);
}

TEST(ConfigParse, ValueOptionsShortAndLong) {
  for (const bool use_long : {false, true}) {
    const auto opt = [use_long](const char* short_name, const char* long_name) {
      return std::string(use_long ? long_name : short_name);
    };
    const Config config = configOf({opt("-n", "--items"), "5000", opt("-d", "--dir"), "/scratch/x",
                                    opt("-z", "--depth"), "2", opt("-b", "--branching"), "3",
                                    opt("-I", "--items-per-dir"), "500", opt("-i", "--iterations"), "4",
                                    opt("-w", "--write-bytes"), "3901", opt("-e", "--read-bytes"), "100"});
    SCOPED_TRACE(use_long ? "long" : "short");
    EXPECT_EQ(config.items, 65000u);  // mdtest's -n with -I: 10 loops of 500 in each of 13 directories
    EXPECT_EQ(config.target, "/scratch/x");
    EXPECT_EQ(config.depth, 2u);
    EXPECT_EQ(config.branching, 3u);
    EXPECT_EQ(config.items_per_dir, 500u);
    EXPECT_EQ(config.iterations, 4u);
    EXPECT_EQ(config.write_bytes, 3901u);
    EXPECT_EQ(config.read_bytes, 100u);
  }
}

TEST(ConfigParse, ValueSpellings) {
  EXPECT_EQ(configOf({"--items=7"}).items, 7u);
  EXPECT_EQ(configOf({"-n7"}).items, 7u);
  EXPECT_EQ(configOf({"-uFn", "7"}).items, 7u);
  EXPECT_EQ(configOf({"-uFn7"}).items, 7u);
  EXPECT_EQ(configOf({"-d", "-Q"}).target, "-Q");  // not one of ours, so a value as for Boost
  EXPECT_EQ(configOf({"-n", "007"}).items, 7u);
}

TEST(ConfigParse, SwitchesShortAndLong) {
  EXPECT_EQ(configOf({"-u"}).sharing, TreeSharing::kUnique);
  EXPECT_EQ(configOf({"--unique-dir"}).sharing, TreeSharing::kUnique);
  EXPECT_TRUE(configOf({"-L"}).leaf_only);
  EXPECT_TRUE(configOf({"--leaf-only"}).leaf_only);
  EXPECT_EQ(configOf({"-F"}).kinds, ItemKinds::kFilesOnly);
  EXPECT_EQ(configOf({"--files-only"}).kinds, ItemKinds::kFilesOnly);
  EXPECT_EQ(configOf({"-D"}).kinds, ItemKinds::kDirsOnly);
  EXPECT_EQ(configOf({"--dirs-only"}).kinds, ItemKinds::kDirsOnly);
  EXPECT_TRUE(configOf({"--keep"}).keep);
}

TEST(ConfigParse, PhasesShortAndLong) {
  expectPhases(configOf({"-C"}), phases(true, false, false, false));
  expectPhases(configOf({"--create"}), phases(true, false, false, false));
  expectPhases(configOf({"-T"}), phases(false, true, false, false));
  expectPhases(configOf({"--stat"}), phases(false, true, false, false));
  expectPhases(configOf({"-E"}), phases(false, false, true, false));
  expectPhases(configOf({"--read"}), phases(false, false, true, false));
  expectPhases(configOf({"-r"}), phases(false, false, false, true));
  expectPhases(configOf({"--remove"}), phases(false, false, false, true));
  expectPhases(configOf({"-C", "-r"}), phases(true, false, false, true));
}

TEST(ConfigParse, DirsOnlyDefaultPhasesLeaveOutRead) { expectPhases(configOf({"-D"}), phasesOf("CTrU")); }

TEST(ConfigParse, GroupedSwitches) {
  const Config config = configOf({"-uFL", "-CTr"});
  EXPECT_EQ(config.sharing, TreeSharing::kUnique);
  EXPECT_EQ(config.kinds, ItemKinds::kFilesOnly);
  EXPECT_TRUE(config.leaf_only);
  expectPhases(config, phases(true, true, false, true));
}

TEST(ConfigParse, IoFiveHundredEasyAndHard) {
  const Config easy = configOf({"-n", "1000", "-u", "-L", "-F"});
  EXPECT_EQ(easy.items, 1000u);
  EXPECT_EQ(easy.sharing, TreeSharing::kUnique);
  const Config hard = configOf({"-n", "1000", "-w", "3901", "-e", "3901", "-F"});
  EXPECT_EQ(hard.write_bytes, 3901u);
  EXPECT_EQ(hard.read_bytes, 3901u);
}

// ---- numbers

TEST(ConfigNumbers, NotWholeNumbers) {
  EXPECT_EQ(errorOf({"-n", "-5"}), "-n/--items: '-5' is not a whole number");
  EXPECT_EQ(errorOf({"-n", "1e30"}), "-n/--items: '1e30' is not a whole number");
  EXPECT_EQ(errorOf({"--items", "1.5"}), "-n/--items: '1.5' is not a whole number");
  EXPECT_EQ(errorOf({"-n", "12abc"}), "-n/--items: '12abc' is not a whole number");
  EXPECT_EQ(errorOf({"-n", "+5"}), "-n/--items: '+5' is not a whole number");
  EXPECT_EQ(errorOf({"-n", " 5"}), "-n/--items: ' 5' is not a whole number");
  EXPECT_EQ(errorOf({"-z", "x"}), "-z/--depth: 'x' is not a whole number");
  EXPECT_EQ(errorOf({"-b", "2.0"}), "-b/--branching: '2.0' is not a whole number");
  EXPECT_EQ(errorOf({"-I", "ten"}), "-I/--items-per-dir: 'ten' is not a whole number");
  EXPECT_EQ(errorOf({"-i", "-1"}), "-i/--iterations: '-1' is not a whole number");
}

TEST(ConfigNumbers, EmptyValues) {
  EXPECT_EQ(errorOf({"-n", ""}), "-n/--items: empty value, expected a whole number");
  EXPECT_EQ(errorOf({"--items="}), "-n/--items: empty value, expected a whole number");
  EXPECT_EQ(errorOf({"-w", ""}), "-w/--write-bytes: empty value, expected a byte count");
  EXPECT_EQ(errorOf({"-d", ""}), "-d/--dir: empty value, expected a directory");
}

TEST(ConfigNumbers, OutOfRange) {
  EXPECT_EQ(configOf({"-n", "18446744073709551615"}).items, 18446744073709551615u);
  EXPECT_EQ(errorOf({"-n", "18446744073709551616"}),
            "-n/--items: '18446744073709551616' is out of range (at most 18446744073709551615)");
  EXPECT_EQ(errorOf({"-I", "99999999999999999999"}),
            "-I/--items-per-dir: '99999999999999999999' is out of range (at most 18446744073709551615)");
  EXPECT_EQ(configOf({"-i", "4294967295"}).iterations, 4294967295u);
  EXPECT_EQ(errorOf({"-i", "4294967296"}),
            "-i/--iterations: '4294967296' is out of range (at most 4294967295)");
  EXPECT_EQ(errorOf({"-z", "4294967296"}), "-z/--depth: '4294967296' is out of range (at most 4294967295)");
  EXPECT_EQ(errorOf({"-b", "5000000000"}),
            "-b/--branching: '5000000000' is out of range (at most 4294967295)");
}

TEST(ConfigNumbers, ByteSuffixes) {
  EXPECT_EQ(configOf({"-w", "4k"}).write_bytes, 4096u);
  EXPECT_EQ(configOf({"-w", "4K"}).write_bytes, 4096u);
  EXPECT_EQ(configOf({"-w", "3m"}).write_bytes, 3u << 20);
  EXPECT_EQ(configOf({"-w", "3M"}).write_bytes, 3u << 20);
  EXPECT_EQ(configOf({"-w", "1g"}).write_bytes, 1u << 30);
  EXPECT_EQ(configOf({"-w", "1G", "-e", "1024m"}).read_bytes, 1u << 30);
  EXPECT_EQ(configOf({"-w", "1073741824"}).write_bytes, 1u << 30);
  EXPECT_EQ(configOf({"-w", "0k"}).write_bytes, 0u);
}

TEST(ConfigNumbers, ByteCountsRefused) {
  EXPECT_EQ(errorOf({"-w", "2g"}), "-w/--write-bytes: '2g' is more than 1 GiB");
  EXPECT_EQ(errorOf({"-w", "1025m"}), "-w/--write-bytes: '1025m' is more than 1 GiB");
  EXPECT_EQ(errorOf({"-e", "1073741825"}), "-e/--read-bytes: '1073741825' is more than 1 GiB");
  EXPECT_EQ(errorOf({"-e", "99999999999999999999k"}),
            "-e/--read-bytes: '99999999999999999999k' is more than 1 GiB");
  const std::string kind = " is not a byte count (a whole number, optionally with k, m or g)";
  EXPECT_EQ(errorOf({"-w", "4KiB"}), "-w/--write-bytes: '4KiB'" + kind);
  EXPECT_EQ(errorOf({"-w", "1.5k"}), "-w/--write-bytes: '1.5k'" + kind);
  EXPECT_EQ(errorOf({"-w", "k"}), "-w/--write-bytes: 'k'" + kind);
  EXPECT_EQ(errorOf({"-w", "-1"}), "-w/--write-bytes: '-1'" + kind);
  EXPECT_EQ(errorOf({"-e", "4t"}), "-e/--read-bytes: '4t'" + kind);
}

// As mdtest: -I 0 is its default, -n spread over the directories (mdtest rounds down, mdbench does not).
TEST(ConfigNumbers, ItemsPerDirZeroIsTheDefault) {
  EXPECT_EQ(configOf({"-I", "0"}).items_per_dir, 0u);
  EXPECT_EQ(configOf({"-I", "0"}).items, 1000u);
  EXPECT_EQ(configOf({"-n", "4", "-I", "0", "-z", "1", "-b", "2"}).items, 4u);
  EXPECT_EQ(configOf({"-I", "3", "-I", "0", "-n", "4", "-u"}).items, 4u);  // the last, as mdtest
  EXPECT_EQ(errorOf({"--preset", "io500-easy", "-I", "0"}),
            "--preset io500-easy needs -n/--items (items per rank)");
}

TEST(ConfigNumbers, EveryBadValueReported) {
  EXPECT_EQ(
      errorsOf({"-n", "x", "-z", "-1", "-w", "2g", "-i", "1.5"}),
      (Errors{"-n/--items: 'x' is not a whole number", "-z/--depth: '-1' is not a whole number",
              "-i/--iterations: '1.5' is not a whole number", "-w/--write-bytes: '2g' is more than 1 GiB"}));
}

// A refused value leaves the default in Config; no cross-check may then blame a value the user never gave.
TEST(ConfigNumbers, RefusedValueCausesNoSecondMessage) {
  EXPECT_EQ(errorOf({"-n", "x", "-I", "1"}), "-n/--items: 'x' is not a whole number");
  EXPECT_EQ(errorOf({"-z", "x", "-b", "2", "-n", "20", "-I", "4"}), "-z/--depth: 'x' is not a whole number");
  EXPECT_EQ(errorOf({"-w", "x", "-e", "10"}),
            "-w/--write-bytes: 'x' is not a byte count (a whole number, optionally with k, m or g)");
  EXPECT_EQ(errorOf({"-b", "x", "-I", "3"}), "-b/--branching: 'x' is not a whole number");
}

// ---- resolution of -n from -I

// -I alone: -n is -I times the item directories (over a shared tree: one loop). With -n over a shared tree,
// mdtest's -n/-I loops of a whole tree: the items per rank are -n times the item directories.
TEST(ConfigResolve, ItemsFromItemsPerDir) {
  EXPECT_EQ(configOf({"-u", "-I", "10"}).items, 10u);                               // one directory
  EXPECT_EQ(configOf({"-u", "-I", "10", "-z", "2", "-b", "3"}).items, 130u);        // 1 + 3 + 9 directories
  EXPECT_EQ(configOf({"-u", "-I", "10", "-z", "3", "-b", "1"}).items, 40u);         // a chain of 4
  EXPECT_EQ(configOf({"-u", "-I", "10", "-z", "2", "-b", "3", "-L"}).items, 90u);   // 9 leaves
  EXPECT_EQ(configOf({"-I", "10", "-z", "2", "-b", "3"}).items, 130u);              // one loop
  EXPECT_EQ(configOf({"-I", "10", "-z", "2", "-b", "3", "-n", "70"}).items, 910u);  // 7 loops
  EXPECT_EQ(configOf({"-I", "10", "-z", "2", "-b", "3", "-n", "130"}).items, 1690u);
}

TEST(ConfigResolve, ItemsFromItemsPerDirOverflow) {
  EXPECT_EQ(errorOf({"-u", "-I", "18446744073709551615", "-z", "1", "-b", "2"}),
            "-I/--items-per-dir: 18446744073709551615 items over 3 directories is out of range "
            "(at most 18446744073709551615 items)");
}

TEST(ConfigResolve, CommandLineQuoting) {
  EXPECT_EQ(configOf({"-n", "10", "-d", "/scratch/a_b-c.d"}).command_line,
            "mdbench -n 10 -d /scratch/a_b-c.d");
  EXPECT_EQ(configOf({"-d", "my dir"}).command_line, "mdbench -d 'my dir'");
  EXPECT_EQ(configOf({"-d", "it's"}).command_line, "mdbench -d 'it'\\''s'");
  EXPECT_EQ(configOf({"-d", "$HOME/*"}).command_line, "mdbench -d '$HOME/*'");
  EXPECT_EQ(configOf({"-u", "--dir=a=b,c:d@e%f+g"}).command_line, "mdbench -u --dir=a=b,c:d@e%f+g");
  EXPECT_EQ(parseCommandLine({"-d", ""}).config.command_line, "mdbench -d ''");
  EXPECT_EQ(parseCommandLine({"x\ty"}).config.command_line, "mdbench 'x\ty'");
}

// ---- unknown options, positional arguments, repeats, syntax

TEST(ConfigSyntax, UnknownOptionsAllReported) {
  EXPECT_EQ(errorsOf({"--bogus", "-n", "5", "-Q", "--stone=3"}),
            (Errors{"unknown option '--bogus'", "unknown option '-Q'", "unknown option '--stone'"}));
}

TEST(ConfigSyntax, UnknownLetterInGroup) { EXPECT_EQ(errorOf({"-uQF"}), "unknown option '-Q' in '-uQF'"); }

TEST(ConfigSyntax, NoPrefixGuessing) {
  EXPECT_EQ(errorsOf({"--item", "5"}), (Errors{"unknown option '--item'", "unexpected argument '5'"}));
  EXPECT_EQ(errorOf({"--unique"}), "unknown option '--unique'");
  EXPECT_EQ(errorOf({"---n"}), "unknown option '---n'");
}

TEST(ConfigSyntax, PositionalArguments) {
  EXPECT_EQ(errorsOf({"run", "-n", "5", "/tmp"}),
            (Errors{"unexpected argument 'run'", "unexpected argument '/tmp'"}));
  EXPECT_EQ(errorOf({"-"}), "unexpected argument '-'");
  EXPECT_EQ(errorOf({"--", "-n"}), "unexpected argument '-n'");
  EXPECT_EQ(configOf({"-n", "5", "--"}).items, 5u);
}

// mdtest's rule for a value option given again: the last value wins, in both spellings and mixed.
TEST(ConfigSyntax, RepeatedValueOptionTakesTheLastValue) {
  EXPECT_EQ(configOf({"-n", "5", "-n", "10"}).items, 10u);
  EXPECT_EQ(configOf({"-n", "5", "--items", "6"}).items, 6u);
  EXPECT_EQ(configOf({"--items=6", "-n5"}).items, 5u);
  EXPECT_EQ(configOf({"-n=5", "-n", "6", "-n", "7"}).items, 7u);
  EXPECT_EQ(configOf({"-n", "5", "-d", "/tmp/a", "-d=/tmp/b"}).target, "/tmp/b");
  EXPECT_EQ(configOf({"-n", "5", "-w", "1k", "-w", "8", "-e", "8"}).write_bytes, 8u);
  EXPECT_EQ(configOf({"-n", "5", "-W", "10", "--stonewall=2"}).stonewall_s, 2.0);
  EXPECT_EQ(configOf({"-n", "5", "-G", "3", "--buffer-offset=9"}).buffer_offset, 9);
  EXPECT_EQ(configOf({"-n", "5", "--dataPacketType=o", "--dataPacketType", "random"}).data_packet,
            DataPacket::kRandom);
  // A value with an optional value: the last occurrence, with or without its value.
  EXPECT_EQ(configOf({"-n", "5", "-R", "3", "-R5"}).random_seed, 5u);
  const Config no_seed = configOf({"-n", "5", "-R5", "-R"});
  EXPECT_TRUE(no_seed.random_order);
  EXPECT_EQ(no_seed.random_seed, 0u);
  // A replaced value is not read, as in mdtest; the one that counts is checked, and one must be given.
  EXPECT_EQ(configOf({"-n", "x", "-n", "5"}).items, 5u);
  EXPECT_EQ(errorOf({"-n", "5", "-n", "x"}), "-n/--items: 'x' is not a whole number");
  EXPECT_EQ(errorOf({"-n", "5", "-n"}), "-n/--items: needs a value");
}

// As mdtest (its OPTION_FLAG counts up, "=N" sets the count): a switch given again stays on, a later "=0"
// turns it off and a later bare one on again (every switch: OptionRows.EverySwitchMayBeRepeated).
TEST(ConfigSyntax, RepeatedSwitchIsAccepted) {
  EXPECT_EQ(configOf({"-u", "-n", "5", "-u"}).sharing, TreeSharing::kUnique);  // the 2017 IO500 scripts
  EXPECT_EQ(configOf({"-uu"}).sharing, TreeSharing::kUnique);
  EXPECT_EQ(configOf({"-u", "-u=0"}).sharing, TreeSharing::kShared);
  EXPECT_EQ(configOf({"-u=0", "-u"}).sharing, TreeSharing::kUnique);
  EXPECT_EQ(configOf({"-u", "-u=0", "-u"}).sharing, TreeSharing::kUnique);
  EXPECT_EQ(configOf({"-F", "-n", "5", "-F=1"}).kinds, ItemKinds::kFilesOnly);
  EXPECT_EQ(configOf({"-F", "-D", "-D=0"}).kinds, ItemKinds::kFilesOnly);
  EXPECT_TRUE(configOf({"--keep", "--keep"}).keep);
  EXPECT_EQ(configOf({"-v", "-v=3", "-v"}).verbosity, 4u);  // mdtest: 1, set to 3, 4
  expectPhases(configOf({"-C", "-T", "-C"}), phasesOf("CT"));
  expectPhases(configOf({"-C", "-T", "-C=0"}), phasesOf("T"));
  // -d a@b needs -u: mdtest 4.1 refuses -u -u there (its check reads "-u != 1"); mdbench does not.
  EXPECT_EQ(configOf({"-d", "a@b", "-u", "-u"}).targets, (std::vector<std::string>{"a", "b"}));
  // --preset stays refused: two presets are two different benchmarks.
  EXPECT_EQ(errorOf({"--preset", "io500-easy", "--preset", "io500-easy", "-n", "5"}),
            "--preset: given more than once");
}

TEST(ConfigSyntax, MissingValue) {
  EXPECT_EQ(errorOf({"-n"}), "-n/--items: needs a value");
  EXPECT_EQ(errorOf({"--dir"}), "-d/--dir: needs a value");
  EXPECT_EQ(errorOf({"-uFn"}), "-n/--items: needs a value");
  // The next word is one of our options: it stays an option, and -d lacks its value.
  const CliRequest request = parseCommandLine({"-d", "-u"});
  EXPECT_EQ(request.errors, Errors{"-d/--dir: needs a value"});
  EXPECT_EQ(request.config.sharing, TreeSharing::kUnique);
  EXPECT_EQ(errorOf({"-d", "--keep"}), "-d/--dir: needs a value");
}

// mdtest's OPTION_FLAG: a switch given a whole number is on above 0, off at 0.
TEST(ConfigSyntax, SwitchWithValue) {
  EXPECT_EQ(errorOf({"--keep=yes"}), "--keep: takes 0 (off) or a whole number (on), got '--keep=yes'");
  EXPECT_EQ(errorOf({"-F=x"}), "-F/--files-only: takes 0 (off) or a whole number (on), got '-F=x'");
  EXPECT_EQ(errorOf({"-F=-1"}), "-F/--files-only: takes 0 (off) or a whole number (on), got '-F=-1'");
  EXPECT_EQ(errorOf({"-F="}), "-F/--files-only: takes 0 (off) or a whole number (on), got '-F='");
  EXPECT_EQ(configOf({"--unique-dir=1"}).sharing, TreeSharing::kUnique);
  EXPECT_EQ(configOf({"-u=0"}).sharing, TreeSharing::kShared);
  EXPECT_EQ(configOf({"-u=7"}).sharing, TreeSharing::kUnique);
  EXPECT_EQ(configOf({"-F=1"}).kinds, ItemKinds::kFilesOnly);
  EXPECT_EQ(configOf({"-F=0"}).kinds, ItemKinds::kBoth);
  EXPECT_EQ(configOf({"-uF=1"}).kinds, ItemKinds::kFilesOnly);
  EXPECT_TRUE(configOf({"--verify-write=1"}).verify_write);
  EXPECT_FALSE(configOf({"--verify-write=0"}).verify_write);
  EXPECT_EQ(configOf({"-v=3"}).verbosity, 3u);
  EXPECT_EQ(configOf({"--verbose=2"}).verbosity, 2u);
  EXPECT_EQ(configOf({"-vv"}).verbosity, 2u);
  EXPECT_EQ(configOf({"-v", "-v=0"}).verbosity, 0u);
  EXPECT_EQ(errorOf({"-v=x"}), "-v/--verbose: takes 0 (off) or a whole number (on), got '-v=x'");
  expectPhases(configOf({"-C=0"}), phasesOf("CTErU"));  // no phase letter left: mdtest's default
  expectPhases(configOf({"-C=1", "-T"}), phasesOf("CT"));
}

TEST(ConfigSyntax, EverySyntaxProblemAtOnce) {
  EXPECT_EQ(errorsOf({"--keep=y", "--nope", "-u", "-n", "1", "-u", "extra", "-w"}),
            (Errors{"--keep: takes 0 (off) or a whole number (on), got '--keep=y'", "unknown option '--nope'",
                    "unexpected argument 'extra'", "-w/--write-bytes: needs a value"}));
}

// ---- help and version

TEST(ConfigHelp, HelpAndVersionActions) {
  EXPECT_EQ(parseCommandLine({"-h"}).action, CliAction::kHelp);
  EXPECT_EQ(parseCommandLine({"--help"}).action, CliAction::kHelp);
  EXPECT_EQ(parseCommandLine({"--version"}).action, CliAction::kVersion);
  EXPECT_EQ(parseCommandLine({"--version", "--help"}).action, CliAction::kHelp);
  EXPECT_EQ(parseCommandLine({"-uh"}).action, CliAction::kHelp);
}

TEST(ConfigHelp, HelpWinsOverErrors) {
  const CliRequest help = parseCommandLine({"-n", "abc", "--bogus", "-h", "-F", "-D"});
  EXPECT_EQ(help.action, CliAction::kHelp);
  EXPECT_EQ(help.errors, Errors{});
  const CliRequest version = parseCommandLine({"stray", "--version"});
  EXPECT_EQ(version.action, CliAction::kVersion);
  EXPECT_EQ(version.errors, Errors{});
}

TEST(ConfigHelp, TextListsEveryOptionAndDefault) {
  const std::string help = helpText();
  for (const char* line : {"  -n, --items N",
                           "  -d, --dir DIR",
                           "  -u, --unique-dir",
                           "  -z, --depth N",
                           "  -b, --branching N",
                           "  -I, --items-per-dir N",
                           "  -L, --leaf-only",
                           "  -F, --files-only",
                           "  -D, --dirs-only",
                           "  -C, --create",
                           "  -T, --stat",
                           "  -E, --read",
                           "  -r, --remove",
                           "  -i, --iterations N",
                           "  -w, --write-bytes B",
                           "  -e, --read-bytes B",
                           "      --keep",
                           "  -h, --help",
                           "      --version",
                           "  -S, --shared-files",
                           "      --preset NAME",
                           "  -U, --rename",
                           "      --file-rename",
                           "      --readdir",
                           "      --renamed",
                           "  -N, --shift S",
                           "  -R, --random [SEED]",
                           "  -W, --stonewall SECONDS",
                           "  -x, --stonewall-file FILE",
                           "  -p, --pre-delay SECONDS",
                           "      --series-interval SECONDS",
                           "      --progress SECONDS",
                           "  -y, --fsync",
                           "  -Y, --sync",
                           "  -X, --verify",
                           "  -v, --verbose",
                           "DIR@DIR@...",
                           "mdtest's letters",
                           "  io500-easy  -u -L -F -N 1 -W 300 -Y   (phases -C -T -r)\n",
                           "  io500-hard  -t -w 3901 -e 3901 -N 1 -F -W 300 -Y -X   (phases -C -T -E -r)\n",
                           "  -a, --api POSIX|DUMMY|CEPHFS|LIBNFS",
                           "  -V, --verbosity N",
                           "      --path-style STYLE",
                           "      --sync-call CALL",
                           "-o ./mdtest",
                           "--verify-read",
                           "would corrupt counts",
                           "  -P, --print-rate-and-time ",
                           "  -t, --time-unique-overhead ",
                           "  -f, --sweep-first N ",
                           "  -l, --sweep-last N ",
                           "  -s, --sweep-stride N ",
                           "      --saveRankPerformanceDetails FILE\n",
                           "a backend's options only with its -a",
                           "(default 1000;",
                           "Usage: ",
                           "Exit status: 0",
                           "file.mdbench.<rank>.<i>",
                           "mdbench_tree.<rank>.<d>",
                           "<dir>/mdbench.iter.<iteration>"}) {
    EXPECT_NE(help.find(line), std::string::npos) << line;
  }
}

TEST(ConfigHelp, TextColumnsAlignedAndShort) {
  const std::string help = helpText();
  std::size_t lines = 0;
  std::size_t column = std::string::npos;
  std::size_t start = 0;
  for (std::size_t end = help.find('\n'); end != std::string::npos;
       start = end + 1, end = help.find('\n', start)) {
    const std::string line = help.substr(start, end - start);
    ++lines;
    EXPECT_LE(line.size(), 110u) << line;
    if (line.rfind("  -", 0) != 0) continue;  // option lines start "  -x, --" or "      --"
    const std::size_t description = line.find_first_not_of(' ', line.find("  ", 2));
    // A name wider than the column (-a's list of backends, a backend's long option) has its line alone.
    if (description == std::string::npos && line.size() > column) continue;
    if (column == std::string::npos) column = description;
    EXPECT_EQ(description, column) << line;
  }
  // every option a line or two, mdtest's further options too (issue 21), the backends and their options
  // (issue 31: POSIX's, DUMMY's, CEPHFS's and LIBNFS's)
  EXPECT_LE(lines, 170u);
}

// ---- contradictions and impossible values

TEST(ConfigResolve, KeepRunsNoRemovePhase) {
  expectPhases(configOf({"--keep"}), phasesOf("CTEU"));  // the directory rename keeps the names
  expectPhases(configOf({"--keep", "-C"}), phases(true, false, false, false));
  EXPECT_EQ(errorOf({"--keep", "-C", "-r"}), "--keep and -r/--remove exclude each other");
}

TEST(ConfigParse, OutputOptions) {
  const Config plain = configOf({});
  EXPECT_EQ(plain.output, "");
  EXPECT_EQ(plain.output_mode, OutputMode::kCreate);
  const Config forced = configOf({"-o", "r.h5", "--force"});
  EXPECT_EQ(forced.output, "r.h5");
  EXPECT_EQ(forced.output_mode, OutputMode::kForce);
  const Config appended = configOf({"--output=r.h5", "--append"});
  EXPECT_EQ(appended.output, "r.h5");
  EXPECT_EQ(appended.output_mode, OutputMode::kAppend);
  EXPECT_EQ(errorOf({"--force", "--append"}), "--force and --append exclude each other");
  EXPECT_EQ(errorOf({"-o", ""}), "-o/--output: empty value, expected a file name");
}

// mdtest's -F -D: both set, so both kinds, as with neither.
TEST(ConfigResolve, FilesOnlyAndDirsOnlyMeanBoth) {
  EXPECT_EQ(configOf({"-F", "-D"}).kinds, ItemKinds::kBoth);
  EXPECT_EQ(configOf({"-FD"}).kinds, ItemKinds::kBoth);
  EXPECT_EQ(configOf({"-F", "-D=0"}).kinds, ItemKinds::kFilesOnly);
}

// As mdtest: the branching factor means nothing without depth, so -b 0 -z 0 (and -b 0 alone: -z is 0) is
// the one directory of -b 1; with depth it is refused.
TEST(ConfigValidate, BranchingZero) {
  EXPECT_EQ(configOf({"-b", "0", "-z", "0"}).branching, 1u);
  EXPECT_EQ(configOf({"-b", "0"}).branching, 1u);
  EXPECT_EQ(configOf({"-b=0", "-z=0", "-L", "-I", "3"}).items, 3u);
  EXPECT_EQ(errorOf({"-b", "0", "-z", "1"}),
            "-b/--branching: must be at least 1 for a tree of -z/--depth 1, got 0 (as mdtest)");
  EXPECT_EQ(errorOf({"-z", "0", "-b", "0", "-z", "2"}),
            "-b/--branching: must be at least 1 for a tree of -z/--depth 2, got 0 (as mdtest)");
}

TEST(ConfigValidate, TreeTooLarge) {
  EXPECT_EQ(errorOf({"-z", "32", "-b", "2"}),
            "-z/--depth, -b/--branching: a tree of depth 32 and branching 2 has more than 4294967296 "
            "directories (the limit)");
  EXPECT_EQ(errorOf({"-z", "2", "-b", "4294967295"}),
            "-z/--depth, -b/--branching: a tree of depth 2 and branching 4294967295 has more than 4294967296 "
            "directories (the limit)");
  EXPECT_EQ(configOf({"-z", "30", "-b", "2", "-n", "1"}).depth, 30u);  // 2^31 - 1 directories fit
  // The tree is the problem, not -I: no second message about -n.
  EXPECT_EQ(errorsOf({"-z", "40", "-b", "2", "-I", "5"}).size(), 1u);
}

TEST(ConfigValidate, ItemsAndIterationsZero) {
  EXPECT_EQ(errorOf({"-n", "0"}), "-n/--items: must be at least 1, got 0");
  EXPECT_EQ(errorOf({"-i", "0"}), "-i/--iterations: must be at least 1, got 0");
}

// mdtest's md_validate_tests_rank0: over a shared tree -n is a multiple of -I (n/I loops, each a whole tree);
// with -u only one of them.
TEST(ConfigValidate, ItemsAndItemsPerDir) {
  const Config loops = configOf({"-n", "6", "-I", "3", "-z", "1", "-b", "2", "-F"});
  EXPECT_EQ(loops.items, 18u);  // mdtest's -n 6: 2 loops of 3 per directory over 3 directories, 18 files
  EXPECT_EQ(loops.items_per_dir, 3u);
  EXPECT_EQ(configOf({"-n", "1000", "-I", "10", "-z", "1", "-b", "49"}).items,
            50000u);  // no longer "too many": 100 loops over 50 directories
  EXPECT_EQ(configOf({"-n", "10", "-I", "10"}).items, 10u);
  const std::string not_multiple =
      "-n/--items: 11 is not a multiple of -I/--items-per-dir 10 (over a shared tree, as in mdtest, -n/-I "
      "loops, each a whole tree of -I items per directory)";
  EXPECT_EQ(errorOf({"-n", "11", "-I", "10"}), not_multiple);
  EXPECT_EQ(errorOf({"-n=11", "-I=10", "-z", "2"}), not_multiple);
  EXPECT_EQ(
      errorOf({"-n", "5", "-I", "10"}),
      "-n/--items: 5 is not a multiple of -I/--items-per-dir 10 (over a shared tree, as in mdtest, -n/-I "
      "loops, each a whole tree of -I items per directory)");
  const std::string unique =
      "-n/--items and -I/--items-per-dir: only specify the number of items or the number of items per "
      "directory with -u/--unique-dir (as mdtest)";
  EXPECT_EQ(errorOf({"-u", "-n", "10", "-I", "10"}), unique);
  EXPECT_EQ(errorOf({"-u", "-n", "30", "-I", "10", "-z", "1", "-b", "2"}), unique);  // even when it fits
  // -I alone: every item directory holds -I, -n is -I x directories (shared: one loop).
  EXPECT_EQ(configOf({"-u", "-I", "10", "-z", "1", "-b", "2"}).items, 30u);
  EXPECT_EQ(configOf({"-u", "-I", "10", "-z", "1", "-b", "2", "-L"}).items, 20u);
  EXPECT_EQ(configOf({"-I", "10", "-z", "1", "-b", "2"}).items, 30u);
}

// mdtest ignores -w and -e with -D (no files); a read phase of no files is refused (a rate of nothing).
TEST(ConfigValidate, DataWithDirsOnly) {
  EXPECT_EQ(configOf({"-D", "-w", "4k"}).write_bytes, 4096u);
  EXPECT_EQ(configOf({"-D", "-e", "1"}).read_bytes, 1u);
  EXPECT_EQ(errorOf({"-D", "-E"}), "-E/--read: the read phase reads files, not with -D/--dirs-only");
  EXPECT_EQ(configOf({"-D", "-w", "0"}).write_bytes, 0u);
}

TEST(ConfigValidate, ReadMoreThanWritten) {
  EXPECT_EQ(errorOf({"-w", "4096", "-e", "8k"}),
            "-e/--read-bytes: 8192 is more than -w/--write-bytes 4096: the files this run creates would be "
            "too short");
  EXPECT_EQ(
      errorOf({"-C", "-E", "-e", "1"}),
      "-e/--read-bytes: 1 is more than -w/--write-bytes 0: the files this run creates would be too short");
  // Files made by an earlier run (--keep) may be longer: no create phase, no check.
  EXPECT_EQ(configOf({"-E", "-e", "8k"}).read_bytes, 8192u);
  EXPECT_EQ(configOf({"-T", "-E", "-r", "-e", "8k", "-w", "1"}).read_bytes, 8192u);
  EXPECT_EQ(configOf({"-w", "8k", "-e", "8k"}).read_bytes, 8192u);
}

TEST(ConfigValidate, SeveralProblemsAllListed) {
  EXPECT_EQ(errorsOf({"-F", "-D", "-b", "0", "-z", "3", "-n", "0", "-i", "0", "-I", "x", "-d", "", "--wat"}),
            (Errors{"unknown option '--wat'", "-I/--items-per-dir: 'x' is not a whole number",
                    "-d/--dir: empty value, expected a directory",
                    "-b/--branching: must be at least 1 for a tree of -z/--depth 3, got 0 (as mdtest)",
                    "-n/--items: must be at least 1, got 0", "-i/--iterations: must be at least 1, got 0"}));
  EXPECT_EQ(
      errorsOf({"-D", "-E", "-w", "1", "-e", "2", "-n", "9", "-I", "4", "-z", "1"}),
      (Errors{"-n/--items: 9 is not a multiple of -I/--items-per-dir 4 (over a shared tree, as in mdtest, "
              "-n/-I loops, each a whole tree of -I items per directory)",
              "-E/--read: the read phase reads files, not with -D/--dirs-only"}));
}

TEST(ConfigValidate, ValidateAloneOnAConfig) {
  EXPECT_EQ(validate(validConfig()), Errors{});
  Config config = validConfig();
  config.branching = 0;  // a Config built otherwise: parsing makes -b 0 -z 0 -b 1
  config.items = 0;
  config.iterations = 0;
  config.write_bytes = (1u << 30) + 1;
  config.phases = PhaseSelection{};
  EXPECT_EQ(
      validate(config),
      (Errors{"-b/--branching: must be at least 1 for a tree of -z/--depth 0, got 0 (as mdtest)",
              "-n/--items: must be at least 1, got 0", "-i/--iterations: must be at least 1, got 0",
              "no phase selected (-C/--create, -T/--stat, -E/--read, -r/--remove, -U/--rename, --readdir)",
              "-w/--write-bytes: 1073741825 is more than 1 GiB"}));
  Config fits = validConfig();
  fits.depth = 2;
  fits.branching = 2;
  fits.items_per_dir = 3;
  fits.items = 21;  // 7 directories x 3
  EXPECT_EQ(validate(fits), Errors{});
  // -n against -I is the command line's rule (mdtest's loops); a stored Config of either meaning is valid.
  fits.items = 22;
  EXPECT_EQ(validate(fits), Errors{});
}

// ---- mdtest's further options

TEST(ConfigParse, NewValueOptionsShortAndLong) {
  for (const bool use_long : {false, true}) {
    const auto opt = [use_long](const char* short_name, const char* long_name) {
      return std::string(use_long ? long_name : short_name);
    };
    const Config config =
        configOf({opt("-N", "--shift"), "3", opt("-W", "--stonewall"), "2.5", opt("-x", "--stonewall-file"),
                  "sw.txt", opt("-p", "--pre-delay"), "1", opt("-R", "--random"), "42"});
    SCOPED_TRACE(use_long ? "long" : "short");
    EXPECT_EQ(config.shift, 3u);
    EXPECT_EQ(config.stonewall_s, 2.5);
    EXPECT_EQ(config.stonewall_file, "sw.txt");
    EXPECT_EQ(config.pre_delay_s, 1.0);
    EXPECT_TRUE(config.random_order);
    EXPECT_EQ(config.random_seed, 42u);
  }
}

// Each switch sets its own field and no other; the base makes every one of them valid.
TEST(ConfigParse, NewSwitchesShortAndLong) {
  struct Switch {
    const char* short_name;
    const char* long_name;
    bool Config::*field;
  };
  const Args base = {"-T", "-E", "-w", "1", "-e", "1"};
  const Switch switches[] = {
      {"-y", "--fsync", &Config::fsync_writes}, {"-Y", "--sync", &Config::sync_phases},
      {"-X", "--verify", &Config::verify_read}, {"-S", "--shared-files", &Config::shared_files},
      {"", "--renamed", &Config::renamed},      {"-R", "--random", &Config::random_order}};
  for (const Switch& tested : switches) {
    for (const char* name : {tested.short_name, tested.long_name}) {
      if (*name == '\0') continue;
      Args args = base;
      args.emplace_back(name);
      const Config config = configOf(args);
      for (const Switch& other : switches) EXPECT_EQ(config.*other.field, &other == &tested) << name;
    }
  }
}

TEST(ConfigParse, RandomSeedForms) {
  const auto seed = [](const Args& args) {
    const Config config = configOf(args);
    EXPECT_TRUE(config.random_order);
    return config.random_seed;
  };
  EXPECT_EQ(seed({"-R"}), 0u);
  EXPECT_EQ(seed({"-R", "7"}), 7u);
  EXPECT_EQ(seed({"-R7"}), 7u);
  EXPECT_EQ(seed({"--random"}), 0u);
  EXPECT_EQ(seed({"--random=7"}), 7u);
  EXPECT_EQ(seed({"--random", "7"}), 7u);
  EXPECT_EQ(seed({"-uR7"}), 7u);
  EXPECT_EQ(seed({"-R", "18446744073709551615"}), 18446744073709551615u);
  // An option after -R, or letters after it in a group, give no seed.
  EXPECT_EQ(seed({"-R", "-n", "5"}), 0u);
  EXPECT_EQ(configOf({"-R", "-n", "5"}).items, 5u);
  const Config grouped = configOf({"-RuF"});
  EXPECT_EQ(grouped.random_seed, 0u);
  EXPECT_EQ(grouped.sharing, TreeSharing::kUnique);
  EXPECT_EQ(grouped.kinds, ItemKinds::kFilesOnly);
}

TEST(ConfigNumbers, RandomSeedRefused) {
  EXPECT_EQ(errorOf({"-R", "1.5"}), "-R/--random: '1.5' is not a whole number");
  EXPECT_EQ(errorOf({"-R1e5"}), "-R/--random: '1e5' is not a whole number");
  EXPECT_EQ(errorOf({"--random="}), "-R/--random: empty value, expected a whole number");
  EXPECT_EQ(errorOf({"--random=x"}), "-R/--random: 'x' is not a whole number");
  EXPECT_EQ(errorOf({"-R", "18446744073709551616"}),
            "-R/--random: '18446744073709551616' is out of range (at most 18446744073709551615)");
  EXPECT_EQ(errorOf({"-R", "x"}), "unexpected argument 'x'");  // no digit: not a seed
  EXPECT_EQ(configOf({"-R", "-R5"}).random_seed, 5u);          // the last occurrence wins (ConfigSyntax)
}

TEST(ConfigParse, VerboseCounts) {
  EXPECT_EQ(configOf({"-v"}).verbosity, 1u);
  EXPECT_EQ(configOf({"-vv"}).verbosity, 2u);
  EXPECT_EQ(configOf({"--verbose", "--verbose"}).verbosity, 2u);
  EXPECT_EQ(configOf({"-v", "--verbose", "-vvv"}).verbosity, 5u);
  EXPECT_EQ(configOf({"-uvFv"}).verbosity, 2u);
  EXPECT_EQ(configOf({"--verbose=2"}).verbosity, 2u);  // mdtest's "-v=N" sets it
  EXPECT_EQ(configOf({"-V", "4"}).verbosity, 4u);
  EXPECT_EQ(configOf({"-V=4"}).verbosity, 4u);
  EXPECT_EQ(configOf({"-V4"}).verbosity, 4u);
  EXPECT_EQ(configOf({"--verbosity=4"}).verbosity, 4u);
  EXPECT_EQ(configOf({"-vv", "-V", "1"}).verbosity, 1u);
  EXPECT_EQ(errorOf({"-V", "x"}), "-V/--verbosity: 'x' is not a whole number");
}

// mdtest's -P and -t describe what mdbench always does: accepted, nothing changes.
TEST(ConfigParse, PrintRateAndTimeUniqueOverheadAccepted) {
  const std::string plain = describe(configOf({"-n", "5"}));
  EXPECT_EQ(describe(configOf({"-P", "-t", "-n", "5"})), plain);
  EXPECT_EQ(describe(configOf({"--print-rate-and-time", "--time-unique-overhead", "-n", "5"})), plain);
  EXPECT_EQ(describe(configOf({"-Ptn5"})), plain);
  EXPECT_EQ(describe(configOf({"-P", "-P", "-n", "5", "-t", "-t"})), plain);  // as mdtest: accepted again
}

TEST(ConfigParse, DirList) {
  EXPECT_EQ(configOf({"-d", "/a"}).targets, Args{"/a"});
  const Config config = configOf({"-u", "-d", "/a@/b@/c"});
  EXPECT_EQ(config.targets, (Args{"/a", "/b", "/c"}));
  EXPECT_EQ(config.target, "/a@/b@/c");
  EXPECT_EQ(configOf({"-u", "--dir=x@y"}).targets, (Args{"x", "y"}));
  // "\@" is an '@' in a name: one directory, or the first of two; another backslash stays as it is.
  EXPECT_EQ(configOf({"-d", "/run\\@2"}).targets, Args{"/run@2"});
  EXPECT_EQ(configOf({"-u", "-d", "a\\@1@b"}).targets, (Args{"a@1", "b"}));
  EXPECT_EQ(configOf({"-d", "a\\b"}).targets, Args{"a\\b"});
  EXPECT_EQ(configOf({"-u", "-d", "a@\\@"}).targets, (Args{"a", "@"}));
}

TEST(ConfigParse, DirListEmptyParts) {
  for (const char* dir : {"a@@b", "a@", "@a", "@"}) {
    EXPECT_EQ(errorOf({"-u", "-d", dir}),
              "-d/--dir: '" + std::string(dir) +
                  "' has an empty directory name (DIR@DIR@...: one '@' between two)");
  }
  // Refused, so no second message about -u or -N for its parts.
  EXPECT_EQ(errorsOf({"-d", "a@@b", "-N", "1"}).size(), 1u);
  EXPECT_EQ(parseCommandLine({"-d", "a@@b"}).config.targets, Args{});
}

TEST(ConfigNumbers, Seconds) {
  EXPECT_EQ(configOf({"-W", "300"}).stonewall_s, 300.0);
  EXPECT_EQ(configOf({"-W", "0.5"}).stonewall_s, 0.5);
  EXPECT_EQ(configOf({"-W", "0"}).stonewall_s, 0.0);
  EXPECT_EQ(configOf({"--stonewall=007.250"}).stonewall_s, 7.25);
  EXPECT_EQ(configOf({"-W", "1000000"}).stonewall_s, 1e6);
  EXPECT_EQ(configOf({"-p", "0.25"}).pre_delay_s, 0.25);
  EXPECT_EQ(configOf({"-p3"}).pre_delay_s, 3.0);
}

TEST(ConfigNumbers, SecondsRefused) {
  const std::string kind = " is not a number of seconds (digits, optionally with a fraction: 300, 0.5)";
  for (const char* bad : {"-1", "1e3", ".5", "5.", "+5", "inf", "nan", "1,5", " 1", "1.2.3", "5s"}) {
    EXPECT_EQ(errorOf({"-W", bad}), "-W/--stonewall: '" + std::string(bad) + "'" + kind);
  }
  EXPECT_EQ(errorOf({"-p", "soon"}), "-p/--pre-delay: 'soon'" + kind);
  EXPECT_EQ(errorOf({"-W", ""}), "-W/--stonewall: empty value, expected a number of seconds");
  EXPECT_EQ(errorOf({"-W", "1000000.5"}),
            "-W/--stonewall: '1000000.5' is out of range (at most 1000000 seconds)");
  EXPECT_EQ(errorOf({"-p", "1" + std::string(400, '0')}),
            "-p/--pre-delay: '1" + std::string(400, '0') + "' is out of range (at most 1000000 seconds)");
}

TEST(ConfigNumbers, SeriesIntervalAndProgress) {
  EXPECT_EQ(Config{}.series_interval_s, 0.1);
  EXPECT_LT(Config{}.progress_s, 0.0);  // not given: decided by whether rank 0 writes to a terminal
  EXPECT_EQ(configOf({"--series-interval", "0.5"}).series_interval_s, 0.5);
  EXPECT_EQ(configOf({"--series-interval=0.001"}).series_interval_s, 0.001);
  EXPECT_EQ(configOf({"--progress", "10"}).progress_s, 10.0);
  EXPECT_EQ(configOf({"--progress", "0"}).progress_s, 0.0);
  EXPECT_EQ(errorOf({"--series-interval", "0"}),
            "--series-interval: 0 is not between 0.001 and 1000000 seconds");
  EXPECT_EQ(errorOf({"--series-interval", "0.0001"}),
            "--series-interval: 0.0001 is not between 0.001 and 1000000 seconds");
  EXPECT_EQ(errorOf({"--progress", "-1"}),
            "--progress: '-1' is not a number of seconds (digits, optionally with a fraction: 300, 0.5)");
  EXPECT_EQ(errorOf({"--progress", "soon"}),
            "--progress: 'soon' is not a number of seconds (digits, optionally with a fraction: 300, 0.5)");
  // mdtest's -P and -t are still accepted, though --help no longer lists them.
  EXPECT_EQ(errorsOf({"-P", "-t"}).size(), 0u);
}

TEST(ConfigSteady, RoundsDatasetsAndWhatTheyExclude) {
  const Config c =
      configOf({"--steady", "50", "--datasets", "4", "-n", "400", "-w", "3901", "-W", "30", "-N", "2"});
  EXPECT_EQ(c.steady_rounds, 50u);
  EXPECT_EQ(c.datasets, 4u);
  EXPECT_EQ(configOf({"--steady", "5"}).datasets, 10u);  // -n 1000 over 10 directories
  EXPECT_EQ(Config{}.steady_rounds, 0u);
  EXPECT_EQ(errorOf({"--steady", "0"}), "--steady: must be at least 1 round, got 0");
  EXPECT_EQ(errorOf({"--datasets", "3"}), "--datasets: needs --steady");
  EXPECT_EQ(errorOf({"--steady", "5", "--datasets", "0"}), "--datasets: must be at least 1, got 0");
  EXPECT_EQ(errorOf({"--steady", "5", "--datasets", "257"}),
            "--datasets: 257 is more than 256 (each rank keeps 3 directories open per dataset)");
  EXPECT_EQ(errorOf({"--steady", "5", "-n", "15", "--datasets", "4"}),
            "-n/--items 15 is not a multiple of --datasets 4: the working set is 4 directories of the same "
            "number of objects");
  EXPECT_EQ(errorOf({"--steady", "5", "-C", "-u", "-z", "2", "--keep"}),
            "--steady runs its own phases (precreate, mix, cleanup) in its own directories: not with "
            "-C/--create, -u/--unique-dir, -z/--depth, --keep");
  // Given twice, named once; turned off again (mdtest's "=0"), not at all.
  EXPECT_EQ(errorOf({"--steady", "5", "-u", "-C", "-u"}),
            "--steady runs its own phases (precreate, mix, cleanup) in its own directories: not with "
            "-u/--unique-dir, -C/--create");
  EXPECT_EQ(configOf({"--steady", "5", "-u", "-u=0"}).steady_rounds, 5u);
  // mdtest's console has no steady phases (it printed a table of zeros); mdbench's and a results file do.
  EXPECT_EQ(errorOf({"--steady", "5", "-o", "mdtest"}),
            "--steady: mdtest's output has no steady-state phases to print; not with -o/--output mdtest");
  EXPECT_EQ(configOf({"--steady", "5", "-o", "mdbench", "-o", "r.h5"}).output, "r.h5");
}

TEST(ConfigNumbers, ShiftAndStonewallFile) {
  EXPECT_EQ(configOf({"-N", "4294967295"}).shift, 4294967295u);
  EXPECT_EQ(errorOf({"-N", "4294967296"}), "-N/--shift: '4294967296' is out of range (at most 4294967295)");
  EXPECT_EQ(errorOf({"-N", "-1"}), "-N/--shift: '-1' is not a whole number");
  EXPECT_EQ(errorOf({"-x", ""}), "-x/--stonewall-file: empty value, expected a file name");
  EXPECT_EQ(errorOf({"-x"}), "-x/--stonewall-file: needs a value");
}

// ---- phase selection with -U and --readdir

// mdtest's default is create, stat, read, remove and its directory rename; -U, like -C -T -E -r, selects
// (alone: only the directory rename). --readdir and --file-rename add to any selection; the directory
// rename keeps the names, so --keep keeps it.
TEST(ConfigResolve, DefaultPhasesAreMdtestsAndRenameSelects) {
  expectPhases(configOf({}), phasesOf("CTErU"));
  expectPhases(configOf({"-U"}), phasesOf("U"));
  expectPhases(configOf({"--rename"}), phasesOf("U"));
  expectPhases(configOf({"--readdir"}), phasesOf("CTErUd"));
  expectPhases(configOf({"-U", "--readdir"}), phasesOf("Ud"));
  expectPhases(configOf({"-D"}), phasesOf("CTrU"));
  expectPhases(configOf({"-T", "-U"}), phasesOf("TU"));
  expectPhases(configOf({"-C", "--readdir"}), phasesOf("Cd"));
  expectPhases(configOf({"-rU", "--readdir"}), phasesOf("rUd"));
  expectPhases(configOf({"--keep"}), phasesOf("CTEU"));
  expectPhases(configOf({"--keep", "-U"}), phasesOf("U"));
  expectPhases(configOf({"--file-rename"}), phasesOf("CTErUf"));
  expectPhases(configOf({"-U", "--file-rename"}), phasesOf("Uf"));
  expectPhases(configOf({"-C", "--file-rename"}), phasesOf("Cf"));
  expectPhases(configOf({"-F", "--file-rename"}), phasesOf("CTErUf"));
}

// ---- contradictions of the further options

TEST(ConfigValidate, SharedFiles) {
  const Config config = configOf({"-S"});
  EXPECT_EQ(config.kinds, ItemKinds::kFilesOnly);  // implied, as in mdtest
  expectPhases(config, phasesOf("CTErU"));
  EXPECT_EQ(configOf({"-S", "-F"}).kinds, ItemKinds::kFilesOnly);
  EXPECT_EQ(errorOf({"-S", "-u"}), "-S/--shared-files and -u/--unique-dir exclude each other");
  EXPECT_EQ(configOf({"-S", "-D"}).kinds, ItemKinds::kFilesOnly);  // mdtest: -S leaves out directories
}

TEST(ConfigValidate, SeveralDirs) {
  EXPECT_EQ(errorOf({"-d", "a@b"}),
            "-d/--dir: 'a@b' needs -u/--unique-dir: a shared tree cannot span several directories");
  EXPECT_EQ(errorOf({"-u", "-d", "a@b", "-N", "1"}),
            "-N/--shift: 1 and several -d/--dir directories exclude each other");
  EXPECT_EQ(configOf({"-u", "-d", "a@b", "-N", "0"}).targets.size(), 2u);
  EXPECT_EQ(configOf({"-d", "a", "-N", "1"}).shift, 1u);  // one directory: shared tree and shift are fine
}

TEST(ConfigValidate, Verify) {
  EXPECT_EQ(errorOf({"-X"}), "-X/--verify: nothing read to verify: needs -e/--read-bytes > 0");
  EXPECT_EQ(errorOf({"-X", "-E"}), "-X/--verify: nothing read to verify: needs -e/--read-bytes > 0");
  EXPECT_EQ(errorsOf({"-D", "-E", "-X"}),
            (Errors{"-E/--read: the read phase reads files, not with -D/--dirs-only",
                    "-X/--verify: nothing read to verify: -D/--dirs-only has no files"}));
  // mdtest: "Verify read requires that the read test is used", and read bytes > 0, whatever the phases.
  EXPECT_EQ(errorOf({"-X", "-C", "-e", "8", "-w", "8"}),
            "-X/--verify: needs the read phase (-E/--read), as in mdtest");
  EXPECT_EQ(errorOf({"--verify-read", "-T", "-e", "8"}),
            "-X/--verify: needs the read phase (-E/--read), as in mdtest");
  EXPECT_EQ(errorsOf({"-X", "-C"}), (Errors{"-X/--verify: nothing read to verify: needs -e/--read-bytes > 0",
                                            "-X/--verify: needs the read phase (-E/--read), as in mdtest"}));
  EXPECT_TRUE(configOf({"--verify-read", "-E", "-e", "8"}).verify_read);
  EXPECT_TRUE(configOf({"--verify-read=1", "-E", "-e", "8"}).verify_read);
  // More read than written is the existing rule's, once.
  EXPECT_EQ(
      errorOf({"-X", "-w", "1", "-e", "2"}),
      "-e/--read-bytes: 2 is more than -w/--write-bytes 1: the files this run creates would be too short");
  EXPECT_EQ(errorOf({"-X", "-e", "x"}),
            "-e/--read-bytes: 'x' is not a byte count (a whole number, optionally with k, m or g)");
  // The preset's -X is IO500's read job's: its other jobs run without the read phase.
  EXPECT_TRUE(configOf({"--preset", "io500-hard", "-n", "5", "-C"}).verify_read);
  EXPECT_TRUE(configOf({"-X", "-w", "8", "-e", "8"}).verify_read);
  EXPECT_TRUE(configOf({"-X", "-E", "-e", "8"}).verify_read);
}

// As mdtest: -y without -w has nothing to do, and is accepted (IO500 passes the same options to every job).
TEST(ConfigValidate, Fsync) {
  EXPECT_TRUE(configOf({"-y"}).fsync_writes);
  EXPECT_TRUE(configOf({"-y", "-w", "0"}).fsync_writes);
  EXPECT_EQ(errorOf({"-y", "-w", "x"}),
            "-w/--write-bytes: 'x' is not a byte count (a whole number, optionally with k, m or g)");
  EXPECT_TRUE(configOf({"-y", "-w", "1"}).fsync_writes);
}

// --renamed is about --file-rename's names; the directory rename (-U) keeps every name, so it goes with it.
TEST(ConfigValidate, Renamed) {
  EXPECT_EQ(errorOf({"--renamed", "-T", "--file-rename"}),
            "--renamed and --file-rename exclude each other: files cannot be renamed twice");
  EXPECT_EQ(
      errorsOf({"--renamed"}),  // the default phases create
      (Errors{"--renamed and -C/--create exclude each other: the items this run creates are not renamed"}));
  expectPhases(configOf({"--renamed", "-T", "-E", "-r", "--readdir"}), phasesOf("TErd"));
  expectPhases(configOf({"--renamed", "-T", "-U"}), phasesOf("TU"));
}

// As mdtest: -R in a job without stat or read does nothing, and is accepted.
TEST(ConfigValidate, RandomWithoutSomethingToRandomize) {
  EXPECT_TRUE(configOf({"-R", "-C"}).random_order);
  EXPECT_TRUE(configOf({"-R", "-C", "-r", "-U"}).random_order);
  EXPECT_EQ(configOf({"-R", "5", "-r"}).random_seed, 5u);
  EXPECT_TRUE(configOf({"-R", "-C", "--readdir"}).random_order);
  EXPECT_TRUE(configOf({"-R", "-E"}).random_order);
  EXPECT_TRUE(configOf({"-R", "-D"}).random_order);  // default phases: stat
}

TEST(ConfigValidate, FurtherProblemsAllListed) {
  EXPECT_EQ(
      errorsOf({"-S", "-u", "-D", "-d", "a@b", "-N", "2",  "-y", "--renamed", "--file-rename",
                "-R", "-C", "-W", "x",  "-p",  "-1", "-x", "",   "-c",        "-B",
                "-k", "-w", "1"}),
      (Errors{
          "-W/--stonewall: 'x' is not a number of seconds (digits, optionally with a fraction: 300, 0.5)",
          "-p/--pre-delay: '-1' is not a number of seconds (digits, optionally with a fraction: 300, 0.5)",
          "-x/--stonewall-file: empty value, expected a file name",
          "-B/--no-barriers and -N/--shift 2 exclude each other: without barriers a rank may work on items "
          "another has not made yet (as mdtest)",
          "-c/--collective-creates and -S/--shared-files exclude each other (as mdtest)",
          "-c/--collective-creates and several -d/--dir directories exclude each other (as mdtest)",
          "-c/--collective-creates and -B/--no-barriers exclude each other (as mdtest)",
          "-k/--mknod and -w/--write-bytes 1 exclude each other: mknod makes empty files (as mdtest)",
          "-S/--shared-files and -u/--unique-dir exclude each other",
          "-N/--shift: 2 and several -d/--dir directories exclude each other",
          "--renamed and --file-rename exclude each other: files cannot be renamed twice",
          "--renamed and -C/--create exclude each other: the items this run creates are not renamed"}));
}

TEST(ConfigValidate, FurtherValuesOnAConfig) {
  Config config = validConfig();
  config.stonewall_s = -1.0;
  config.pre_delay_s = std::numeric_limits<double>::quiet_NaN();
  config.preset = "io600";
  config.targets = {"a", ""};
  config.shared_files = true;  // with kinds kBoth: parsing would have implied -F
  EXPECT_EQ(validate(config),
            (Errors{"-S/--shared-files: shared files are files, needs -F/--files-only",
                    "-d/--dir: an empty directory name in the list",
                    "-d/--dir: 'a@' needs -u/--unique-dir: a shared tree cannot span several directories",
                    "-W/--stonewall: -1 is not between 0 and 1000000 seconds",
                    "-p/--pre-delay: nan is not between 0 and 1000000 seconds",
                    "--preset: unknown preset 'io600' (expected io500-easy or io500-hard)"}));
}

// ---- presets

TEST(ConfigPreset, IoFiveHundredEasy) {
  const Config config = configOf({"--preset", "io500-easy", "-n", "1000000"});
  EXPECT_EQ(config.preset, "io500-easy");
  EXPECT_EQ(config.items, 1000000u);
  EXPECT_EQ(config.sharing, TreeSharing::kUnique);
  EXPECT_TRUE(config.leaf_only);
  EXPECT_EQ(config.kinds, ItemKinds::kFilesOnly);
  EXPECT_EQ(config.shift, 1u);
  EXPECT_EQ(config.stonewall_s, 300.0);
  EXPECT_TRUE(config.sync_phases);
  EXPECT_FALSE(config.verify_read);
  EXPECT_EQ(config.write_bytes, 0u);
  EXPECT_EQ(config.read_bytes, 0u);
  expectPhases(config, phasesOf("CTr"));  // IO500's easy jobs: write, stat, delete; no read
  EXPECT_TRUE(config.sync_creates_only);
  EXPECT_EQ(config.command_line, "mdbench --preset io500-easy -n 1000000");
  EXPECT_EQ(describe(config), describe(configOf({"-u", "-L", "-F", "-N", "1", "-W", "300", "-Y", "-n",
                                                 "1000000", "-C", "-T", "-r"})));
}

TEST(ConfigPreset, IoFiveHundredHard) {
  const Config config = configOf({"--preset=io500-hard", "-n", "1000"});
  EXPECT_EQ(config.preset, "io500-hard");
  EXPECT_EQ(config.sharing, TreeSharing::kShared);
  EXPECT_EQ(config.depth, 0u);
  EXPECT_FALSE(config.leaf_only);
  EXPECT_EQ(config.kinds, ItemKinds::kFilesOnly);
  EXPECT_EQ(config.write_bytes, 3901u);
  EXPECT_EQ(config.read_bytes, 3901u);
  EXPECT_EQ(config.shift, 1u);
  EXPECT_EQ(config.stonewall_s, 300.0);
  EXPECT_TRUE(config.sync_phases);
  EXPECT_TRUE(config.verify_read);
  EXPECT_TRUE(config.sync_creates_only);
  expectPhases(config, phasesOf("CTEr"));
  EXPECT_EQ(describe(config), describe(configOf({"-t", "-w", "3901", "-e", "3901", "-N", "1", "-F", "-W",
                                                 "300", "-Y", "-X", "-n", "1000", "-C", "-T", "-E", "-r"})));
  EXPECT_FALSE(configOf({"-Y"}).sync_creates_only);  // without a preset, -Y syncs every phase
}

TEST(ConfigPreset, CommandLineOverridesWherever) {
  EXPECT_EQ(configOf({"--preset", "io500-easy", "-n", "5", "-W", "5"}).stonewall_s, 5.0);
  EXPECT_EQ(configOf({"-W", "0", "--preset", "io500-easy", "-n", "5"}).stonewall_s, 0.0);
  const Config hard =
      configOf({"--preset", "io500-hard", "-n", "5", "-N", "0", "-w", "8k", "-e", "4k", "-z", "2"});
  EXPECT_EQ(hard.shift, 0u);
  EXPECT_EQ(hard.write_bytes, 8192u);
  EXPECT_EQ(hard.read_bytes, 4096u);
  EXPECT_EQ(hard.depth, 2u);
  // Phases are the user's, as IO500 runs each phase as its own job.
  expectPhases(configOf({"--preset", "io500-easy", "-n", "5", "-C"}), phasesOf("C"));
  expectPhases(configOf({"--preset", "io500-easy", "-n", "5", "-U"}), phasesOf("U"));
  // A switch the preset sets stays set, unless given 0 (mdtest's syntax).
  EXPECT_EQ(errorOf({"--preset", "io500-easy", "-n", "5", "-S"}),
            "-S/--shared-files and -u/--unique-dir exclude each other");
  EXPECT_EQ(configOf({"--preset", "io500-easy", "-n", "5", "-u=0"}).sharing, TreeSharing::kShared);
  EXPECT_FALSE(configOf({"--preset", "io500-easy", "-n", "5", "-Y=0"}).sync_creates_only);
}

TEST(ConfigPreset, NeedsItems) {
  EXPECT_EQ(errorOf({"--preset", "io500-easy"}), "--preset io500-easy needs -n/--items (items per rank)");
  EXPECT_EQ(errorOf({"--preset", "io500-hard", "-W", "1"}),
            "--preset io500-hard needs -n/--items (items per rank)");
  EXPECT_EQ(configOf({"--preset", "io500-hard", "-I", "10"}).items, 10u);  // -I gives -n: one loop
}

TEST(ConfigPreset, UnknownOrRepeated) {
  EXPECT_EQ(errorOf({"--preset", "io500", "-n", "5"}),
            "--preset: unknown preset 'io500' (expected io500-easy or io500-hard)");
  EXPECT_EQ(errorOf({"--preset=", "-n", "5"}),
            "--preset: unknown preset '' (expected io500-easy or io500-hard)");
  EXPECT_EQ(errorOf({"--preset"}), "--preset: needs a value");
  // Nothing of an unknown preset applies, and its missing -n is not reported.
  EXPECT_EQ(parseCommandLine({"--preset", "IO500-EASY"}).config.sharing, TreeSharing::kShared);
  EXPECT_EQ(errorOf({"--preset", "io500-easy", "--preset", "io500-hard", "-n", "5"}),
            "--preset: given more than once");
  const CliRequest help = parseCommandLine({"--preset", "io500-easy", "-h"});
  EXPECT_EQ(help.action, CliAction::kHelp);
  EXPECT_EQ(help.errors, Errors{});
}

// Paths the kernel would refuse are usage errors, found before anything is touched: the whole path
// (PATH_MAX), one name in it (NAME_MAX), and -x's name with room for the FILE.tmp it is written through.
TEST(ConfigTest, PathsTooLongAreUsageErrors) {
  const std::string long_path = "/tmp/" + std::string(5000, 'a');
  const std::string long_name = "/tmp/" + std::string(300, 'c') + "/x";
  EXPECT_EQ(
      errorOf({"-d", long_path}),
      "-d/--dir: '/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' (5005 bytes) is longer than the limit of "
      "4095 bytes for a path");
  EXPECT_EQ(errorOf({"-o", long_name}),
            "-o/--output: the name 'cccccccccccccccccccccccccccccccccccccccc...' (300 bytes) in it is longer "
            "than the limit of 255 bytes");
  EXPECT_EQ(errorOf({"-d", "a@" + long_name, "-u"}).substr(0, 24), "-d/--dir: the name 'cccc");
  EXPECT_NE(errorOf({"-x", long_path}).find("-x/--stonewall-file: '/tmp/aaaa"), std::string::npos);
  EXPECT_EQ(
      errorOf({"-x", std::string(252, 's')}),
      "-x/--stonewall-file: the name 'ssssssssssssssssssssssssssssssssssssssss...' (252 bytes) in it is "
      "longer than the limit of 251 bytes (the file is written through NAME.tmp first)");
  configOf({"-x", std::string(251, 's'), "-o", std::string(255, 'o'), "-d", "/tmp/" + std::string(255, 'd')});
  std::string longest;  // 4095 bytes of names of 255: the longest path the kernel takes
  while (longest.size() + 256 <= 4095) longest += "/" + std::string(255, 'd');
  longest += "/" + std::string(4095 - longest.size() - 1, 'e');
  ASSERT_EQ(longest.size(), 4095u);
  configOf({"-d", longest});
  EXPECT_NE(errorOf({"-d", longest + "e"}).find("(4096 bytes) is longer than the limit of 4095"),
            std::string::npos);
}

// A newline in -d would split the directory when it is sent to the other ranks, one per line; other odd
// bytes are fine.
TEST(ConfigTest, NewlineInADirectoryIsRefused) {
  EXPECT_EQ(errorOf({"-d", "/tmp/a\nb"}), "-d/--dir: a directory name with a newline in it is not supported");
  EXPECT_EQ(configOf({"-d", "/tmp/a b\t'\"$*\\\xff"}).targets,
            std::vector<std::string>{"/tmp/a b\t'\"$*\\\xff"});
}

// -l far beyond any job must not expand into billions of steps before the job size is known.
TEST(ConfigTest, SweepRangeHasABoundedNumberOfSteps) {
  EXPECT_EQ(
      errorOf({"-l", "4294967295"}),
      "-f/--sweep-first 1 -l/--sweep-last 4294967295 -s/--sweep-stride 1: 4294967295 steps, at most 65536 "
      "(each step is a whole run)");
  EXPECT_EQ(configOf({"-f", "1", "-l", "4294967295", "-s", "4294967295"}).sweep.steps,
            std::vector<std::uint32_t>{1});
  EXPECT_EQ(configOf({"-l", "65536"}).sweep.steps.size(), 65536u);
}

// A bad placement is named even when --sweep is missing as well.
TEST(ConfigTest, SweepPlacementBadNameAndMissingSweepBothReported) {
  EXPECT_EQ(errorsOf({"--sweep-placement", "x"}),
            (Errors{"--sweep-placement: unknown placement 'x' (expected block or spread)",
                    "--sweep-placement: needs --sweep (or -f/-l/-s)"}));
  EXPECT_EQ(errorsOf({"--sweep-placement", ""}).front(),
            "--sweep-placement: unknown placement '' (expected block or spread)");
}

TEST(ConfigTest, NestedOrDuplicateTargetsAreNamed) {
  EXPECT_EQ(nestedTargets({"a", "b"}, {"/w/a", "/w/b"}), "");
  EXPECT_EQ(nestedTargets({"a", "ab"}, {"/w/a", "/w/ab"}), "");  // a prefix, not a parent
  EXPECT_EQ(nestedTargets({"x", "./x"}, {"/w/x", "/w/x"}),
            "-d/--dir: 'x' and './x' are the same directory (/w/x): each target must be its own");
  EXPECT_EQ(nestedTargets({"x", "x/sub"}, {"/w/x", "/w/x/sub"}),
            "-d/--dir: 'x/sub' is inside 'x': no target may hold another, their trees would mix");
  EXPECT_EQ(nestedTargets({"x/sub", "y", "x"}, {"/w/x/sub", "/w/y", "/w/x"}),
            "-d/--dir: 'x/sub' is inside 'x': no target may hold another, their trees would mix");
  EXPECT_NE(nestedTargets({"/", "a"}, {"/", "/w/a"}), "");
  EXPECT_EQ(nestedTargets({"a"}, {"/w/a"}), "");
}

// ---- mdtest 4.1's syntax and its remaining options (issue 18)

// ior's option parser: "-n 5", "-n5", "-n=5"; "-d=DIR" is DIR, not "=DIR".
TEST(ConfigMdtest, ShortValueSpellings) {
  for (const Args& args : {Args{"-n", "5"}, Args{"-n5"}, Args{"-n=5"}, Args{"--items=5"},
                           Args{"--items", "5"}, Args{"-uFn=5"}}) {
    EXPECT_EQ(configOf(args).items, 5u) << args.front();
  }
  EXPECT_EQ(configOf({"-d=/tmp/x"}).target, "/tmp/x");
  EXPECT_EQ(configOf({"-d=/tmp/x"}).targets, Args{"/tmp/x"});
  EXPECT_EQ(configOf({"-d", "=x"}).target, "=x");  // a separate word is taken as it is
  EXPECT_EQ(configOf({"-d=a=b"}).target, "a=b");
  EXPECT_EQ(configOf({"-w=4k", "-e=1k"}).read_bytes, 1024u);
  EXPECT_EQ(configOf({"-W=2.5"}).stonewall_s, 2.5);
  EXPECT_EQ(errorOf({"-n="}), "-n/--items: empty value, expected a whole number");
  EXPECT_EQ(errorOf({"-d="}), "-d/--dir: empty value, expected a directory");
  EXPECT_EQ(configOf({"-R=7"}).random_seed, 7u);
}

// hpc/ior's testing/ harness appends "-d DIR -V=4" to every mdtest line; IO500's easy line passes -a, -G.
TEST(ConfigMdtest, HarnessAndIo500Lines) {
  const Config harness = configOf({"-a", "POSIX", "-I", "1", "-z", "1", "-b", "1", "-d", "/tmp/t", "-V=4"});
  EXPECT_EQ(harness.verbosity, 4u);
  EXPECT_EQ(harness.api, Api::kPosix);
  const Config easy = configOf({"-n", "5",      "-u", "-L",      "-F", "-P", "-G", "1", "-N", "1",
                                "-d", "/tmp/t", "-x", "/tmp/sw", "-C", "-Y", "-W", "2", "-a", "POSIX"});
  EXPECT_EQ(easy.buffer_offset, 1);
  expectPhases(easy, phasesOf("C"));
  const Config hard = configOf({"-n", "5", "-t", "-w", "3901", "-e", "3901", "-P", "-G=5", "-N", "1", "-F",
                                "-d", "/tmp/t", "-x", "/tmp/sw", "-E", "-X", "-R"});
  EXPECT_EQ(hard.buffer_offset, 5);
  EXPECT_TRUE(hard.verify_read);
}

TEST(ConfigMdtest, Api) {
  EXPECT_EQ(configOf({}).api, Api::kPosix);
  EXPECT_EQ(configOf({"-a", "DUMMY"}).api, Api::kDummy);
  EXPECT_EQ(configOf({"--api=dummy"}).api, Api::kDummy);  // mdtest compares without regard to case
  EXPECT_EQ(configOf({"-a=posix"}).api, Api::kPosix);
  EXPECT_EQ(configOf({"-a", "DUMMY", "-a", "POSIX"}).api, Api::kPosix);  // the last, as mdtest
  // Every other name mdtest 4.1 knows is told apart from a misspelling, and the message names mdbench's.
  EXPECT_EQ(configOf({"-a", "cephfs"}).api, Api::kCephfs);
  EXPECT_EQ(configOf({"-a", "libnfs"}).api, Api::kLibnfs);
  for (const char* api : {"DFS", "dfs", "AIO", "CHFS", "FINCHFS", "Gfarm", "HDFS", "IME", "IM", "S3-4c",
                          "S3_plus", "S3_EMC", "S3-curl", "S3-libs3"}) {
    EXPECT_EQ(errorOf({"-a", api}), std::string("-a/--api: ") + api +
                                        " is an ior backend of mdtest's that mdbench lacks (mdbench supports "
                                        "POSIX, DUMMY, CEPHFS and LIBNFS)");
  }
  for (const char* api : {"MPIIO", "HDF5", "MMAP", "NCMPI", "PMDK", "RADOS"}) {
    EXPECT_EQ(errorOf({"-a", api}), std::string("-a/--api: ") + api +
                                        " is an ior backend that mdtest cannot run either (mdbench "
                                        "supports POSIX, DUMMY, CEPHFS and LIBNFS)");
  }
  EXPECT_EQ(errorOf({"-a", "DFSX"}),
            "-a/--api: unknown API 'DFSX' (mdbench supports POSIX, DUMMY, CEPHFS and LIBNFS)");
  EXPECT_EQ(errorOf({"-a", ""}),
            "-a/--api: unknown API '' (mdbench supports POSIX, DUMMY, CEPHFS and LIBNFS)");
  EXPECT_EQ(apiName(Api::kDummy), "DUMMY");
}

// The backends' options (issue 30 item 6): mdtest 4.1's --posix.* and --dummy.*, with its meaning, and only
// with their backend (issue 31).
TEST(ConfigBackends, PosixAndDummyOptionsLand) {
  const Config posix = configOf({"--posix.odirect", "--posix.rangelocks", "-w", "4096", "-e", "4096"});
  EXPECT_TRUE(posix.posix.odirect);
  EXPECT_TRUE(posix.posix.rangelocks);
  EXPECT_FALSE(configOf({"--posix.odirect=0"}).posix.odirect);  // mdtest's flag given 0: off
  const Config dummy = configOf({"-a", "DUMMY", "--dummy.delay-create=5", "--dummy.delay-close", "6",
                                 "--dummy.delay-sync=7", "--dummy.delay-xfer=8", "--dummy.delay-only-rank0"});
  EXPECT_EQ(dummy.dummy.delay_create_us, 5u);
  EXPECT_EQ(dummy.dummy.delay_close_us, 6u);
  EXPECT_EQ(dummy.dummy.delay_sync_us, 7u);
  EXPECT_EQ(dummy.dummy.delay_xfer_us, 8u);
  EXPECT_TRUE(dummy.dummy.delay_only_rank0);
  const std::vector<BackendOptionValue> values = backendOptionValues(dummy);
  ASSERT_EQ(values.size(), 5u);
  EXPECT_EQ(values[0].name, "dummy.delay-create");
  EXPECT_EQ(std::get<std::uint64_t>(values[0].value), 5u);
  EXPECT_EQ(values[4].name, "dummy.delay-only-rank0");
  EXPECT_EQ(std::get<std::uint64_t>(values[4].value), 1u);
  EXPECT_EQ(backendOptionValues(posix).size(), 2u);  // only the selected backend's
  const Config cephfs =
      configOf({"-a", "CEPHFS", "--cephfs.user=mdbench", "--cephfs.conf", "/etc/ceph/x.conf",
                "--cephfs.prefix=/mnt/cephfs", "--cephfs.remote_prefix=/bench", "--cephfs.olazy"});
  EXPECT_EQ(cephfs.cephfs.user, "mdbench");
  EXPECT_EQ(cephfs.cephfs.conf, "/etc/ceph/x.conf");
  EXPECT_EQ(cephfs.cephfs.prefix, "/mnt/cephfs");
  EXPECT_EQ(cephfs.cephfs.remote_prefix, "/bench");
  EXPECT_TRUE(cephfs.cephfs.olazy);
  const std::vector<BackendOptionValue> texts = backendOptionValues(cephfs);
  ASSERT_EQ(texts.size(), 5u);
  EXPECT_EQ(texts[0].name, "cephfs.user");
  EXPECT_EQ(std::get<std::string>(texts[0].value), "mdbench");
  EXPECT_EQ(std::get<std::uint64_t>(texts[4].value), 1u);
  // Read back as the results file's reader does: each value lands where the option put it.
  Config back;
  back.api = Api::kCephfs;
  for (const BackendOptionValue& v : texts) EXPECT_TRUE(setBackendOption(back, v.name, v.value)) << v.name;
  EXPECT_EQ(back.cephfs.remote_prefix, "/bench");
  EXPECT_TRUE(back.cephfs.olazy);
  EXPECT_FALSE(setBackendOption(back, "cephfs.user", std::uint64_t{3}));  // a number for a text
  EXPECT_FALSE(setBackendOption(back, "cephfs.olazy", std::string("x")));
  const Config nfs = configOf({"-a", "LIBNFS", "--libnfs.url=nfs://server/export/?version=4"});
  EXPECT_EQ(nfs.libnfs.url, "nfs://server/export/?version=4");
  const std::vector<BackendOptionValue> url = backendOptionValues(nfs);
  ASSERT_EQ(url.size(), 1u);
  EXPECT_EQ(url[0].name, "libnfs.url");
  EXPECT_EQ(std::get<std::string>(url[0].value), "nfs://server/export/?version=4");
  EXPECT_EQ(errorOf({"--libnfs.url=nfs://s/e/"}),
            "--libnfs.url is an option of -a LIBNFS, and this run's backend is POSIX (-a LIBNFS for it)");
}

TEST(ConfigBackends, AnotherBackendsOptionIsAUsageError) {
  EXPECT_EQ(errorOf({"-a", "DUMMY", "--posix.odirect"}),
            "--posix.odirect is an option of -a POSIX, and this run's backend is DUMMY (-a POSIX for it)");
  EXPECT_EQ(
      errorOf({"--dummy.delay-create=5"}),
      "--dummy.delay-create is an option of -a DUMMY, and this run's backend is POSIX (-a DUMMY for it)");
  EXPECT_EQ(errorOf({"--dummy.delay-create=x", "-a", "dummy"}),
            "--dummy.delay-create: 'x' is not a whole number");
}

// What no backend of mdbench's has: named with what the backend has, or as an ior backend's option.
TEST(ConfigBackends, UnknownBackendOptionsRefusedByName) {
  EXPECT_EQ(errorOf({"--posix.nosuch"}),
            "unknown option '--posix.nosuch': -a POSIX has no such option (it has --posix.odirect, "
            "--posix.rangelocks)");
  EXPECT_EQ(errorOf({"--posix.lustre.stripecount=4"}),
            "unknown option '--posix.lustre.stripecount': -a POSIX has no such option (mdtest has it only "
            "when built with that file system's headers) (it has --posix.odirect, --posix.rangelocks)");
  EXPECT_EQ(
      errorOf({"--mpiio.showHints", "-n", "5"}),
      "unknown option '--mpiio.showHints': an ior backend option; mdbench's backends (POSIX, DUMMY, CEPHFS "
      "and LIBNFS) have no such option");
  EXPECT_EQ(errorOf({"--.x"}), "unknown option '--.x'");
}

// The rows are the one list: -a's names, the results' api values, the value name the completion offers.
TEST(ConfigBackends, RowsNameEveryApi) {
  EXPECT_EQ(apiNames(", ", " and "), "POSIX, DUMMY, CEPHFS and LIBNFS");
  EXPECT_EQ(apiNames("|", "|"), std::string(kApiValueName));
  for (const BackendRow& row : kBackendRows) {
    EXPECT_EQ(apiName(row.api), row.name);
    EXPECT_EQ(apiNamed(row.name), row.api);
    EXPECT_EQ(&backendRow(row.api), &row);
  }
  EXPECT_EQ(apiNamed("dummy"), Api::kDummy);
  EXPECT_EQ(apiNamed("DUMMYX"), std::nullopt);
  EXPECT_EQ(optionBackend("posix.odirect"), &backendRow(Api::kPosix));
  EXPECT_EQ(optionBackend("posix"), nullptr);
  EXPECT_EQ(optionBackend("items"), nullptr);
  const std::string help = helpText();
  EXPECT_NE(help.find("  -a, --api POSIX|DUMMY|CEPHFS|LIBNFS\n"), std::string::npos);
  EXPECT_NE(help.find("\nBackends (-a, any case; each row's options are in Backend options):\n  POSIX "),
            std::string::npos);
  EXPECT_NE(help.find("      --posix.odirect "), std::string::npos);
  EXPECT_NE(help.find("      --dummy.delay-create US "), std::string::npos);
  EXPECT_NE(help.find("      --cephfs.conf FILE "), std::string::npos);
  EXPECT_EQ(optionBackend("cephfs.remote_prefix"), &backendRow(Api::kCephfs));
  EXPECT_NE(help.find("      --libnfs.url URL "), std::string::npos);
  EXPECT_EQ(optionBackend("libnfs.url"), &backendRow(Api::kLibnfs));
}

TEST(ConfigMdtest, BufferOffsetAndSeed) {
  EXPECT_EQ(configOf({}).buffer_offset, -1);
  EXPECT_EQ(configOf({"-G", "27"}).buffer_offset, 27);
  EXPECT_EQ(configOf({"-G", "-5"}).buffer_offset, -5);  // mdtest reads an int
  EXPECT_EQ(configOf({"--buffer-offset=2147483647"}).buffer_offset, 2147483647);
  EXPECT_EQ(errorOf({"-G", "2147483648"}),
            "-G/--buffer-offset: '2147483648' is not a whole number from -2147483648 to 2147483647");
  EXPECT_EQ(errorOf({"-G", "x"}),
            "-G/--buffer-offset: 'x' is not a whole number from -2147483648 to 2147483647");
  const Config seeded = configOf({"-R", "--random-seed", "9", "-T"});
  EXPECT_TRUE(seeded.random_order);
  EXPECT_EQ(seeded.random_seed, 9u);
  const Config seed_only = configOf({"--random-seed=9"});
  EXPECT_FALSE(seed_only.random_order);  // mdtest: the seed of -R, nothing without it
  EXPECT_EQ(seed_only.random_seed, 9u);
  EXPECT_EQ(errorOf({"--random-seed", "x"}), "--random-seed: 'x' is not a whole number");
  // mdtest's -R is a plain flag: options after it are options.
  const Config flag = configOf({"-R", "-C", "-T", "-V", "2"});
  EXPECT_TRUE(flag.random_order);
  EXPECT_EQ(flag.verbosity, 2u);
}

// mdtest's -B takes a value: -B, -B 1, -B=1 no barriers; -B 0, -B=0 barriers.
TEST(ConfigMdtest, NoBarriers) {
  EXPECT_FALSE(configOf({}).no_barriers);
  for (const Args& on : {Args{"-B"}, Args{"-B", "1"}, Args{"-B=1"}, Args{"-B1"}, Args{"--no-barriers"},
                         Args{"--no-barriers=2"}, Args{"-B", "-n", "5"}, Args{"-BF"}}) {
    EXPECT_TRUE(configOf(on).no_barriers) << on.back();
  }
  for (const Args& off : {Args{"-B", "0"}, Args{"-B=0"}, Args{"-B0"}}) {
    EXPECT_FALSE(configOf(off).no_barriers) << off.back();
  }
  EXPECT_EQ(errorOf({"-B", "-N", "1"}),
            "-B/--no-barriers and -N/--shift 1 exclude each other: without barriers a rank may work on items "
            "another has not made yet (as mdtest)");
  EXPECT_TRUE(configOf({"-B", "0", "-N", "1"}).shift == 1u);
  EXPECT_EQ(errorOf({"-B", "x"}), "unexpected argument 'x'");
  EXPECT_EQ(errorOf({"-B=x"}), "-B/--no-barriers: 'x' is not a whole number");
}

TEST(ConfigMdtest, SwitchesSetTheirFields) {
  struct Switch {
    Args args;
    bool Config::*field;
  };
  const Switch switches[] = {
      {{"-k"}, &Config::make_node},
      {{"--mknod"}, &Config::make_node},
      {{"-c"}, &Config::collective_creates},
      {{"--collective-creates"}, &Config::collective_creates},
      {{"-Z"}, &Config::print_time},
      {{"--print-time"}, &Config::print_time},
      {{"--print-all-procs"}, &Config::print_all_procs},
      {{"--showRankStatistics"}, &Config::show_rank_statistics},
      {{"--verify-write"}, &Config::verify_write},
      {{"--warningAsErrors", "-e", "1", "-w", "1"}, &Config::warnings_as_errors},
  };
  for (const Switch& tested : switches) {
    const Config config = configOf(tested.args);
    for (const Switch& other : switches) {
      EXPECT_EQ(config.*other.field, other.field == tested.field) << tested.args.front();
    }
  }
}

TEST(ConfigMdtest, TextOptions) {
  const Config config = configOf({"--saveRankPerformanceDetails", "ranks.csv", "--savePerOpDataCSV=ops-",
                                  "--run-cmd-before-phase", "echo before", "--run-cmd-after-phase=echo after",
                                  "--path-style", "dirfd", "--sync-call=syncfs", "--dataPacketType", "o"});
  EXPECT_EQ(config.rank_details_csv, "ranks.csv");
  EXPECT_EQ(config.per_op_csv_prefix, "ops-");
  EXPECT_EQ(config.cmd_before_phase, "echo before");
  EXPECT_EQ(config.cmd_after_phase, "echo after");
  EXPECT_EQ(config.path_style, PathStyle::kDirfd);
  EXPECT_EQ(config.sync_call, SyncCall::kSyncfs);
  EXPECT_EQ(config.data_packet, DataPacket::kOffset);
  const Config defaults = configOf({});
  EXPECT_EQ(defaults.path_style, PathStyle::kFull);
  EXPECT_EQ(defaults.sync_call, SyncCall::kSync);
  EXPECT_EQ(defaults.data_packet, DataPacket::kTimestamp);
  EXPECT_EQ(defaults.console, ConsoleStyle::kMdbench);
  const std::pair<const char*, DataPacket> packets[] = {{"timestamp", DataPacket::kTimestamp},
                                                        {"t", DataPacket::kTimestamp},
                                                        {"offset", DataPacket::kOffset},
                                                        {"o", DataPacket::kOffset},
                                                        {"incompressible", DataPacket::kIncompressible},
                                                        {"i", DataPacket::kIncompressible},
                                                        {"random", DataPacket::kRandom},
                                                        {"r", DataPacket::kRandom}};
  for (const auto& [name, packet] : packets) {
    EXPECT_EQ(configOf({"--dataPacketType", name}).data_packet, packet) << name;
  }
  EXPECT_EQ(
      errorOf({"--dataPacketType", "x"}),
      "--dataPacketType: unknown packet type 'x' (expected timestamp, offset, incompressible, random or t, "
      "o, i, r)");
  EXPECT_EQ(errorOf({"--path-style", "relative"}),
            "--path-style: unknown path style 'relative' (expected full or dirfd)");
  EXPECT_EQ(errorOf({"--sync-call", "fsync"}),
            "--sync-call: unknown sync call 'fsync' (expected sync or syncfs)");
  EXPECT_EQ(errorOf({"--run-cmd-before-phase="}), "--run-cmd-before-phase: empty value, expected a command");
  EXPECT_EQ(errorOf({"--run-cmd-after-phase", ""}), "--run-cmd-after-phase: empty value, expected a command");
  EXPECT_EQ(errorOf({"--saveRankPerformanceDetails="}),
            "--saveRankPerformanceDetails: empty value, expected a file name");
  EXPECT_EQ(errorOf({"--savePerOpDataCSV"}), "--savePerOpDataCSV: needs a value");
}

// -o's words mdtest and mdbench select the console; any other value (./mdtest) names the results file.
TEST(ConfigMdtest, OutputConsoleStyle) {
  const Config mdtest = configOf({"--output", "mdtest"});
  EXPECT_EQ(mdtest.console, ConsoleStyle::kMdtest);
  EXPECT_EQ(mdtest.output, "");
  EXPECT_EQ(configOf({"-o", "mdbench"}).console, ConsoleStyle::kMdbench);
  EXPECT_EQ(configOf({"-o=mdtest"}).console, ConsoleStyle::kMdtest);
  const Config file = configOf({"-o", "./mdtest"});
  EXPECT_EQ(file.console, ConsoleStyle::kMdbench);
  EXPECT_EQ(file.output, "./mdtest");
  const Config both = configOf({"-o", "r.h5", "--output", "mdtest"});
  EXPECT_EQ(both.output, "r.h5");
  EXPECT_EQ(both.console, ConsoleStyle::kMdtest);
  const std::string twice =
      "-o/--output: given more than once (at most a results file and a console style, mdtest or mdbench)";
  EXPECT_EQ(errorOf({"-o", "a.h5", "-o", "b.h5"}), twice);
  EXPECT_EQ(errorOf({"-o", "mdtest", "-o", "mdbench"}), twice);
}

// md_validate_tests_rank0's refusals, and mdtest's -B bug not repeated: -B alone is accepted.
TEST(ConfigMdtest, MdtestRefusals) {
  EXPECT_TRUE(configOf({"-B"}).no_barriers);
  EXPECT_EQ(errorOf({"-c", "-S"}),
            "-c/--collective-creates and -S/--shared-files exclude each other (as mdtest)");
  EXPECT_EQ(errorOf({"-c", "-u", "-d", "a@b"}),
            "-c/--collective-creates and several -d/--dir directories exclude each other (as mdtest)");
  EXPECT_EQ(errorOf({"-c", "-B"}),
            "-c/--collective-creates and -B/--no-barriers exclude each other (as mdtest)");
  EXPECT_TRUE(configOf({"-c", "-B=0"}).collective_creates);
  EXPECT_EQ(errorOf({"-k", "-w", "10"}),
            "-k/--mknod and -w/--write-bytes 10 exclude each other: mknod makes empty files (as mdtest)");
  EXPECT_TRUE(configOf({"-k", "-w", "0"}).make_node);
}

// mdtest accepts what IO500 passes to every job: -R without stat or read, -y without -w, -f and -s without
// -l (one run).
TEST(ConfigMdtest, ContextRulesRelaxed) {
  EXPECT_TRUE(configOf({"-R", "-C"}).random_order);
  EXPECT_TRUE(configOf({"-y", "-C"}).fsync_writes);
  EXPECT_FALSE(configOf({"-f", "2"}).sweep.active());
  EXPECT_FALSE(configOf({"-s", "2", "-f", "1"}).sweep.active());
  EXPECT_EQ(errorOf({"-f", "x"}), "-f/--sweep-first: 'x' is not a whole number");  // still a whole number
}

// mdtest's startup warning (a read phase with -e 0 only opens and closes): a warning when -E asks for the
// read (the default selection's read says nothing), or with --warningAsErrors a usage error.
TEST(ConfigMdtest, Warnings) {
  const std::string warning =
      "-E/--read: -e/--read-bytes is 0: the read phase only opens and closes each file";
  EXPECT_EQ(parseCommandLine({}).warnings, Errors{});
  EXPECT_EQ(parseCommandLine({"-E"}).warnings, Errors{warning});
  EXPECT_EQ(parseCommandLine({"-C"}).warnings, Errors{});
  EXPECT_EQ(parseCommandLine({"-D"}).warnings, Errors{});
  EXPECT_EQ(parseCommandLine({"-e", "1", "-w", "1"}).warnings, Errors{});
  EXPECT_EQ(errorOf({"--warningAsErrors"}), warning + " (--warningAsErrors)");
  EXPECT_EQ(parseCommandLine({"--warningAsErrors"}).warnings, Errors{});
  EXPECT_TRUE(configOf({"--warningAsErrors", "-C", "-T", "-r"}).warnings_as_errors);
}

// `--server-stats $MDBENCH_TESTBED_SERVER_STATS` (the variable holds "--server-stats=A --server-stats=B"):
// the message says the flag is doubled; the variable by itself is two sources; a source that is an option is
// refused.
TEST(ConfigSyntax, ServerStatsFlagDoubled) {
  EXPECT_EQ(errorOf({"--server-stats", "--server-stats=ceph-mds:/a", "--server-stats=ceph-mds:/b"}),
            "--server-stats: needs a value, and the next word '--server-stats=ceph-mds:/a' is the same "
            "option: each "
            "--server-stats takes its own value; a variable holding whole options goes on the command line "
            "by itself");
  EXPECT_EQ(configOf({"--server-stats=ceph-mds:/a", "--server-stats=ceph-mds:/b"}).server_stats,
            (std::vector<std::string>{"ceph-mds:/a", "ceph-mds:/b"}));
  EXPECT_EQ(errorOf({"--server-stats=--server-stats=ceph-mds:/a"}).substr(0, 62),
            "--server-stats: '--server-stats=ceph-mds:/a' is an option, not");
}

}  // namespace
}  // namespace mdbench
