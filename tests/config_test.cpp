// Tests of the command line: options, strict numbers, resolution, validation, help.
#include "mdbench/config.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

void expectPhases(const Config& config, const PhaseSelection& expected) {
  EXPECT_EQ(config.phases.create, expected.create);
  EXPECT_EQ(config.phases.stat, expected.stat);
  EXPECT_EQ(config.phases.read, expected.read);
  EXPECT_EQ(config.phases.remove, expected.remove);
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
  expectPhases(config, phases(true, true, true, true));
  EXPECT_EQ(config.iterations, 1u);
  EXPECT_EQ(config.write_bytes, 0u);
  EXPECT_EQ(config.read_bytes, 0u);
  EXPECT_FALSE(config.keep);
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
                                    opt("-I", "--items-per-dir"), "400", opt("-i", "--iterations"), "4",
                                    opt("-w", "--write-bytes"), "3901", opt("-e", "--read-bytes"), "100"});
    SCOPED_TRACE(use_long ? "long" : "short");
    EXPECT_EQ(config.items, 5000u);
    EXPECT_EQ(config.target, "/scratch/x");
    EXPECT_EQ(config.depth, 2u);
    EXPECT_EQ(config.branching, 3u);
    EXPECT_EQ(config.items_per_dir, 400u);
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
  EXPECT_EQ(configOf({"-d", "-x"}).target, "-x");  // not one of ours, so a value as for Boost
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

TEST(ConfigParse, DirsOnlyDefaultPhasesLeaveOutRead) {
  expectPhases(configOf({"-D"}), phases(true, true, false, true));
}

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

