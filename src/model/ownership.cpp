#include "mdbench/model/ownership.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>

#include "mdbench/util/errno_name.hpp"
#include "mdbench/util/tree_math.hpp"

namespace mdbench {
namespace {

constexpr std::string_view kHeaderStart = "mdbench-taken 3 bytes=";
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

bool eat(std::string_view& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// A decimal number up to `most`, consumed from the front of text (no sign, no leading '+').
bool eatNumber(std::string_view& text, std::uint64_t most, std::uint64_t& out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc() || out > most) return false;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return true;
}

template <class T>
bool eatField(std::string_view& text, std::string_view key, std::uint64_t most, T& out) {
  std::uint64_t value = 0;
  if (!eat(text, key) || !eatNumber(text, most, value)) return false;
  out = static_cast<T>(value);
  return true;
}

bool eatFlag(std::string_view& text, std::string_view key, bool& out) {
  std::uint64_t value = 0;
  if (!eat(text, key) || !eatNumber(text, 1, value)) return false;
  out = value == 1;
  return true;
}

bool eatOwner(std::string_view& text, std::uint32_t& owner) {
  if (eat(text, "shared")) {
    owner = kSharedOwner;
    return true;
  }
  std::uint64_t value = 0;
  if (!eatNumber(text, kSharedOwner - 1ull, value)) return false;
  owner = static_cast<std::uint32_t>(value);
  return true;
}

// The kind an entry or a name starts with: the file prefix or the directory prefix, eaten.
bool eatKind(std::string_view& text, std::string_view file_prefix, std::string_view dir_prefix,
             ItemKind& kind) {
  if (eat(text, file_prefix)) {
    kind = ItemKind::kFile;
    return true;
  }
  if (eat(text, dir_prefix)) {
    kind = ItemKind::kDir;
    return true;
  }
  return false;
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return hash;
}

char fateLetter(ItemFate fate) {
  switch (fate) {
    case ItemFate::kNotOurs:
      return 'x';
    case ItemFate::kOriginalName:
      return 'o';
    default:
      return 'g';
  }
}

// The later phases' error for an item whose create or rename failed.
int errorOfFate(ItemFate fate, int err) {
  if (fate == ItemFate::kNotOurs) return err == EEXIST ? EEXIST : kErrNotCreated | (err & kOpErrorMask);
  return kErrGone | (err & kOpErrorMask);
}

std::string layoutLine(const RecordLayout& l) {
  return fmt::format(
      "layout ranks={} targets={} target={} depth={} branching={} items={} items_per_dir={} loops={} "
      "leaf_only={:d} unique={:d} shared_files={:d} path_style={} tree={}\n",
      l.ranks, l.targets, l.target, l.depth, l.branching, l.items, l.items_per_dir, l.loops, l.leaf_only,
      l.unique, l.shared_files, pathStyleName(l.path_style),
      l.tree_removed    ? "removed"
      : l.tree_complete ? "complete"
                        : "partial");
}

// The layout line without "layout " and its newline; false when it is not one, or not a layout the model
// accepts (TreeLayout's preconditions).
bool parseLayout(std::string_view line, RecordLayout& l) {
  constexpr std::uint64_t k32 = std::numeric_limits<std::uint32_t>::max();
  if (!eatField(line, "ranks=", k32, l.ranks) || !eatField(line, " targets=", k32, l.targets) ||
      !eatField(line, " target=", k32, l.target) || !eatField(line, " depth=", k32, l.depth) ||
      !eatField(line, " branching=", k32, l.branching) || !eatField(line, " items=", kU64Max, l.items) ||
      !eatField(line, " items_per_dir=", kU64Max, l.items_per_dir) ||
      !eatField(line, " loops=", kU64Max, l.loops) || !eatFlag(line, " leaf_only=", l.leaf_only) ||
      !eatFlag(line, " unique=", l.unique) || !eatFlag(line, " shared_files=", l.shared_files)) {
    return false;
  }
  if (eat(line, " path_style=full")) {
    l.path_style = PathStyle::kFull;
  } else if (eat(line, " path_style=dirfd")) {
    l.path_style = PathStyle::kDirfd;
  } else {
    return false;
  }
  if (line == " tree=complete") {
    l.tree_complete = true;
  } else if (line == " tree=removed") {
    l.tree_removed = true;
  } else if (line == " tree=partial") {
    l.tree_complete = false;
  } else {
    return false;
  }
  if (l.ranks == 0 || l.targets == 0 || l.target >= l.targets || l.branching == 0 || l.loops == 0)
    return false;
  if (l.loops > 1 && l.items_per_dir == 0) return false;
  const std::optional<std::uint64_t> dirs = treeDirCount(l.depth, l.branching);
  const std::optional<std::uint64_t> slots = treeItemDirCount(l.depth, l.branching, l.leaf_only);
  if (!dirs || !slots || l.loops > kU64Max / *dirs) return false;
  if (l.items_per_dir > 0) {
    const std::uint64_t per_loop = *slots > kU64Max / l.items_per_dir ? kU64Max : *slots * l.items_per_dir;
    if (l.items > 0 && (l.items - 1) / per_loop + 1 > l.loops) return false;
  }
  return true;
}

// "made f 1 2 3": `ranks` counts, each at most `most` (and at most `cap`'s count when given).
bool parseCounts(std::string_view line, std::string_view key, std::uint32_t ranks, std::uint64_t most,
                 const std::vector<std::uint64_t>* cap, std::vector<std::uint64_t>& out) {
  if (!eat(line, key)) return false;
  out.assign(ranks, 0);
  for (std::uint32_t slot = 0; slot < ranks; ++slot) {
    const std::uint64_t limit = cap != nullptr ? std::min(most, (*cap)[slot]) : most;
    if (!eat(line, " ") || !eatNumber(line, limit, out[slot])) return false;
  }
  return line.empty();
}

}  // namespace

std::string opErrorName(int err) {
  const int low = err & kOpErrorMask;
  switch (err & ~kOpErrorMask) {
    case kErrNotMade:
      return "not made by the create job";
    case kErrNotCreated:
      return fmt::format("not created ({})", errnoName(low));
    case kErrGone:
      return fmt::format("missing since its rename failed ({})", errnoName(low));
    case kErrAlreadyRenamed:
      return "already renamed by an earlier job";
    case kErrRemoved:
      return "removed by an earlier phase or job";
    default:
      return errnoName(err);
  }
}

std::string describeOpError(int err) {
  const int low = err & kOpErrorMask;
  switch (err & ~kOpErrorMask) {
    case kErrNotCreated:
      return fmt::format("not created ({}: {}): left alone", errnoName(low), errnoMessage(low));
    case kErrGone:
      return fmt::format("missing since its rename failed ({}: {}): left alone", errnoName(low),
                         errnoMessage(low));
    case kErrNotMade:
    case kErrAlreadyRenamed:
    case kErrRemoved:
      return opErrorName(err) + ": left alone";
    default:
      return describeErrno(err);
  }
}

RecordLayout recordLayoutOf(const Config& config, std::uint32_t ranks, std::uint32_t target) {
  RecordLayout l;
  l.ranks = ranks;
  l.targets = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(config.targets.size()));
  l.target = target;
  l.depth = config.depth;
  l.branching = config.branching;
  l.items = config.items;
  l.items_per_dir = config.items_per_dir;
  l.loops = directoryLoops(config);
  l.leaf_only = config.leaf_only;
  l.unique = config.sharing == TreeSharing::kUnique;
  l.shared_files = config.shared_files;
  l.path_style = config.path_style;
  return l;
}

