// The operations of each phase (phase_executor.hpp): the backend call the loops (item_loop.hpp) make on each
// item or tree directory, with the item's name by its fate (name_fates.hpp), the data (phase_data.hpp) and
// the type checks' listings (phase_listings.hpp). Private to the runner.
#pragma once

#include <cstdint>

#include "dir_cursor.hpp"
#include "item_loop.hpp"
#include "mdbench/model/plan.hpp"
#include "mdbench/run/runner.hpp"
#include "name_fates.hpp"
#include "phase_data.hpp"

namespace mdbench {

class PhaseOps {
 public:
  // All of these outlive this.
  PhaseOps(const Plan& plan, const RunParts& parts, ItemLoop& loop, NameFates& names, PhaseData& data)
      : plan_(plan), parts_(parts), rank_(parts.comm.rank()), loop_(loop), names_(names), data_(data) {}

  // Runs items [from, to) of the phase's order (the tree and readdir phases: all their directories); returns
  // where it stopped (`to`, or earlier when the stonewall fired and the phase stops for it, or a signal).
  std::uint64_t execute(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                        std::uint64_t to);

 private:
  using Pick = ItemLoop::Pick;

  std::uint64_t executeItems(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                             std::uint64_t to);
  std::uint64_t readFiles(DirCursor& cursor, std::uint32_t owner, std::uint64_t from, std::uint64_t to,
                          PhaseNames& names);
  std::uint64_t renameItems(Phase phase, DirCursor& cursor, std::uint32_t owner, std::uint64_t from,
                            std::uint64_t to, PhaseNames& names);
  std::uint64_t rotateDirs(DirCursor& cursor, std::uint32_t owner, std::uint64_t from, std::uint64_t to,
                           PhaseNames& names);
  std::uint64_t createFiles(DirCursor& cursor, std::uint32_t owner, std::uint64_t from, std::uint64_t to,
                            Pick pick);
  std::uint64_t createShared(DirCursor& cursor, std::uint32_t owner, std::uint64_t from, std::uint64_t to);

  const Plan& plan_;
  const RunParts& parts_;
  std::uint32_t rank_;
  ItemLoop& loop_;
  NameFates& names_;
  PhaseData& data_;
};

}  // namespace mdbench
