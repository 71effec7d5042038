// The ownership record's format and the set behind it (ownership.hpp): what the create job made, in which
// layout, and the items it does not own.
#include "mdbench/model/ownership.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace mdbench {
namespace {

ItemFates sample() {
  ItemFates fates;
  fates.add(ItemKind::kFile, 1, 19999, ItemFate::kNotOurs);
  fates.add(ItemKind::kDir, 0, 19999, ItemFate::kNotOurs);
  fates.add(ItemKind::kFile, kSharedOwner, 5, ItemFate::kNotOurs);
  fates.add(ItemKind::kFile, 3, 7, ItemFate::kOriginalName);
  return fates;
}

// -z 1 -b 2 -n 10 on 4 ranks, shared tree: 3 directories, 4/3/3 items in them.
Config layoutConfig() {
  Config config;
  config.depth = 1;
  config.branching = 2;
  config.items = 10;
  return config;
}

// What a create job of layoutConfig() made: rank 2 stopped after 6 files, rank 1's file 4 was not created
// (ENOSPC), rank 0's file 9 was taken; rank 3's files renamed, its 2nd rename found the name taken, its 3rd
// found no item.
ItemFates madeSample() {
  ItemFates fates;
  fates.setLayout(recordLayoutOf(layoutConfig(), 4, 0));
  fates.setMade(ItemKind::kFile, {10, 10, 6, 10});
  fates.setMade(ItemKind::kDir, {10, 10, 10, 0});
  fates.setRenamed(ItemKind::kFile, {0, 0, 0, 10});
  fates.add(ItemKind::kFile, 1, 4, ItemFate::kNotOurs, ENOSPC);
  fates.add(ItemKind::kFile, 0, 9, ItemFate::kNotOurs, EEXIST);
  fates.add(ItemKind::kFile, 3, 1, ItemFate::kOriginalName, EEXIST);
  fates.add(ItemKind::kFile, 3, 2, ItemFate::kGone, ENOENT);
  return fates;
}

TEST(ItemFates, LooksItemsUp) {
  const ItemFates fates = sample();
  EXPECT_FALSE(fates.empty());
  EXPECT_EQ(fates.of(ItemKind::kFile, 1, 19999), ItemFate::kNotOurs);
  EXPECT_EQ(fates.of(ItemKind::kDir, 1, 19999), ItemFate::kOurs);   // another kind
  EXPECT_EQ(fates.of(ItemKind::kFile, 0, 19999), ItemFate::kOurs);  // another owner
  EXPECT_EQ(fates.of(ItemKind::kFile, 3, 7), ItemFate::kOriginalName);
  EXPECT_TRUE(ItemFates().empty());
}

TEST(ItemFates, NotOursWinsOverOriginalName) {
  ItemFates fates;
  fates.add(ItemKind::kFile, 0, 1, ItemFate::kOriginalName);
  fates.add(ItemKind::kFile, 0, 1, ItemFate::kNotOurs);
  fates.add(ItemKind::kFile, 0, 1, ItemFate::kOriginalName);
  EXPECT_EQ(fates.of(ItemKind::kFile, 0, 1), ItemFate::kNotOurs);
}

TEST(ItemFates, ARenameThatSucceedsLaterClearsItsException) {
  ItemFates fates = madeSample();
  fates.add(ItemKind::kFile, 3, 1, ItemFate::kOurs);
  EXPECT_EQ(fates.state(ItemKind::kFile, 3, 1).where, ItemState::Where::kRenamed);
  fates.add(ItemKind::kFile, 1, 4, ItemFate::kOurs);  // a create that failed is not undone
  EXPECT_EQ(fates.state(ItemKind::kFile, 1, 4).err, kErrNotCreated | ENOSPC);
}

TEST(ItemFates, ForgetsOneKind) {
  ItemFates fates = madeSample();
  fates.forget(ItemKind::kFile);
  EXPECT_EQ(fates.of(ItemKind::kFile, 1, 4), ItemFate::kOurs);
  EXPECT_EQ(fates.made(ItemKind::kFile, 0), 0u);  // a create phase decides afresh
  EXPECT_EQ(fates.made(ItemKind::kDir, 0), 10u);
}

TEST(ItemFates, PastTheCapTheKindIsAllNotOurs) {
  ItemFates fates;
  fates.setLayout(recordLayoutOf(layoutConfig(), 1, 0));
  for (std::uint64_t i = 0; i <= kMaxItemFates; ++i) fates.add(ItemKind::kDir, 0, i, ItemFate::kOriginalName);
  EXPECT_TRUE(fates.allNotOurs(ItemKind::kDir));
  EXPECT_EQ(fates.size(ItemKind::kDir), 0u);
  EXPECT_EQ(fates.of(ItemKind::kDir, 9, 123456789), ItemFate::kNotOurs);
  EXPECT_EQ(fates.of(ItemKind::kFile, 0, 0), ItemFate::kOurs);
  ItemFates back;
  ASSERT_EQ(ItemFates::parseRecord(fates.encode(0), back), "");
  EXPECT_EQ(back, fates);
}

TEST(ItemFates, NamesItLeaves) {
  const ItemFates fates = sample();
  EXPECT_TRUE(fates.leavesName("file.mdbench.1.19999"));
  EXPECT_TRUE(fates.leavesName("file.mdbench.1.19999.renamed"));
  EXPECT_TRUE(fates.leavesName("dir.mdbench.0.19999"));
  EXPECT_TRUE(fates.leavesName("file.mdbench.shared.5"));
  EXPECT_FALSE(fates.leavesName("file.mdbench.3.7"));         // mdbench's, under its original name
  EXPECT_TRUE(fates.leavesName("file.mdbench.3.7.renamed"));  // the name its rename found taken
  EXPECT_FALSE(fates.leavesName("file.mdbench.1.1999"));
  EXPECT_FALSE(fates.leavesName("mdbench_tree.0"));
}

TEST(ItemFates, StatesFollowTheCountsAndFates) {
  const ItemFates f = madeSample();
  using W = ItemState::Where;
  const auto where = [&](ItemKind kind, std::uint32_t owner, std::uint64_t item) {
    return f.state(kind, owner, item).where;
  };
  EXPECT_EQ(where(ItemKind::kFile, 0, 8), W::kOriginal);
  EXPECT_EQ(f.state(ItemKind::kFile, 0, 9).err, EEXIST);  // taken: still EEXIST
  EXPECT_EQ(f.state(ItemKind::kFile, 1, 4).err, kErrNotCreated | ENOSPC);
  EXPECT_EQ(f.state(ItemKind::kFile, 2, 6).err, kErrNotMade);   // beyond rank 2's stop
  EXPECT_EQ(f.state(ItemKind::kFile, 0, 10).err, kErrNotMade);  // beyond -n
  EXPECT_EQ(f.state(ItemKind::kFile, 4, 0).err, kErrNotMade);   // a rank the create job did not have
  EXPECT_EQ(f.state(ItemKind::kDir, 3, 0).err, kErrNotMade);    // a kind rank 3 made none of
  EXPECT_EQ(f.state(ItemKind::kFile, kSharedOwner, 0).err, kErrNotMade);  // not a -S run
  EXPECT_EQ(where(ItemKind::kFile, 3, 0), W::kRenamed);
  EXPECT_EQ(where(ItemKind::kFile, 3, 1), W::kOriginal);  // its rename found the name taken
  EXPECT_EQ(f.state(ItemKind::kFile, 3, 2).err, kErrGone | ENOENT);
  W w = W::kNone;
  EXPECT_TRUE(ItemFates(f).uniform(ItemKind::kFile, 0, 5, w) == false);  // exceptions listed
  ItemFates plain;
  plain.setLayout(recordLayoutOf(layoutConfig(), 2, 0));
  plain.setMade(ItemKind::kFile, {10, 4});
  plain.setRenamed(ItemKind::kFile, {10, 0});
  EXPECT_TRUE(plain.uniform(ItemKind::kFile, 0, 10, w));
  EXPECT_EQ(w, W::kRenamed);
  EXPECT_TRUE(plain.uniform(ItemKind::kFile, 1, 4, w));
  EXPECT_EQ(w, W::kOriginal);
  EXPECT_FALSE(plain.uniform(ItemKind::kFile, 1, 5, w));  // item 4 was not made
}

TEST(ItemFates, RemovedItemsAndTreesAreNoLongerTheRuns) {
  ItemFates f = madeSample();
  f.setRemoved(ItemKind::kFile, {4, 0, 0, 0});
  EXPECT_EQ(f.state(ItemKind::kFile, 0, 3).err, kErrRemoved);
  EXPECT_EQ(f.state(ItemKind::kFile, 0, 4).where, ItemState::Where::kOriginal);
  EXPECT_NE(f.notOursBecause("mdbench_tree.0/file.mdbench.0.3"), "");
  EXPECT_EQ(f.notOursBecause("mdbench_tree.0/mdbench_tree.2/file.mdbench.0.8"), "");
  ItemFates back;
  ASSERT_EQ(ItemFates::parseRecord(f.encode(0), back), "");
  EXPECT_EQ(back.removed(ItemKind::kFile, 0), 4u);
  f.setTreeRemoved();
  EXPECT_NE(f.notOursBecause("mdbench_tree.0"), "");
  ASSERT_EQ(ItemFates::parseRecord(f.encode(0), back), "");
  EXPECT_TRUE(back.layout().tree_removed);
}

TEST(ItemFates, OpErrorsSayWhatHappened) {
  EXPECT_EQ(opErrorName(ENOSPC), "ENOSPC");
  EXPECT_EQ(opErrorName(kErrNotCreated | ENOSPC), "not created (ENOSPC)");
  EXPECT_EQ(opErrorName(kErrNotMade), "not made by the create job");
  EXPECT_EQ(opErrorName(kErrGone | ENOENT), "missing since its rename failed (ENOENT)");
  EXPECT_EQ(describeOpError(kErrNotCreated | EMFILE).rfind("not created (EMFILE: ", 0), 0u);
}

TEST(ItemFates, PathsTheRecordOwns) {
  const ItemFates f = madeSample();
  // -z 1 -b 2 -n 10: directory 0 holds items 0-3, 1 holds 4-6, 2 holds 7-9.
  EXPECT_EQ(f.notOursBecause("mdbench_tree.0"), "");
  EXPECT_EQ(f.notOursBecause("mdbench_tree.0/mdbench_tree.2"), "");
  EXPECT_EQ(f.notOursBecause("mdbench_tree.0/file.mdbench.0.3"), "");
  EXPECT_EQ(f.notOursBecause("mdbench_tree.0/mdbench_tree.1/file.mdbench.2.5"), "");
  EXPECT_EQ(f.notOursBecause("mdbench_tree.0/mdbench_tree.2/file.mdbench.3.9.renamed"), "");
  EXPECT_EQ(f.notOursBecause("mdbench_tree.0/mdbench_tree.2/dir.mdbench.2.9"), "");
  for (const char* foreign : {"mdbench_tree.1",                                  // not a root
                              "mdbench_tree.0/mdbench_tree.3",                   // beyond -z 1 -b 2
                              "mdbench_tree.0/mdbench_tree.1/mdbench_tree.3",    // deeper
                              "mdbench_tree.0.0",                                // a unique tree's name
                              "mdbench_tree.0/file.mdbench.0.5",                 // item 5 is in directory 1
                              "mdbench_tree.0/mdbench_tree.2/file.mdbench.0.9",  // taken
                              "mdbench_tree.0/mdbench_tree.1/file.mdbench.1.4",  // not created
                              "mdbench_tree.0/mdbench_tree.1/file.mdbench.2.6",  // beyond rank 2's stop
                              "mdbench_tree.0/mdbench_tree.2/file.mdbench.4.7",  // no rank 4
                              "mdbench_tree.0/file.mdbench.0.0.renamed",         // never renamed
                              "mdbench_tree.0/file.mdbench.3.0",                 // renamed away from it
                              "mdbench_tree.0/file.mdbench.3.1.renamed",         // its rename found it taken
                              "mdbench_tree.0/file.mdbench.3.2",
                              "mdbench_tree.0/file.mdbench.3.2.renamed",  // gone
                              "mdbench_tree.0/dir.mdbench.3.0",           // rank 3 made no directories
                              "mdbench_tree.0/dir.mdbench.0.0/file.mdbench.0.1",  // inside an item
                              "file.mdbench.0.0",                                 // outside the tree
                              "mdbench_tree.0/file.mdbench.shared.0",
                              "mdbench_tree.0/file.mdbench.0.3.bak",
                              "notes"}) {
    EXPECT_NE(f.notOursBecause(foreign), "") << foreign;
  }
  // Without a record only the steady state's names are the run's.
  EXPECT_EQ(ItemFates().notOursBecause("steady.mdbench.0.1"), "");
  EXPECT_NE(ItemFates().notOursBecause("mdbench_tree.0"), "");
}

TEST(RecordLayout, DifferencesNameTheOption) {
  const RecordLayout made = recordLayoutOf(layoutConfig(), 2, 0);
  EXPECT_EQ(layoutDifference(made, made), "");
  Config deeper = layoutConfig();
  deeper.depth = 3;
  EXPECT_EQ(layoutDifference(made, recordLayoutOf(deeper, 2, 0)), "-z 3 differs from the create job's -z 1");
  EXPECT_EQ(layoutDifference(made, recordLayoutOf(layoutConfig(), 4, 0)),
            "4 ranks differ from the create job's 2 (run it with the create job's rank count)");
  Config unique = layoutConfig();
  unique.sharing = TreeSharing::kUnique;
  EXPECT_EQ(layoutDifference(made, recordLayoutOf(unique, 2, 0)),
            "-u given differs from the create job's -u not given");
  Config more = layoutConfig();
  more.items = 20;  // three item directories without -I: -n moves items between them
  EXPECT_NE(
      layoutDifference(made, recordLayoutOf(more, 2, 0)).find("-n 20 differs from the create job's -n 10"),
      std::string::npos);
  Config flat;
  flat.items = 100;
  Config flat_more = flat;
  flat_more.items = 200;  // one directory: the items beyond the record are simply not the run's
  EXPECT_EQ(layoutDifference(recordLayoutOf(flat, 2, 0), recordLayoutOf(flat_more, 2, 0)), "");
  Config dirfd = layoutConfig();
  dirfd.path_style = PathStyle::kDirfd;  // the same paths
  EXPECT_EQ(layoutDifference(made, recordLayoutOf(dirfd, 2, 0)), "");
  // Without depth the tree is one directory whatever -b says: mdtest's split jobs may differ in it.
  Config wide = flat;
  wide.branching = 8;
  EXPECT_EQ(layoutDifference(recordLayoutOf(flat, 2, 0), recordLayoutOf(wide, 2, 0)), "");
  Config wide_deep = layoutConfig();
  wide_deep.branching = layoutConfig().branching + 1;
  EXPECT_NE(layoutDifference(made, recordLayoutOf(wide_deep, 2, 0)).find("-b"), std::string::npos);
}

TEST(TakenRecord, RoundTripsExactly) {
  const ItemFates fates = madeSample();
  const std::string text = fates.encode(0);
  const std::string body =
      "dir inode=00000000000000000000\n"
      "layout ranks=4 targets=1 target=0 depth=1 branching=2 items=10 items_per_dir=0 loops=1 leaf_only=0 "
      "unique=0 shared_files=0 path_style=full tree=complete\n"
      "made f 10 10 6 10\n"
      "made d 10 10 10 0\n"
      "renamed f 0 0 0 10\n"
      "renamed d 0 0 0 0\n"
      "removed f 0 0 0 0\n"
      "removed d 0 0 0 0\n"
      "f 0 9 x 17\n"
      "f 1 4 x 28\n"
      "f 3 1 o 17\n"
      "f 3 2 g 2\n";
  ASSERT_EQ(text.substr(kTakenHeaderBytes, body.size()), body);
  EXPECT_EQ(text.substr(0, 22), "mdbench-taken 3 bytes=");
  EXPECT_EQ(text.substr(kTakenHeaderBytes + body.size(), 6), "end 4 ");
  EXPECT_EQ(ItemFates::recordLength(text.substr(0, kTakenHeaderBytes)), text.size());
  ItemFates back;
  ASSERT_EQ(ItemFates::parseRecord(text, back), "");
  EXPECT_EQ(back, fates);
  EXPECT_EQ(back.encode(0), text);
}

TEST(TakenRecord, NothingMadeIsARecordToo) {
  ItemFates fates;
  fates.setLayout(recordLayoutOf(layoutConfig(), 2, 0));
  const std::string text = fates.encode(0);
  ItemFates back = madeSample();
  ASSERT_EQ(ItemFates::parseRecord(text, back), "");
  EXPECT_TRUE(back.empty());
  EXPECT_EQ(back.state(ItemKind::kFile, 0, 0).err, kErrNotMade);
}

constexpr std::string_view kDirLine = "dir inode=00000000000000000000\n";

// The record with the dir line (unless `dir_line` is given) and `body` in place of everything after the
// header and before the end line, its header and end line (count, checksum) made right: damage only where
// the case puts it.
std::string withBody(const std::string& body, std::size_t entries, std::string_view dir_line = kDirLine) {
  std::string text = madeSample().encode(0);
  const std::size_t end = text.rfind("end ");
  const std::string end_line = text.substr(end);  // "end N <16 hex>\n": same length when N has 1 digit
  text = text.substr(0, kTakenHeaderBytes) + std::string(dir_line) + body + end_line;
  const std::string bytes = std::to_string(text.size());
  text.replace(22, 10, std::string(10 - bytes.size(), '0') + bytes);
  // The checksum: FNV-1a as ownership.cpp computes it, over everything before the end line.
  std::uint64_t hash = 14695981039346656037ull;
  const std::size_t at = text.rfind("end ");
  for (std::size_t i = 0; i < at; ++i) hash = (hash ^ static_cast<unsigned char>(text[i])) * 1099511628211ull;
  char sum[17];
  std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(hash));
  text.replace(at, std::string::npos, "end " + std::to_string(entries) + " " + sum + "\n");
  return text;
}