// Ranks and targets decide whose items and trees each rank works on; -z -b -L -I decide the directories
// and which directory holds an item; -u and -S the names. -n matters when it moves items between
// directories (no -I and more than one item directory) or adds directory loops; otherwise a later job may
// name more items (beyond the record: not the run's) or fewer.
std::string layoutDifference(const RecordLayout& made, const RecordLayout& job) {
  const auto differs = [](std::string_view what, auto mine, auto theirs) {
    return fmt::format("{} {} differs from the create job's {} {}", what, mine, what, theirs);
  };
  const auto flag = [](bool on) { return on ? "given" : "not given"; };
  if (job.ranks != made.ranks) {
    return fmt::format("{} ranks differ from the create job's {} (run it with the create job's rank count)",
                       job.ranks, made.ranks);
  }
  if (job.targets != made.targets) return differs("the number of -d targets", job.targets, made.targets);
  if (job.depth != made.depth) return differs("-z", job.depth, made.depth);
  // Without depth the tree is one directory whatever -b says (mdtest accepts -b 0 -z 0).
  if (job.depth > 0 && job.branching != made.branching) return differs("-b", job.branching, made.branching);
  if (job.leaf_only != made.leaf_only) {
    return fmt::format("-L {} differs from the create job's -L {}", flag(job.leaf_only),
                       flag(made.leaf_only));
  }
  if (job.items_per_dir != made.items_per_dir) return differs("-I", job.items_per_dir, made.items_per_dir);
  if (job.unique != made.unique) {
    return fmt::format("-u {} differs from the create job's -u {}", flag(job.unique), flag(made.unique));
  }
  if (job.shared_files != made.shared_files) {
    return fmt::format("-S {} differs from the create job's -S {}", flag(job.shared_files),
                       flag(made.shared_files));
  }
  if (job.loops != made.loops) {
    return fmt::format("-n {} makes {} directory loops, the create job's -n {} made {}", job.items, job.loops,
                       made.items, made.loops);
  }
  if (job.items != made.items && job.items_per_dir == 0) {
    const TreeLayout tree(made.depth, made.branching, made.leaf_only, made.items, 0, made.loops);
    if (tree.itemDirCount() > 1) {
      return fmt::format(
          "-n {} differs from the create job's -n {} (without -I, -n decides which of the {} item "
          "directories holds each item)",
          job.items, made.items, tree.itemDirCount());
    }
  }
  return {};
}

