// TypeListings (type_listings.hpp): the records listTypes writes and adoptListings reads on every rank, and
// when a name's type needs a call of its own.
#include "mdbench/backend/type_listings.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace mdbench {
namespace {

// A listing function that counts its calls and finds `suspect` (or fails with `err`).
struct FakeList {
  int calls = 0;
  std::string suspect;
  int err = 0;
  int operator()(EntryType /*type*/, TypeListings::Listed& listed) {
    ++calls;
    if (!suspect.empty()) listed.suspects.insert(suspect);
    return err;
  }
};

TEST(TypeListings, OutsideABatchEveryNameIsChecked) {
  TypeListings listings;
  FakeList list;
  EXPECT_TRUE(listings.needsCheck(
      3, "a", [] { return std::string("k"); }, std::ref(list)));
  EXPECT_EQ(list.calls, 0);
}

TEST(TypeListings, OneListingPerDirectoryAndOnlySuspectsChecked) {
  TypeListings listings;
  FakeList list{.suspect = "link"};
  listings.begin(EntryType::kFile);
  const auto key = [] { return std::string("/d"); };
  EXPECT_FALSE(listings.needsCheck(3, "file.1", key, std::ref(list)));
  EXPECT_TRUE(listings.needsCheck(3, "link", key, std::ref(list)));
  EXPECT_FALSE(listings.needsCheck(3, "file.2", key, std::ref(list)));
  EXPECT_EQ(list.calls, 1);
  listings.forget(3);  // closed: the number may come back for another directory, listed afresh
  EXPECT_FALSE(listings.needsCheck(3, "file.3", key, std::ref(list)));
  EXPECT_EQ(list.calls, 2);
}

TEST(TypeListings, AFailedListingChecksEveryName) {
  TypeListings listings;
  FakeList list{.calls = 0, .suspect = "", .err = 5};
  listings.begin(EntryType::kFile);
  EXPECT_TRUE(listings.needsCheck(
      1, "file.1", [] { return std::string("/d"); }, std::ref(list)));
  EXPECT_TRUE(listings.needsCheck(
      1, "file.2", [] { return std::string("/d"); }, std::ref(list)));
  EXPECT_EQ(list.calls, 1);
}

TEST(TypeListings, AdoptedRecordsAnswerWithoutAListing) {
  std::string records;
  TypeListings::Listed one;
  one.suspects = {"fifo", "a name with spaces"};
  TypeListings::append(records, "/tree/dir.0", one);
  TypeListings::Listed all;
  all.check_all = true;
  TypeListings::append(records, "/tree/dir.1", all);
  TypeListings::append(records, "/tree/dir.2", TypeListings::Listed{});

  TypeListings listings;
  listings.adopt(records);
  listings.begin(EntryType::kFile);
  FakeList list;
  EXPECT_TRUE(listings.needsCheck(
      1, "fifo", [] { return std::string("/tree/dir.0"); }, std::ref(list)));
  EXPECT_TRUE(listings.needsCheck(
      1, "a name with spaces", [] { return std::string("/x"); }, std::ref(list)));
  EXPECT_FALSE(listings.needsCheck(
      1, "file.0", [] { return std::string("/x"); }, std::ref(list)));
  EXPECT_TRUE(listings.needsCheck(
      2, "file.1", [] { return std::string("/tree/dir.1"); }, std::ref(list)));
  EXPECT_FALSE(listings.needsCheck(
      4, "file.2", [] { return std::string("/tree/dir.2"); }, std::ref(list)));
  EXPECT_EQ(list.calls, 0);
  // A directory no record names is listed by this rank.
  EXPECT_FALSE(listings.needsCheck(
      5, "file.3", [] { return std::string("/tree/dir.3"); }, std::ref(list)));
  EXPECT_EQ(list.calls, 1);
  // The batch's end forgets the adopted records: the next batch lists again.
  listings.end();
  listings.begin(EntryType::kFile);
  EXPECT_FALSE(listings.needsCheck(
      1, "file.0", [] { return std::string("/tree/dir.0"); }, std::ref(list)));
  EXPECT_EQ(list.calls, 2);
}

}  // namespace
}  // namespace mdbench
