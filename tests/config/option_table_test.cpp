// The option rows (src/config/config_table.hpp) and what is generated from them: the Boost table the
// tokenizer reads, the conversions into Config, --help, the exported docs and the names in messages.
#include <gtest/gtest.h>

#include <boost/program_options.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "config_table.hpp"
#include "mdbench/config/config.hpp"
#include "mdbench/config/option_docs.hpp"

namespace mdbench::config_detail {
namespace {

bool takesValue(const OptionRow& option) {
  return option.kind != OptionKind::kSwitch && option.kind != OptionKind::kCounter;
}

Config accepted(const std::vector<std::string>& args) {
  const CliRequest request = parseCommandLine(args);
  EXPECT_EQ(request.errors, std::vector<std::string>{}) << request.config.command_line;
  return request.config;
}

// mdtest accepts every option given twice (issue 30: "-u ... -u" in the 2017 IO500 scripts): each switch,
// given again, changes nothing, whatever the option. --help and --version end the parse.
TEST(OptionRows, EverySwitchMayBeRepeated) {
  int switches = 0;
  for (const OptionRow& option : kOptionRows) {
    if (option.kind != OptionKind::kSwitch || option.long_name == "help" || option.long_name == "version") {
      continue;
    }
    const std::string name = "--" + std::string(option.long_name);
    EXPECT_EQ(parseCommandLine({name, "-n", "5", name}).errors, parseCommandLine({name, "-n", "5"}).errors)
        << name;
    if (option.short_name != 0) {
      const std::string letter{'-', option.short_name};
      EXPECT_EQ(parseCommandLine({letter, "-n", "5", letter, letter + "=1"}).errors,
                parseCommandLine({letter, "-n", "5"}).errors)
          << letter;
    }
    ++switches;
  }
  EXPECT_GE(switches, 28);  // every switch row but --help and --version
}

TEST(OptionRows, NamesAreUnique) {
  std::set<std::string> names;
  for (const OptionRow& option : kOptionRows) {
    EXPECT_TRUE(names.insert("--" + std::string(option.long_name)).second) << option.long_name;
    if (option.short_name != 0) {
      EXPECT_TRUE(names.insert(std::string{'-', option.short_name}).second) << option.short_name;
    }
    EXPECT_EQ(option.value_name.empty(), !takesValue(option)) << option.long_name;
  }
}

TEST(OptionRows, GroupsAreInOrder) {
  for (std::size_t i = 0; i < kOptionGroups.size(); ++i)
    EXPECT_EQ(static_cast<std::size_t>(kOptionGroups[i].id), i);
  // Rows of a group stay together, in the groups' order: --help and the man page list them so.
  for (std::size_t i = 1; i < kOptionRows.size(); ++i) {
    EXPECT_LE(kOptionRows[i - 1].group, kOptionRows[i].group) << kOptionRows[i].long_name;
  }
}

// Each row is in the Boost table under both its names, taking a value exactly when its kind does.
TEST(OptionRows, EveryRowIsInTheBoostTable) {
  RawOptions raw;
  const po::options_description table = buildOptionTable(raw);
  ASSERT_EQ(table.options().size(), kOptionRows.size());
  for (const OptionRow& option : kOptionRows) {
    const po::option_description* found = table.find_nothrow(std::string(option.long_name), false);
    ASSERT_NE(found, nullptr) << option.long_name;
    EXPECT_EQ(&rowOf(*found), &option);
    if (option.short_name != 0) {
      EXPECT_EQ(table.find_nothrow(std::string{'-', option.short_name}, false), found) << option.short_name;
    }
    EXPECT_EQ(found->description(), option.help);
    EXPECT_EQ(found->semantic()->max_tokens() > 0, takesValue(option)) << option.long_name;
    EXPECT_EQ(found->semantic()->min_tokens() == 0 && takesValue(option),
              option.kind == OptionKind::kOptionalCount)
        << option.long_name;
    // -o may be given twice: a results file and a console style (-o F --output mdtest); --server-stats
    // once per source; --fault-at and --fault-cmd once per fault, in pairs; --fault-phase once per phase.
    const std::set<std::string_view> repeated = {"output", "server-stats", "fault-at", "fault-cmd",
                                                 "fault-phase"};
    EXPECT_EQ(std::set<std::string_view>(kRepeatedTexts.begin(), kRepeatedTexts.end()), repeated);
    EXPECT_EQ(found->semantic()->is_composing(),
              option.kind == OptionKind::kCounter || repeated.contains(option.long_name))
        << option.long_name;
  }
}

// Each value row is converted exactly once, in the order of the messages; no switch is.
TEST(OptionRows, EveryValueRowIsConvertedOnce) {
  for (const OptionRow& option : kOptionRows) {
    const auto count = std::count(kConversionOrder.begin(), kConversionOrder.end(), &option);
    EXPECT_EQ(count, takesValue(option) ? 1 : 0) << option.long_name;
  }
}

// A row lands somewhere its kind can reach: numbers need a number (or seconds) setter, texts without a
// setter are read with others (the sweep's five, the fault pairs).
TEST(OptionRows, EveryRowHasTheSetterItsKindNeeds) {
  std::set<std::string> combined;
  for (const OptionRow& option : kOptionRows) {
    const Land& land = option.land;
    switch (option.kind) {
      case OptionKind::kCount:
      case OptionKind::kBytes:
        EXPECT_NE(land.number, nullptr) << option.long_name;
        EXPECT_GT(land.max, 0U) << option.long_name;
        break;
      case OptionKind::kOptionalCount:
        EXPECT_NE(land.on, nullptr) << option.long_name;
        EXPECT_NE(land.number, nullptr) << option.long_name;
        break;
      case OptionKind::kSeconds:
        EXPECT_NE(land.seconds, nullptr) << option.long_name;
        break;
      case OptionKind::kCounter:
        EXPECT_NE(land.number, nullptr) << option.long_name;
        break;
      case OptionKind::kText:
        if (land.text == nullptr) combined.insert(std::string(option.long_name));
        break;
      case OptionKind::kSwitch:
        break;
    }
  }
  EXPECT_EQ(combined,
            (std::set<std::string>{"output", "sweep", "sweep-placement", "sweep-first", "sweep-last",
                                   "sweep-stride", "fault-at", "fault-cmd", "fault-phase"}));
}

// --help shows every row the parser accepts, with its names, value and help: the main groups under their
// captions, mdtest's spellings and further options (-P -t -f -l -s ...) after them.
TEST(OptionRows, EveryRowIsInHelp) {
  const std::string help = helpText();
  for (const OptionRow& option : kOptionRows) {
    std::string names = option.short_name != 0 ? std::string{'-', option.short_name, ','} : "   ";
    names += " --" + std::string(option.long_name);
    if (takesValue(option)) names += " " + std::string(option.value_name);
    const std::string line = "\n  " + names;
    const bool shown =
        help.find(line + "  ") != std::string::npos || help.find(line + "\n") != std::string::npos;
    EXPECT_TRUE(shown) << line;
    const std::string first_help_line(option.help.substr(0, option.help.find('\n')));
    EXPECT_NE(help.find(first_help_line), std::string::npos) << first_help_line;
  }
  for (const GroupRow& group : kOptionGroups) {
    if (group.in_help) {
      EXPECT_NE(help.find("\n" + std::string(group.caption) + ":\n"), std::string::npos);
    }
  }
  EXPECT_NE(help.find("\nmdtest's spellings and further options, with mdtest's meaning"), std::string::npos);
  for (const char* name :
       {"\n  -P, --print-rate-and-time ", "\n  -t, --time-unique-overhead ", "\n  -f, --sweep-first N ",
        "\n  -l, --sweep-last N ", "\n  -s, --sweep-stride N "}) {
    EXPECT_NE(help.find(name), std::string::npos) << name;
  }
}

TEST(OptionRows, TheDocsAreTheRows) {
  const std::vector<OptionGroupDoc> docs = mainOptionDocs();
  ASSERT_EQ(docs.size(), kOptionGroups.size());
  std::size_t next = 0;
  for (std::size_t g = 0; g < docs.size(); ++g) {
    EXPECT_EQ(docs[g].caption, kOptionGroups[g].caption);
    EXPECT_EQ(docs[g].in_help, kOptionGroups[g].in_help);
    for (const OptionDoc& doc : docs[g].options) {
      ASSERT_LT(next, kOptionRows.size());
      const OptionRow& option = kOptionRows[next++];
      EXPECT_EQ(doc.long_name, option.long_name);
      EXPECT_EQ(doc.short_name, option.short_name != 0 ? std::string{option.short_name} : "");
      EXPECT_EQ(doc.value_name, option.value_name);
      EXPECT_EQ(doc.description, option.help);
      EXPECT_EQ(doc.repeatable, option.kind == OptionKind::kCounter);
      EXPECT_EQ(doc.value_optional, option.kind == OptionKind::kOptionalCount);
    }
  }
  EXPECT_EQ(next, kOptionRows.size());
}

TEST(OptionRows, MessagesNameOptionsFromTheirRows) {
  EXPECT_EQ(label("items"), "-n/--items");
  EXPECT_EQ(label("keep"), "--keep");
  EXPECT_EQ(optionLabel("output"), "-o/--output");
  EXPECT_EQ(optionLabel("sweep"), "--sweep");
  EXPECT_THROW(optionLabel("no-such-option"), std::invalid_argument);
  // A bad value is reported under every spelling by the row's label.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-z", "x"}, {"--depth", "x"}, {"--depth=x"}, {"-zx"}}) {
    EXPECT_EQ(parseCommandLine(args).errors,
              std::vector<std::string>{"-z/--depth: 'x' is not a whole number"});
  }
}

// Every switch with a setter changes the Config it lands in, from either name.
TEST(OptionRows, SwitchesLand) {
  EXPECT_TRUE(accepted({"-L"}).leaf_only);
  EXPECT_TRUE(accepted({"--leaf-only"}).leaf_only);
  EXPECT_TRUE(accepted({"-y", "-w", "1"}).fsync_writes);
  EXPECT_EQ(accepted({"-u"}).sharing, TreeSharing::kUnique);
  EXPECT_EQ(accepted({"--append"}).output_mode, OutputMode::kAppend);
  EXPECT_TRUE(accepted({"--readdir"}).phases.readdir);
  EXPECT_EQ(accepted({"-vvv"}).verbosity, 3U);
  for (const OptionRow& option : kOptionRows) {
    if (option.land.on == nullptr) continue;
    Config config;
    option.land.on(config);
    Config unchanged;
    const bool changed = config.kinds != unchanged.kinds || config.sharing != unchanged.sharing ||
                         config.output_mode != unchanged.output_mode || config.leaf_only || config.keep ||
                         config.renamed || config.random_order || config.fsync_writes || config.sync_phases ||
                         config.verify_read || config.shared_files || config.phases.any() ||
                         config.make_node || config.collective_creates || config.no_barriers ||
                         config.print_time || config.print_all_procs || config.show_rank_statistics ||
                         config.verify_write || config.warnings_as_errors || config.print_rate_and_time ||
                         config.posix.odirect || config.posix.rangelocks || config.dummy.delay_only_rank0 ||
                         config.cephfs.olazy;
    EXPECT_TRUE(changed) << option.long_name;
  }
}

// Numbers by kind: byte counts take k, m, g; counts are bounded by their field's type.
TEST(OptionRows, NumbersConvertByKind) {
  EXPECT_EQ(accepted({"-w", "4k"}).write_bytes, 4096U);
  EXPECT_EQ(accepted({"--write-bytes=2m", "-e", "4k"}).read_bytes, 4096U);
  EXPECT_EQ(accepted({"-W", "0.5"}).stonewall_s, 0.5);
  EXPECT_EQ(accepted({"-R7", "-T"}).random_seed, 7U);
  EXPECT_EQ(parseCommandLine({"-i", "4294967296"}).errors,
            std::vector<std::string>{"-i/--iterations: '4294967296' is out of range (at most 4294967295)"});
  EXPECT_EQ(accepted({"-n", "4294967296"}).items, 4294967296U);  // a 64-bit field
}

}  // namespace
}  // namespace mdbench::config_detail