ItemFate ItemFates::of(ItemKind kind, std::uint32_t owner, std::uint64_t item) const {
  if (empty_) return ItemFate::kOurs;
  if (all_[index(kind)]) return ItemFate::kNotOurs;
  const auto& fates = fates_[index(kind)];
  const auto it = fates.find({owner, item});
  return it == fates.end() ? ItemFate::kOurs : it->second.fate;
}

int ItemFates::errOf(ItemKind kind, std::uint32_t owner, std::uint64_t item) const {
  if (empty_) return 0;
  if (all_[index(kind)]) return EEXIST;
  const auto& fates = fates_[index(kind)];
  const auto it = fates.find({owner, item});
  return it == fates.end() ? 0 : it->second.err;
}

void ItemFates::add(ItemKind kind, std::uint32_t owner, std::uint64_t item, ItemFate fate, int err) {
  const std::size_t k = index(kind);
  if (all_[k]) return;
  auto& fates = fates_[k];
  if (fate == ItemFate::kOurs) {
    const auto it = fates.find({owner, item});
    if (it != fates.end() && it->second.fate == ItemFate::kOriginalName) fates.erase(it);
    update();
    return;
  }
  auto [it, inserted] = fates.emplace(std::make_pair(owner, item), Entry{fate, err});
  if (!inserted && fate == ItemFate::kNotOurs) it->second = Entry{fate, err};
  if (!inserted && fate == ItemFate::kGone && it->second.fate == ItemFate::kOriginalName) {
    it->second = Entry{fate, err};
  }
  if (fates.size() > kMaxItemFates) setAllNotOurs(kind);
  update();
}

void ItemFates::setAllNotOurs(ItemKind kind) {
  fates_[index(kind)].clear();
  all_[index(kind)] = true;
  update();
}

