// Tests of the scaling sweep's pure parts: the options (--sweep, --sweep-placement, mdtest's -f/-l/-s), the
// steps for a job size, which ranks take part in a step (exhaustively over node layouts) and the formulas.
#include "mdbench/model/sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "mdbench/config/config.hpp"
#include "mdbench/model/metrics.hpp"

namespace mdbench {
namespace {

using Args = std::vector<std::string>;
using Errors = std::vector<std::string>;
using Ranks = std::vector<std::uint32_t>;

Config configOf(const Args& args) {
  const CliRequest request = parseCommandLine(args);
  EXPECT_EQ(request.errors, Errors{}) << "for: " << request.config.command_line;
  return request.config;
}

std::string errorOf(const Args& args) {
  const Errors errors = parseCommandLine(args).errors;
  EXPECT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  return errors.empty() ? "" : errors.front();
}

// ---- options

TEST(SweepOptions, NoSweepByDefault) {
  const Config c = configOf({});
  EXPECT_FALSE(c.sweep.active());
  EXPECT_EQ(c.sweep.kind, SweepSpec::Kind::kNone);
  EXPECT_EQ(c.sweep.placement, SweepPlacement::kBlock);
}

TEST(SweepOptions, List) {
  const Config c = configOf({"--sweep", "1,2,4,8"});
  EXPECT_TRUE(c.sweep.active());
  EXPECT_EQ(c.sweep.kind, SweepSpec::Kind::kList);
  EXPECT_EQ(c.sweep.steps, (Ranks{1, 2, 4, 8}));
  EXPECT_EQ(c.sweep.placement, SweepPlacement::kBlock);
  EXPECT_EQ(configOf({"--sweep=3"}).sweep.steps, Ranks{3});
  EXPECT_EQ(configOf({"--sweep", "1,3,10,4294967295"}).sweep.steps, (Ranks{1, 3, 10, 4294967295u}));
}

TEST(SweepOptions, Pow2AndPlacement) {
  const Config c = configOf({"--sweep", "pow2", "--sweep-placement", "spread"});
  EXPECT_EQ(c.sweep.kind, SweepSpec::Kind::kPow2);
  EXPECT_TRUE(c.sweep.steps.empty());
  EXPECT_EQ(c.sweep.placement, SweepPlacement::kSpread);
  EXPECT_EQ(configOf({"--sweep", "1", "--sweep-placement=block"}).sweep.placement, SweepPlacement::kBlock);
}

TEST(SweepOptions, MdtestFirstLastStride) {
  EXPECT_EQ(configOf({"-f", "1", "-l", "4", "-s", "1"}).sweep.steps, (Ranks{1, 2, 3, 4}));
  EXPECT_EQ(configOf({"-f", "2", "-l", "9", "-s", "3"}).sweep.steps, (Ranks{2, 5, 8}));  // 11 > 9
  EXPECT_EQ(configOf({"-l", "3"}).sweep.steps, (Ranks{1, 2, 3}));                        // -f, -s: 1
  EXPECT_EQ(configOf({"-f4", "-l4"}).sweep.steps, Ranks{4});
  EXPECT_EQ(configOf({"--sweep-first=2", "--sweep-last=6", "--sweep-stride=2"}).sweep.steps,
            (Ranks{2, 4, 6}));
  const Config c = configOf({"-f", "1", "-l", "2", "--sweep-placement", "spread"});
  EXPECT_EQ(c.sweep.kind, SweepSpec::Kind::kList);
  EXPECT_EQ(c.sweep.placement, SweepPlacement::kSpread);
  // Steps near the top of the range do not wrap around.
  EXPECT_EQ(configOf({"-f", "4294967290", "-l", "4294967295", "-s", "4"}).sweep.steps,
            (Ranks{4294967290u, 4294967294u}));
}

TEST(SweepOptions, FullRunsOnly) {
  EXPECT_EQ(errorOf({"--sweep", "1,2", "--keep"}),
            "--sweep: every step creates and removes its items: not with --keep");
  const std::string phases =
      "--sweep: every step creates and removes its items: the phases must include -C/--create and "
      "-r/--remove (or leave out -C/--create -T/--stat -E/--read -r/--remove for all of them)";
  EXPECT_EQ(errorOf({"--sweep", "1,2", "-T"}), phases);
  EXPECT_EQ(errorOf({"--sweep", "1,2", "-C"}), phases);
  EXPECT_EQ(errorOf({"-l", "2", "-r", "-E"}), phases);
  // Create and remove, with anything between, are fine; so are -U and --readdir.
  EXPECT_TRUE(configOf({"--sweep", "1,2", "-C", "-r"}).phases.remove);
  EXPECT_TRUE(configOf({"--sweep", "1,2", "-C", "-T", "-r", "-U", "--readdir"}).phases.rename);
}

TEST(SweepOptions, BadLists) {
  EXPECT_EQ(errorOf({"--sweep", "1,2,2"}), "--sweep: '1,2,2': steps must be strictly increasing (2 after 2)");
  EXPECT_EQ(errorOf({"--sweep", "4,2"}), "--sweep: '4,2': steps must be strictly increasing (2 after 4)");
  EXPECT_EQ(errorOf({"--sweep", "0,1"}), "--sweep: '0,1': a step needs at least 1 rank, got 0");
  EXPECT_EQ(errorOf({"--sweep", "1,,2"}),
            "--sweep: '1,,2' has an empty step (one comma between two rank counts)");
  EXPECT_EQ(errorOf({"--sweep", "1,2,"}),
            "--sweep: '1,2,' has an empty step (one comma between two rank counts)");
  EXPECT_EQ(errorOf({"--sweep", "pow3"}),
            "--sweep: 'pow3': 'pow3' is not a whole number (expected rank counts such as 1,2,4,8, or pow2)");
  EXPECT_EQ(errorOf({"--sweep", "1,-2"}),
            "--sweep: '1,-2': '-2' is not a whole number (expected rank counts such as 1,2,4,8, or pow2)");
  EXPECT_EQ(errorOf({"--sweep", "4294967296"}),
            "--sweep: '4294967296': '4294967296' is out of range (at most 4294967295) (expected rank counts "
            "such as 1,2,4,8, or pow2)");
  EXPECT_EQ(errorOf({"--sweep="}), "--sweep: empty value, expected rank counts (1,2,4,8) or pow2");
  EXPECT_EQ(errorOf({"--sweep"}), "--sweep: needs a value");
}

TEST(SweepOptions, AcceptedWithoutLast) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-f", "1"}, std::vector<std::string>{"-s", "2"},
        std::vector<std::string>{"-f", "2", "-s", "3"}}) {
    const CliRequest request = parseCommandLine(args);
    EXPECT_TRUE(request.errors.empty()) << args.front();
    EXPECT_FALSE(request.config.sweep.active()) << args.front();
  }
}

