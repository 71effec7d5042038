// The phase executor's parts on their own: the names' fates a phase notes, the data buffers and the timing
// with a clock the test moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "mdbench/backend/null_backend.hpp"
#include "mdbench/model/ownership.hpp"
#include "mdbench/run/comm.hpp"
#include "name_fates.hpp"
#include "phase_data.hpp"
#include "phase_timing.hpp"

namespace mdbench {
namespace {

TEST(NameFates, CreateFailuresAreNotOursWithTheirErrno) {
  SelfComm comm;
  NameFates names;
  names.begin(2);
  names.noteFailure(Phase::kFileCreate, 1, 5, EEXIST);
  names.noteFailure(Phase::kFileCreate, 1, 6, EACCES);
  names.noteFailure(Phase::kFileCreate, 1, 7, kErrNotCreated | ENOENT);  // the record's own: kept as it is
  names.share(comm, ItemKind::kFile);
  const ItemFates& fates = names.fates();
  EXPECT_EQ(fates.of(ItemKind::kFile, 1, 5), ItemFate::kNotOurs);
  EXPECT_EQ(fates.errOf(ItemKind::kFile, 1, 5), EEXIST);
  EXPECT_EQ(fates.of(ItemKind::kFile, 1, 6), ItemFate::kNotOurs);
  EXPECT_EQ(fates.errOf(ItemKind::kFile, 1, 6), EACCES);
  EXPECT_EQ(fates.of(ItemKind::kFile, 1, 7), ItemFate::kOurs);
  EXPECT_EQ(fates.size(ItemKind::kFile), 2u);
  names.share(comm, ItemKind::kFile);  // shared once: nothing new
  EXPECT_EQ(names.fates().size(ItemKind::kFile), 2u);
}

TEST(NameFates, RenameFailuresKeepTheOriginalNameOrLoseTheItem) {
  SelfComm comm;
  NameFates names;
  names.begin(1);
  names.noteFailure(Phase::kFileRename, 0, 1, ENOENT);
  names.noteFailure(Phase::kFileRename, 0, 2, EACCES);
  names.share(comm, ItemKind::kFile);
  EXPECT_EQ(names.fates().of(ItemKind::kFile, 0, 1), ItemFate::kGone);
  EXPECT_EQ(names.fates().of(ItemKind::kFile, 0, 2), ItemFate::kOriginalName);
  names.begin(1);
  names.noteRenamedNow(0, 2);  // renamed by a later job: its exception goes
  names.share(comm, ItemKind::kFile);
  EXPECT_EQ(names.fates().of(ItemKind::kFile, 0, 2), ItemFate::kOurs);

  // The directory rotation keeps a name it found taken (EEXIST); one it lost is not the run's.
  names.begin(1);
  names.noteFailure(Phase::kDirRename, 0, 3, EEXIST);
  names.noteFailure(Phase::kDirRename, 0, 4, ENOTDIR);
  names.noteLost(0, 5);
  names.share(comm, ItemKind::kDir);
  EXPECT_EQ(names.fates().of(ItemKind::kDir, 0, 3), ItemFate::kOurs);
  EXPECT_EQ(names.fates().of(ItemKind::kDir, 0, 4), ItemFate::kNotOurs);
  EXPECT_EQ(names.fates().of(ItemKind::kDir, 0, 5), ItemFate::kNotOurs);
  EXPECT_EQ(names.fates().errOf(ItemKind::kDir, 0, 5), EEXIST);
}

TEST(NameFates, ReachPerOwnerAndForTheSharedNames) {
  NameFates names;
  names.begin(3);
  names.noteReach(1, 5);
  names.noteReach(1, 3);  // the furthest pass counts
  names.noteReach(7, 9);  // no such slot
  EXPECT_EQ(names.reach(), (std::vector<std::uint64_t>{0, 5, 0}));
  names.noteReach(kSharedOwner, 4);  // rank 0's pass over the shared names counts for all
  EXPECT_EQ(names.reach(), (std::vector<std::uint64_t>{4, 4, 4}));
  names.begin(3);
  names.noteCreatorReach(2, 6);  // -S's create: per creating rank
  names.noteReach(kSharedOwner, 9);
  EXPECT_EQ(names.reach(), (std::vector<std::uint64_t>{0, 0, 6}));
}

PhaseSettings dataSettings(std::uint64_t write_bytes, std::uint64_t read_bytes) {
  Config config;
  config.write_bytes = write_bytes;
  config.read_bytes = read_bytes;
  config.data_packet = DataPacket::kRandom;
  config.fsync_writes = true;
  return PhaseSettings::of(config);
}

TEST(PhaseData, BuffersHoldWhatTheCreatorWrote) {
  PhaseData data(dataSettings(64, 64));
  ASSERT_EQ(data.written().size(), 64u);
  ASSERT_EQ(data.readBuffer().size(), 64u);
  EXPECT_EQ(data.createOptions().mode, CreateMode::kExclusive);
  EXPECT_TRUE(data.createOptions().fsync);
  EXPECT_EQ(data.createOptions().made, nullptr);
  data.fillFor(3);
  data.stamp(3, 17);
  const std::vector<std::byte> file(data.written().begin(), data.written().end());
  std::copy(file.begin(), file.end(), data.readBuffer().begin());
  EXPECT_TRUE(data.check(3, 17));
  EXPECT_FALSE(data.check(3, 18));
  EXPECT_FALSE(data.check(2, 17));

  PhaseData none(dataSettings(0, 0));
  none.fillFor(3);  // nothing to fill
  EXPECT_TRUE(none.written().empty());
  EXPECT_TRUE(none.readBuffer().empty());
}

class StepClock final : public Clock {
 public:
  std::int64_t nowNs() override { return now; }
  std::int64_t now = 0;
};

TEST(PhaseTiming, TimesFromTheEpochAndTheStonewallOnce) {
  SelfComm comm;
  StepClock clock;
  NullBackend backend;
  const RunParts parts{comm, clock, backend};
  Config config;
  config.stonewall_s = 2.0;
  const PhaseSettings settings = PhaseSettings::of(config);
  PhaseTiming timing(settings, parts);
  timing.setEpoch(1'000'000'000);
  clock.now = 1'500'000'000;
  const std::int64_t t_start = timing.open(Phase::kFileStat, 10, StonewallRule::kStopAndWearOut);
  EXPECT_EQ(t_start, 1'500'000'000);
  RankPhaseRecord record;
  record.ok = 4;
  EXPECT_FALSE(timing.pastDeadline(3'499'999'999));
  EXPECT_TRUE(timing.pastDeadline(3'500'000'000));
  EXPECT_TRUE(timing.noteStonewall(3'500'000'000, record));  // the phase stops there
  EXPECT_EQ(record.ops_at_stonewall, 4u);
  EXPECT_DOUBLE_EQ(record.t_stonewall, 2.5);
  EXPECT_FALSE(timing.pastDeadline(9'000'000'000));  // once
  EXPECT_EQ(timing.agreeFurthest(7), 7u);
  clock.now = 4'000'000'000;
  timing.close(t_start, record);
  EXPECT_DOUBLE_EQ(record.t_start, 0.5);
  EXPECT_DOUBLE_EQ(record.t_local_end, 3.0);
  EXPECT_DOUBLE_EQ(record.t_global_end, 3.0);

  // A phase that only notes the stonewall goes on; without one there is no deadline.
  const std::int64_t t_note = timing.open(Phase::kFileRemove, 10, StonewallRule::kNoteOnly);
  EXPECT_FALSE(timing.noteStonewall(t_note + 2'000'000'000, record));
  (void)timing.open(Phase::kFileStat, 10, StonewallRule::kNone);
  EXPECT_FALSE(timing.pastDeadline(PhaseTiming::kNever - 1));
}

}  // namespace
}  // namespace mdbench
