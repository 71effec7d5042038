// Which generated names a run does not own: found taken at create, or kept under the original name after a
// failed rename. Kept in memory by every rank and, for the later jobs of a split workload, in the record
// beside the iteration directory's mark. Pure: the text format and the set, no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "mdbench/model/layout.hpp"

namespace mdbench {

// kNotOurs: something was under the name before the create (or the create failed): every later phase skips
// the item and counts it failed (EEXIST), and nothing ever touches the name or its `.renamed` form.
// kOriginalName: mdbench's item, whose rename failed: later phases use the original name, and the
// `.renamed` name (someone else's when the rename found it taken) is never touched.
enum class ItemFate : std::uint8_t { kOurs, kNotOurs, kOriginalName };

// Entries a set holds per kind, at most; beyond it the whole kind counts as not ours (every later phase
// skips every item of it), which is safe and keeps the record and the exchange between ranks bounded.
inline constexpr std::size_t kMaxItemFates = std::size_t{1} << 20;
// The record's size, at most: its header (fixed width) and 40 bytes a line are far below it.
inline constexpr std::size_t kMaxTakenRecordBytes = std::size_t{64} << 20;
// The record starts with a header of exactly this many bytes that holds the record's total length, so a
// reader reads the header, then exactly the rest.
inline constexpr std::size_t kTakenHeaderBytes = 33;

class ItemFates {
 public:
  // Most runs have no entry: the hot loop tests this once per op.
  bool empty() const { return empty_; }
  ItemFate of(ItemKind kind, std::uint32_t owner, std::uint64_t item) const;
  // kNotOurs wins over kOriginalName; past kMaxItemFates the kind becomes all not ours.
  void add(ItemKind kind, std::uint32_t owner, std::uint64_t item, ItemFate fate);
  void merge(const ItemFates& other);
  void setAllNotOurs(ItemKind kind);
  // A create phase of the kind starts it afresh (each iteration creates its own items).
  void forget(ItemKind kind);
  void clear();
  bool allNotOurs(ItemKind kind) const { return all_[index(kind)]; }
  std::size_t size(ItemKind kind) const { return fates_[index(kind)].size(); }

  // Whether the name (a basename in a tree directory) is one the set says mdbench must leave alone.
  bool leavesName(std::string_view name) const;

  // The record: header "mdbench-taken 1 bytes=<10 digits>\n", one line per entry "<f|d> <owner|shared>
  // <item> <x|o>\n" (x: not ours, o: original name), "<f|d> all x\n" for a kind that is all not ours, and
  // "end <entries>\n". parseRecord returns "" or what is wrong with the text (never a partial set).
  std::string encode() const;
  static std::string parseRecord(std::string_view text, ItemFates& out);
  // The total length a header announces (0 when it is not a header).
  static std::size_t recordLength(std::string_view header);

  bool operator==(const ItemFates& other) const = default;

 private:
  static std::size_t index(ItemKind kind) { return kind == ItemKind::kDir ? 1 : 0; }
  void update() { empty_ = fates_[0].empty() && fates_[1].empty() && !all_[0] && !all_[1]; }

  std::map<std::pair<std::uint32_t, std::uint64_t>, ItemFate> fates_[2];
  bool all_[2] = {false, false};
  bool empty_ = true;
};

}  // namespace mdbench
