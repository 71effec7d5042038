// The plan: which phases run, which rank does which operations on whose items. Pure: no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/data_pattern.hpp"
#include "mdbench/model/layout.hpp"
#include "mdbench/model/phase.hpp"

namespace mdbench {

// Phases a configuration runs, in execution order:
//   create selected: tree-create, and dir-create / file-create for the selected item kinds;
//   stat: dir-stat / file-stat; readdir: dir-readdir / file-readdir; read: file-read (files only);
//   rename (-U): dir-rename, with more than one item per rank (mdtest's rule); --file-rename: file-rename;
//   remove: dir-remove / file-remove, tree-remove.
// -S (shared files) has no directory items.
std::vector<Phase> selectPhases(const Config& config);

// Readers of the phase table (phase.hpp), for the callers that ask one question.
bool isTreePhase(Phase phase);
StonewallRule stonewallRule(Phase phase);
// The item kind an item phase works on (kDir for dir-*, kFile for file-*). Precondition: !isTreePhase.
ItemKind itemKindOf(Phase phase);

struct FirstError;

// A bijection of [0, n) computed on the fly in O(1) memory (a keyed Feistel network over the next power of
// two, cycle-walking back into range): -R visits a rank's items in this order, reproducibly from the seed.
class Permutation {
 public:
  Permutation(std::uint64_t n, std::uint64_t seed);
  std::uint64_t size() const { return n_; }
  std::uint64_t operator()(std::uint64_t index) const;  // precondition: index < size()

 private:
  std::uint64_t n_;
  unsigned half_bits_;  // the domain is 2^(2 * half_bits_) >= n
  std::uint64_t keys_[4];
};

// The data written into a file and checked by -X: the first 16 bytes hold owner and item (little-endian
// uint64 each, cut short for smaller files), the rest a byte pattern of the owner. -S files use owner
// kSharedOwner (layout.hpp).
void fillPattern(std::span<std::byte> data, std::uint32_t owner, std::uint64_t item);
bool checkPattern(std::span<const std::byte> data, std::uint32_t owner, std::uint64_t item);

// What one rank's phases need of the options, taken from them once with the plan (Plan::settings), so that
// the phase loop reads these and not the Config.
struct PhaseSettings {
  TreeSharing sharing = TreeSharing::kShared;      // -u
  bool shared_files = false;                       // -S
  bool no_barriers = false;                        // -B
  std::uint32_t iterations = 1;                    // -i, for the progress line
  std::uint64_t write_bytes = 0;                   // -w
  std::uint64_t read_bytes = 0;                    // -e
  bool fsync_writes = false;                       // -y
  bool verify_read = false;                        // -X
  DataPattern pattern{DataPacket::kTimestamp, 0};  // --dataPacketType and -G, at -w (DataPattern::of)
  std::uint64_t random_seed = 0;                   // -R's order
  std::int64_t stonewall_ns = 0;                   // -W, from t_start (Plan::stonewallIn says whether)
  std::int64_t series_interval_ns = 100'000'000;   // --series-interval, at least 1
  std::string cmd_before_phase;                    // --run-cmd-before-phase ("": none)
  std::string cmd_after_phase;                     // --run-cmd-after-phase ("": none)

  static PhaseSettings of(const Config& config);
};

class Plan {
 public:
  // All ranks on one node.
  Plan(const Config& config, std::uint32_t ranks);
  // node_of_rank: the node index of every rank (size = ranks); the rank shift uses it (node-aware).
  Plan(const Config& config, std::vector<std::uint32_t> node_of_rank);
  // The same plan for `items` items per rank (a stonewalled create's count, or -x's): the same tree (with
  // -I, the same directory loops, filled in order), fewer or more items in it.
  Plan withItems(std::uint64_t items) const;

  const Config& config() const { return config_; }
  const TreeLayout& layout() const { return layout_; }
  const std::vector<Phase>& phases() const { return phases_; }
  // Whether `phase` is one of phases().
  bool runs(Phase phase) const;
  std::uint32_t ranks() const { return ranks_; }
  // What the phases need of config(), read once.
  const PhaseSettings& settings() const { return settings_; }