TEST(SweepOptions, BadRanges) {
  // Without -l, -f and -s are accepted and change nothing, as in mdtest (one run): see AcceptedWithoutLast.
  EXPECT_EQ(errorOf({"-f", "3", "-l", "2"}), "-f/--sweep-first 3 is more than -l/--sweep-last 2");
  EXPECT_EQ(errorOf({"-l", "4", "-s", "0"}), "-s/--sweep-stride: must be at least 1, got 0");
  EXPECT_EQ(errorOf({"-l", "0"}), "-l/--sweep-last: must be at least 1, got 0");
  EXPECT_EQ(errorOf({"-l", "x"}), "-l/--sweep-last: 'x' is not a whole number");
  EXPECT_EQ(errorOf({"-l", "4294967296"}),
            "-l/--sweep-last: '4294967296' is out of range (at most 4294967295)");
  EXPECT_EQ(
      errorOf({"--sweep", "1,2", "-l", "4"}),
      "--sweep and -f/--sweep-first, -l/--sweep-last, -s/--sweep-stride exclude each other (-f/-l/-s are "
      "mdtest's spelling of a sweep)");
}

TEST(SweepOptions, BadPlacement) {
  EXPECT_EQ(errorOf({"--sweep-placement", "spread"}), "--sweep-placement: needs --sweep (or -f/-l/-s)");
  EXPECT_EQ(errorOf({"--sweep", "1", "--sweep-placement", "cyclic"}),
            "--sweep-placement: unknown placement 'cyclic' (expected block or spread)");
}

