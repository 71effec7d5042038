// The ownership record's format and the set behind it (ownership.hpp).
#include "mdbench/model/ownership.hpp"

#include <gtest/gtest.h>

#include <string>

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

TEST(ItemFates, ForgetsOneKind) {
  ItemFates fates = sample();
  fates.forget(ItemKind::kFile);
  EXPECT_EQ(fates.of(ItemKind::kFile, 1, 19999), ItemFate::kOurs);
  EXPECT_EQ(fates.of(ItemKind::kDir, 0, 19999), ItemFate::kNotOurs);
}

TEST(ItemFates, PastTheCapTheKindIsAllNotOurs) {
  ItemFates fates;
  for (std::uint64_t i = 0; i <= kMaxItemFates; ++i) fates.add(ItemKind::kDir, 0, i, ItemFate::kOriginalName);
  EXPECT_TRUE(fates.allNotOurs(ItemKind::kDir));
  EXPECT_EQ(fates.size(ItemKind::kDir), 0u);
  EXPECT_EQ(fates.of(ItemKind::kDir, 9, 123456789), ItemFate::kNotOurs);
  EXPECT_EQ(fates.of(ItemKind::kFile, 0, 0), ItemFate::kOurs);
  ItemFates back;
  ASSERT_EQ(ItemFates::parseRecord(fates.encode(), back), "");
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
  EXPECT_FALSE(fates.leavesName("dir.mdbench.1.19999"));
  EXPECT_FALSE(fates.leavesName("file.mdbench.1.19999.other"));
  EXPECT_FALSE(fates.leavesName("mdbench_tree.0"));
}

TEST(TakenRecord, RoundTripsExactly) {
  const ItemFates fates = sample();
  const std::string text = fates.encode();
  EXPECT_EQ(text,
            "mdbench-taken 1 bytes=0000000084\n"
            "f 1 19999 x\n"
            "f 3 7 o\n"
            "f shared 5 x\n"
            "d 0 19999 x\n"
            "end 4\n");
  EXPECT_EQ(ItemFates::recordLength(text.substr(0, kTakenHeaderBytes)), text.size());
  ItemFates back;
  ASSERT_EQ(ItemFates::parseRecord(text, back), "");
  EXPECT_EQ(back, fates);
}

TEST(TakenRecord, AnEmptySetIsARecordToo) {
  const std::string text = ItemFates().encode();
  EXPECT_EQ(text, "mdbench-taken 1 bytes=0000000039\nend 0\n");
  ItemFates back = sample();
  ASSERT_EQ(ItemFates::parseRecord(text, back), "");
  EXPECT_TRUE(back.empty());
}

TEST(TakenRecord, RefusesDamageAndLeavesNothingHalfParsed) {
  const std::string good = sample().encode();
  const std::string body = good.substr(kTakenHeaderBytes);
  const auto withHeader = [](const std::string& rest) {
    return "mdbench-taken 1 bytes=" + std::string(10 - std::to_string(33 + rest.size()).size(), '0') +
           std::to_string(33 + rest.size()) + "\n" + rest;
  };
  const std::string cases[] = {
      "",
      "garbage\n",
      good.substr(0, good.size() - 1),                    // cut short
      good + "f 1 2 x\n",                                 // longer than its header says
      withHeader("f 1 2 x\n"),                            // no end line
      withHeader("f 1 2 x\nend 2\n"),                     // wrong count
      withHeader("f 1 2 x\nend 1\nf 1 3 x\n"),            // text after the end
      withHeader("q 1 2 x\nend 1\n"),                     // unknown kind
      withHeader("f -1 2 x\nend 1\n"),                    // bad owner
      withHeader("f 4294967295 2 x\nend 1\n"),            // the shared owner spelled as a number
      withHeader("f 1 99999999999999999999 x\nend 1\n"),  // item overflows
      withHeader("f 1 2 y\nend 1\n"),                     // unknown fate
      withHeader("f 1 2 x \nend 1\n"),                    // trailing space
      "mdbench-taken 2 bytes=0000000039\nend 0\n",        // another version
  };
  for (const std::string& text : cases) {
    ItemFates out = sample();
    EXPECT_NE(ItemFates::parseRecord(text, out), "") << text;
    EXPECT_TRUE(out.empty()) << text;
  }
  EXPECT_EQ(ItemFates::recordLength("mdbench-taken 1 bytes=9999999999\n"), 0u);  // beyond the bound
}

}  // namespace
}  // namespace mdbench
