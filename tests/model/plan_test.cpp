// Phase names, phase selection and the per-rank plan, with exact expectations.
#include "mdbench/model/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "mdbench/model/result.hpp"

namespace mdbench {
namespace {

using P = Phase;

PhaseSelection select(bool create, bool stat, bool read, bool remove) {
  PhaseSelection s;
  s.create = create;
  s.stat = stat;
  s.read = read;
  s.remove = remove;
  return s;
}

const PhaseSelection kCreate = select(true, false, false, false);
const PhaseSelection kStat = select(false, true, false, false);
const PhaseSelection kRead = select(false, false, true, false);
const PhaseSelection kRemove = select(false, false, false, true);
const PhaseSelection kAll = select(true, true, true, true);

// rename: -U (the directory rename) and --file-rename together.
PhaseSelection withExtras(PhaseSelection s, bool rename, bool readdir) {
  s.rename = rename;
  s.file_rename = rename;
  s.readdir = readdir;
  return s;
}
const PhaseSelection kRename = withExtras({}, true, false);
const PhaseSelection kReaddir = withExtras({}, false, true);
const PhaseSelection kEverything = withExtras(kAll, true, true);
PhaseSelection only(bool PhaseSelection::*flag) {
  PhaseSelection s;
  s.*flag = true;
  return s;
}

std::vector<Phase> phasesFor(ItemKinds kinds, PhaseSelection sel, bool shared_files = false) {
  Config config;
  config.kinds = kinds;
  config.phases = sel;
  config.shared_files = shared_files;
  return selectPhases(config);
}

TEST(PhaseName, StableNames) {
  const std::vector<std::string> expected = {
      "tree-create", "dir-create",   "dir-stat",  "dir-readdir", "dir-rename",  "dir-remove", "file-create",
      "file-stat",   "file-readdir", "file-read", "file-rename", "file-remove", "tree-remove"};
  ASSERT_EQ(kSelectablePhases.size(), expected.size());
  for (std::size_t i = 0; i < kSelectablePhases.size(); ++i)
    EXPECT_EQ(phaseName(kSelectablePhases[i]), expected[i]);
  EXPECT_THROW(phaseName(static_cast<Phase>(200)), std::logic_error);
}

TEST(SelectPhases, BothKinds) {
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kCreate),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kFileCreate}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kStat), (std::vector<P>{P::kDirStat, P::kFileStat}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kRead), (std::vector<P>{P::kFileRead}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kRemove),
            (std::vector<P>{P::kDirRemove, P::kFileRemove, P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kAll),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kDirStat, P::kDirRemove, P::kFileCreate,
                            P::kFileStat, P::kFileRead, P::kFileRemove, P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, select(true, false, false, true)),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kDirRemove, P::kFileCreate, P::kFileRemove,
                            P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, select(false, true, true, false)),
            (std::vector<P>{P::kDirStat, P::kFileStat, P::kFileRead}));
}

TEST(SelectPhases, FilesOnly) {
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kCreate), (std::vector<P>{P::kTreeCreate, P::kFileCreate}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kStat), (std::vector<P>{P::kFileStat}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kRead), (std::vector<P>{P::kFileRead}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kRemove), (std::vector<P>{P::kFileRemove, P::kTreeRemove}));
  // IO500 mdtest-hard runs write, stat, read, delete on files.
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kAll),
            (std::vector<P>{P::kTreeCreate, P::kFileCreate, P::kFileStat, P::kFileRead, P::kFileRemove,
                            P::kTreeRemove}));
  // IO500 mdtest-easy: create, stat, remove.
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, select(true, true, false, true)),
            (std::vector<P>{P::kTreeCreate, P::kFileCreate, P::kFileStat, P::kFileRemove, P::kTreeRemove}));
}

TEST(SelectPhases, DirsOnly) {
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kCreate), (std::vector<P>{P::kTreeCreate, P::kDirCreate}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kStat), (std::vector<P>{P::kDirStat}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kRead), (std::vector<P>{}));  // directories have nothing to read
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kRemove), (std::vector<P>{P::kDirRemove, P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kAll),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kDirStat, P::kDirRemove, P::kTreeRemove}));
}

// -U is mdtest's directory rename alone; --file-rename adds mdbench's file rename.
TEST(SelectPhases, DashUIsTheDirectoryRenameAlone) {
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, only(&PhaseSelection::rename)), (std::vector<P>{P::kDirRename}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, only(&PhaseSelection::rename)), (std::vector<P>{}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, only(&PhaseSelection::file_rename)),
            (std::vector<P>{P::kFileRename}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, only(&PhaseSelection::file_rename)), (std::vector<P>{}));
}

// As mdtest (`rename_dirs && items > 1`): one item per rank has nothing to rotate with.
TEST(SelectPhases, NoDirectoryRenameOfOneItem) {
  Config config;
  config.phases = kRename;
  config.items = 1;
  EXPECT_EQ(selectPhases(config), (std::vector<P>{P::kFileRename}));
  config.items = 2;
  EXPECT_EQ(selectPhases(config), (std::vector<P>{P::kDirRename, P::kFileRename}));
}

TEST(SelectPhases, RenameAndReaddir) {
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kRename), (std::vector<P>{P::kDirRename, P::kFileRename}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kReaddir), (std::vector<P>{P::kDirReaddir, P::kFileReaddir}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kRename), (std::vector<P>{P::kFileRename}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, kReaddir), (std::vector<P>{P::kFileReaddir}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kRename), (std::vector<P>{P::kDirRename}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kReaddir), (std::vector<P>{P::kDirReaddir}));
  EXPECT_EQ(phasesFor(ItemKinds::kBoth, kEverything),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kDirStat, P::kDirReaddir, P::kDirRename,
                            P::kDirRemove, P::kFileCreate, P::kFileStat, P::kFileReaddir, P::kFileRead,
                            P::kFileRename, P::kFileRemove, P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kFilesOnly, withExtras(select(true, true, false, true), true, false)),
            (std::vector<P>{P::kTreeCreate, P::kFileCreate, P::kFileStat, P::kFileRename, P::kFileRemove,
                            P::kTreeRemove}));
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kEverything),
            (std::vector<P>{P::kTreeCreate, P::kDirCreate, P::kDirStat, P::kDirReaddir, P::kDirRename,
                            P::kDirRemove, P::kTreeRemove}));
}

