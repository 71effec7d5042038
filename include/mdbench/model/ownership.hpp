// What a run made and which generated names it owns: the items its create job made (per rank and kind,
// after the stonewall), the layout that maps them to paths, and the items found taken, not created or
// kept under the original name after a failed rename. Kept in memory by every rank and, for the later jobs
// of a split workload and `mdbench clean`, in the record beside the iteration directory's mark. Pure: the
// text format and the set, no I/O.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/layout.hpp"

namespace mdbench {

// kNotOurs: the create failed (the name was taken: EEXIST, or another errno): every later phase skips the
// item, and nothing ever touches the name or its `.renamed` form.
// kOriginalName: mdbench's item, whose rename failed with the item still there: later phases use the
// original name, and the `.renamed` name (someone else's when the rename found it taken: EEXIST) is never
// touched.
// kGone: a rename found no item under its original name (ENOENT) although no earlier rename moved it:
// neither name is known to be the run's.
enum class ItemFate : std::uint8_t { kOurs, kNotOurs, kOriginalName, kGone };

// The outcome of an op a later phase did not make because the record says the item is not the run's under
// any name it could use. Above every errno (Linux's are below 4096), so they travel where an errno does
// (a phase's first error, the results file's errors); describeOpError and opErrorName give their words.
inline constexpr int kOpErrorMask = (1 << 20) - 1;
inline constexpr int kErrNotMade = 1 << 20;     // beyond what the create job made
inline constexpr int kErrNotCreated = 2 << 20;  // | the create's errno (not EEXIST: that stays EEXIST)
inline constexpr int kErrGone = 3 << 20;        // | the failed rename's errno
inline constexpr int kErrAlreadyRenamed = 4 << 20;
inline constexpr int kErrRemoved = 5 << 20;  // removed by an earlier phase or job: its name is free again  //
                                             // a rename of an item an earlier job renamed
// "ENOSPC" for an errno; "not created (ENOSPC)", "not made by the create job" ... for the codes above.
std::string opErrorName(int err);
// "ENOSPC (No space left on device)"; "not created (ENOSPC: No space left on device)" ...
std::string describeOpError(int err);

// Entries a set holds per kind, at most; beyond it the whole kind counts as not ours (every later phase
// skips every item of it), which is safe and keeps the record and the exchange between ranks bounded.
inline constexpr std::size_t kMaxItemFates = std::size_t{1} << 20;
// The record's size, at most: its header (fixed width), the counts (21 bytes a rank and kind) and 40
// bytes an entry are far below it.
inline constexpr std::size_t kMaxTakenRecordBytes = std::size_t{64} << 20;
// The record starts with a header of exactly this many bytes that holds the record's total length, so a
// reader reads the header, then exactly the rest.
inline constexpr std::size_t kTakenHeaderBytes = 33;

// What maps an item to its path: the create job's, recorded; a later job's must be the same
// (layoutDifference).
struct RecordLayout {
  std::uint32_t ranks = 1;
  std::uint32_t targets = 1;  // -d A@B: each target has its own record, of the items made in it
  std::uint32_t target = 0;
  std::uint32_t depth = 0;
  std::uint32_t branching = 1;
  std::uint64_t items = 0;  // -n per rank (the resolved count)
  std::uint64_t items_per_dir = 0;
  std::uint64_t loops = 1;
  bool leaf_only = false;
  bool unique = false;
  bool shared_files = false;
  PathStyle path_style = PathStyle::kFull;  // recorded; it does not change a path
  bool tree_complete = true;
  bool tree_removed = false;  // a tree-remove phase ran: the tree's directory names are free again // false:
                              // tree-create was stopped before it made every directory
  bool operator==(const RecordLayout&) const = default;
};
RecordLayout recordLayoutOf(const Config& config, std::uint32_t ranks, std::uint32_t target);
// "" when a later job with layout `job` names every item at the path the create job (`made`) gave it; else
// what differs, naming the option and both values: "-z 3 differs from the create job's -z 2".
std::string layoutDifference(const RecordLayout& made, const RecordLayout& job);

// Where an item is, by the record: under its original name, its renamed name, or not the run's (`err`:
// what a phase reports for it, one of the codes above or EEXIST).
struct ItemState {
  enum class Where : std::uint8_t { kOriginal, kRenamed, kNone } where = Where::kOriginal;
  int err = 0;
};

class ItemFates {
 public:
  // No exception listed: the hot loop tests this once per op (with the counts, PhaseNames::uniform).
  bool empty() const { return empty_; }
  ItemFate of(ItemKind kind, std::uint32_t owner, std::uint64_t item) const;
  // The errno the fate was recorded with (0 for kOurs).
  int errOf(ItemKind kind, std::uint32_t owner, std::uint64_t item) const;
  // kNotOurs wins over kGone and kOriginalName; past kMaxItemFates the kind becomes all not ours.
  // kOurs: the item's exception goes (a rename that failed before succeeded now); not for kNotOurs.
  void add(ItemKind kind, std::uint32_t owner, std::uint64_t item, ItemFate fate, int err = EEXIST);
  void merge(const ItemFates& other);
  void setAllNotOurs(ItemKind kind);
  // A create phase of the kind starts it afresh (each iteration creates its own items): no exception, none
  // made, none renamed.
  void forget(ItemKind kind);
  void clear();
  bool allNotOurs(ItemKind kind) const { return all_[index(kind)]; }
  std::size_t size(ItemKind kind) const { return fates_[index(kind)].size(); }

