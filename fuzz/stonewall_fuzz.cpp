// libFuzzer target: the stonewall file's parser (-x).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mdbench::fuzz::fuzzStonewall(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