TEST(SelectPhases, SharedFilesHaveNoDirectoryPhases) {
  for (ItemKinds kinds : {ItemKinds::kBoth, ItemKinds::kFilesOnly}) {
    EXPECT_EQ(phasesFor(kinds, kEverything, true),
              (std::vector<P>{P::kTreeCreate, P::kFileCreate, P::kFileStat, P::kFileReaddir, P::kFileRead,
                              P::kFileRename, P::kFileRemove, P::kTreeRemove}));
    EXPECT_EQ(phasesFor(kinds, kStat, true), (std::vector<P>{P::kFileStat}));
    EXPECT_EQ(phasesFor(kinds, kReaddir, true), (std::vector<P>{P::kFileReaddir}));
    EXPECT_EQ(phasesFor(kinds, kRename, true), (std::vector<P>{P::kFileRename}));
  }
  // validate() rejects -S with -D; the plan then simply has no item phases.
  EXPECT_EQ(phasesFor(ItemKinds::kDirsOnly, kEverything, true),
            (std::vector<P>{P::kTreeCreate, P::kTreeRemove}));
}

// Every combination: the result is the union of the single selections, in enum order, without repeats.
TEST(SelectPhases, CombinationsAreUnionsInExecutionOrder) {
  const PhaseSelection singles[] = {kCreate, kStat, kRead, kRemove, kRename, kReaddir};
  int combinations = 0;
  for (bool shared_files : {false, true}) {
    for (ItemKinds kinds : {ItemKinds::kBoth, ItemKinds::kFilesOnly, ItemKinds::kDirsOnly}) {
      for (int mask = 0; mask < 64; ++mask) {
        const PhaseSelection sel =
            withExtras(select(mask & 1, mask & 2, mask & 4, mask & 8), mask & 16, mask & 32);
        std::set<Phase> expected;
        for (int bit = 0; bit < 6; ++bit) {
          if (mask & (1 << bit)) {
            for (Phase p : phasesFor(kinds, singles[bit], shared_files)) expected.insert(p);
          }
        }
        const std::vector<Phase> got = phasesFor(kinds, sel, shared_files);
        EXPECT_EQ(got, std::vector<Phase>(expected.begin(), expected.end()))
            << "kinds " << int(kinds) << " mask " << mask << " -S " << shared_files;  // set: enum order
        ++combinations;
      }
    }
  }
  EXPECT_EQ(combinations, 384);
}

TEST(PhaseKinds, TreeAndItemPhases) {
  EXPECT_TRUE(isTreePhase(P::kTreeCreate));
  EXPECT_TRUE(isTreePhase(P::kTreeRemove));
  for (Phase p : {P::kDirCreate, P::kDirStat, P::kDirReaddir, P::kDirRename, P::kDirRemove}) {
    EXPECT_FALSE(isTreePhase(p));
    EXPECT_EQ(itemKindOf(p), ItemKind::kDir);
  }
  for (Phase p :
       {P::kFileCreate, P::kFileStat, P::kFileReaddir, P::kFileRead, P::kFileRename, P::kFileRemove}) {
    EXPECT_FALSE(isTreePhase(p));
    EXPECT_EQ(itemKindOf(p), ItemKind::kFile);
  }
  EXPECT_THROW(itemKindOf(P::kTreeCreate), std::logic_error);
  EXPECT_THROW(itemKindOf(P::kTreeRemove), std::logic_error);
}

Config treeConfig(TreeSharing sharing) {
  Config config;
  config.sharing = sharing;
  config.depth = 2;
  config.branching = 3;  // 13 directories
  config.items = 50;
  config.phases = kAll;
  return config;
}

TEST(Plan, SharedTreeIsBuiltByRankZeroAlone) {
  for (std::uint32_t ranks : {1u, 2u, 4u, 7u}) {
    const Plan plan(treeConfig(TreeSharing::kShared), ranks);
    EXPECT_EQ(plan.ranks(), ranks);
    EXPECT_EQ(plan.layout().dirCount(), 13u);
    EXPECT_EQ(plan.phases().size(), kSelectablePhases.size() - 4);  // neither rename nor readdir selected
    std::uint64_t tree_ops = 0;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      EXPECT_EQ(plan.buildsTree(r), r == 0);
      EXPECT_EQ(plan.plannedOps(P::kTreeCreate, r), r == 0 ? 13u : 0u);
      EXPECT_EQ(plan.plannedOps(P::kTreeRemove, r), r == 0 ? 13u : 0u);
      tree_ops += plan.plannedOps(P::kTreeCreate, r);
      for (Phase p : {P::kDirCreate, P::kDirStat, P::kDirRename, P::kDirRemove, P::kFileCreate, P::kFileStat,
                      P::kFileRead, P::kFileRename, P::kFileRemove}) {
        EXPECT_EQ(plan.plannedOps(p, r), 50u);
      }
    }
    EXPECT_EQ(tree_ops, 13u);
  }
}

TEST(Plan, UniqueTreesAreBuiltByEveryRank) {
  for (std::uint32_t ranks : {1u, 2u, 4u, 7u}) {
    const Plan plan(treeConfig(TreeSharing::kUnique), ranks);
    std::uint64_t tree_ops = 0;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      EXPECT_TRUE(plan.buildsTree(r));
      EXPECT_EQ(plan.plannedOps(P::kTreeCreate, r), 13u);
      EXPECT_EQ(plan.plannedOps(P::kTreeRemove, r), 13u);
      EXPECT_EQ(plan.plannedOps(P::kFileCreate, r), 50u);
      tree_ops += plan.plannedOps(P::kTreeCreate, r);
    }
    // mdtest counts one tree with -u although every rank makes one; we count them all.
    EXPECT_EQ(tree_ops, 13u * ranks);
  }
}

TEST(Plan, OwnerIsTheRankItself) {
  const Plan plan(treeConfig(TreeSharing::kUnique), 4);
  for (Phase p : kSelectablePhases) {
    for (std::uint32_t r = 0; r < 4; ++r) EXPECT_EQ(plan.owner(p, r), r);
  }
}

