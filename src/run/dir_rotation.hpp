// mdtest's directory rename for one rank's set of directory items: the names rotate inside the set, so the
// names after the phase are the names before and a later job of a split workload finds every item.
#pragma once

#include <cerrno>
#include <cstdint>
#include <vector>

#include "dir_cursor.hpp"
#include "mdbench/backend/backend.hpp"
#include "mdbench/model/layout.hpp"

namespace mdbench {

// mdtest 4.1 (rename_dir_test) moves item 0 to a temporary name, then item i to the name of item i-1, and
// at the set's last item the temporary name to the last but one (the last item keeps its name): n renames
// for n items, counted as n ops. Here the chain skips items the run does not own (the phase counts them
// failed and never touches them), every rename refuses to replace an entry (Backend::moveEntry), and a
// rename that fails closes the chain at once: the temporary name goes to the name the chain freed last, so
// the set of names is whole again before the next item starts a new chain. The temporary name is item
// 0's `.renamed` name (a generated name, layout.hpp), in item 0's directory.
class DirRotation {
 public:
  DirRotation(Backend& backend, DirHandle base, const TreeLayout& layout, TreeSharing sharing,
              std::uint32_t owner, std::uint64_t last)
      : backend_(backend),
        free_cursor_(backend, base, layout, sharing, owner),
        temp_cursor_(backend, base, layout, sharing, owner),
        layout_(layout),
        owner_(owner),
        last_(last) {}

  // The op for item `item`, whose entry is `name` in `dir` (the caller's cursor). Returns 0 or the errno
  // of the rename that failed.
  int step(DirHandle dir, std::uint64_t item, const char* name) {
    if (!open_) {
      if (item == last_) return 0;  // a chain of one: nothing to rotate with (mdtest renames nothing)
      DirHandle temp_dir;
      int err = temp_cursor_.open(layout_.dirOfItem(item), temp_dir);
      if (err == 0) err = backend_.moveEntry(dir, name, temp_dir, temp_names_.name(item), EntryType::kDir);
      if (err == 0) {
        open_ = true;
        first_ = item;
        free_ = item;
      }
      return err;
    }
    if (item == last_) return close();
    DirHandle free_dir;
    int err = free_cursor_.open(layout_.dirOfItem(free_), free_dir);
    if (err == 0) err = backend_.moveEntry(dir, name, free_dir, slot_names_.name(free_), EntryType::kDir);
    if (err == 0) {
      free_ = item;
      return 0;
    }
    (void)close();  // the set is whole again; the failed item's own error is the op's
    return err;
  }

  // Ends a chain still open after the loop (a signal stopped it, or the set's last items were skipped):
  // the temporary name goes to the name freed last. Returns 0 or the errno.
  int finish() { return open_ ? close() : 0; }

  // Names the rotation lost to another process: a name it freed was taken before the temporary name could
  // go there (EEXIST). The caller records them as not the run's; the first item stays under the temporary
  // name, which no record names (left behind, never removed by a later job).
  const std::vector<std::uint64_t>& lost() const { return lost_; }

 private:
  int close() {
    open_ = false;
    DirHandle temp_dir;
    DirHandle free_dir;
    int err = temp_cursor_.open(layout_.dirOfItem(first_), temp_dir);
    if (err == 0) err = free_cursor_.open(layout_.dirOfItem(free_), free_dir);
    if (err == 0) {
      err = backend_.moveEntry(temp_dir, temp_names_.name(first_), free_dir, slot_names_.name(free_),
                               EntryType::kDir);
    }
    if (err == EEXIST) lost_.push_back(free_);
    return err;
  }

  Backend& backend_;
  DirCursor free_cursor_;  // the directory of the name freed last
  DirCursor temp_cursor_;  // the directory of the chain's first item (its temporary name)
  const TreeLayout& layout_;
  std::uint32_t owner_;
  std::uint64_t last_;
  ItemNamer slot_names_{ItemKind::kDir, owner_, NameForm::kOriginal};
  ItemNamer temp_names_{ItemKind::kDir, owner_, NameForm::kRenamed};
  bool open_ = false;
  std::uint64_t first_ = 0;  // the chain's first item: under its temporary name while the chain is open
  std::uint64_t free_ = 0;   // the item whose name the chain freed last
  std::vector<std::uint64_t> lost_;
};

}  // namespace mdbench
