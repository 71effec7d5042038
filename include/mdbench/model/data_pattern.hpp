// The bytes a file create writes with -w, and that -X/--verify-read and --verify-write check: mdtest 4.1's
// data packets (--dataPacketType) at its buffer offset (-G), byte for byte as mdtest writes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "mdbench/config/config.hpp"

namespace mdbench {

// mdtest (ior utilities.c) fills its write buffer once per rank (generate_memory_pattern), stamps it before
// each file's write (update_write_memory_pattern) and checks what it reads (verify_memory_pattern). In
// 64-bit words w[i] of the host's byte order, with G the offset, R the writing rank, N the item (the
// number in the file's name):
//   timestamp       w[i] = R << 32 | (G + i)  (G sign-extended to 64 bits), the same in every file of R
//   offset          as timestamp, then w[512 k] = (uint32)(N * (k + 1)) | R << 32 for k = 0, 1, ...
//   incompressible  every w[i] = rand_r(s) << 32 | rand_r(s), s = G + R (both draws from one state reset
//                   for each word, so all words are equal), then stamped as offset
//   random          x = rand_r(G + R + N); for each i: x = (x * 0x9e37fffffffc0001) >> 3, w[i] = x
// Bytes past the last whole word hold (char) their offset. Files shorter than 8 bytes are never stamped.
// rand_r is the C library's, as mdtest's.
class DataPattern {
 public:
  // file_size: the size the files were written with (-w), so that a shorter read (-e) is checked as the
  // start of such a file; 0: each checked buffer is a whole file.
  DataPattern(DataPacket packet, std::int64_t offset, std::size_t file_size = 0);
  // --dataPacketType, -G and -w of the configuration. Without -G, mdtest takes the time of day (so a later
  // job could not verify); mdbench takes 0, so that a separate read job checks what the create job wrote.
  static DataPattern of(const Config& config);

  DataPacket packet() const { return packet_; }
  std::int32_t offset() const { return offset_; }

  // The writer's buffer, once per writing rank (as mdtest's before its create phase).
  void fill(std::span<std::byte> data, std::uint32_t rank) const;
  // Before item N's write: what changes from item to item (nothing for timestamp, every word for random).
  void stamp(std::span<std::byte> data, std::uint32_t rank, std::uint64_t item) const;
  // True when `data` is what rank wrote into item N (fill, then stamp), or the start of it when the files
  // are longer (file_size). mdtest checks a short read's last bytes as if the file ended there, so that
  // -e 12 -w 16 fails its verification; mdbench checks them against the file's word.
  bool check(std::span<const std::byte> data, std::uint32_t rank, std::uint64_t item) const;

 private:
  std::uint64_t baseWord(std::uint32_t rank, std::size_t index) const;
  std::uint64_t incompressibleWord(std::uint32_t rank) const;

  DataPacket packet_;
  std::int32_t offset_;  // mdtest reads -G as an int
  std::size_t file_size_;
};

}  // namespace mdbench