void ItemFates::merge(const ItemFates& other) {
  for (const ItemKind kind : {ItemKind::kFile, ItemKind::kDir}) {
    const std::size_t k = index(kind);
    if (other.all_[k]) setAllNotOurs(kind);
    for (const auto& [key, entry] : other.fates_[k]) add(kind, key.first, key.second, entry.fate, entry.err);
  }
  update();
}

void ItemFates::forget(ItemKind kind) {
  const std::size_t k = index(kind);
  fates_[k].clear();
  all_[k] = false;
  std::fill(made_[k].begin(), made_[k].end(), 0);
  std::fill(renamed_[k].begin(), renamed_[k].end(), 0);
  std::fill(removed_[k].begin(), removed_[k].end(), 0);
  update();
}

void ItemFates::clear() {
  forget(ItemKind::kFile);
  forget(ItemKind::kDir);
  layout_.reset();
  tree_.reset();
  for (auto& counts : made_) counts.clear();
  for (auto& counts : renamed_) counts.clear();
  for (auto& counts : removed_) counts.clear();
  record_dir_inode_ = 0;
}

void ItemFates::setLayout(const RecordLayout& layout) {
  layout_ = layout;
  tree_.emplace(layout.depth, layout.branching, layout.leaf_only, layout.items, layout.items_per_dir,
                layout.loops);
  for (auto& counts : made_) counts.assign(layout.ranks, 0);
  for (auto& counts : renamed_) counts.assign(layout.ranks, 0);
  for (auto& counts : removed_) counts.assign(layout.ranks, 0);
}

void ItemFates::setTreeRemoved() {
  if (layout_) layout_->tree_removed = true;
}

void ItemFates::setRemoved(ItemKind kind, const std::vector<std::uint64_t>& per_slot) {
  if (!layout_) return;
  auto& removed = removed_[index(kind)];
  const auto& made = made_[index(kind)];
  for (std::size_t s = 0; s < removed.size() && s < per_slot.size(); ++s) {
    removed[s] = std::min(std::max(removed[s], per_slot[s]), made[s]);
  }
}

std::uint64_t ItemFates::removed(ItemKind kind, std::uint32_t slot) const {
  if (!layout_) return 0;
  const auto& removed = removed_[index(kind)];
  return slot < removed.size() ? removed[slot] : 0;
}

void ItemFates::setTreeComplete(bool complete) {
  if (layout_) layout_->tree_complete = complete;
}

void ItemFates::setMade(ItemKind kind, const std::vector<std::uint64_t>& per_slot) {
  if (!layout_) return;
  auto& made = made_[index(kind)];
  for (std::size_t s = 0; s < made.size() && s < per_slot.size(); ++s) {
    made[s] = std::min(per_slot[s], layout_->items);
  }
}

void ItemFates::setRenamed(ItemKind kind, const std::vector<std::uint64_t>& per_slot) {
  if (!layout_) return;
  auto& renamed = renamed_[index(kind)];
  const auto& made = made_[index(kind)];
  for (std::size_t s = 0; s < renamed.size() && s < per_slot.size(); ++s) {
    renamed[s] = std::min(std::max(renamed[s], per_slot[s]), made[s]);
  }
}

std::uint64_t ItemFates::made(ItemKind kind, std::uint32_t slot) const {
  if (!layout_) return kU64Max;
  const auto& made = made_[index(kind)];
  return slot < made.size() ? made[slot] : 0;
}

std::uint64_t ItemFates::renamed(ItemKind kind, std::uint32_t slot) const {
  if (!layout_) return 0;
  const auto& renamed = renamed_[index(kind)];
  return slot < renamed.size() ? renamed[slot] : 0;
}

std::uint32_t ItemFates::slotOf(std::uint32_t owner, std::uint64_t item) const {
  if (!layout_ || owner != kSharedOwner) return owner;
  return static_cast<std::uint32_t>(item % layout_->ranks);
}

