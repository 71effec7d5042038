#include "mdbench/model/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace mdbench {

SweepSteps resolveSweepSteps(const SweepSpec& sweep, std::uint32_t job_ranks) {
  SweepSteps out;
  switch (sweep.kind) {
    case SweepSpec::Kind::kNone:
      return out;
    case SweepSpec::Kind::kPow2:
      for (std::uint64_t k = 1; k <= job_ranks; k *= 2) out.steps.push_back(static_cast<std::uint32_t>(k));
      if (out.steps.empty() || out.steps.back() != job_ranks) out.steps.push_back(job_ranks);
      return out;
    case SweepSpec::Kind::kList:
      for (const std::uint32_t k : sweep.steps) {
        if (k > job_ranks) {
          out.error = fmt::format(
              "--sweep: a step of {} ranks in a job of {} rank{}: start the job with at least {} ranks, or "
              "leave that step out",
              k, job_ranks, job_ranks == 1 ? "" : "s", k);
          return out;
        }
      }
      out.steps = sweep.steps;
      return out;
  }
  return out;
}

StepRanks stepRanks(std::span<const std::uint32_t> node_of_rank, std::uint32_t k, SweepPlacement placement) {
  const std::size_t job = node_of_rank.size();
  if (k == 0 || k > job) {
    throw std::invalid_argument(fmt::format("stepRanks: a step of {} ranks in a job of {}", k, job));
  }
  StepRanks step;
  if (placement == SweepPlacement::kBlock) {
    for (std::uint32_t r = 0; r < k; ++r) step.ranks.push_back(r);
  } else if (placement == SweepPlacement::kSpread) {
    // Each node's ranks in rank order; nodes in the order of their lowest rank.
    std::map<std::uint32_t, std::size_t> position_of_node;
    std::vector<std::vector<std::uint32_t>> nodes;
    for (std::uint32_t r = 0; r < job; ++r) {
      const auto [at, added] = position_of_node.emplace(node_of_rank[r], nodes.size());
      if (added) nodes.emplace_back();
      nodes[at->second].push_back(r);
    }
    for (std::size_t round = 0; step.ranks.size() < k; ++round) {
      for (const std::vector<std::uint32_t>& ranks : nodes) {
        if (round < ranks.size() && step.ranks.size() < k) step.ranks.push_back(ranks[round]);
      }
    }
    std::sort(step.ranks.begin(), step.ranks.end());
  } else {
    throw std::invalid_argument("stepRanks: placement none");
  }
  std::map<std::uint32_t, std::uint32_t> renumbered;
  for (const std::uint32_t r : step.ranks) {
    const auto [at, added] =
        renumbered.emplace(node_of_rank[r], static_cast<std::uint32_t>(renumbered.size()));
    step.node_of_rank.push_back(at->second);
  }
  step.nodes = static_cast<std::uint32_t>(renumbered.size());
  return step;
}

}  // namespace mdbench