TEST(SweepOptions, SeveralProblemsAtOnce) {
  const Errors errors = parseCommandLine({"--sweep", "2,1", "--sweep-placement", "x", "-n", "y"}).errors;
  EXPECT_EQ(errors.size(), 3u) << ::testing::PrintToString(errors);
}

TEST(SweepOptions, ValidateChecksAConfigBuiltOtherwise) {
  Config c;
  c.phases = {true, true, true, true};
  c.sweep.kind = SweepSpec::Kind::kList;
  c.sweep.steps = {1, 4, 2};
  EXPECT_EQ(validate(c), Errors{"--sweep: the steps must be strictly increasing rank counts >= 1"});
  c.sweep.steps = {};
  EXPECT_EQ(validate(c), Errors{"--sweep: the steps must be strictly increasing rank counts >= 1"});
  c.sweep.steps = {0, 1};
  EXPECT_EQ(validate(c), Errors{"--sweep: the steps must be strictly increasing rank counts >= 1"});
  c.sweep.steps = {1, 2};
  c.sweep.placement = SweepPlacement::kNone;
  EXPECT_EQ(validate(c), Errors{"--sweep-placement: placement none is not a placement"});
  c.sweep.placement = SweepPlacement::kSpread;
  EXPECT_EQ(validate(c), Errors{});
}

TEST(SweepOptions, PlacementNames) {
  EXPECT_EQ(sweepPlacementName(SweepPlacement::kNone), "none");
  EXPECT_EQ(sweepPlacementName(SweepPlacement::kBlock), "block");
  EXPECT_EQ(sweepPlacementName(SweepPlacement::kSpread), "spread");
}

TEST(SweepOptions, HelpListsThem) {
  const std::string help = helpText();
  for (const char* text : {"--sweep STEPS", "--sweep-placement P", "(or mdtest's -f -l -s)"}) {
    EXPECT_NE(help.find(text), std::string::npos) << text;
  }
  // mdtest's -f/-l/-s are listed too, with mdtest's further options (every accepted option is in --help).
  EXPECT_NE(help.find("--sweep-first"), std::string::npos);
}

// ---- steps for a job size

SweepSpec listOf(Ranks steps) {
  SweepSpec spec;
  spec.kind = SweepSpec::Kind::kList;
  spec.steps = std::move(steps);
  return spec;
}

TEST(SweepSteps, Pow2EndsWithTheJobSize) {
  SweepSpec pow2;
  pow2.kind = SweepSpec::Kind::kPow2;
  const std::map<std::uint32_t, Ranks> expected = {
      {1, {1}},          {2, {1, 2}},       {3, {1, 2, 3}},         {4, {1, 2, 4}},         {5, {1, 2, 4, 5}},
      {6, {1, 2, 4, 6}}, {8, {1, 2, 4, 8}}, {12, {1, 2, 4, 8, 12}}, {16, {1, 2, 4, 8, 16}}, {4294967295u, {}},
  };
  for (const auto& [job, steps] : expected) {
    const SweepSteps resolved = resolveSweepSteps(pow2, job);
    EXPECT_EQ(resolved.error, "");
    if (steps.empty()) {  // the largest job: 32 powers of two, then the job itself
      ASSERT_EQ(resolved.steps.size(), 33u);
      EXPECT_EQ(resolved.steps[31], 1u << 31);
      EXPECT_EQ(resolved.steps.back(), job);
    } else {
      EXPECT_EQ(resolved.steps, steps) << "job " << job;
    }
  }
}