TEST(TakenRecord, RefusesDamageForgeryAndContradictions) {
  const std::string good = madeSample().encode(0);
  ASSERT_EQ(good.substr(kTakenHeaderBytes, kDirLine.size()), kDirLine);
  const std::size_t body_at = kTakenHeaderBytes + kDirLine.size();
  const std::string body = good.substr(body_at, good.rfind("end ") - body_at);
  const std::string layout = body.substr(0, body.find('\n') + 1);
  // The count lines: made f, made d (36 bytes), renamed f, renamed d (to byte 73), removed f, removed d.
  const std::string counts =
      "made f 10 10 6 10\nmade d 10 10 10 0\nrenamed f 0 0 0 10\nrenamed d 0 0 0 0\nremoved f 0 0 0 0\n"
      "removed d 0 0 0 0\n";
  ASSERT_EQ(ItemFates::parseRecord(withBody(body, 4), *std::make_unique<ItemFates>()),
            "");  // the helper is right
  std::string edited = good;
  edited[good.find("made f 10") + 7] = '9';  // "made f 90": one digit changed by hand, checksum left
  const std::string cases[] = {
      "",
      "garbage\n",
      good.substr(0, good.size() - 1),                                  // cut short
      good.substr(0, kTakenHeaderBytes + 40),                           // truncated
      good + "f 1 2 x 17\n",                                            // longer than its header says
      edited,                                                           // edited: the checksum says so
      withBody(body, 5),                                                // wrong count
      withBody(counts, 0),                                              // no layout
      withBody(layout + "made f 10 10 6\n" + counts.substr(18), 0),     // 3 counts for 4 ranks
      withBody(layout + "made f 10 10 6 11\n" + counts.substr(18), 0),  // more than -n
      withBody(layout + counts.substr(0, 36) + "renamed f 0 0 7 0\n" + counts.substr(55),
               0),  // renamed > made
      withBody(layout + counts.substr(0, 73) + "removed f 11 0 0 0\n" + counts.substr(91),
               0),                                         // removed > made
      withBody(layout + counts.substr(0, 73), 0),          // no removed lines (the record of an older build)
      withBody(layout + counts + "f 2 6 x 17\n", 1),       // an entry beyond what rank 2 made
      withBody(layout + counts + "f 4 0 x 17\n", 1),       // an entry of a rank it did not have
      withBody(layout + counts + "f shared 0 x 17\n", 1),  // -S's name in a run without -S
      withBody(layout + counts + "f 0 1 o 17\n", 1),       // a rename fate of an item never renamed
      withBody(layout + counts + "f 3 1 y 17\n", 1),       // unknown fate
      withBody(layout + counts + "f 3 1 x 0\n", 1),        // no errno
      withBody(layout + counts + "q 3 1 x 17\n", 1),       // unknown kind
      withBody(layout + counts + "f 3 1 x 17 \n", 1),      // trailing space
      withBody("layout ranks=0" + layout.substr(14) + counts, 0),                     // no ranks
      withBody("layout ranks=4 targets=1 target=1" + layout.substr(33) + counts, 0),  // target out of range
      "mdbench-taken 1 bytes=0000000039\nend 0\n",                                    // the older version
      withBody(body, 4, ""),                                                          // no dir line
      withBody(body, 4, "dir inode=123\n"),                                           // a short one
      withBody(body, 4, "dir inode=0000000000000000000x\n"),                          // not a number
      withBody(body, 4, "dir 00000000000000000000\n"),                                // not named
  };
  for (const std::string& text : cases) {
    ItemFates out = madeSample();
    EXPECT_NE(ItemFates::parseRecord(text, out), "") << "case " << (&text - cases) << ": " << text;
    EXPECT_TRUE(out.empty()) << text;
    EXPECT_FALSE(out.hasLayout()) << text;
  }
  EXPECT_EQ(ItemFates::recordLength("mdbench-taken 3 bytes=9999999999\n"), 0u);  // beyond the bound
}

}  // namespace
}  // namespace mdbench
