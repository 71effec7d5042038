// mdtest's data packets: the bytes DataPattern writes are those a real mdtest 4.1 wrote
// (fixtures/mdtest_data_packets.txt), and its check refuses any other bytes.
#include "mdbench/model/data_pattern.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace mdbench {
namespace {

std::uint64_t fnv1a(const std::vector<std::byte>& data) {
  std::uint64_t hash = 0xcbf29ce484222325u;
  for (std::byte b : data) {
    hash ^= static_cast<std::uint8_t>(b);
    hash *= 0x100000001b3u;
  }
  return hash;
}

std::string hexOf(const std::byte* data, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < size; ++i) {
    const auto v = static_cast<std::uint8_t>(data[i]);
    out += kDigits[v >> 4];
    out += kDigits[v & 15];
  }
  return out;
}

DataPacket packetNamed(const std::string& name) {
  for (DataPacket p :
       {DataPacket::kTimestamp, DataPacket::kOffset, DataPacket::kIncompressible, DataPacket::kRandom}) {
    if (dataPacketName(p) == name) return p;
  }
  ADD_FAILURE() << "unknown packet " << name;
  return DataPacket::kTimestamp;
}

// One file mdtest wrote.
struct MdtestFile {
  std::string packet;
  std::int64_t offset = 0;
  std::uint32_t rank = 0;
  std::uint64_t item = 0;
  std::size_t size = 0;
  std::string hash, head, tail;
};

std::vector<MdtestFile> mdtestFiles() {
  std::ifstream in(MDBENCH_MODEL_FIXTURES "/mdtest_data_packets.txt");
  EXPECT_TRUE(in.good()) << "no fixture";
  std::vector<MdtestFile> files;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    MdtestFile f;
    words >> f.packet >> f.offset >> f.rank >> f.item >> f.size >> f.hash >> f.head >> f.tail;
    EXPECT_FALSE(words.fail()) << line;
    files.push_back(f);
  }
  return files;
}

// What a create writes: the buffer filled once for the rank, stamped for the item.
std::vector<std::byte> written(const DataPattern& pattern, std::size_t size, std::uint32_t rank,
                               std::uint64_t item) {
  std::vector<std::byte> data(size, std::byte{0x5a});
  pattern.fill(data, rank);
  pattern.stamp(data, rank, item);
  return data;
}

TEST(DataPattern, WritesWhatMdtestWrote) {
  const std::vector<MdtestFile> files = mdtestFiles();
  ASSERT_EQ(files.size(), 24u);  // 4 packets x (1 rank x 2 items + 2 ranks x 2 items)
  for (const MdtestFile& f : files) {
    SCOPED_TRACE(f.packet + " -G " + std::to_string(f.offset) + " rank " + std::to_string(f.rank) + " item " +
                 std::to_string(f.item));
    const DataPattern pattern(packetNamed(f.packet), f.offset);
    const std::vector<std::byte> data = written(pattern, f.size, f.rank, f.item);
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(data)));
    EXPECT_EQ(hexOf(data.data(), 24), f.head);
    EXPECT_EQ(hexOf(data.data() + data.size() - 21, 21), f.tail);
    EXPECT_EQ(hash, f.hash);
    EXPECT_TRUE(pattern.check(data, f.rank, f.item));
  }
}

// The executor fills once and stamps item after item into the same buffer: each file is still exact.
TEST(DataPattern, StampingOneBufferItemAfterItemIsExact) {
  for (DataPacket p :
       {DataPacket::kTimestamp, DataPacket::kOffset, DataPacket::kIncompressible, DataPacket::kRandom}) {
    const DataPattern pattern(p, 7);
    std::vector<std::byte> data(3 * 4096 + 3);
    pattern.fill(data, 2);
    for (std::uint64_t item : {5u, 0u, 123456789u}) {
      pattern.stamp(data, 2, item);
      EXPECT_EQ(data, written(pattern, data.size(), 2, item)) << dataPacketName(p) << " item " << item;
    }
  }
}

TEST(DataPattern, CheckRefusesAnyOtherByte) {
  for (DataPacket p :
       {DataPacket::kTimestamp, DataPacket::kOffset, DataPacket::kIncompressible, DataPacket::kRandom}) {
    SCOPED_TRACE(std::string(dataPacketName(p)));
    const DataPattern pattern(p, 3);
    const std::vector<std::byte> good = written(pattern, 2 * 4096 + 5, 1, 9);
    ASSERT_TRUE(pattern.check(good, 1, 9));
    for (std::size_t at : {std::size_t{0}, std::size_t{7}, std::size_t{8}, std::size_t{4096},
                           std::size_t{4100}, good.size() - 1}) {
      std::vector<std::byte> bad = good;
      bad[at] ^= std::byte{1};
      EXPECT_FALSE(pattern.check(bad, 1, 9)) << "byte " << at;
    }
    EXPECT_FALSE(pattern.check(good, 0, 9)) << "another rank's";
    EXPECT_FALSE(DataPattern(p, 4).check(good, 1, 9)) << "another -G";
    // As in mdtest, the timestamp packet does not name the item: every file of a rank is the same.
    EXPECT_EQ(pattern.check(good, 1, 10), p == DataPacket::kTimestamp) << "another item's";
  }
}

// Under 8 bytes nothing is a whole word: only the tail bytes, never stamped (mdtest's bytes < 8 rule).
TEST(DataPattern, ShortFilesHoldTheirOffsets) {
  for (DataPacket p :
       {DataPacket::kTimestamp, DataPacket::kOffset, DataPacket::kIncompressible, DataPacket::kRandom}) {
    const DataPattern pattern(p, 7);
    const std::vector<std::byte> data = written(pattern, 5, 3, 4);
    EXPECT_EQ(hexOf(data.data(), data.size()), "0001020304") << dataPacketName(p);
    EXPECT_TRUE(pattern.check(data, 3, 99));
    EXPECT_TRUE(pattern.check(std::vector<std::byte>{}, 3, 4));
  }
}

// -e shorter than -w reads the start of each file: checked against the file's bytes, whatever the length.
TEST(DataPattern, AShortReadIsCheckedAsTheStartOfTheFile) {
  for (DataPacket p :
       {DataPacket::kTimestamp, DataPacket::kOffset, DataPacket::kIncompressible, DataPacket::kRandom}) {
    const DataPattern writer(p, 7);
    const std::vector<std::byte> file = written(writer, 4096 + 13, 1, 6);
    const DataPattern reader(p, 7, file.size());
    for (std::size_t read : {1u, 5u, 8u, 12u, 4096u, 4100u, 4101u, 4109u}) {
      std::vector<std::byte> start(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(read));
      EXPECT_TRUE(reader.check(start, 1, 6)) << dataPacketName(p) << " -e " << read;
      start.back() ^= std::byte{0x80};
      EXPECT_FALSE(reader.check(start, 1, 6)) << dataPacketName(p) << " -e " << read << ", last byte changed";
    }
  }
}

TEST(DataPattern, OffsetAndPacketFromTheConfiguration) {
  Config config;
  EXPECT_EQ(DataPattern::of(config).offset(), 0);  // no -G: 0 (mdtest: the time of day)
  EXPECT_EQ(DataPattern::of(config).packet(), DataPacket::kTimestamp);
  config.buffer_offset = -5;
  config.data_packet = DataPacket::kRandom;
  EXPECT_EQ(DataPattern::of(config).offset(), -5);
  EXPECT_EQ(DataPattern::of(config).packet(), DataPacket::kRandom);
}

}  // namespace
}  // namespace mdbench
