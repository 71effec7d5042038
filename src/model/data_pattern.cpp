// mdtest 4.1's data packets (data_pattern.hpp), written from its utilities.c and checked against files a
// real mdtest wrote (tests/model/fixtures/mdtest_data_packets.txt).
#include "mdbench/model/data_pattern.hpp"

#include <stdlib.h>  // rand_r, as mdtest's (POSIX; not in <cstdlib>'s std namespace)

#include <algorithm>
#include <cstring>

namespace mdbench {
namespace {

constexpr std::size_t kWord = sizeof(std::uint64_t);
constexpr std::size_t kStampStride = 512;                          // a stamped word every 4 KiB
constexpr std::uint64_t kGoldenRatioPrime = 0x9e37fffffffc0001UL;  // ior's RANDALGO_GOLDEN_RATIO_PRIME

std::uint64_t wordAt(std::span<const std::byte> data, std::size_t index) {
  std::uint64_t word;
  std::memcpy(&word, data.data() + index * kWord, kWord);
  return word;
}

void putWord(std::span<std::byte> data, std::size_t index, std::uint64_t word) {
  std::memcpy(data.data() + index * kWord, &word, kWord);
}

// The byte past the last whole word at `index`: mdtest's (char) index.
std::byte tailByte(std::size_t index) { return static_cast<std::byte>(index & 0xffu); }

// mdtest's seeds are C ints summed with wrap-around; as unsigned, the sum is the same modulo 2^32.
unsigned seedOf(std::int32_t offset, std::uint32_t rank, std::uint64_t item = 0) {
  return static_cast<unsigned>(offset) + rank + static_cast<unsigned>(item);
}

// The stamp of word 512 k: the item times k + 1 in 32 bits, the rank above.
std::uint64_t stampWord(std::uint32_t rank, std::uint64_t item, std::size_t k) {
  const std::uint32_t low = static_cast<std::uint32_t>(item) * static_cast<std::uint32_t>(k + 1);
  return std::uint64_t{low} | std::uint64_t{rank} << 32;
}

bool stamped(DataPacket packet) {
  return packet == DataPacket::kOffset || packet == DataPacket::kIncompressible;
}

}  // namespace

DataPattern::DataPattern(DataPacket packet, std::int64_t offset, std::size_t file_size)
    : packet_(packet), offset_(static_cast<std::int32_t>(offset)), file_size_(file_size) {}

DataPattern DataPattern::of(const Config& config) {
  return {config.data_packet, config.buffer_offset == -1 ? 0 : config.buffer_offset,
          static_cast<std::size_t>(config.write_bytes)};
}

std::uint64_t DataPattern::incompressibleWord(std::uint32_t rank) const {
  unsigned seed = seedOf(offset_, rank);
  const auto hi = static_cast<std::uint64_t>(::rand_r(&seed)) << 32;
  const auto lo = static_cast<std::uint64_t>(::rand_r(&seed));
  return hi | lo;
}

// What fill writes at word `index` (random: nothing, every word is the stamp's).
std::uint64_t DataPattern::baseWord(std::uint32_t rank, std::size_t index) const {
  // G + i in mdtest's types: the int is converted to the 64-bit size_t, so a negative G sign-extends.
  const std::uint64_t counter =
      static_cast<std::uint64_t>(static_cast<std::int64_t>(offset_)) + static_cast<std::uint64_t>(index);
  return std::uint64_t{rank} << 32 | counter;
}

void DataPattern::fill(std::span<std::byte> data, std::uint32_t rank) const {
  const std::size_t words = data.size() / kWord;
  if (packet_ == DataPacket::kIncompressible) {
    const std::uint64_t word = incompressibleWord(rank);
    for (std::size_t i = 0; i < words; ++i) putWord(data, i, word);
  } else if (packet_ != DataPacket::kRandom) {
    for (std::size_t i = 0; i < words; ++i) putWord(data, i, baseWord(rank, i));
  }
  for (std::size_t i = words * kWord; i < data.size(); ++i) data[i] = tailByte(i);
}

void DataPattern::stamp(std::span<std::byte> data, std::uint32_t rank, std::uint64_t item) const {
  if (packet_ == DataPacket::kTimestamp || data.size() < kWord) return;
  const std::size_t words = data.size() / kWord;
  if (packet_ == DataPacket::kRandom) {
    unsigned seed = seedOf(offset_, rank, item);
    auto state = static_cast<std::uint64_t>(::rand_r(&seed));
    for (std::size_t i = 0; i < words; ++i) {
      state = (state * kGoldenRatioPrime) >> 3;
      putWord(data, i, state);
    }
    return;
  }
  for (std::size_t i = 0, k = 0; i < words; i += kStampStride, ++k)
    putWord(data, i, stampWord(rank, item, k));
}

bool DataPattern::check(std::span<const std::byte> data, std::uint32_t rank, std::uint64_t item) const {
  // Word i as written; random words come from a sequence, so they are asked for in order.
  const bool stamps = stamped(packet_) && std::max(data.size(), file_size_) >= kWord;
  const std::uint64_t same = packet_ == DataPacket::kIncompressible ? incompressibleWord(rank) : 0;
  unsigned seed = seedOf(offset_, rank, item);
  std::uint64_t state = packet_ == DataPacket::kRandom ? static_cast<std::uint64_t>(::rand_r(&seed)) : 0;
  const auto next = [&](std::size_t i) {
    if (packet_ == DataPacket::kRandom) return state = (state * kGoldenRatioPrime) >> 3;
    if (stamps && i % kStampStride == 0) return stampWord(rank, item, i / kStampStride);
    return packet_ == DataPacket::kIncompressible ? same : baseWord(rank, i);
  };
  const std::size_t words = data.size() / kWord;
  for (std::size_t i = 0; i < words; ++i) {
    if (wordAt(data, i) != next(i)) return false;
  }
  // The bytes after the last whole word: the start of the file's next word if it has one, else its tail.
  const std::size_t rest = data.size() - words * kWord;
  if (rest > 0 && (words + 1) * kWord <= file_size_) {
    const std::uint64_t word = next(words);
    return std::memcmp(data.data() + words * kWord, &word, rest) == 0;
  }
  for (std::size_t i = words * kWord; i < data.size(); ++i) {
    if (data[i] != tailByte(i)) return false;
  }
  return true;
}

}  // namespace mdbench