ItemState ItemFates::state(ItemKind kind, std::uint32_t owner, std::uint64_t item) const {
  using Where = ItemState::Where;
  if (layout_) {
    const std::uint32_t slot = slotOf(owner, item);
    if (item >= made(kind, slot) || (owner == kSharedOwner) != layout_->shared_files) {
      return ItemState{Where::kNone, kErrNotMade};
    }
    if (item < removed(kind, slot)) return ItemState{Where::kNone, kErrRemoved};
  }
  switch (of(kind, owner, item)) {
    case ItemFate::kNotOurs:
      return ItemState{Where::kNone, errorOfFate(ItemFate::kNotOurs, errOf(kind, owner, item))};
    case ItemFate::kGone:
      return ItemState{Where::kNone, errorOfFate(ItemFate::kGone, errOf(kind, owner, item))};
    case ItemFate::kOriginalName:
      return ItemState{Where::kOriginal, 0};
    default:
      break;
  }
  const bool renamed = layout_ && item < renamed_[index(kind)][slotOf(owner, item)];
  return ItemState{renamed ? Where::kRenamed : Where::kOriginal, 0};
}

bool ItemFates::uniform(ItemKind kind, std::uint32_t owner, std::uint64_t limit,
                        ItemState::Where& where) const {
  if (!empty_) return false;
  if (!layout_) {
    where = ItemState::Where::kOriginal;
    return true;
  }
  if (limit == 0) return true;
  if ((owner == kSharedOwner) != layout_->shared_files) return false;
  const std::size_t k = index(kind);
  const auto in = [&](const std::vector<std::uint64_t>& counts, std::uint64_t at_least) {
    if (owner != kSharedOwner) return owner < counts.size() && counts[owner] >= at_least;
    return std::all_of(counts.begin(), counts.end(), [&](std::uint64_t c) { return c >= at_least; });
  };
  const auto none = [&](const std::vector<std::uint64_t>& counts) {
    if (owner != kSharedOwner) return owner < counts.size() && counts[owner] == 0;
    return std::all_of(counts.begin(), counts.end(), [](std::uint64_t c) { return c == 0; });
  };
  if (!in(made_[k], limit) || !none(removed_[k])) return false;
  if (in(renamed_[k], limit)) {
    where = ItemState::Where::kRenamed;
    return true;
  }
  if (none(renamed_[k])) {
    where = ItemState::Where::kOriginal;
    return true;
  }
  return false;
}

bool ItemFates::leavesName(std::string_view name) const {
  if (empty_) return false;
  ItemKind kind;
  if (!eatKind(name, "file.mdbench.", "dir.mdbench.", kind)) return false;
  std::uint32_t owner = 0;
  std::uint64_t item = 0;
  if (!eatOwner(name, owner) || !eat(name, ".") || !eatNumber(name, kU64Max, item)) return false;
  const bool renamed = name == kRenamedSuffix;
  if (!renamed && !name.empty()) return false;
  const ItemFate fate = of(kind, owner, item);
  return fate == ItemFate::kNotOurs || fate == ItemFate::kGone ||
         (fate == ItemFate::kOriginalName && renamed);
}

std::string_view ItemFates::itemNotOursBecause(ItemKind kind, std::uint32_t owner, std::uint64_t item,
                                               NameForm form) const {
  const ItemState st = state(kind, owner, item);
  switch (st.where) {
    case ItemState::Where::kNone:
      if (st.err == kErrNotMade) return "beyond what the create job made (its record); left alone";
      if (st.err == kErrRemoved) return "its item was removed by an earlier job (its record); left alone";
      if (st.err == EEXIST) return "the create job found this name taken (its record says so); left alone";
      return (st.err & ~kOpErrorMask) == kErrGone
                 ? "its item was missing when a rename ran (its record says so); left alone"
                 : "the create job failed to create it (its record says so); left alone";
    case ItemState::Where::kOriginal:
      if (form == NameForm::kOriginal) return {};
      return of(kind, owner, item) == ItemFate::kOriginalName && errOf(kind, owner, item) == EEXIST
                 ? "the run's rename found this name taken (its record says so); left alone"
                 : "its item was never renamed (its record says so); left alone";
    case ItemState::Where::kRenamed:
      return form == NameForm::kRenamed
                 ? std::string_view()
                 : "its item was renamed away from it (its record says so); left alone";
  }
  return {};
}