TEST(Plan, KeepsConfigAndSelectedPhases) {
  Config config = treeConfig(TreeSharing::kShared);
  config.kinds = ItemKinds::kFilesOnly;
  config.phases = select(true, false, false, true);
  config.leaf_only = true;
  const Plan plan(config, 3);
  EXPECT_EQ(plan.phases(), (std::vector<P>{P::kTreeCreate, P::kFileCreate, P::kFileRemove, P::kTreeRemove}));
  EXPECT_EQ(plan.config().items, 50u);
  EXPECT_EQ(plan.layout().firstItemDir(), 4u);  // leaf_only reached the layout
  EXPECT_EQ(plan.layout().itemsInDir(4), 6u);   // 50 over 9 leaves: 6 x 5, then 5 x 4
  EXPECT_EQ(plan.layout().itemsInDir(12), 5u);
}

TEST(Plan, PreconditionsAreChecked) {
  EXPECT_THROW(Plan(treeConfig(TreeSharing::kShared), 0), std::logic_error);
  const Plan plan(treeConfig(TreeSharing::kShared), 2);
  EXPECT_THROW(plan.owner(P::kFileStat, 2), std::logic_error);
  EXPECT_THROW(plan.buildsTree(2), std::logic_error);
  EXPECT_THROW(plan.plannedOps(P::kTreeCreate, 2), std::logic_error);
}

// ---- Permutation ----

static_assert(sizeof(Permutation) <= 64, "O(1) memory: a few words whatever n is");

// Every index in [0, n) comes out exactly once. Counts problems instead of asserting per index: gtest's
// macros would dominate the run time over millions of indices.
void expectPermutation(std::uint64_t n, std::uint64_t seed) {
  const Permutation perm(n, seed);
  ASSERT_EQ(perm.size(), n);
  std::vector<bool> seen(n, false);
  std::uint64_t out_of_range = 0, repeated = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t v = perm(i);
    if (v >= n) {
      ++out_of_range;
    } else if (seen[v]) {
      ++repeated;
    } else {
      seen[v] = true;
    }
  }
  ASSERT_EQ(out_of_range, 0u) << "n " << n << " seed " << seed;
  ASSERT_EQ(repeated, 0u) << "n " << n << " seed " << seed;
  ASSERT_EQ(std::count(seen.begin(), seen.end(), true), static_cast<std::ptrdiff_t>(n));
}

std::vector<std::uint64_t> order(std::uint64_t n, std::uint64_t seed) {
  const Permutation perm(n, seed);
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 0; i < n; ++i) out.push_back(perm(i));
  return out;
}