TEST(SweepSteps, ListMustFitTheJob) {
  EXPECT_EQ(resolveSweepSteps(listOf({1, 2, 4}), 4).steps, (Ranks{1, 2, 4}));
  EXPECT_EQ(resolveSweepSteps(listOf({1, 2, 4}), 4).error, "");
  EXPECT_EQ(resolveSweepSteps(listOf({3}), 8).steps, Ranks{3});
  const SweepSteps too_big = resolveSweepSteps(listOf({1, 2, 4, 8}), 4);
  EXPECT_TRUE(too_big.steps.empty());
  EXPECT_EQ(
      too_big.error,
      "--sweep: a step of 8 ranks in a job of 4 ranks: start the job with at least 8 ranks, or leave that "
      "step out");
  EXPECT_EQ(
      resolveSweepSteps(listOf({2}), 1).error,
      "--sweep: a step of 2 ranks in a job of 1 rank: start the job with at least 2 ranks, or leave that "
      "step out");
}

TEST(SweepSteps, NoneWithoutASweep) {
  const SweepSteps none = resolveSweepSteps(SweepSpec{}, 4);
  EXPECT_TRUE(none.steps.empty());
  EXPECT_EQ(none.error, "");
}

// ---- which ranks take part

TEST(StepRanks, HandPickedLayouts) {
  // Two nodes in blocks: block stays on node 0 as long as it can, spread alternates.
  const Ranks blocks = {0, 0, 1, 1};
  EXPECT_EQ(stepRanks(blocks, 2, SweepPlacement::kBlock).ranks, (Ranks{0, 1}));
  EXPECT_EQ(stepRanks(blocks, 2, SweepPlacement::kBlock).nodes, 1u);
  EXPECT_EQ(stepRanks(blocks, 2, SweepPlacement::kSpread).ranks, (Ranks{0, 2}));
  EXPECT_EQ(stepRanks(blocks, 2, SweepPlacement::kSpread).nodes, 2u);
  EXPECT_EQ(stepRanks(blocks, 2, SweepPlacement::kSpread).node_of_rank, (Ranks{0, 1}));
  EXPECT_EQ(stepRanks(blocks, 3, SweepPlacement::kSpread).ranks, (Ranks{0, 1, 2}));
  EXPECT_EQ(stepRanks(blocks, 3, SweepPlacement::kSpread).node_of_rank, (Ranks{0, 0, 1}));
  // Round-robin placement by the launcher: both placements pick the same ranks.
  const Ranks cyclic = {0, 1, 0, 1};
  for (std::uint32_t k = 1; k <= 4; ++k) {
    EXPECT_EQ(stepRanks(cyclic, k, SweepPlacement::kSpread).ranks,
              stepRanks(cyclic, k, SweepPlacement::kBlock).ranks);
  }
  // The layout the end-to-end test fakes: one rank on the second node.
  const Ranks lopsided = {0, 0, 0, 1};
  EXPECT_EQ(stepRanks(lopsided, 1, SweepPlacement::kSpread).ranks, Ranks{0});
  EXPECT_EQ(stepRanks(lopsided, 2, SweepPlacement::kSpread).ranks, (Ranks{0, 3}));
  EXPECT_EQ(stepRanks(lopsided, 3, SweepPlacement::kSpread).ranks, (Ranks{0, 1, 3}));
  EXPECT_EQ(stepRanks(lopsided, 4, SweepPlacement::kSpread).ranks, (Ranks{0, 1, 2, 3}));
  // Three nodes of 4, 2 and 2 ranks.
  const Ranks three = {0, 0, 0, 0, 1, 1, 2, 2};
  EXPECT_EQ(stepRanks(three, 3, SweepPlacement::kSpread).ranks, (Ranks{0, 4, 6}));
  EXPECT_EQ(stepRanks(three, 3, SweepPlacement::kSpread).node_of_rank, (Ranks{0, 1, 2}));
  EXPECT_EQ(stepRanks(three, 5, SweepPlacement::kSpread).ranks, (Ranks{0, 1, 4, 5, 6}));
  EXPECT_EQ(stepRanks(three, 7, SweepPlacement::kSpread).ranks, (Ranks{0, 1, 2, 4, 5, 6, 7}));
  EXPECT_EQ(stepRanks(three, 3, SweepPlacement::kBlock).node_of_rank, (Ranks{0, 0, 0}));
  EXPECT_EQ(stepRanks(three, 6, SweepPlacement::kBlock).node_of_rank, (Ranks{0, 0, 0, 0, 1, 1}));
  // Node numbers need not follow first appearance: nodes are taken in the order of their lowest rank, and a
  // step's nodes are renumbered by first appearance.
  const Ranks numbered = {2, 2, 0, 0, 1};
  EXPECT_EQ(stepRanks(numbered, 2, SweepPlacement::kSpread).ranks, (Ranks{0, 2}));
  EXPECT_EQ(stepRanks(numbered, 3, SweepPlacement::kSpread).ranks, (Ranks{0, 2, 4}));
  EXPECT_EQ(stepRanks(numbered, 3, SweepPlacement::kSpread).node_of_rank, (Ranks{0, 1, 2}));
  EXPECT_EQ(stepRanks(numbered, 2, SweepPlacement::kBlock).node_of_rank, (Ranks{0, 0}));
}