std::string_view ItemFates::notOursBecause(std::string_view path) const {
  constexpr std::string_view kNotInLayout =
      "not where the create job's layout puts a name (its record); left alone";
  if (!layout_) {
    // The steady state keeps no record: its own names, and nothing of the tree's.
    return path.starts_with("steady.mdbench.") ? std::string_view()
                                               : "not in the run's ownership record; left alone";
  }
  const TreeLayout& tree = *tree_;
  const bool unique = layout_->unique;
  std::uint64_t dir = TreeLayout::kNone;
  std::uint32_t tree_owner = 0;
  while (!path.empty()) {
    const std::size_t slash = path.find('/');
    std::string_view name = path.substr(0, slash);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
    std::string_view rest = name;
    if (eat(rest, "mdbench_tree.")) {
      std::uint64_t first = 0;
      std::uint64_t d = 0;
      if (!eatNumber(rest, kU64Max, first)) return kNotInLayout;
      if (unique) {
        if (!eat(rest, ".") || !eatNumber(rest, kU64Max, d) || first >= layout_->ranks) return kNotInLayout;
        if (dir != TreeLayout::kNone && first != tree_owner) return kNotInLayout;
        tree_owner = static_cast<std::uint32_t>(first);
      } else {
        d = first;
      }
      if (!rest.empty() || d >= tree.dirCount() || tree.parent(d) != dir) return kNotInLayout;
      if (layout_->tree_removed)
        return "the run's tree was removed by an earlier job (its record); left alone";
      dir = d;
      continue;
    }
    // An item: the last component, directly in a tree directory.
    if (dir == TreeLayout::kNone || !path.empty()) return kNotInLayout;
    ItemKind kind;
    std::uint32_t owner = 0;
    std::uint64_t item = 0;
    if (!eatKind(rest, "file.mdbench.", "dir.mdbench.", kind) || !eatOwner(rest, owner) || !eat(rest, ".") ||
        !eatNumber(rest, kU64Max, item)) {
      return kNotInLayout;
    }
    NameForm form = NameForm::kOriginal;
    if (rest == kRenamedSuffix) {
      form = NameForm::kRenamed;
    } else if (!rest.empty()) {
      return kNotInLayout;
    }
    if (item >= tree.items() || tree.dirOfItem(item) != dir) return kNotInLayout;
    if (owner != kSharedOwner && (owner >= layout_->ranks || (unique && owner != tree_owner))) {
      return kNotInLayout;
    }
    return itemNotOursBecause(kind, owner, item, form);
  }
  return dir == TreeLayout::kNone ? kNotInLayout : std::string_view();
}

