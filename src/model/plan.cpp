#include "mdbench/model/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/result.hpp"

namespace mdbench {
namespace {

// Programmer errors only (validate() rejects bad input first); on in every build type.
void check(bool ok, const char* what) {
  if (!ok) [[unlikely]] {
    throw std::logic_error(fmt::format("mdbench plan: precondition failed: {}", what));
  }
}

// Whether the configuration asks for the phase: its action's option, and its item kind (tree phases go
// with the items' create and remove). -S shares file names only: there are no directory items to share.
bool isSelected(const PhaseInfo& info, const Config& config) {
  const PhaseSelection& sel = config.phases;
  // Indexed by PhaseAction: create, stat, readdir, read, rename, remove. -U renames directories (mdtest's
  // phase), --file-rename files (mdbench's).
  const bool rename = info.scope == PhaseScope::kFiles ? sel.file_rename : sel.rename;
  const std::array<bool, 6> asked = {sel.create, sel.stat, sel.readdir, sel.read, rename, sel.remove};
  if (!asked[static_cast<std::size_t>(info.action)]) return false;
  // As mdtest: a directory rename needs two items per rank to rotate.
  if (info.phase == Phase::kDirRename && config.items <= 1) return false;
  switch (info.scope) {
    case PhaseScope::kTree:
      return true;
    case PhaseScope::kDirs:
      return config.kinds != ItemKinds::kFilesOnly && !config.shared_files;
    case PhaseScope::kFiles:
      return config.kinds != ItemKinds::kDirsOnly;
  }
  return false;
}

// splitmix64's output function: a bijective 64-bit mixer whose every output bit depends on every input bit.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15u;  // splitmix64's state increment

// ---- the node-aware rank shift ----

struct ShiftChoice {
  std::uint32_t shift;
  std::string note;
};

// Whether shifting by s moves every rank onto items made on another node. Stops at the first rank that
// stays, so the shifts too small for block placement are rejected after one comparison each.
bool movesOffNode(const std::vector<std::uint32_t>& node_of_rank, std::uint64_t s) {
  const std::uint64_t ranks = node_of_rank.size();
  for (std::uint64_t r = 0; r < ranks; ++r) {
    if (node_of_rank[(r + s) % ranks] == node_of_rank[r]) return false;
  }
  return true;
}

// For the console: how the ranks sit on the nodes.
std::string describePlacement(const std::vector<std::uint32_t>& node_of_rank) {
  std::vector<std::uint32_t> nodes = node_of_rank;
  std::sort(nodes.begin(), nodes.end());
  std::uint64_t node_count = 0, min_per_node = std::numeric_limits<std::uint64_t>::max(), max_per_node = 0;
  for (auto it = nodes.begin(); it != nodes.end();) {
    const auto next = std::upper_bound(it, nodes.end(), *it);
    const auto count = static_cast<std::uint64_t>(next - it);
    ++node_count;
    min_per_node = std::min(min_per_node, count);
    max_per_node = std::max(max_per_node, count);
    it = next;
  }
  // In blocks: each node's ranks are consecutive, so the node changes exactly node_count - 1 times.
  std::uint64_t changes = 0;
  for (std::size_t r = 1; r < node_of_rank.size(); ++r) changes += node_of_rank[r] != node_of_rank[r - 1];
  if (changes + 1 == node_count) {
    return min_per_node == max_per_node
               ? fmt::format("ranks placed in blocks of {} per node", min_per_node)
               : fmt::format("ranks placed in blocks of {} to {} per node", min_per_node, max_per_node);
  }
  return min_per_node == max_per_node
             ? fmt::format("{} ranks on {} nodes, {} per node, not in blocks", node_of_rank.size(),
                           node_count, min_per_node)
             : fmt::format("{} ranks on {} nodes, {} to {} per node, not in blocks", node_of_rank.size(),
                           node_count, min_per_node, max_per_node);
}

// The node-aware search from a shift below the ranks (`named`: how the note names it, "-N 1" or "shift 1").
// The stat phase (k = 1) is the one -N exists for: it must not find its items in its own node's cache.
ShiftChoice moveOffNode(std::uint32_t shift, const std::string& named,
                        const std::vector<std::uint32_t>& node_of_rank) {
  const std::uint64_t ranks = node_of_rank.size();
  for (std::uint64_t s = std::uint64_t{shift} + 1; s < ranks; ++s) {
    if (movesOffNode(node_of_rank, s)) {
      return {static_cast<std::uint32_t>(s),
              fmt::format("{} would leave ranks on their own node's items ({}); using shift {}", named,
                          describePlacement(node_of_rank), s)};
    }
  }
  return {shift,
          fmt::format("{} leaves ranks on their own node's items ({}) and no shift up to {} avoids that; "
                      "keeping shift {}",
                      named, describePlacement(node_of_rank), ranks - 1, shift)};
}

// As mdtest, rank r works on rank (r + k S) mod P's items, so an S of at least P is S mod P: job scripts
// give -N the ranks per node, and a one-node run of them shifts by nothing. The console says so, then the
// node-aware search goes on from S mod P.
ShiftChoice chooseShift(std::uint32_t requested, const std::vector<std::uint32_t>& node_of_rank) {
  const bool one_node = std::all_of(node_of_rank.begin(), node_of_rank.end(),
                                    [&](std::uint32_t node) { return node == node_of_rank.front(); });
  const std::uint64_t ranks = node_of_rank.size();
  const auto shift = static_cast<std::uint32_t>(requested % ranks);
  std::string wrap;
  if (requested >= ranks) {
    wrap = fmt::format("-N {} with {} rank{} wraps to {} ({} mod {}, as mdtest)", requested, ranks,
                       ranks == 1 ? "" : "s", shift == 0 ? "no shift" : fmt::format("shift {}", shift),
                       requested, ranks);
    if (shift == 0) return {0, wrap + ": every rank works on its own items"};
    if (one_node) return {shift, wrap + ": all ranks are on one node, so each works on items made on it"};
  }
  if (shift == 0 || one_node || movesOffNode(node_of_rank, shift)) return {shift, wrap};
  if (wrap.empty()) return moveOffNode(shift, fmt::format("-N {}", requested), node_of_rank);
  ShiftChoice choice = moveOffNode(shift, fmt::format("shift {}", shift), node_of_rank);
  choice.note = wrap + "; " + choice.note;
  return choice;
}

std::uint32_t checkedRankCount(const std::vector<std::uint32_t>& node_of_rank) {
  check(!node_of_rank.empty(), "ranks >= 1");
  check(node_of_rank.size() <= std::numeric_limits<std::uint32_t>::max(), "ranks fit in 32 bits");
  return static_cast<std::uint32_t>(node_of_rank.size());
}

// ---- the file data pattern ----

constexpr std::size_t kPatternHeader = 16;

std::array<std::byte, kPatternHeader> patternHeader(std::uint32_t owner, std::uint64_t item) {
  std::array<std::byte, kPatternHeader> header{};
  for (std::size_t i = 0; i < 8; ++i) {
    header[i] = static_cast<std::byte>((std::uint64_t{owner} >> (8 * i)) & 0xffu);
    header[8 + i] = static_cast<std::byte>((item >> (8 * i)) & 0xffu);
  }
  return header;
}

// Byte i >= 16 is byte (i mod 8) of a word mixed from the owner, plus i / 8: it differs between owners and
// moves with the offset, so data from another owner or another offset does not pass.
std::array<std::uint8_t, 8> patternWord(std::uint32_t owner) {
  const std::uint64_t word = mix64(std::uint64_t{owner} + kGoldenGamma);
  std::array<std::uint8_t, 8> bytes{};
  for (std::size_t i = 0; i < 8; ++i) bytes[i] = static_cast<std::uint8_t>(word >> (8 * i));
  return bytes;
}

std::byte patternByte(const std::array<std::uint8_t, 8>& word, std::size_t index) {
  return static_cast<std::byte>(static_cast<std::uint8_t>(word[index & 7] + (index >> 3)));
}

}  // namespace

std::vector<Phase> selectPhases(const Config& config) {
  std::vector<Phase> phases;
  for (Phase phase : kSelectablePhases) {  // kSelectablePhases is in execution order
    if (isSelected(phaseInfo(phase), config)) phases.push_back(phase);
  }
  return phases;
}

bool isTreePhase(Phase phase) { return phaseInfo(phase).tree(); }

StonewallRule stonewallRule(Phase phase) { return phaseInfo(phase).stonewall; }

ItemKind itemKindOf(Phase phase) {
  const PhaseScope scope = phaseInfo(phase).scope;
  check(scope != PhaseScope::kTree, "itemKindOf needs an item phase");
  return scope == PhaseScope::kDirs ? ItemKind::kDir : ItemKind::kFile;
}

// A balanced Feistel network on 2 * half_bits_ bits is a bijection of [0, 4^half_bits_) whatever its round
// function; applying it until the value falls below n (cycle-walking) restricts it to a bijection of
// [0, n). The domain is the smallest power of four >= n, so fewer than 4 steps are needed on average.
Permutation::Permutation(std::uint64_t n, std::uint64_t seed) : n_(n), half_bits_(0), keys_{} {
  while (half_bits_ < 32 && (std::uint64_t{1} << (2 * half_bits_)) < n_) ++half_bits_;
  std::uint64_t state = seed;
  for (std::uint64_t& key : keys_) {
    state += kGoldenGamma;
    key = mix64(state);
  }
}

std::uint64_t Permutation::operator()(std::uint64_t index) const {
  check(index < n_, "index < size()");
  const std::uint64_t mask = (std::uint64_t{1} << half_bits_) - 1;  // half_bits_ <= 32
  std::uint64_t x = index;
  do {
    std::uint64_t left = x >> half_bits_;
    std::uint64_t right = x & mask;
    for (std::uint64_t key : keys_) {
      const std::uint64_t next = left ^ (mix64(right ^ key) & mask);
      left = right;
      right = next;
    }
    x = (left << half_bits_) | right;
  } while (x >= n_);
  return x;
}

void fillPattern(std::span<std::byte> data, std::uint32_t owner, std::uint64_t item) {
  const auto header = patternHeader(owner, item);
  const std::size_t head = std::min(data.size(), kPatternHeader);
  std::copy_n(header.begin(), head, data.begin());
  const auto word = patternWord(owner);
  for (std::size_t i = head; i < data.size(); ++i) data[i] = patternByte(word, i);
}

bool checkPattern(std::span<const std::byte> data, std::uint32_t owner, std::uint64_t item) {
  const auto header = patternHeader(owner, item);
  const std::size_t head = std::min(data.size(), kPatternHeader);
  if (!std::equal(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(head), header.begin()))
    return false;
  const auto word = patternWord(owner);
  for (std::size_t i = head; i < data.size(); ++i) {
    if (data[i] != patternByte(word, i)) return false;
  }
  return true;
}

PhaseSettings PhaseSettings::of(const Config& config) {
  PhaseSettings s;
  s.sharing = config.sharing;
  s.shared_files = config.shared_files;
  s.no_barriers = config.no_barriers;
  s.iterations = config.iterations;
  s.write_bytes = config.write_bytes;
  s.read_bytes = config.read_bytes;
  s.fsync_writes = config.fsync_writes;
  s.verify_read = config.verify_read;
  s.pattern = DataPattern::of(config);
  s.random_seed = config.random_seed;
  s.stonewall_ns = static_cast<std::int64_t>(config.stonewall_s * 1e9);
  s.series_interval_ns = std::max<std::int64_t>(1, std::llround(config.series_interval_s * 1e9));
  s.cmd_before_phase = config.cmd_before_phase;
  s.cmd_after_phase = config.cmd_after_phase;
  return s;
}

Plan::Plan(const Config& config, std::uint32_t ranks) : Plan(config, std::vector<std::uint32_t>(ranks, 0)) {}

Plan::Plan(const Config& config, std::vector<std::uint32_t> node_of_rank)
    : config_(config),
      settings_(PhaseSettings::of(config)),
      layout_(config),
      phases_(selectPhases(config)),
      ranks_(checkedRankCount(node_of_rank)),
      node_of_rank_(std::move(node_of_rank)) {
  ShiftChoice choice = chooseShift(config_.shift, node_of_rank_);
  shift_ = choice.shift;
  if (config_.steady_rounds == 0) shift_note_ = std::move(choice.note);
}

Plan Plan::withItems(std::uint64_t items) const {
  const std::uint64_t per_dir = config_.items_per_dir;
  // ceil(items / I) <= D, phrased so that a huge I cannot overflow.
  check(per_dir == 0 || items / per_dir + (items % per_dir != 0 ? 1 : 0) <= layout_.itemDirCount(),
        "withItems: items <= items_per_dir * item directories");
  // The same forest: the directory loops were planned for the full count (tree phases build and remove all
  // of them), a smaller count fills them in order.
  Plan plan = *this;
  plan.config_.items = items;
  plan.layout_ =
      TreeLayout(config_.depth, config_.branching, config_.leaf_only, items, per_dir, layout_.loops());
  return plan;
}

std::uint32_t Plan::owner(Phase phase, std::uint32_t rank) const {
  check(rank < ranks_, "rank < ranks()");
  if (config_.shared_files && !isTreePhase(phase)) return kSharedOwner;
  // rank < 2^32 and k * S < 2^35: no overflow.
  return static_cast<std::uint32_t>((rank + std::uint64_t{phaseInfo(phase).shift_multiple} * shift_) %
                                    ranks_);
}

std::uint32_t Plan::targetOf(std::uint32_t rank) const {
  check(rank < ranks_, "rank < ranks()");
  const std::size_t targets = std::max<std::size_t>(1, config_.targets.size());
  return static_cast<std::uint32_t>(rank % targets);
}

bool Plan::runs(Phase phase) const {
  return std::find(phases_.begin(), phases_.end(), phase) != phases_.end();
}

bool Plan::randomOrder(Phase phase) const {
  return config_.random_order && phaseInfo(phase).order == PhaseOrder::kRandom;
}

NameForm Plan::nameForm(Phase phase) const {
  // The directory rename rotates names (mdtest's): every directory keeps a name the run made.
  if (itemKindOf(phase) == ItemKind::kDir) return NameForm::kOriginal;
  if (config_.renamed) return NameForm::kRenamed;
  // phases_ is in execution (enum) order.
  const bool renamed_before = phase > Phase::kFileRename && runs(Phase::kFileRename);
  return renamed_before ? NameForm::kRenamed : NameForm::kOriginal;
}

bool Plan::listsDir(Phase phase, std::uint32_t rank, std::uint64_t dir) const {
  check(phaseInfo(phase).readdir(), "listsDir needs a readdir phase");
  check(rank < ranks_, "rank < ranks()");
  check(dir < layout_.dirCount(), "dir < dirCount()");
  return config_.sharing == TreeSharing::kUnique || dir % ranks_ == rank;
}

std::uint64_t Plan::expectedEntries(Phase phase, std::uint64_t dir) const {
  check(phaseInfo(phase).readdir(), "expectedEntries needs a readdir phase");
  const std::uint64_t per_rank = layout_.itemsInDir(dir);  // checks dir
  if (config_.shared_files || config_.sharing == TreeSharing::kUnique) return per_rank;
  check(per_rank <= std::numeric_limits<std::uint64_t>::max() / ranks_, "entries per directory fit");
  return per_rank * ranks_;
}

bool Plan::buildsTree(std::uint32_t rank) const {
  check(rank < ranks_, "rank < ranks()");
  return config_.sharing == TreeSharing::kUnique || rank == 0;
}

std::uint64_t Plan::plannedOps(Phase phase, std::uint32_t rank) const {
  check(rank < ranks_, "rank < ranks()");
  const PhaseInfo& info = phaseInfo(phase);
  if (info.tree()) return buildsTree(rank) ? layout_.dirCount() : 0;
  if (info.readdir()) {
    const std::uint64_t dirs = layout_.dirCount();
    if (config_.sharing == TreeSharing::kUnique) return dirs;
    return rank < dirs ? (dirs - rank - 1) / ranks_ + 1 : 0;  // dirs d < D with d mod P == rank
  }
  if (config_.shared_files && info.onceForShared()) return rank == 0 ? config_.items : 0;
  return config_.items;
}

std::string errorPath(const Plan& plan, std::uint32_t iteration, Phase phase, const FirstError& error) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) about "/" + std::string in release builds.
  std::string path = iterationDirName(iteration);
  path += '/';
  path += treeDirPath(plan.layout(), plan.config().sharing, error.owner, error.dir);
  if (error.item != FirstError{}.item) {
    path += '/';
    path += itemName(itemKindOf(phase), error.owner, error.item, plan.nameForm(phase));
  }
  return path;
}

bool Plan::collective(Phase phase) const { return collectivePhase(config_, phase); }

bool Plan::syncsAfter(Phase phase) const {
  const PhaseInfo& info = phaseInfo(phase);
  return config_.sync_phases && info.bracketed() && (!config_.sync_creates_only || info.creates());
}

StonewallRule Plan::stonewallIn(Phase phase) const {
  const StonewallRule rule = config_.stonewall_s > 0 ? stonewallRule(phase) : StonewallRule::kNone;
  const bool agrees_inside = (phase == Phase::kFileCreate && config_.shared_files) || collective(phase);
  return rule == StonewallRule::kStopAndWearOut && agrees_inside ? StonewallRule::kNoteOnly : rule;
}

}  // namespace mdbench
