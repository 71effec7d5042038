// Each enum's one table of names (util/enum_names.hpp), read both ways: every value's name parses back to
// it, no two values share a name, and text that is no name parses to nothing.
#include "mdbench/util/enum_names.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "mdbench/config/config.hpp"
#include "mdbench/model/server_stats.hpp"
#include "mdbench/model/steady.hpp"

namespace mdbench {
namespace {

template <class E, std::size_t N>
void expectBothWays(const EnumNames<E, N>& names) {
  std::set<std::string_view> seen;
  for (const EnumName<E>& n : names) {
    EXPECT_TRUE(seen.insert(n.name).second) << "twice: " << n.name;
    EXPECT_EQ(nameOf(names, n.value), n.name);
    const std::optional<E> back = valueOf(names, n.name);
    ASSERT_TRUE(back.has_value()) << n.name;
    EXPECT_EQ(*back, n.value) << n.name;
    EXPECT_FALSE(valueOf(names, std::string(n.name) + "x").has_value());
  }
  EXPECT_FALSE(valueOf(names, "").has_value());
}

TEST(EnumNames, EveryTableReadsBothWays) {
  expectBothWays(kTreeSharingNames);
  expectBothWays(kItemKindsNames);
  expectBothWays(kSweepPlacementNames);
  expectBothWays(kPathStyleNames);
  expectBothWays(kSyncCallNames);
  expectBothWays(kConsoleStyleNames);
  expectBothWays(kDataPacketNames);
  expectBothWays(kServerSourceKindNames);
  expectBothWays(kServerStatsStatusNames);
  expectBothWays(kOpKindNames);
}

TEST(EnumNames, NamesAsTheResultsFileAndOptionsSpellThem) {
  EXPECT_EQ(nameOf(kItemKindsNames, ItemKinds::kFilesOnly), "files");
  EXPECT_EQ(sweepPlacementName(SweepPlacement::kSpread), "spread");
  EXPECT_EQ(dataPacketName(DataPacket::kIncompressible), "incompressible");
  EXPECT_STREQ(opKindName(OpKind::kDelete), "delete");
  EXPECT_EQ(phaseName(Phase::kSteadyMix), "mix");
  EXPECT_EQ(serverStatsStatusName(ServerStatsStatus::kWentBackwards), "went-backwards");
  EXPECT_EQ(valueOf(kOpKindNames, "Delete"), std::nullopt);  // exact, case and all
  // A value no row names (cast from a number) is "?", never another value's name.
  EXPECT_EQ(nameOf(kPathStyleNames, static_cast<PathStyle>(7)), "?");
  EXPECT_STREQ(opKindName(static_cast<OpKind>(9)), "?");
}

TEST(EnumNames, NamesTextForMessages) {
  EXPECT_EQ(namesText(kItemKindsNames), "both, files or dirs");
  EXPECT_EQ(namesText(kPathStyleNames), "full or dirfd");
}

}  // namespace
}  // namespace mdbench