std::string ItemFates::encode(std::uint64_t dir_inode) const {
  std::string body;
  if (!layout_) return body;
  body += fmt::format("dir inode={:020}\n", dir_inode);
  body += layoutLine(*layout_);
  for (const std::string_view key : {"made", "renamed", "removed"}) {
    for (const ItemKind kind : {ItemKind::kFile, ItemKind::kDir}) {
      const auto& counts = key == "made"      ? made_[index(kind)]
                           : key == "renamed" ? renamed_[index(kind)]
                                              : removed_[index(kind)];
      body += fmt::format("{} {}", key, kind == ItemKind::kFile ? 'f' : 'd');
      for (const std::uint64_t c : counts) body += fmt::format(" {}", c);
      body += '\n';
    }
  }
  std::size_t entries = 0;
  for (const ItemKind kind : {ItemKind::kFile, ItemKind::kDir}) {
    const char letter = kind == ItemKind::kFile ? 'f' : 'd';
    if (all_[index(kind)]) {
      body += fmt::format("{} all x\n", letter);
      ++entries;
      continue;
    }
    for (const auto& [key, entry] : fates_[index(kind)]) {
      const std::string owner = key.first == kSharedOwner ? "shared" : fmt::format("{}", key.first);
      body += fmt::format("{} {} {} {} {}\n", letter, owner, key.second, fateLetter(entry.fate), entry.err);
      ++entries;
    }
  }
  const std::size_t end_bytes = fmt::formatted_size("end {} {:016x}\n", entries, std::uint64_t{0});
  const std::string header =
      fmt::format("{}{:010}\n", kHeaderStart, kTakenHeaderBytes + body.size() + end_bytes);
  const std::uint64_t sum = fnv1a(header + body);
  return header + body + fmt::format("end {} {:016x}\n", entries, sum);
}

std::size_t ItemFates::recordLength(std::string_view header) {
  std::uint64_t bytes = 0;
  if (header.size() != kTakenHeaderBytes || !eat(header, kHeaderStart) || header.size() != 11 ||
      header.back() != '\n' || !eatNumber(header, kMaxTakenRecordBytes, bytes) || header != "\n" ||
      bytes < kTakenHeaderBytes) {
    return 0;
  }
  return static_cast<std::size_t>(bytes);
}

namespace {

// One entry line without its newline, checked against the counts: an item listed must have been attempted.
bool parseEntry(std::string_view line, ItemFates& out) {
  ItemKind kind;
  if (!eatKind(line, "f ", "d ", kind)) return false;
  if (line == "all x") {
    out.setAllNotOurs(kind);
    return true;
  }
  std::uint32_t owner = 0;
  std::uint64_t item = 0;
  std::uint64_t err = 0;
  if (!eatOwner(line, owner) || !eat(line, " ") || !eatNumber(line, kU64Max, item) || !eat(line, " ") ||
      line.empty()) {
    return false;
  }
  const char letter = line[0];
  line.remove_prefix(1);
  if (!eat(line, " ") || !eatNumber(line, kOpErrorMask, err) || !line.empty() || err == 0) return false;
  const RecordLayout& l = out.layout();
  if ((owner == kSharedOwner) != l.shared_files || (owner != kSharedOwner && owner >= l.ranks)) return false;
  if (item >= out.made(kind, out.slotOf(owner, item))) return false;
  ItemFate fate;
  if (letter == 'x') {
    fate = ItemFate::kNotOurs;
  } else if (letter == 'o') {
    fate = ItemFate::kOriginalName;
  } else if (letter == 'g') {
    fate = ItemFate::kGone;
  } else {
    return false;
  }
  if (fate != ItemFate::kNotOurs && item >= out.renamed(kind, out.slotOf(owner, item))) return false;
  out.add(kind, owner, item, fate, static_cast<int>(err));
  return true;
}

std::string_view nextLine(std::string_view& rest, bool& ok) {
  const std::size_t newline = rest.find('\n');
  ok = newline != std::string_view::npos;
  if (!ok) return {};
  const std::string_view line = rest.substr(0, newline);
  rest.remove_prefix(newline + 1);
  return line;
}

}  // namespace