TEST(StepRanks, RefusesWhatCannotBe) {
  const Ranks nodes = {0, 0};
  EXPECT_THROW(stepRanks(nodes, 0, SweepPlacement::kBlock), std::invalid_argument);
  EXPECT_THROW(stepRanks(nodes, 3, SweepPlacement::kSpread), std::invalid_argument);
  EXPECT_THROW(stepRanks(nodes, 1, SweepPlacement::kNone), std::invalid_argument);
  EXPECT_THROW(stepRanks({}, 1, SweepPlacement::kBlock), std::invalid_argument);
}

// Every node layout of up to 8 ranks (node numbers by first appearance: restricted growth strings, 4140 of
// them at 8 ranks), every step size, both placements.
void forEachLayout(std::uint32_t ranks, const std::function<void(const Ranks&)>& visit) {
  Ranks layout(ranks, 0);
  std::function<void(std::uint32_t, std::uint32_t)> fill = [&](std::uint32_t r, std::uint32_t next_node) {
    if (r == ranks) {
      visit(layout);
      return;
    }
    for (std::uint32_t node = 0; node <= next_node; ++node) {
      layout[r] = node;
      fill(r + 1, std::max(next_node, node + 1));
    }
  };
  layout[0] = 0;
  fill(1, 1);
}