  // The layout and counts of what the create job made. Without a layout (the steady state, a set built by
  // hand) every item is counted made and only the exceptions above apply.
  void setLayout(const RecordLayout& layout);
  bool hasLayout() const { return layout_.has_value(); }
  const RecordLayout& layout() const { return *layout_; }
  void setTreeComplete(bool complete);
  // Per slot (slotOf): the items [0, count) the create job attempted (`made`, those not listed as not
  // ours exist), and of those the ones a rename phase attempted (`renamed`, kept at the larger count).
  // Sizes are the layout's ranks; the counts are capped at the layout's items.
  void setMade(ItemKind kind, const std::vector<std::uint64_t>& per_slot);
  void setRenamed(ItemKind kind, const std::vector<std::uint64_t>& per_slot);
  // The items [0, count) a remove phase attempted: gone, or left by a failed removal; either way a name a
  // user may take again, never the run's afterwards (kept at the larger count).
  void setRemoved(ItemKind kind, const std::vector<std::uint64_t>& per_slot);
  void setTreeRemoved();
  std::uint64_t made(ItemKind kind, std::uint32_t slot) const;
  std::uint64_t renamed(ItemKind kind, std::uint32_t slot) const;
  std::uint64_t removed(ItemKind kind, std::uint32_t slot) const;
  // The slot an item's count is kept in: its owner, or with -S the rank that creates it (item mod ranks).
  std::uint32_t slotOf(std::uint32_t owner, std::uint64_t item) const;

  // Where an item is and whether it is the run's, from everything above.
  ItemState state(ItemKind kind, std::uint32_t owner, std::uint64_t item) const;
  // Whether every item of `owner` below `limit` is the run's under the same name; then `where` is it.
  bool uniform(ItemKind kind, std::uint32_t owner, std::uint64_t limit, ItemState::Where& where) const;

  // Whether the name (a basename in a tree directory) is one the exceptions say mdbench must leave alone.
  bool leavesName(std::string_view name) const;
  // For `mdbench clean` and the cleanup after a stop: "" when the entry at `path` (relative to the
  // iteration directory, "mdbench_tree.0/mdbench_tree.2/file.mdbench.1.7") is the run's by the record,
  // else why it is left. Without a layout only the steady state's names are the run's.
  std::string_view notOursBecause(std::string_view path) const;

  // The record: header "mdbench-taken 3 bytes=<10 digits>\n"; "dir inode=<20 digits>\n" (the inode of the
  // directory it was written in, as the mark's proof holds it: a record copied into another directory
  // does not count there; 0 where the backend has no inodes); "layout ranks=R targets=T target=t depth=z
  // branching=b items=n items_per_dir=I loops=l leaf_only=0|1 unique=0|1 shared_files=0|1
  // path_style=full|dirfd tree=complete|partial|removed\n"; "made f|d <R counts>\n", "renamed f|d <R
  // counts>\n", "removed f|d <R counts>\n" (both kinds); one line per entry "<f|d> <owner|shared> <item>
  // <x|o|g> <errno>\n" (x: not ours, o: original name, g: gone), "<f|d> all x\n" for a kind that is all not
  // ours; and "end <entries> <16 hex digits: FNV-1a of everything before>\n". parseRecord returns "" or what
  // is wrong with the text (never a partial set): it also refuses counts and entries that contradict each
  // other or the layout. A set without a layout cannot be encoded.
  std::string encode(std::uint64_t dir_inode) const;
  static std::string parseRecord(std::string_view text, ItemFates& out);
  // The directory inode the record parsed last into this set was written for (0 for a set not parsed).
  std::uint64_t recordDirInode() const { return record_dir_inode_; }
  // "" when the record parsed into this set was written in the directory whose identity (its inode) is
  // `dir_inode`, else why it does not count there (a record copied from another directory).
  std::string dirMismatch(std::uint64_t dir_inode) const;
  // The total length a header announces (0 when it is not a header).
  static std::size_t recordLength(std::string_view header);

  bool operator==(const ItemFates& other) const;

 private:
  struct Entry {
    ItemFate fate;
    int err;
  };
  static std::size_t index(ItemKind kind) { return kind == ItemKind::kDir ? 1 : 0; }
  void update() { empty_ = fates_[0].empty() && fates_[1].empty() && !all_[0] && !all_[1]; }
  std::string_view itemNotOursBecause(ItemKind kind, std::uint32_t owner, std::uint64_t item,
                                      NameForm form) const;

  std::map<std::pair<std::uint32_t, std::uint64_t>, Entry> fates_[2];
  bool all_[2] = {false, false};
  bool empty_ = true;
  std::optional<RecordLayout> layout_;
  std::optional<TreeLayout> tree_;
  std::vector<std::uint64_t> made_[2];
  std::vector<std::uint64_t> renamed_[2];
  std::vector<std::uint64_t> removed_[2];
  std::uint64_t record_dir_inode_ = 0;
};

}  // namespace mdbench