TEST(ConfigNumbers, ItemsPerDirZeroGivenExplicitly) {
  EXPECT_EQ(errorOf({"-I", "0"}),
            "-I/--items-per-dir: must be at least 1, got '0' (leave it out to spread -n evenly)");
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

TEST(ConfigResolve, ItemsFromItemsPerDir) {
  EXPECT_EQ(configOf({"-I", "10"}).items, 10u);                                  // one directory
  EXPECT_EQ(configOf({"-I", "10", "-z", "2", "-b", "3"}).items, 130u);           // 1 + 3 + 9 directories
  EXPECT_EQ(configOf({"-I", "10", "-z", "3", "-b", "1"}).items, 40u);            // a chain of 4
  EXPECT_EQ(configOf({"-I", "10", "-z", "2", "-b", "3", "-L"}).items, 90u);      // 9 leaves
  EXPECT_EQ(configOf({"-I", "10", "-z", "2", "-b", "3", "-n", "7"}).items, 7u);  // -n given wins
  EXPECT_EQ(configOf({"-I", "10", "-z", "2", "-b", "3", "-n", "130"}).items, 130u);
}

TEST(ConfigResolve, ItemsFromItemsPerDirOverflow) {
  EXPECT_EQ(errorOf({"-I", "18446744073709551615", "-z", "1", "-b", "2"}),
            "-I/--items-per-dir: 18446744073709551615 items over 3 directories is out of range "
            "(at most 18446744073709551615 items)");
}

TEST(ConfigResolve, CommandLineQuoting) {
  EXPECT_EQ(configOf({"-n", "10", "-d", "/scratch/a_b-c.d"}).command_line,
            "mdbench -n 10 -d /scratch/a_b-c.d");
  EXPECT_EQ(configOf({"-d", "my dir"}).command_line, "mdbench -d 'my dir'");
  EXPECT_EQ(configOf({"-d", "it's"}).command_line, "mdbench -d 'it'\\''s'");
  EXPECT_EQ(configOf({"-d", "$HOME/*"}).command_line, "mdbench -d '$HOME/*'");
  EXPECT_EQ(configOf({"--dir=a=b,c:d@e%f+g"}).command_line, "mdbench --dir=a=b,c:d@e%f+g");
  EXPECT_EQ(parseCommandLine({"-d", ""}).config.command_line, "mdbench -d ''");
  EXPECT_EQ(parseCommandLine({"x\ty"}).config.command_line, "mdbench 'x\ty'");
}

// ---- unknown options, positional arguments, repeats, syntax

TEST(ConfigSyntax, UnknownOptionsAllReported) {
  EXPECT_EQ(errorsOf({"--bogus", "-n", "5", "-Q", "--stonewall=3"}),
            (Errors{"unknown option '--bogus'", "unknown option '-Q'", "unknown option '--stonewall'"}));
}

TEST(ConfigSyntax, UnknownLetterInGroup) { EXPECT_EQ(errorOf({"-uxF"}), "unknown option '-x' in '-uxF'"); }

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

TEST(ConfigSyntax, RepeatedOption) {
  EXPECT_EQ(errorOf({"-n", "5", "--items", "6"}), "-n/--items: given more than once");
  EXPECT_EQ(errorOf({"-n", "5", "-n", "6", "-n", "7"}), "-n/--items: given more than once");
  EXPECT_EQ(errorOf({"-uu"}), "-u/--unique-dir: given more than once");
  EXPECT_EQ(errorOf({"--keep", "--keep"}), "--keep: given more than once");
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

TEST(ConfigSyntax, SwitchWithValue) {
  EXPECT_EQ(errorOf({"--keep=yes"}), "--keep: takes no value, got '--keep=yes'");
  EXPECT_EQ(errorOf({"--unique-dir=1"}), "-u/--unique-dir: takes no value, got '--unique-dir=1'");
}

TEST(ConfigSyntax, EverySyntaxProblemAtOnce) {
  EXPECT_EQ(errorsOf({"--keep=1", "--nope", "-n", "1", "-n", "2", "extra", "-w"}),
            (Errors{"--keep: takes no value, got '--keep=1'", "unknown option '--nope'",
                    "-n/--items: given more than once", "unexpected argument 'extra'",
                    "-w/--write-bytes: needs a value"}));
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
                           "(default 1000)",
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
    if (column == std::string::npos) column = description;
    EXPECT_EQ(description, column) << line;
  }
  EXPECT_LE(lines, 55u);
}

// ---- contradictions and impossible values

TEST(ConfigResolve, KeepRunsNoRemovePhase) {
  expectPhases(configOf({"--keep"}), phases(true, true, true, false));
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

TEST(ConfigValidate, FilesOnlyAndDirsOnly) {
  EXPECT_EQ(errorOf({"-F", "-D"}), "-F/--files-only and -D/--dirs-only exclude each other");
  EXPECT_EQ(errorOf({"-FD"}), "-F/--files-only and -D/--dirs-only exclude each other");
}

TEST(ConfigValidate, BranchingZero) {
  EXPECT_EQ(errorOf({"-b", "0"}), "-b/--branching: must be at least 1, got 0");
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

TEST(ConfigValidate, ItemsDoNotFitItemsPerDir) {
  // -z 1 -b 49: 1 + 49 = 50 directories, 49 of them leaves.
  EXPECT_EQ(errorOf({"-n", "1000", "-I", "10", "-z", "1", "-b", "49"}),
            "-n/--items: -n 1000 does not fit -I 10 over 50 directories (at most 500 items)");
  EXPECT_EQ(errorOf({"-n", "1000", "-I", "10", "-z", "1", "-b", "49", "-L"}),
            "-n/--items: -n 1000 does not fit -I 10 over 49 leaf directories (at most 490 items)");
  EXPECT_EQ(errorOf({"-n", "11", "-I", "10"}),
            "-n/--items: -n 11 does not fit -I 10 over 1 directory (at most 10 items)");
  EXPECT_EQ(configOf({"-n", "500", "-I", "10", "-z", "1", "-b", "49"}).items, 500u);  // exactly full
  EXPECT_EQ(configOf({"-n", "491", "-I", "10", "-z", "1", "-b", "49"}).items, 491u);  // last one partial
}

TEST(ConfigValidate, DataWithDirsOnly) {
  EXPECT_EQ(errorOf({"-D", "-w", "4k"}),
            "-w/--write-bytes: 4096 applies to files only, not with -D/--dirs-only");
  EXPECT_EQ(errorOf({"-D", "-e", "1"}), "-e/--read-bytes: 1 applies to files only, not with -D/--dirs-only");
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
  EXPECT_EQ(errorsOf({"-F", "-D", "-b", "0", "-n", "0", "-i", "0", "-I", "0", "-d", "", "--wat"}),
            (Errors{"unknown option '--wat'",
                    "-I/--items-per-dir: must be at least 1, got '0' (leave it out to spread -n evenly)",
                    "-d/--dir: empty value, expected a directory",
                    "-F/--files-only and -D/--dirs-only exclude each other",
                    "-b/--branching: must be at least 1, got 0", "-n/--items: must be at least 1, got 0",
                    "-i/--iterations: must be at least 1, got 0"}));
  EXPECT_EQ(errorsOf({"-D", "-E", "-w", "1", "-e", "2", "-n", "9", "-I", "4", "-z", "1"}),
            (Errors{"-n/--items: -n 9 does not fit -I 4 over 2 directories (at most 8 items)",
                    "-w/--write-bytes: 1 applies to files only, not with -D/--dirs-only",
                    "-e/--read-bytes: 2 applies to files only, not with -D/--dirs-only",
                    "-E/--read: the read phase reads files, not with -D/--dirs-only"}));
}

TEST(ConfigValidate, ValidateAloneOnAConfig) {
  EXPECT_EQ(validate(validConfig()), Errors{});
  Config config = validConfig();
  config.branching = 0;
  config.items = 0;
  config.iterations = 0;
  config.write_bytes = (1u << 30) + 1;
  config.phases = PhaseSelection{};
  EXPECT_EQ(validate(config),
            (Errors{"-b/--branching: must be at least 1, got 0", "-n/--items: must be at least 1, got 0",
                    "-i/--iterations: must be at least 1, got 0",
                    "no phase selected (-C/--create, -T/--stat, -E/--read, -r/--remove)",
                    "-w/--write-bytes: 1073741825 is more than 1 GiB"}));
  Config fits = validConfig();
  fits.depth = 2;
  fits.branching = 2;
  fits.items_per_dir = 3;
  fits.items = 21;  // 7 directories x 3
  EXPECT_EQ(validate(fits), Errors{});
  fits.items = 22;
  EXPECT_EQ(validate(fits),
            Errors{"-n/--items: -n 22 does not fit -I 3 over 7 directories (at most 21 items)"});
}

}  // namespace
}  // namespace mdbench
