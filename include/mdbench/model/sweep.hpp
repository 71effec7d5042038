// The scaling sweep (--sweep): its steps for a job size, and which ranks take part in each. Pure: no I/O.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mdbench/config/config.hpp"

namespace mdbench {

// The steps of `sweep` in a job of `job_ranks` ranks: the list as given, or for pow2 1, 2, 4, ... up to
// job_ranks, and job_ranks itself when it is not a power of two. A step larger than the job is an error
// (the message names the option and both numbers; steps is then empty). No steps without a sweep.
struct SweepSteps {
  std::vector<std::uint32_t> steps;
  std::string error;
};
SweepSteps resolveSweepSteps(const SweepSpec& sweep, std::uint32_t job_ranks);

// The ranks of one step, in the job's numbering.
struct StepRanks {
  std::vector<std::uint32_t> ranks;         // ascending; the step's rank i is the job's rank ranks[i]
  std::vector<std::uint32_t> node_of_rank;  // each step rank's node, numbered by first appearance in the step
  std::uint32_t nodes = 0;                  // distinct nodes the step uses
};

// The k ranks (1 <= k <= node_of_rank.size()) that take part in a step. node_of_rank holds the job's node
// index of every rank. Nodes are taken in the order of their lowest rank (so rank 0's node comes first).
//   kBlock:  ranks 0 .. k-1.
//   kSpread: round-robin over the nodes: the i-th pick is the next unused rank, in rank order, of the i-th
//            node in that order (cyclically, skipping nodes with no rank left); so a step uses
//            min(k, nodes) nodes and no node has two ranks more than another unless it ran out.
// Both always include rank 0, and a step's ranks include every smaller step's. Throws
// std::invalid_argument for k out of range or kNone (programmer errors).
StepRanks stepRanks(std::span<const std::uint32_t> node_of_rank, std::uint32_t k, SweepPlacement placement);

}  // namespace mdbench