TEST(StepRanks, ExhaustiveOverLayouts) {
  std::size_t layouts = 0;
  for (std::uint32_t job = 1; job <= 8; ++job) {
    forEachLayout(job, [&](const Ranks& node_of_rank) {
      ++layouts;
      std::map<std::uint32_t, Ranks> ranks_on;  // node -> its ranks, in rank order
      for (std::uint32_t r = 0; r < job; ++r) ranks_on[node_of_rank[r]].push_back(r);
      const auto nodes = static_cast<std::uint32_t>(ranks_on.size());
      for (const SweepPlacement placement : {SweepPlacement::kBlock, SweepPlacement::kSpread}) {
        Ranks smaller;
        for (std::uint32_t k = 1; k <= job; ++k) {
          const StepRanks step = stepRanks(node_of_rank, k, placement);
          const std::string where = ::testing::PrintToString(node_of_rank) + " k=" + std::to_string(k) +
                                    (placement == SweepPlacement::kBlock ? " block" : " spread");
          ASSERT_EQ(step.ranks.size(), k) << where;
          EXPECT_TRUE(std::is_sorted(step.ranks.begin(), step.ranks.end())) << where;
          EXPECT_EQ(std::adjacent_find(step.ranks.begin(), step.ranks.end()), step.ranks.end()) << where;
          EXPECT_LT(step.ranks.back(), job) << where;
          EXPECT_EQ(step.ranks.front(), 0u) << where << ": rank 0 always takes part";
          EXPECT_TRUE(std::includes(step.ranks.begin(), step.ranks.end(), smaller.begin(), smaller.end()))
              << where << ": a step holds every smaller step's ranks";
          smaller = step.ranks;
          // The step's nodes: renumbered by first appearance, consistent with the job's.
          std::map<std::uint32_t, std::uint32_t> renumbered;
          std::map<std::uint32_t, std::uint32_t> taken;  // job node -> ranks taken from it
          ASSERT_EQ(step.node_of_rank.size(), k) << where;
          for (std::uint32_t i = 0; i < k; ++i) {
            const std::uint32_t node = node_of_rank[step.ranks[i]];
            const auto [at, added] = renumbered.emplace(node, static_cast<std::uint32_t>(renumbered.size()));
            EXPECT_EQ(step.node_of_rank[i], at->second) << where;
            ++taken[node];
          }
          EXPECT_EQ(step.nodes, renumbered.size()) << where;
          if (placement == SweepPlacement::kBlock) {
            for (std::uint32_t i = 0; i < k; ++i) EXPECT_EQ(step.ranks[i], i) << where;
            continue;
          }
          // Spread: as many nodes as possible; from each node its lowest ranks; a node has fewer ranks than
          // an earlier one (in lowest-rank order, here node number order) by at most one, and more only
          // when the earlier one ran out.
          EXPECT_EQ(step.nodes, std::min(k, nodes)) << where;
          for (const auto& [node, count] : taken) {
            const Ranks& own = ranks_on[node];
            for (std::uint32_t j = 0; j < count; ++j) {
              EXPECT_TRUE(std::binary_search(step.ranks.begin(), step.ranks.end(), own[j])) << where;
            }
          }
          for (std::uint32_t a = 0; a < nodes; ++a) {
            for (std::uint32_t b = a + 1; b < nodes; ++b) {
              const std::uint32_t ta = taken[a], tb = taken[b];
              const bool a_full = ta == ranks_on[a].size(), b_full = tb == ranks_on[b].size();
              EXPECT_TRUE(tb <= ta || a_full) << where << ": node " << b << " before " << a;
              EXPECT_TRUE(ta <= tb + 1 || b_full) << where << ": node " << a << " two ahead of " << b;
            }
          }
        }
      }
    });
  }
  EXPECT_EQ(layouts, 1u + 2 + 5 + 15 + 52 + 203 + 877 + 4140);  // Bell numbers
}

// ---- formulas

TEST(SweepMetrics, PerRankAndEfficiency) {
  EXPECT_DOUBLE_EQ(perRankRate(1000.0, 4), 250.0);
  EXPECT_DOUBLE_EQ(perRankRate(1000.0, 1), 1000.0);
  EXPECT_DOUBLE_EQ(perRankRate(1000.0, 0), 0.0);
  EXPECT_DOUBLE_EQ(scalingEfficiency(250.0, 1000.0), 0.25);
  EXPECT_DOUBLE_EQ(scalingEfficiency(1000.0, 1000.0), 1.0);
  EXPECT_DOUBLE_EQ(scalingEfficiency(1200.0, 1000.0), 1.2);
  EXPECT_DOUBLE_EQ(scalingEfficiency(5.0, 0.0), 0.0);
}

}  // namespace
}  // namespace mdbench
