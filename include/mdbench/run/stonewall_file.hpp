// The stonewall file (-x): the item counts a stonewalled create reached, for later jobs of a split workload.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mdbench {

// Items per rank that exist after the create phases, per kind.
struct StonewallCounts {
  std::optional<std::uint64_t> dirs;
  std::optional<std::uint64_t> files;
};

// The file holds "mdbench stonewall 1\n" and then "dirs <count>\n" and/or "files <count>\n". It is
// rewritten only if it does not exist or is a stonewall file already (so a mistyped -x never clobbers a
// user's file). Returns "" or a message naming the file and the cause.
std::string writeStonewallFile(const std::string& path, const StonewallCounts& counts);
// Returns "" and fills counts, or a message naming the file and what is wrong with it.
std::string readStonewallFile(const std::string& path, StonewallCounts& counts);
// The same for the file's contents, `text`, read from `path` (which the messages name).
std::string parseStonewallText(std::string_view text, const std::string& path, StonewallCounts& counts);

// What a run will do with the file: read the counts (a run without -C) or write them (a run with -C).
enum class StonewallUse : std::uint8_t { kRead, kWrite };
// Before anything is touched: "" when the run will be able to use the file, else the message a later read or
// write would give. kRead also refuses a count larger than `items` (-n); kWrite checks that the file is
// absent or a stonewall file already, and that its directory exists.
std::string checkStonewallFile(const std::string& path, StonewallUse use, std::uint64_t items);

}  // namespace mdbench