  // Whose items (and, with unique trees, whose tree) `rank` works on in `phase`: (rank + k * S) mod P with
  // k = 0 for create and tree phases, 1 for stat, readdir and the directory rename, 2 for read, 3 for
  // remove (mdtest's -N) and 4 for the file rename (the phase table's shift_multiple), S = shift(). With -S
  // every rank works on the shared names: kSharedOwner.
  std::uint32_t owner(Phase phase, std::uint32_t rank) const;
  // The shift in use: -N mod the ranks (as mdtest), unless the ranks sit in blocks on several nodes and
  // that shift would leave some rank on its own node's items; then the smallest larger shift that moves
  // every rank's items to another node (e.g. the ranks per node), if one exists.
  std::uint32_t shift() const { return shift_; }
  // Why shift() differs from -N (it wrapped, to no shift or onto the same node, or moved off the node),
  // for the console ("" when it does not, and under --steady, whose ring takes -N as given:
  // steadyRingOffset).
  const std::string& shiftNote() const { return shift_note_; }
  // The target directory index (into config().targets) of `rank`: rank mod the number of targets.
  std::uint32_t targetOf(std::uint32_t rank) const;
  // Whether `phase` visits items in -R's random order (stat, read and readdir with -R).
  bool randomOrder(Phase phase) const;
  // The names an item phase finds its items under: for files, renamed by an earlier job (--renamed), or
  // by this run's file rename when that ran before `phase` (the rename phase itself uses the original
  // names); directories always have their original names (the directory rename rotates them).
  NameForm nameForm(Phase phase) const;
  // Readdir phases: whether `rank` lists tree directory `dir`: with a shared tree, dir mod P == rank;
  // with unique trees, every directory of the owner's tree.
  bool listsDir(Phase phase, std::uint32_t rank, std::uint64_t dir) const;
  // Readdir phases: entries of the phase's item kind that directory `dir` must hold (every rank's items
  // in a shared tree, the owner's in a unique one, the shared names once with -S).
  std::uint64_t expectedEntries(Phase phase, std::uint64_t dir) const;
  // Who builds and removes tree directories: every rank its own tree (unique), rank 0 alone (shared).
  bool buildsTree(std::uint32_t rank) const;
  // Operations `rank` is planned to do in `phase`: items for item phases (0 for ranks other than 0 in the
  // remove and rename phases with -S), tree directories for tree phases, directories listed for readdir.
  std::uint64_t plannedOps(Phase phase, std::uint32_t rank) const;
  // -c: whether rank 0 does every rank's operations of `phase` (metrics.hpp's collectivePhase).
  bool collective(Phase phase) const;
  // -Y: whether `phase` ends with the sync: every item phase (mdtest's phase_end: not the tree phases), or
  // with sync_creates_only (the IO500 presets) the item creates only.
  bool syncsAfter(Phase phase) const;
  // The stonewall rule of `phase` in this run: kNone without -W. -S's create agrees between its two steps
  // (a collective every rank reaches once), so it cannot stop at the stonewall and wear out later; it only
  // notes when the stonewall fired, as renames do. -c's phases note it too: rank 0 alone works, nothing to
  // agree.
  StonewallRule stonewallIn(Phase phase) const;

 private:
  Config config_;
  PhaseSettings settings_;
  TreeLayout layout_;
  std::vector<Phase> phases_;
  std::uint32_t ranks_;
  std::vector<std::uint32_t> node_of_rank_;
  std::uint32_t shift_ = 0;
  std::string shift_note_;
};

// The path, relative to the target directory, of the object a rank's first error was about: the item,
// or the tree directory when the error was on the directory itself (FirstError::item is ~0).
std::string errorPath(const Plan& plan, std::uint32_t iteration, Phase phase, const FirstError& error);

}  // namespace mdbench
