// Tests of `mdbench export` to CSV (RFC 4180): the header and every field of hand-made results read back
// exactly by a strict reader, quoting only where needed.
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "export_fixture.hpp"
#include "mdbench/model/phase.hpp"
#include "mdbench/model/rate_timing.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench::export_test {
namespace {

// ---- The strict CSV reader ----

TEST(CsvReader, IsStrict) {
  using Records = std::vector<std::vector<std::string>>;
  EXPECT_EQ(parseCsv("a,\"b,\"\"c\"\"\r\nd\",\n"), (Records{{"a", "b,\"c\"\r\nd", ""}}));
  EXPECT_EQ(parseCsv(""), Records{});
  EXPECT_FALSE(parseCsv("a,b"));       // no line end
  EXPECT_FALSE(parseCsv("a\"b\n"));    // stray quote
  EXPECT_FALSE(parseCsv("\"a\"b\n"));  // text after the closing quote
  EXPECT_FALSE(parseCsv("\"a\n"));     // unterminated
  EXPECT_FALSE(parseCsv("a\r\n"));     // bare CR
}

// ---- CSV ----

std::uint64_t toUint(const std::string& s) {
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  EXPECT_TRUE(ec == std::errc() && ptr == s.data() + s.size()) << "not an integer: '" << s << "'";
  return value;
}

double toDouble(const std::string& s) {
  double value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  EXPECT_TRUE(ec == std::errc() && ptr == s.data() + s.size()) << "not a number: '" << s << "'";
  return value;
}

void expectSameDouble(const std::string& text, double expected) {
  EXPECT_EQ(std::bit_cast<std::uint64_t>(toDouble(text)), std::bit_cast<std::uint64_t>(expected))
      << "'" << text << "' != " << expected;
}

constexpr std::string_view kCsvColumns[] = {"run",
                                            "iteration",
                                            "phase",
                                            "order",
                                            "rank",
                                            "node",
                                            "host",
                                            "planned",
                                            "ok",
                                            "failed",
                                            "bytes",
                                            "t_start",
                                            "t_local_end",
                                            "t_global_end",
                                            "rate",
                                            "phase_ops_per_s",
                                            "phase_time_s",
                                            "ops_at_stonewall",
                                            "t_stonewall",
                                            "phase_items",
                                            "phase_ops_per_s_at_stonewall",
                                            "phase_first_done_time_s",
                                            "phase_first_done_ops",
                                            "phase_first_done_ops_per_s",
                                            "phase_last_done_time_s",
                                            "phase_last_done_ops_per_s",
                                            "ranks",
                                            "sweep_step",
                                            "latency_p50_ns",
                                            "latency_p90_ns",
                                            "latency_p99_ns",
                                            "latency_p999_ns",
                                            "latency_max_ns",
                                            "phase_too_short"};

TEST(ExportCsv, HeaderAndEveryFieldReadBackExactly) {
  const StoredResults results = makeResults();
  const auto records = parseCsv(toCsv(results));
  ASSERT_TRUE(records);
  ASSERT_FALSE(records->empty());
  const std::vector<std::string> header((*records)[0].begin(), (*records)[0].end());
  EXPECT_EQ(header, std::vector<std::string>(std::begin(kCsvColumns), std::end(kCsvColumns)));

  std::size_t expected_rows = 0;
  for (const StoredRun& run : results.runs) {
    for (const StoredPhase& p : run.phases) expected_rows += p.ranks.size();
  }
  ASSERT_EQ(expected_rows, 13u);
  ASSERT_EQ(records->size(), 1 + expected_rows);

  std::size_t line = 1;
  for (const StoredRun& run : results.runs) {
    for (const StoredPhase& p : run.phases) {
      for (std::uint32_t rank = 0; rank < p.ranks.size(); ++rank) {
        const RankPhaseRecord& r = p.ranks[rank];
        const std::vector<std::string>& f = (*records)[line++];
        ASSERT_EQ(f.size(), std::size(kCsvColumns)) << "line " << line;
        EXPECT_EQ(f[0], run.group);
        EXPECT_EQ(toUint(f[1]), p.iteration);
        EXPECT_EQ(f[2], phaseName(p.phase));
        EXPECT_EQ(toUint(f[3]), p.order);
        EXPECT_EQ(toUint(f[4]), rank);
        EXPECT_EQ(toUint(f[5]), run.node_of_rank.at(rank));
        EXPECT_EQ(f[6], run.info.host_of_rank[rank]);
        EXPECT_EQ(toUint(f[7]), r.planned);
        EXPECT_EQ(toUint(f[8]), r.ok);
        EXPECT_EQ(toUint(f[9]), r.failed);
        EXPECT_EQ(toUint(f[10]), r.bytes);
        expectSameDouble(f[11], r.t_start);
        expectSameDouble(f[12], r.t_local_end);
        expectSameDouble(f[13], r.t_global_end);
        expectSameDouble(f[14], rankRate(r));
        expectSameDouble(f[15], p.aggregate.ops_per_s);
        expectSameDouble(f[16], p.aggregate.time_s);
        EXPECT_EQ(toUint(f[17]), r.ops_at_stonewall);
        expectSameDouble(f[18], r.t_stonewall);
        EXPECT_EQ(toUint(f[19]), p.items);
        expectSameDouble(f[20], p.aggregate.ops_per_s_at_stonewall);
        if (p.has_series) {
          expectSameDouble(f[21], p.done.first_done_time_s);
          EXPECT_EQ(toUint(f[22]), p.done.first_done_ops);
          expectSameDouble(f[23], p.done.first_done_ops_per_s);
          expectSameDouble(f[24], p.done.last_done_time_s);
          expectSameDouble(f[25], p.done.last_done_ops_per_s);
        } else {  // a file before version 5: empty, not 0
          EXPECT_EQ(std::vector<std::string>(f.begin() + 21, f.begin() + 26),
                    std::vector<std::string>(5, ""));
        }
        EXPECT_EQ(toUint(f[26]), run.info.ranks);
        EXPECT_EQ(toUint(f[27]), run.info.sweep.step);
        EXPECT_EQ(toUint(f[28]), p.latency_summary.p50_ns);
        EXPECT_EQ(toUint(f[29]), p.latency_summary.p90_ns);
        EXPECT_EQ(toUint(f[30]), p.latency_summary.p99_ns);
        EXPECT_EQ(toUint(f[31]), p.latency_summary.p999_ns);
        EXPECT_EQ(toUint(f[32]), p.latency_summary.max_ns);
        EXPECT_EQ(f[33], tooShortToTime(phaseSize(p, run.info.ranks)) ? "1" : "0");
      }
    }
  }
}

TEST(ExportCsv, QuotesOnlyWhatNeedsIt) {
  StoredResults results = makeResults();
  StoredPhase& p = results.runs[0].phases[0];
  p.ranks.resize(2);
  // Rank 1, on node 1 (node_of_rank); its rate 0 (t_local_end before t_start).
  RankPhaseRecord& r = p.ranks[1];
  r.planned = 10;
  r.ok = 9;
  r.failed = 1;
  r.bytes = 4096;
  r.t_start = 0.1;
  r.t_local_end = 1e-17;
  r.t_global_end = 123456789.123456789;
  r.ops_at_stonewall = 7;
  r.t_stonewall = 0.125;
  p.aggregate.ops_per_s = 2.5;
  p.aggregate.time_s = 0.30000000000000004;
  p.items = 10;
  p.aggregate.ops_per_s_at_stonewall = 56.0;
  p.done = {0.25, 12, 48.0, 0.5, 18.0};
  results.runs[0].phases.resize(1);
  results.runs.resize(1);
  const std::string csv = toCsv(results);
  const std::string row = csv.substr(csv.find('\n', csv.find('\n') + 1) + 1);
  EXPECT_EQ(
      row,
      "/runs/run-0000,0,file-create,0,1,1,\"we,ird \"\"host\"\"\",10,9,1,4096,0.1,1e-17,123456789.12345679,0,"
      "2.5,0.30000000000000004,7,0.125,10,56,0.25,12,48,0.5,18,3,0,4294967295,42,0,1,18446744073709551615,"
      "1\n");
}

TEST(ExportCsv, HeaderOnlyWithoutPhases) {
  StoredResults results = makeResults();
  for (StoredRun& run : results.runs) run.phases.clear();
  EXPECT_EQ(toCsv(results),
            std::string("run,iteration,phase,order,rank,node,host,planned,ok,failed,bytes,t_start,"
                        "t_local_end,t_global_end,rate,phase_ops_per_s,phase_time_s,ops_at_stonewall,"
                        "t_stonewall,phase_items,phase_ops_per_s_at_stonewall,phase_first_done_time_s,"
                        "phase_first_done_ops,phase_first_done_ops_per_s,phase_last_done_time_s,"
                        "phase_last_done_ops_per_s,ranks,sweep_step,latency_p50_ns,latency_p90_ns,latency_"
                        "p99_ns,latency_p999_ns,latency_max_ns,phase_too_short\n"));
}

}  // namespace
}  // namespace mdbench::export_test