TEST(Permutation, IsABijectionForEverySmallSize) {
  // Covers 0, 1 and every power-of-four boundary of the Feistel domain up to 2000 (4, 5, 16, 17, ... 1025).
  for (std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{0xdeadbeefcafef00d}}) {
    for (std::uint64_t n = 0; n <= 2000; ++n) {
      expectPermutation(n, seed);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Permutation, IsABijectionForLargerSizes) {
  for (std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{7}, std::numeric_limits<std::uint64_t>::max()}) {
    for (std::uint64_t n : {std::uint64_t{100000}, std::uint64_t{1} << 20, (std::uint64_t{1} << 20) + 1}) {
      expectPermutation(n, seed);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Permutation, SeedsGiveDifferentOrdersAndTheSameSeedTheSameOrder) {
  std::set<std::vector<std::uint64_t>> orders;
  for (std::uint64_t seed = 0; seed < 32; ++seed) {
    const auto a = order(1000, seed);
    EXPECT_EQ(a, order(1000, seed)) << "seed " << seed;
    orders.insert(a);
  }
  EXPECT_EQ(orders.size(), 32u);
  // Not close to the identity either: a random order of 1000 has about one fixed point.
  const auto a = order(1000, 0);
  std::size_t fixed = 0;
  for (std::size_t i = 0; i < a.size(); ++i) fixed += a[i] == i;
  EXPECT_LT(fixed, 10u);
  // Tiny domains still permute: over many seeds, n = 3 shows all 6 orders.
  std::set<std::vector<std::uint64_t>> small;
  for (std::uint64_t seed = 0; seed < 200; ++seed) small.insert(order(3, seed));
  EXPECT_EQ(small.size(), 6u);
}

TEST(Permutation, WorksOnTheFullDomain) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  const Permutation perm(max, 3);
  std::set<std::uint64_t> values;
  for (std::uint64_t i : {std::uint64_t{0}, std::uint64_t{1}, max / 2, max - 2, max - 1})
    values.insert(perm(i));
  EXPECT_EQ(values.size(), 5u);
  for (std::uint64_t v : values) EXPECT_LT(v, max);
}

TEST(Permutation, IndexOutOfRangeIsAProgrammerError) {
  EXPECT_THROW(Permutation(0, 1)(0), std::logic_error);
  EXPECT_EQ(Permutation(1, 1)(0), 0u);
  EXPECT_THROW(Permutation(1, 1)(1), std::logic_error);
  EXPECT_THROW(Permutation(10, 1)(10), std::logic_error);
}

// ---- file data pattern ----

std::vector<std::byte> filled(std::size_t size, std::uint32_t owner, std::uint64_t item) {
  std::vector<std::byte> data(size, std::byte{0xaa});
  fillPattern(data, owner, item);
  return data;
}

TEST(Pattern, HeaderHoldsOwnerAndItemLittleEndian) {
  const auto data = filled(24, 0x01020304u, 0x1122334455667788u);
  const std::vector<std::byte> header(data.begin(), data.begin() + 16);
  const std::vector<int> expected = {0x04, 0x03, 0x02, 0x01, 0,    0,    0,    0,
                                     0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(std::to_integer<int>(header[i]), expected[i]) << i;
  // Cut short for smaller files.
  const auto five = filled(5, 0x01020304u, 0x1122334455667788u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(std::to_integer<int>(five[i]), expected[i]) << i;
  const auto shared = filled(16, kSharedOwner, 0);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(std::to_integer<int>(shared[i]), 0xff);
  for (std::size_t i = 4; i < 16; ++i) EXPECT_EQ(std::to_integer<int>(shared[i]), 0);
}

TEST(Pattern, RoundTripsAndCatchesEveryCorruption) {
  for (std::size_t size : {0u, 1u, 8u, 15u, 16u, 17u, 3901u}) {
    for (std::uint32_t owner : {0u, 1u, 77u, kSharedOwner}) {
      for (std::uint64_t item :
           {std::uint64_t{0}, std::uint64_t{5}, std::numeric_limits<std::uint64_t>::max()}) {
        SCOPED_TRACE("size " + std::to_string(size) + " owner " + std::to_string(owner) + " item " +
                     std::to_string(item));
        std::vector<std::byte> data = filled(size, owner, item);
        ASSERT_TRUE(checkPattern(data, owner, item));
        ASSERT_EQ(filled(size, owner, item), data) << "deterministic";
        // Any single flipped bit anywhere fails (every byte checked for small files, a stride for large).
        const std::size_t stride = size > 100 ? 13 : 1;
        for (std::size_t i = 0; i < size; i += stride) {
          data[i] ^= std::byte{0x10};
          ASSERT_FALSE(checkPattern(data, owner, item)) << "byte " << i;
          data[i] ^= std::byte{0x10};
        }
        if (size > 0) {
          data[size - 1] ^= std::byte{1};
          ASSERT_FALSE(checkPattern(data, owner, item)) << "last byte";
          data[size - 1] ^= std::byte{1};
        }
        ASSERT_TRUE(checkPattern(data, owner, item));
        // Another owner's or another item's data fails once the header holds the difference.
        if (size >= 1) {
          ASSERT_FALSE(checkPattern(data, owner ^ 1u, item));
        }
        if (size >= 9) {
          ASSERT_FALSE(checkPattern(data, owner, item ^ 1u));
        }
      }
    }
  }
}

TEST(Pattern, BodyDependsOnOwnerAndOffset) {
  // The same header with a body from another owner, or shifted by 8 bytes, fails.
  const std::size_t size = 3901;
  auto mine = filled(size, 3, 9);
  const auto theirs = filled(size, 4, 9);
  std::copy(theirs.begin() + 16, theirs.end(), mine.begin() + 16);
  EXPECT_FALSE(checkPattern(mine, 3, 9));
  auto shifted = filled(size + 8, 3, 9);
  std::copy(shifted.begin() + 24, shifted.end(), mine.begin() + 16);
  EXPECT_FALSE(checkPattern(mine, 3, 9));
  EXPECT_TRUE(checkPattern(std::vector<std::byte>{}, 3, 9));  // an empty file holds the empty pattern
}

// ---- owners and the rank shift ----

std::uint64_t kOf(Phase p) {
  switch (p) {
    case P::kDirStat:
    case P::kFileStat:
    case P::kDirReaddir:
    case P::kFileReaddir:
    case P::kDirRename:  // mdtest's rename uses the stat phase's names
      return 1;
    case P::kFileRead:
      return 2;
    case P::kDirRemove:
    case P::kFileRemove:
      return 3;
    case P::kFileRename:
      return 4;
    default:
      return 0;
  }
}

Config shiftConfig(std::uint32_t shift) {
  Config config = treeConfig(TreeSharing::kUnique);
  config.shift = shift;
  return config;
}

TEST(Plan, OwnerFollowsTheShiftTable) {
  int checked = 0;
  for (std::uint32_t ranks : {1u, 2u, 3u, 4u, 5u, 8u, 13u}) {
    for (std::uint32_t shift = 0; shift < ranks; ++shift) {
      const Plan plan(shiftConfig(shift), ranks);
      EXPECT_EQ(plan.shift(), shift);
      EXPECT_EQ(plan.shiftNote(), "");
      for (Phase p : kSelectablePhases) {
        for (std::uint32_t r = 0; r < ranks; ++r) {
          ASSERT_EQ(plan.owner(p, r), (r + kOf(p) * shift) % ranks) << phaseName(p) << " rank " << r;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 3000);
  // Worked examples with wrap-around: P = 4, S = 1; P = 5, S = 2.
  const Plan p4(shiftConfig(1), 4);
  EXPECT_EQ(p4.owner(P::kFileCreate, 3), 3u);
  EXPECT_EQ(p4.owner(P::kFileStat, 3), 0u);
  EXPECT_EQ(p4.owner(P::kFileRead, 3), 1u);
  EXPECT_EQ(p4.owner(P::kFileRemove, 3), 2u);
  EXPECT_EQ(p4.owner(P::kFileRename, 3), 3u);
  EXPECT_EQ(p4.owner(P::kTreeRemove, 3), 3u);
  const Plan p5(shiftConfig(2), 5);
  EXPECT_EQ(p5.owner(P::kDirStat, 4), 1u);
  EXPECT_EQ(p5.owner(P::kDirReaddir, 4), 1u);
  EXPECT_EQ(p5.owner(P::kFileRead, 4), 3u);
  EXPECT_EQ(p5.owner(P::kDirRemove, 4), 0u);
  EXPECT_EQ(p5.owner(P::kDirRename, 4), 1u);
}

TEST(Plan, ShiftMovesOffBlockPlacedNodes) {
  const std::vector<std::uint32_t> blocks = {0, 0, 0, 0, 1, 1, 1, 1};
  const Plan plan(shiftConfig(1), blocks);
  EXPECT_EQ(plan.ranks(), 8u);
  EXPECT_EQ(plan.shift(), 4u);
  EXPECT_EQ(plan.shiftNote(),
            "-N 1 would leave ranks on their own node's items (ranks placed in blocks of 4 per node); using "
            "shift 4");
  EXPECT_EQ(plan.owner(P::kFileStat, 0), 4u);
  EXPECT_EQ(plan.owner(P::kFileStat, 5), 1u);
  // A shift that already moves every rank off its node is kept, as is -N 0.
  EXPECT_EQ(Plan(shiftConfig(4), blocks).shift(), 4u);
  EXPECT_EQ(Plan(shiftConfig(4), blocks).shiftNote(), "");
  EXPECT_EQ(Plan(shiftConfig(6), blocks).shift(), 6u);
  EXPECT_EQ(Plan(shiftConfig(0), blocks).shift(), 0u);
  EXPECT_EQ(Plan(shiftConfig(0), blocks).shiftNote(), "");
  // Uneven blocks (3, 3, 2): 3 is the smallest shift that moves every rank off its node.
  const Plan uneven(shiftConfig(1), std::vector<std::uint32_t>{5, 5, 5, 9, 9, 9, 2, 2});
  EXPECT_EQ(uneven.shift(), 3u);
  EXPECT_EQ(uneven.shiftNote(),
            "-N 1 would leave ranks on their own node's items (ranks placed in blocks of 2 to 3 per node); "
            "using shift 3");
  // Under --steady -N is the ring's offset as given: the shift the phases would use is kept (results'
  // shift_used), with no note about it.
  Config steady = shiftConfig(1);
  steady.steady_rounds = 5;
  steady.datasets = 2;
  EXPECT_EQ(Plan(steady, blocks).shift(), 4u);
  EXPECT_EQ(Plan(steady, blocks).shiftNote(), "");
}

TEST(Plan, ShiftIsKeptForRoundRobinAndSingleNodes) {
  const std::vector<std::uint32_t> round_robin = {0, 1, 0, 1, 0, 1, 0, 1};
  EXPECT_EQ(Plan(shiftConfig(1), round_robin).shift(), 1u);
  EXPECT_EQ(Plan(shiftConfig(1), round_robin).shiftNote(), "");
  // -N 2 would stat the own node's items round-robin over 2 nodes; 3 does not.
  const Plan two(shiftConfig(2), round_robin);
  EXPECT_EQ(two.shift(), 3u);
  EXPECT_EQ(
      two.shiftNote(),
      "-N 2 would leave ranks on their own node's items (8 ranks on 2 nodes, 4 per node, not in blocks); "
      "using shift 3");
  // One node: nothing to move off, -N as given.
  EXPECT_EQ(Plan(shiftConfig(1), std::vector<std::uint32_t>(8, 7)).shift(), 1u);
  EXPECT_EQ(Plan(shiftConfig(1), std::vector<std::uint32_t>(8, 7)).shiftNote(), "");
  EXPECT_EQ(Plan(shiftConfig(3), 8).shift(), 3u);
}

TEST(Plan, ShiftIsKeptWithANoteWhenNoShiftHelps) {
  // 5 of 8 ranks on node 0: every shift maps some node-0 rank onto another.
  const Plan plan(shiftConfig(1), std::vector<std::uint32_t>{0, 0, 0, 0, 0, 1, 1, 1});
  EXPECT_EQ(plan.shift(), 1u);
  EXPECT_EQ(plan.shiftNote(),
            "-N 1 leaves ranks on their own node's items (ranks placed in blocks of 3 to 5 per node) and no "
            "shift up to 7 avoids that; keeping shift 1");
  EXPECT_EQ(plan.owner(P::kFileStat, 7), 0u);
  const Plan scattered(shiftConfig(2), std::vector<std::uint32_t>{0, 1, 0, 0, 1, 0});
  EXPECT_EQ(scattered.shift(), 2u);
  EXPECT_EQ(
      scattered.shiftNote(),
      "-N 2 leaves ranks on their own node's items (6 ranks on 2 nodes, 2 to 4 per node, not in blocks) "
      "and no shift up to 5 avoids that; keeping shift 2");
}

// As mdtest, -N S of at least the ranks is S mod P (a one-node run of a script's -N $cpn), and the note says
// where it lands: on no shift, or on items made on the rank's own node.
TEST(Plan, ShiftOfAtLeastTheRanksWraps) {
  const Plan none(shiftConfig(8), 8);
  EXPECT_EQ(none.shift(), 0u);
  EXPECT_EQ(none.shiftNote(),
            "-N 8 with 8 ranks wraps to no shift (8 mod 8, as mdtest): every rank works on its own items");
  EXPECT_EQ(none.owner(P::kFileStat, 3), 3u);
  EXPECT_EQ(Plan(shiftConfig(1), 1).shiftNote(),
            "-N 1 with 1 rank wraps to no shift (1 mod 1, as mdtest): every rank works on its own items");
  const Plan same_node(shiftConfig(11), 4);
  EXPECT_EQ(same_node.shift(), 3u);
  EXPECT_EQ(same_node.shiftNote(),
            "-N 11 with 4 ranks wraps to shift 3 (11 mod 4, as mdtest): all ranks are on one node, so each "
            "works on items made on it");
  EXPECT_EQ(same_node.owner(P::kFileStat, 2), 1u);    // (2 + 11) mod 4, mdtest's name
  EXPECT_EQ(same_node.owner(P::kFileRead, 2), 0u);    // (2 + 22) mod 4
  EXPECT_EQ(same_node.owner(P::kFileRemove, 2), 3u);  // (2 + 33) mod 4
  // Several nodes: the wrapped shift is kept when it moves every rank off its node, else moved on.
  const std::vector<std::uint32_t> blocks = {0, 0, 0, 0, 1, 1, 1, 1};
  const Plan off(shiftConfig(12), blocks);
  EXPECT_EQ(off.shift(), 4u);
  EXPECT_EQ(off.shiftNote(), "-N 12 with 8 ranks wraps to shift 4 (12 mod 8, as mdtest)");
  const Plan moved(shiftConfig(9), blocks);
  EXPECT_EQ(moved.shift(), 4u);
  EXPECT_EQ(moved.shiftNote(),
            "-N 9 with 8 ranks wraps to shift 1 (9 mod 8, as mdtest); shift 1 would leave ranks on their own "
            "node's items (ranks placed in blocks of 4 per node); using shift 4");
  EXPECT_EQ(Plan(shiftConfig(16), blocks).shift(), 0u);
  EXPECT_EQ(Plan(shiftConfig(4294967295u), 8).shift(), 4294967295u % 8);
}

// Against a brute-force reference: every placement of up to 7 ranks on up to 3 nodes, every -N.
TEST(Plan, NodeAwareShiftMatchesBruteForce) {
  const auto moves_off = [](const std::vector<std::uint32_t>& nodes, std::uint32_t s) {
    for (std::size_t r = 0; r < nodes.size(); ++r) {
      if (nodes[(r + s) % nodes.size()] == nodes[r]) return false;
    }
    return true;
  };
  int plans = 0;
  for (std::uint32_t ranks = 1; ranks <= 7; ++ranks) {
    std::uint32_t placements = 1;
    for (std::uint32_t r = 0; r < ranks; ++r) placements *= 3;
    for (std::uint32_t code = 0; code < placements; ++code) {
      std::vector<std::uint32_t> nodes;
      for (std::uint32_t c = code, r = 0; r < ranks; ++r, c /= 3) nodes.push_back(c % 3);
      const bool one_node = std::count(nodes.begin(), nodes.end(), nodes[0]) == static_cast<long>(ranks);
      for (std::uint32_t requested = 0; requested < 3 * ranks; ++requested) {
        const std::uint32_t wrapped = requested % ranks;  // mdtest's (r + S) mod P
        std::uint32_t expected = wrapped;
        if (wrapped != 0 && !one_node && !moves_off(nodes, wrapped)) {
          for (std::uint32_t s = wrapped + 1; s < ranks; ++s) {
            if (moves_off(nodes, s)) {
              expected = s;
              break;
            }
          }
        }
        const bool note = requested >= ranks || (wrapped != 0 && !one_node && !moves_off(nodes, wrapped));
        const Plan plan(shiftConfig(requested), nodes);
        ASSERT_EQ(plan.shift(), expected) << "ranks " << ranks << " code " << code << " -N " << requested;
        ASSERT_EQ(plan.shiftNote().empty(), !note) << "ranks " << ranks << " code " << code;
        ++plans;
      }
    }
  }
  EXPECT_GT(plans, 10000);
}

TEST(Plan, NodeAwareShiftScalesToManyRanks) {
  std::vector<std::uint32_t> nodes;
  for (std::uint32_t r = 0; r < (1u << 17); ++r) nodes.push_back(r / 128);  // 1024 nodes of 128 ranks
  const Plan plan(shiftConfig(1), nodes);
  EXPECT_EQ(plan.shift(), 128u);
  EXPECT_EQ(plan.owner(P::kFileStat, (1u << 17) - 1), 127u);
}

// ---- -S, readdir, targets, random order, withItems ----

Config sharedFilesConfig() {
  Config config = treeConfig(TreeSharing::kShared);
  config.kinds = ItemKinds::kFilesOnly;
  config.shared_files = true;
  config.shift = 1;
  config.phases = kEverything;
  return config;
}

TEST(Plan, SharedFilesUseTheSharedOwnerAndRemoveOnce) {
  const Plan plan(sharedFilesConfig(), 4);
  EXPECT_EQ(plan.phases(), (std::vector<P>{P::kTreeCreate, P::kFileCreate, P::kFileStat, P::kFileReaddir,
                                           P::kFileRead, P::kFileRename, P::kFileRemove, P::kTreeRemove}));
  std::uint64_t removes = 0, renames = 0;
  for (std::uint32_t r = 0; r < 4; ++r) {
    for (Phase p :
         {P::kFileCreate, P::kFileStat, P::kFileReaddir, P::kFileRead, P::kFileRename, P::kFileRemove}) {
      EXPECT_EQ(plan.owner(p, r), kSharedOwner) << phaseName(p);
    }
    EXPECT_EQ(plan.owner(P::kTreeCreate, r), r);
    EXPECT_EQ(plan.plannedOps(P::kFileCreate, r), 50u);
    EXPECT_EQ(plan.plannedOps(P::kFileStat, r), 50u);
    EXPECT_EQ(plan.plannedOps(P::kFileRead, r), 50u);
    EXPECT_EQ(plan.plannedOps(P::kFileRename, r), r == 0 ? 50u : 0u);
    EXPECT_EQ(plan.plannedOps(P::kFileRemove, r), r == 0 ? 50u : 0u);
    EXPECT_EQ(plan.plannedOps(P::kTreeCreate, r), r == 0 ? 13u : 0u);
    removes += plan.plannedOps(P::kFileRemove, r);
    renames += plan.plannedOps(P::kFileRename, r);
  }
  EXPECT_EQ(removes, 50u);
  EXPECT_EQ(renames, 50u);
  for (std::uint64_t d = 0; d < 13; ++d) {
    EXPECT_EQ(plan.expectedEntries(P::kFileReaddir, d), plan.layout().itemsInDir(d));
  }
}

TEST(Plan, ReaddirSharedTreeSplitsDirectoriesOverRanks) {
  // 50 items over 13 directories: 4 in the first 11, 3 in the last 2.
  for (std::uint32_t ranks : {1u, 2u, 3u, 4u, 12u, 13u, 14u, 40u}) {
    const Plan plan(treeConfig(TreeSharing::kShared), ranks);
    std::vector<int> listed(13, 0);
    std::uint64_t total = 0;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      std::uint64_t mine = 0;
      for (std::uint64_t d = 0; d < 13; ++d) {
        ASSERT_EQ(plan.listsDir(P::kFileReaddir, r, d), d % ranks == r);
        ASSERT_EQ(plan.listsDir(P::kDirReaddir, r, d), d % ranks == r);
        if (plan.listsDir(P::kFileReaddir, r, d)) {
          ++listed[d];
          ++mine;
        }
      }
      EXPECT_EQ(plan.plannedOps(P::kFileReaddir, r), mine) << "ranks " << ranks << " rank " << r;
      EXPECT_EQ(plan.plannedOps(P::kDirReaddir, r), mine);
      total += mine;
    }
    EXPECT_EQ(total, 13u);
    EXPECT_EQ(listed, std::vector<int>(13, 1));
    std::uint64_t entries = 0;
    for (std::uint64_t d = 0; d < 13; ++d) {
      EXPECT_EQ(plan.expectedEntries(P::kDirReaddir, d), ranks * (d < 11 ? 4u : 3u));
      entries += plan.expectedEntries(P::kFileReaddir, d);
    }
    EXPECT_EQ(entries, 50u * ranks);
  }
  const Plan four(treeConfig(TreeSharing::kShared), 4);
  EXPECT_EQ(four.plannedOps(P::kFileReaddir, 0), 4u);  // 0, 4, 8, 12
  EXPECT_EQ(four.plannedOps(P::kFileReaddir, 3), 3u);  // 3, 7, 11
  const Plan many(treeConfig(TreeSharing::kShared), 20);
  EXPECT_EQ(many.plannedOps(P::kFileReaddir, 12), 1u);
  EXPECT_EQ(many.plannedOps(P::kFileReaddir, 13), 0u);
  EXPECT_EQ(many.plannedOps(P::kFileReaddir, 19), 0u);
}

TEST(Plan, ReaddirUniqueTreesListEveryDirectoryOfTheOwner) {
  Config config = treeConfig(TreeSharing::kUnique);
  config.leaf_only = true;  // 50 items over 9 leaves: 6 in the first 5, 5 in the last 4; none above
  const Plan plan(config, 3);
  for (std::uint32_t r = 0; r < 3; ++r) {
    EXPECT_EQ(plan.plannedOps(P::kDirReaddir, r), 13u);
    for (std::uint64_t d = 0; d < 13; ++d) EXPECT_TRUE(plan.listsDir(P::kDirReaddir, r, d));
  }
  const std::vector<std::uint64_t> expected = {0, 0, 0, 0, 6, 6, 6, 6, 6, 5, 5, 5, 5};
  for (std::uint64_t d = 0; d < 13; ++d) {
    EXPECT_EQ(plan.expectedEntries(P::kFileReaddir, d), expected[d]) << "dir " << d;
    EXPECT_EQ(plan.expectedEntries(P::kDirReaddir, d), expected[d]) << "dir " << d;
  }
}

TEST(Plan, ReaddirPreconditions) {
  const Plan plan(treeConfig(TreeSharing::kShared), 2);
  EXPECT_THROW(plan.listsDir(P::kFileStat, 0, 0), std::logic_error);
  EXPECT_THROW(plan.listsDir(P::kFileReaddir, 2, 0), std::logic_error);
  EXPECT_THROW(plan.listsDir(P::kFileReaddir, 0, 13), std::logic_error);
  EXPECT_THROW(plan.expectedEntries(P::kTreeCreate, 0), std::logic_error);
  EXPECT_THROW(plan.expectedEntries(P::kDirReaddir, 13), std::logic_error);
}

TEST(Plan, TargetIsRankModuloTargets) {
  Config config = treeConfig(TreeSharing::kUnique);
  EXPECT_EQ(Plan(config, 3).targetOf(2), 0u);  // no -d
  config.targets = {"/a"};
  EXPECT_EQ(Plan(config, 3).targetOf(2), 0u);
  config.targets = {"/a", "/b", "/c"};
  const Plan plan(config, 7);
  for (std::uint32_t r = 0; r < 7; ++r) EXPECT_EQ(plan.targetOf(r), r % 3);
  EXPECT_THROW(plan.targetOf(7), std::logic_error);
}

TEST(Plan, RandomOrderForStatReadAndReaddirOnly) {
  Config config = treeConfig(TreeSharing::kShared);
  for (Phase p : kSelectablePhases) EXPECT_FALSE(Plan(config, 1).randomOrder(p)) << phaseName(p);
  config.random_order = true;
  const Plan plan(config, 1);
  const std::set<Phase> random = {P::kDirStat, P::kFileStat, P::kFileRead, P::kDirReaddir, P::kFileReaddir};
  for (Phase p : kSelectablePhases) EXPECT_EQ(plan.randomOrder(p), random.count(p) == 1) << phaseName(p);
}

TEST(Plan, WithItemsReplacesTheItemCountOnly) {
  Config config = treeConfig(TreeSharing::kShared);
  config.shift = 1;
  const Plan plan(config, std::vector<std::uint32_t>{0, 0, 1, 1});
  const Plan fewer = plan.withItems(20);
  EXPECT_EQ(fewer.config().items, 20u);
  EXPECT_EQ(fewer.layout().items(), 20u);
  EXPECT_EQ(fewer.layout().itemsInDir(0), 2u);  // 20 over 13: 2 in the first 7, then 1
  EXPECT_EQ(fewer.layout().itemsInDir(12), 1u);
  EXPECT_EQ(fewer.plannedOps(P::kFileCreate, 3), 20u);
  EXPECT_EQ(fewer.expectedEntries(P::kFileReaddir, 0), 8u);
  EXPECT_EQ(fewer.ranks(), 4u);
  EXPECT_EQ(fewer.shift(), 2u);  // the node placement is kept
  EXPECT_EQ(fewer.shiftNote(), plan.shiftNote());
  EXPECT_EQ(fewer.phases(), plan.phases());
  EXPECT_EQ(plan.config().items, 50u);  // the original is unchanged
  EXPECT_EQ(plan.withItems(0).plannedOps(P::kFileStat, 0), 0u);

  config.items_per_dir = 4;  // 13 directories hold at most 52
  const Plan capped(config, 2);
  EXPECT_EQ(capped.withItems(52).config().items_per_dir, 4u);
  EXPECT_EQ(capped.withItems(52).layout().itemsInDir(12), 4u);
  EXPECT_EQ(capped.withItems(5).layout().itemsInDir(1), 1u);
  EXPECT_THROW(capped.withItems(53), std::logic_error);
}

TEST(Plan, SettingsAreTheOptionsThePhasesRead) {
  Config config = treeConfig(TreeSharing::kUnique);
  config.shared_files = true;
  config.no_barriers = true;
  config.iterations = 3;
  config.write_bytes = 4096;
  config.read_bytes = 100;
  config.fsync_writes = true;
  config.verify_read = true;
  config.data_packet = DataPacket::kRandom;
  config.buffer_offset = 7;
  config.random_seed = 42;
  config.stonewall_s = 1.5;
  config.series_interval_s = 0.25;
  config.cmd_before_phase = "before";
  config.cmd_after_phase = "after";
  const PhaseSettings s = Plan(config, 2).settings();
  EXPECT_EQ(s.sharing, TreeSharing::kUnique);
  EXPECT_TRUE(s.shared_files);
  EXPECT_TRUE(s.no_barriers);
  EXPECT_EQ(s.iterations, 3u);
  EXPECT_EQ(s.write_bytes, 4096u);
  EXPECT_EQ(s.read_bytes, 100u);
  EXPECT_TRUE(s.fsync_writes);
  EXPECT_TRUE(s.verify_read);
  EXPECT_EQ(s.pattern.packet(), DataPacket::kRandom);
  EXPECT_EQ(s.pattern.offset(), 7);
  EXPECT_EQ(s.random_seed, 42u);
  EXPECT_EQ(s.stonewall_ns, 1'500'000'000);
  EXPECT_EQ(s.series_interval_ns, 250'000'000);
  EXPECT_EQ(s.cmd_before_phase, "before");
  EXPECT_EQ(s.cmd_after_phase, "after");
  EXPECT_EQ(Plan(config, 2).withItems(10).settings().write_bytes, 4096u);  // kept by withItems

  config.buffer_offset = -1;         // no -G: offset 0, as DataPattern::of
  config.series_interval_s = 1e-12;  // at least 1 ns
  EXPECT_EQ(Plan(config, 1).settings().pattern.offset(), 0);
  EXPECT_EQ(Plan(config, 1).settings().series_interval_ns, 1);
}

// -Y: after every item phase, as mdtest's phase_end (never after the tree's), or the item creates only.
TEST(Plan, SyncsAfterEveryItemPhaseOrTheItemCreatesOnly) {
  Config config = treeConfig(TreeSharing::kShared);
  for (Phase p : kSelectablePhases) EXPECT_FALSE(Plan(config, 1).syncsAfter(p)) << phaseName(p);
  config.sync_phases = true;
  for (Phase p : kSelectablePhases)
    EXPECT_EQ(Plan(config, 1).syncsAfter(p), !phaseInfo(p).tree()) << phaseName(p);
  config.sync_creates_only = true;
  const Plan plan(config, 1);
  for (Phase p : kSelectablePhases) {
    EXPECT_EQ(plan.syncsAfter(p), p == P::kDirCreate || p == P::kFileCreate) << phaseName(p);
  }
}

TEST(Plan, StonewallInThisRun) {
  Config config = treeConfig(TreeSharing::kShared);
  for (Phase p : kSelectablePhases)
    EXPECT_EQ(Plan(config, 2).stonewallIn(p), StonewallRule::kNone) << phaseName(p);
  config.stonewall_s = 2.0;
  for (Phase p : kSelectablePhases)
    EXPECT_EQ(Plan(config, 2).stonewallIn(p), stonewallRule(p)) << phaseName(p);
  config.shared_files = true;  // -S's create notes only
  EXPECT_EQ(Plan(config, 2).stonewallIn(P::kFileCreate), StonewallRule::kNoteOnly);
  EXPECT_EQ(Plan(config, 2).stonewallIn(P::kFileStat), StonewallRule::kStopAndWearOut);
  config.shared_files = false;
  config.collective_creates = true;  // -c's creates and removes note only
  const Plan collective(config, 2);
  EXPECT_TRUE(collective.collective(P::kFileCreate));
  EXPECT_FALSE(collective.collective(P::kFileStat));
  EXPECT_EQ(collective.stonewallIn(P::kDirCreate), StonewallRule::kNoteOnly);
  EXPECT_EQ(collective.stonewallIn(P::kFileCreate), StonewallRule::kNoteOnly);
  EXPECT_EQ(collective.stonewallIn(P::kFileStat), StonewallRule::kStopAndWearOut);
  EXPECT_EQ(collective.stonewallIn(P::kFileRemove), StonewallRule::kNoteOnly);
}

TEST(Plan, NodePlacementPreconditions) {
  EXPECT_THROW(Plan(treeConfig(TreeSharing::kShared), std::vector<std::uint32_t>{}), std::logic_error);
  EXPECT_EQ(Plan(treeConfig(TreeSharing::kShared), std::vector<std::uint32_t>{3}).ranks(), 1u);
}

// ---- error paths ----

TEST(ErrorPath, NamesTheItemUnderItsCurrentName) {
  Config config = treeConfig(TreeSharing::kUnique);
  config.phases = kEverything;
  const Plan plan(config, 2);
  const FirstError on_item{13, 1, 4, 7};
  EXPECT_EQ(errorPath(plan, 0, P::kFileStat, on_item),
            "mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.1/mdbench_tree.1.4/file.mdbench.1.7");
  // The rename phase reports the name it renamed from; the remove phase after it the new name.
  EXPECT_EQ(errorPath(plan, 0, P::kDirRename, on_item),
            "mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.1/mdbench_tree.1.4/dir.mdbench.1.7");
  EXPECT_EQ(errorPath(plan, 2, P::kFileRemove, on_item),
            "mdbench.iter.2/mdbench_tree.1.0/mdbench_tree.1.1/mdbench_tree.1.4/file.mdbench.1.7.renamed");
  const FirstError on_dir{2, 1, 4, FirstError{}.item};
  EXPECT_EQ(errorPath(plan, 0, P::kFileReaddir, on_dir),
            "mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.1/mdbench_tree.1.4");
  // Without a rename phase the remove phase uses the original name; --renamed uses the new one everywhere.
  config.phases = kAll;
  EXPECT_EQ(errorPath(Plan(config, 2), 0, P::kFileRemove, on_item),
            "mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.1/mdbench_tree.1.4/file.mdbench.1.7");
  config.renamed = true;
  EXPECT_EQ(errorPath(Plan(config, 2), 0, P::kFileStat, on_item),
            "mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.1/mdbench_tree.1.4/file.mdbench.1.7.renamed");
  // -S: the shared names in the shared tree.
  const Plan shared(sharedFilesConfig(), 3);
  EXPECT_EQ(errorPath(shared, 0, P::kFileRead, FirstError{5, kSharedOwner, 2, 9}),
            "mdbench.iter.0/mdbench_tree.0/mdbench_tree.2/file.mdbench.shared.9");
}

}  // namespace
}  // namespace mdbench
