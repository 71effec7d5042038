// The human-readable console report: a header describing the run and a summary table with units.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mdbench/model/metrics.hpp"
#include "mdbench/model/sink.hpp"

namespace mdbench {

class ConsoleSink final : public Sink {
 public:
  explicit ConsoleSink(std::FILE* out) : out_(out) {}
  void begin(const RunInfo& info, const Plan& plan) override;
  void phase(const PhaseResult& result, const Plan& plan) override;
  void end(const RunResult& result, const Plan& plan) override;

 private:
  void printLatencyTable(const RunResult& run, const Plan& plan);
  void printStonewallTable(const RunResult& run, const Plan& plan);
  void printDoneTable(const RunResult& run, const Plan& plan);
  void printShortLegend(const RunResult& run, const Plan& plan);
  void printShortLegendLine();
  void printRanks(const PhaseResult& result, std::uint32_t verbosity);
  void printSummaryTable(const RunResult& run, const Plan& plan);
  void printFirstErrors(const RunResult& run, const Plan& plan);
  void steadyPhase(const PhaseResult& phase);
  void printSteadyEnd(const RunResult& run);
  void printClosing(const RunResult& run);
  std::FILE* out_;
  // First-done and last-done rates of every phase run, computed when it was seen (the per-rank series they
  // need are freed before end()).
  std::vector<std::pair<Phase, DoneRates>> done_;
};

// After a sweep (--sweep): one row per phase and step, in steps' order within each phase, with the mean
// ops/s, the rate per rank and the scaling efficiency against the first step (metrics.hpp). `steps` are rank
// 0's results of the steps that ran.
void printSweepTable(std::FILE* out, std::span<const RunResult> steps);

}  // namespace mdbench
