// libFuzzer target: the command line parser and validate(); the input is argv split on NUL bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mdbench::fuzz::fuzzOptions(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
