// The main command's option table (config_table.hpp): every option with its names, value and help line.
#include "config_table.hpp"

#include <boost/program_options.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mdbench::config_detail {
namespace {

po::typed_value<std::string>* text(std::optional<std::string>& slot, const char* value_name) {
  return po::value<std::string>()->value_name(value_name)->notifier([&slot](const std::string& value) {
    slot = value;
  });
}

// -R [SEED]: a list of at most one token, empty when the seed is left out, so that "--random=" (an empty
// seed, refused) differs from "--random" (none).
po::typed_value<std::vector<std::string>>* optionalText(bool& given, std::optional<std::string>& slot,
                                                        const char* value_name) {
  return po::value<std::vector<std::string>>()
      ->implicit_value({}, "")
      ->value_name(value_name)
      ->notifier([&given, &slot](const std::vector<std::string>& value) {
        given = true;
        if (!value.empty()) slot = value.front();
      });
}

// -v: the one option that may be repeated (Boost's "composing"); each occurrence counts.
po::typed_value<bool>* counter(std::uint32_t& count) {
  return po::bool_switch()->composing()->notifier([&count](bool) { ++count; });
}

}  // namespace

OptionTable buildOptionTable(RawOptions& raw) {
  OptionTable table;
  const auto group = [&table](const char* caption) {
    table.groups.emplace_back(caption, std::make_shared<po::options_description>());
    return table.groups.back().second->add_options();
  };
  // clang-format off
  group("Workload")
      (kItems.boost, text(raw.items, "N"), "items per rank, exact (default 1000; required with --preset)")
      (kFilesOnly.boost, po::bool_switch(&raw.files_only), "files only (default: files and directories)")
      (kDirsOnly.boost, po::bool_switch(&raw.dirs_only), "directories only")
      (kSharedFiles.boost, po::bool_switch(&raw.shared_files),
       "every rank uses the same file names (implies -F; not with -u)")
      (kSteady.boost, text(raw.steady, "ROUNDS"),
       "md-workbench's steady mix: ROUNDS x stat, read, delete, create (README)")
      (kDatasets.boost, text(raw.datasets, "D"), "--steady: directories the -n objects are spread over (default 10)")
      (kPreset.boost, text(raw.preset, "NAME"), "IO500's mdtest options, read before the others (see Presets)");
  group("Tree")
      (kDir.boost, text(raw.dir, "DIR"),
       "directory to run in (default: a new mdbench.<stamp> in the current one);\n"
       "DIR@DIR@...: rank r runs in the (r mod count)-th (needs -u, no -N)")
      (kUniqueDir.boost, po::bool_switch(&raw.unique_dir), "a tree per rank (default: one tree shared by all)")
      (kDepth.boost, text(raw.depth, "N"), "tree depth (default 0: the tree is one directory)")
      (kBranching.boost, text(raw.branching, "N"), "subdirectories per directory (default 1)")
      (kItemsPerDir.boost, text(raw.items_per_dir, "N"),
       "fill item directories N at a time, in order (default: spread -n\n"
       "evenly); without -n, -n is N times the number of item directories")
      (kLeafOnly.boost, po::bool_switch(&raw.leaf_only), "items only in the leaf directories");
  group("Phases (none of -C -T -E -r given: those four, without read for -D)")
      (kCreate.boost, po::bool_switch(&raw.create), "create the items")
      (kStat.boost, po::bool_switch(&raw.stat), "stat the items")
      (kRead.boost, po::bool_switch(&raw.read), "read the files (-e bytes each)")
      (kRemove.boost, po::bool_switch(&raw.remove), "remove the items")
      (kRename.boost, po::bool_switch(&raw.rename), "also rename every item (to <name>.renamed) after stat and read")
      (kReaddir.boost, po::bool_switch(&raw.readdir), "also list every tree directory and check its entries")
      (kRenamed.boost, po::bool_switch(&raw.renamed), "the items were renamed by an earlier run (-U); not with -C, -U");
  group("Order and timing (SECONDS: digits, optionally with a fraction: 300, 0.5)")
      (kShift.boost, text(raw.shift, "S"),
       "later phases work on the items of rank r+S (mod ranks), defeating\n"
       "client caches (default 0: each rank its own)")
      (kRandom.boost, optionalText(raw.random, raw.random_seed, "[SEED]"),
       "stat, read and readdir in a random order from SEED (default 0); the\n"
       "next word is SEED when it starts with a digit: -R 7, -R7, --random=7")
      (kStonewall.boost, text(raw.stonewall, "SECONDS"),
       "creates, stats and reads stop after SECONDS, then every rank goes\n"
       "on to the highest count reached; renames and removes note the rate\n"
       "at SECONDS and finish (default 0: off)")
      (kStonewallFile.boost, text(raw.stonewall_file, "FILE"),
       "the create phase writes the item count it reached to FILE; runs\n"
       "without -C read it from there")
      (kPreDelay.boost, text(raw.pre_delay, "SECONDS"), "sleep before each iteration (default 0)")
      (kSeriesInterval.boost, text(raw.series_interval, "SECONDS"),
       "count every rank's ops per SECONDS: throughput over time (default 0.1)")
      (kProgress.boost, text(raw.progress, "SECONDS"),
       "print rank 0's progress every SECONDS (0: never; default: live on a terminal)");
  group("Data (B: bytes, or with suffix k, m, g for KiB, MiB, GiB; at most 1g)")
      (kWriteBytes.boost, text(raw.write_bytes, "B"), "bytes written to each file it creates (default 0)")
      (kReadBytes.boost, text(raw.read_bytes, "B"), "bytes read from each file in the read phase (default 0)")
      (kFsync.boost, po::bool_switch(&raw.fsync), "fsync each file after writing it (needs -w)")
      (kSync.boost, po::bool_switch(&raw.sync), "syncfs at the end of each phase, inside its timed region")
      (kVerify.boost, po::bool_switch(&raw.verify), "check the bytes read against the pattern written (needs -e)");
  group("Output and run")
      (kIterations.boost, text(raw.iterations, "N"), "repeat the selected phases N times (default 1)")
      (kKeep.boost, po::bool_switch(&raw.keep), "leave the tree in place after the run")
      (kOutput.boost, text(raw.output, "FILE"),
       "HDF5 results file (default: mdbench-<UTC time>[-<job id>].h5 in the\n"
       "current directory); never overwritten unless --force")
      (kForce.boost, po::bool_switch(&raw.force), "replace an existing results file")
      (kAppend.boost, po::bool_switch(&raw.append), "add this run to an existing results file")
      (kSweep.boost, text(raw.sweep, "STEPS"), "the whole run once per step of 1,2,4,.. ranks or pow2 (or mdtest's -f -l -s)")
      (kSweepPlacement.boost, text(raw.sweep_placement, "P"), "a step of k: block, ranks 0..k-1 (default); spread, round-robin over nodes")
      (kVerbose.boost, counter(raw.verbosity), "more detail on the console; repeat for more: -vv")
      (kHelp.boost, po::bool_switch(&raw.help), "print this help and exit")
      (kVersion.boost, po::bool_switch(&raw.version), "print the version and exit");
  // mdtest's spelling of --sweep: parsed, but left out of --help (kept short; --sweep names them).
  po::options_description mdtest_sweep;
  mdtest_sweep.add_options()
      // mdtest's switches for what mdbench always does: rate and time are always printed, and creating the
      // trees (unique ones too) is always timed, as a phase of its own.
      (kPrintRateAndTime.boost, po::bool_switch(&raw.print_rate_and_time), "accepted for mdtest scripts")
      (kTimeUniqueOverhead.boost, po::bool_switch(&raw.time_unique_overhead), "accepted for mdtest scripts")
      (kSweepFirst.boost, text(raw.sweep_first, "N"), "first step (default 1)")
      (kSweepLast.boost, text(raw.sweep_last, "N"), "last step: FIRST, FIRST+STRIDE, ... up to LAST")
      (kSweepStride.boost, text(raw.sweep_stride, "N"), "ranks between steps (default 1)");
  // clang-format on
  for (const auto& entry : table.groups) table.all.add(*entry.second);
  table.all.add(mdtest_sweep);
  return table;
}

}  // namespace mdbench::config_detail