std::string ItemFates::parseRecord(std::string_view text, ItemFates& out) {
  out.clear();
  const std::size_t length = recordLength(text.substr(0, kTakenHeaderBytes));
  if (length == 0) return "it does not start with the header of this mdbench's record (version 3)";
  if (length != text.size()) return fmt::format("its header says {} bytes, it has {}", length, text.size());
  std::string_view rest = text.substr(kTakenHeaderBytes);
  bool ok = false;
  ItemFates parsed;
  RecordLayout layout;
  std::string_view line = nextLine(rest, ok);
  if (!ok || !eat(line, "dir inode=") || line.size() != 20 ||
      !eatNumber(line, kU64Max, parsed.record_dir_inode_) || !line.empty()) {
    return "its dir line is not one";
  }
  line = nextLine(rest, ok);
  if (!ok || !eat(line, "layout ") || !parseLayout(line, layout)) return "its layout line is not one";
  parsed.setLayout(layout);
  std::vector<std::uint64_t> counts[2];
  for (const ItemKind kind : {ItemKind::kFile, ItemKind::kDir}) {
    line = nextLine(rest, ok);
    const std::string key = fmt::format("made {}", kind == ItemKind::kFile ? 'f' : 'd');
    if (!ok || !parseCounts(line, key, layout.ranks, layout.items, nullptr, counts[0])) {
      return fmt::format("its '{}' line is not {} counts of at most -n {}", key, layout.ranks, layout.items);
    }
    parsed.setMade(kind, counts[0]);
  }
  for (const ItemKind kind : {ItemKind::kFile, ItemKind::kDir}) {
    line = nextLine(rest, ok);
    const std::string key = fmt::format("renamed {}", kind == ItemKind::kFile ? 'f' : 'd');
    const std::size_t k = index(kind);
    if (!ok || !parseCounts(line, key, layout.ranks, layout.items, &parsed.made_[k], counts[1])) {
      return fmt::format("its '{}' line is not {} counts, each at most the items made", key, layout.ranks);
    }
    parsed.setRenamed(kind, counts[1]);
  }
  for (const ItemKind kind : {ItemKind::kFile, ItemKind::kDir}) {
    line = nextLine(rest, ok);
    const std::string key = fmt::format("removed {}", kind == ItemKind::kFile ? 'f' : 'd');
    const std::size_t k = index(kind);
    if (!ok || !parseCounts(line, key, layout.ranks, layout.items, &parsed.made_[k], counts[1])) {
      return fmt::format("its '{}' line is not {} counts, each at most the items made", key, layout.ranks);
    }
    parsed.setRemoved(kind, counts[1]);
  }
  std::uint64_t lines = 0;
  while (!rest.empty()) {
    const std::size_t at = static_cast<std::size_t>(rest.data() - text.data());
    line = nextLine(rest, ok);
    if (!ok) return "its last line is cut short";
    std::string_view end = line;
    std::uint64_t count = 0;
    if (eat(end, "end ") && eatNumber(end, kU64Max, count) && eat(end, " ") && end.size() == 16) {
      if (!rest.empty()) return "there is text after its end line";
      if (count != lines) return fmt::format("its end line says {} entries, it has {}", count, lines);
      if (end != fmt::format("{:016x}", fnv1a(text.substr(0, at)))) {
        return "its checksum does not match its text (edited by hand, or damaged)";
      }
      out = std::move(parsed);
      return {};
    }
    if (!parseEntry(line, parsed)) {
      return fmt::format("line {} is not an entry that fits the counts above: '{}'", lines + 9, line);
    }
    ++lines;
  }
  return "it has no end line";
}

std::string ItemFates::dirMismatch(std::uint64_t dir_inode) const {
  if (record_dir_inode_ == dir_inode) return {};
  return fmt::format(
      "it was written in another directory (inode {}; this one's is {}): a record copied from elsewhere "
      "says nothing of what is here",
      record_dir_inode_, dir_inode);
}

bool ItemFates::operator==(const ItemFates& other) const {
  if (layout_.has_value() != other.layout_.has_value()) return false;
  if (layout_) return encode(0) == other.encode(0);
  for (std::size_t k = 0; k < 2; ++k) {
    if (all_[k] != other.all_[k] || fates_[k].size() != other.fates_[k].size()) return false;
    for (const auto& [key, entry] : fates_[k]) {
      const auto it = other.fates_[k].find(key);
      if (it == other.fates_[k].end() || it->second.fate != entry.fate || it->second.err != entry.err) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace mdbench
