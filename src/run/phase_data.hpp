// The data of one rank's phases (phase_executor.hpp): the buffer a file create writes (-w), with the pattern
// its creator's rank and item put in it, and the buffer a read reads into (-e) and -X checks. Private to the
// runner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mdbench/backend/backend.hpp"
#include "mdbench/model/data_pattern.hpp"
#include "mdbench/model/plan.hpp"

namespace mdbench {

class PhaseData {
 public:
  explicit PhaseData(const PhaseSettings& settings)
      : pattern_(settings.pattern), write_(settings.write_bytes), read_(settings.read_bytes) {
    create_options_.mode = CreateMode::kExclusive;
    create_options_.fsync = settings.fsync_writes;
  }

  // The write buffer of `owner`'s files (mdtest fills it once per writing rank, before its creates).
  void fillFor(std::uint32_t owner) {
    if (!write_.empty()) pattern_.fill(write_, owner);
  }
  // Before item `item`'s write: what changes from item to item (data_pattern.hpp).
  void stamp(std::uint32_t owner, std::uint64_t item) { pattern_.stamp(write_, owner, item); }
  std::span<std::byte> written() { return write_; }
  std::span<std::byte> readBuffer() { return read_; }
  // -X: whether what was read is what `owner` wrote into `item`.
  bool check(std::uint32_t owner, std::uint64_t item) const { return pattern_.check(read_, owner, item); }
  // How files are created: with O_EXCL, and -y's fsync after the write.
  const CreateOptions& createOptions() const { return create_options_; }

 private:
  DataPattern pattern_;  // -w's bytes: mdtest's --dataPacketType at -G
  std::vector<std::byte> write_;
  std::vector<std::byte> read_;
  CreateOptions create_options_;
};

}  // namespace mdbench
