// Acceptance rules: grammar, units, evaluation on hand-built configurations, and the JUnit writer.
#include "mdbench/report/check.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace mdbench {
namespace {

Rule parsed(std::string_view text) {
  const RuleParse p = parseRule(text);
  EXPECT_TRUE(p.errors.empty()) << text << ": " << (p.errors.empty() ? "" : p.errors[0]);
  EXPECT_EQ(p.rules.size(), 1u) << text;
  return p.rules.empty() ? Rule{} : p.rules[0];
}

std::string error(std::string_view text) {
  const RuleParse p = parseRule(text);
  EXPECT_TRUE(p.rules.empty()) << text;
  EXPECT_EQ(p.errors.size(), 1u) << text;
  return p.errors.empty() ? std::string() : p.errors[0];
}

// --- Grammar ---

TEST(CheckRule, DefaultsToTheMeanRateAtEveryRankCount) {
  const Rule r = parsed("  file-create >= 50000  ");
  EXPECT_EQ(r.text, "file-create >= 50000");
  EXPECT_EQ(r.series, "file-create");
  EXPECT_EQ(r.metric, Metric::kRate);
  EXPECT_EQ(r.ranks, 0u);
  EXPECT_EQ(r.comparison, Comparison::kGreaterEqual);
  EXPECT_EQ(r.limit, 50000.0);
  EXPECT_EQ(r.display_unit, "ops/s");
  EXPECT_EQ(r.display_scale, 1.0);
  EXPECT_TRUE(r.origin.empty());
}

TEST(CheckRule, EveryMetric) {
  const std::vector<std::pair<std::string, Metric>> metrics = {{"rate", Metric::kRate},
                                                               {"rate-min", Metric::kRateMin},
                                                               {"rate-max", Metric::kRateMax},
                                                               {"stonewall-rate", Metric::kStonewallRate},
                                                               {"p50", Metric::kP50},
                                                               {"p90", Metric::kP90},
                                                               {"p99", Metric::kP99},
                                                               {"p999", Metric::kP999},
                                                               {"latency-max", Metric::kLatencyMax},
                                                               {"failed", Metric::kFailed}};
  for (const auto& [name, metric] : metrics) {
    const bool latency = name[0] == 'p' || name == "latency-max";
    const std::string value = latency ? "1ms" : "1";
    const Rule r = parsed("dir-stat." + name + " >= " + value);
    EXPECT_EQ(r.metric, metric) << name;
    EXPECT_EQ(metricName(metric), name);
  }
}

TEST(CheckRule, EveryComparisonWithOrWithoutSpaces) {
  const std::vector<std::pair<std::string, Comparison>> ops = {{">=", Comparison::kGreaterEqual},
                                                               {"<=", Comparison::kLessEqual},
                                                               {">", Comparison::kGreater},
                                                               {"<", Comparison::kLess},
                                                               {"==", Comparison::kEqual}};
  for (const auto& [op, comparison] : ops) {
    EXPECT_EQ(parsed("file-stat" + op + "5").comparison, comparison) << op;
    EXPECT_EQ(parsed("file-stat \t" + op + "   5").comparison, comparison) << op;
    EXPECT_EQ(comparisonText(comparison), op);
  }
}

TEST(CheckRule, EveryPhaseAndDataPathSeries) {
  for (const char* name :
       {"tree-create", "dir-create", "dir-stat", "dir-readdir", "dir-rename", "dir-remove", "file-create",
        "file-stat", "file-readdir", "file-read", "file-rename", "file-remove", "tree-remove", "steady",
        "ior:write", "iozone:initial-write", "ior:read_2"}) {
    EXPECT_EQ(parsed(std::string(name) + " > 1").series, name);
  }
}

TEST(CheckRule, RankCountAndMetricTogether) {
  const Rule r = parsed("file-stat.p99@8 < 2ms");
  EXPECT_EQ(r.series, "file-stat");
  EXPECT_EQ(r.metric, Metric::kP99);
  EXPECT_EQ(r.ranks, 8u);
  EXPECT_EQ(parsed("file-stat@16>=1").ranks, 16u);
}

TEST(CheckRule, RuleFileSkipsCommentsAndBlankLinesAndNamesLines) {
  const RuleParse p = parseRules(
      "# gates for the nightly job\n\nfile-create >= 10k  # the headline\n  \nfile-stat.p99 < 2 # no unit\r\n"
      "dir-stat.failed == 0",
      "gates.rules");
  ASSERT_EQ(p.rules.size(), 2u);
  EXPECT_EQ(p.rules[0].text, "file-create >= 10k");
  EXPECT_EQ(p.rules[0].origin, "gates.rules:3");
  EXPECT_EQ(p.rules[1].origin, "gates.rules:6");
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.errors[0],
            "gates.rules:5: rule 'file-stat.p99 < 2': a latency needs a unit (ns, us, µs, ms, s)");
}

// --- Units ---

TEST(CheckUnits, RateMultipliersAndUnitsExactly) {
  EXPECT_EQ(parsed("file-create >= 1.5M").limit, 1.5e6);
  EXPECT_EQ(parsed("file-create >= 50k").limit, 50000.0);
  EXPECT_EQ(parsed("file-create >= 2G").limit, 2e9);
  EXPECT_EQ(parsed("file-create >= 50k ops/s").limit, 50000.0);
  EXPECT_EQ(parsed("file-create >= 50kops/s").limit, 50000.0);
  EXPECT_EQ(parsed("file-create >= 1e4").limit, 1e4);
  EXPECT_EQ(parsed("file-create >= .5").limit, 0.5);
  const Rule gib = parsed("ior:write >= 2GiB/s");
  EXPECT_EQ(gib.limit, 2048.0);
  EXPECT_EQ(gib.display_unit, "GiB/s");
  EXPECT_EQ(gib.display_scale, 1024.0);
  EXPECT_EQ(parsed("ior:write >= 2 GiB/s").limit, 2048.0);
  EXPECT_EQ(parsed("ior:write >= 1.5k MiB/s").limit, 1500.0);
  const Rule mib = parsed("ior:write >= 300");
  EXPECT_EQ(mib.limit, 300.0);
  EXPECT_EQ(mib.display_unit, "MiB/s");
}

// Decimal units as tools print them (IOR: "MiB/sec (MB/sec)"), in the data path's base unit MiB/s.
TEST(CheckUnits, DecimalAndBinaryBytesPerSecond) {
  constexpr double kMiB = 1024.0 * 1024.0;
  const Rule mb = parsed("ior:write>=1MB/s");
  EXPECT_EQ(mb.limit, 1e6 / kMiB);  // 0.95367431640625 MiB/s, exactly
  EXPECT_EQ(mb.display_unit, "MB/s");
  EXPECT_EQ(mb.display_scale, 1e6 / kMiB);
  EXPECT_EQ(parsed("ior:write >= 2 GB/s").limit, 2e9 / kMiB);
  EXPECT_EQ(parsed("ior:write >= 1 TB/s").limit, 1e12 / kMiB);
  EXPECT_EQ(parsed("ior:write >= 1.5k MB/s").limit, 1.5e9 / kMiB);
  EXPECT_EQ(parsed("ior:write >= 512 KiB/s").limit, 0.5);
  EXPECT_EQ(parsed("ior:write >= 1 TiB/s").limit, kMiB);
  const Rule sec = parsed("ior:read >= 1200 MB/sec");  // IOR's own spelling
  EXPECT_EQ(sec.limit, 1.2e9 / kMiB);
  EXPECT_EQ(sec.display_unit, "MB/s");
  EXPECT_EQ(parsed("ior:read >= 3 GiB/sec").limit, 3072.0);
  const Rule ops = parsed("file-create >= 5k ops/sec");  // mdtest's
  EXPECT_EQ(ops.limit, 5000.0);
  EXPECT_EQ(ops.display_unit, "ops/s");
}

TEST(CheckUnits, LatencyUnitsExactly) {
  EXPECT_EQ(parsed("file-stat.p50 < 2ms").limit, 2000000.0);
  EXPECT_EQ(parsed("file-stat.p50 < 2 ms").limit, 2000000.0);
  EXPECT_EQ(parsed("file-stat.p50 < 750ns").limit, 750.0);
  EXPECT_EQ(parsed("file-stat.p50 < 1.5us").limit, 1500.0);
  EXPECT_EQ(parsed("file-stat.p50 < 1.5µs").limit, 1500.0);
  EXPECT_EQ(parsed("file-stat.p50 < 3s").limit, 3e9);
  const Rule r = parsed("file-stat.latency-max <= 250ms");
  EXPECT_EQ(r.display_unit, "ms");
  EXPECT_EQ(r.display_scale, 1e6);
}

TEST(CheckUnits, FailedIsAWholeNumber) {
  const Rule r = parsed("file-create.failed == 0");
  EXPECT_EQ(r.limit, 0.0);
  EXPECT_EQ(r.display_unit, "ops");
  EXPECT_EQ(parsed("file-create.failed <= 12").limit, 12.0);
}

// --- Bad rules: every kind, each naming the rule ---

TEST(CheckBadRule, EachKindWithItsMessage) {
  EXPECT_EQ(
      error("file-creat >= 5"),
      "rule 'file-creat >= 5': unknown series 'file-creat': a phase (tree-create, dir-create, dir-stat, "
      "dir-readdir, dir-rename, dir-remove, file-create, file-stat, file-readdir, file-read, file-rename, "
      "file-remove, tree-remove), steady (--steady's mix) or TOOL:OPERATION");
  EXPECT_EQ(error("ior: >= 5"),
            "rule 'ior: >= 5': 'ior:' is not a data-path series TOOL:OPERATION (\"ior:write\")");
  // A tool mdbench import never writes is a bad rule (exit 2), as an unknown phase is, not a rule without
  // data.
  EXPECT_EQ(error("foo:bar >= 1"),
            "rule 'foo:bar >= 1': unknown tool 'foo' in 'foo:bar': a data-path series is ior:OPERATION, "
            "iozone:OPERATION, io500:OPERATION (the tools whose results mdbench import reads)");
  for (const char* rule :
       {"ior:write >= 1MB/s", "iozone:initial-write >= 1MB/s", "io500:ior-easy-write >= 1MB/s"})
    EXPECT_TRUE(parseRule(rule).errors.empty()) << rule;
  EXPECT_EQ(
      error("file-create.speed >= 5"),
      "rule 'file-create.speed >= 5': unknown metric 'speed' (rate, rate-min, rate-max, stonewall-rate, "
      "p50, p90, p99, p999, latency-max, failed, stall, recovery, "
      "server(COUNTER), server(COUNTER)/op)");
  EXPECT_EQ(error("file-create >= 5x0"),
            "rule 'file-create >= 5x0': unknown rate unit 'x0' (a number with "
            "optional k, M or G, then ops/s (or ops/sec))");
  EXPECT_EQ(error("file-create >= fast"), "rule 'file-create >= fast': 'fast' is not a number");
  EXPECT_EQ(error("file-create >= -5"), "rule 'file-create >= -5': '-5' is not a number");
  EXPECT_EQ(error("file-create >= inf"), "rule 'file-create >= inf': 'inf' is not a number");
  EXPECT_EQ(error("file-stat.p99 < 2"),
            "rule 'file-stat.p99 < 2': a latency needs a unit (ns, us, µs, ms, s)");
  EXPECT_EQ(error("file-stat.p99 < 2 fortnights"),
            "rule 'file-stat.p99 < 2 fortnights': unknown latency unit 'fortnights' (ns, us, µs, ms, s)");
  EXPECT_EQ(error("file-stat@0 > 1"),
            "rule 'file-stat@0 > 1': '@0' is not a rank count (a whole number from 1)");
  EXPECT_EQ(error("file-stat@ > 1"),
            "rule 'file-stat@ > 1': '@' is not a rank count (a whole number from 1)");
  EXPECT_EQ(error("file-stat@2x > 1"),
            "rule 'file-stat@2x > 1': '@2x' is not a rank count (a whole number from 1)");
  EXPECT_EQ(
      error("file-stat > 1 ops/s please"),
      "rule 'file-stat > 1 ops/s please': unknown rate unit 'ops/s please' (a number with optional k, M or "
      "G, then ops/s (or ops/sec))");
  EXPECT_EQ(error("file-stat rate > 1"), "rule 'file-stat rate > 1': unexpected 'rate' after 'file-stat'");
  EXPECT_EQ(error("file-stat 100"), "rule 'file-stat 100': no comparison (>=, <=, >, <, ==)");
  EXPECT_EQ(error("file-stat = 100"), "rule 'file-stat = 100': unknown comparison '=' (>=, <=, >, <, ==)");
  EXPECT_EQ(error("file-stat != 100"), "rule 'file-stat != 100': unknown comparison '!=' (>=, <=, >, <, ==)");
  EXPECT_EQ(error("file-stat >="), "rule 'file-stat >=': no value after the comparison");
  EXPECT_EQ(error(">= 5"), "rule '>= 5': no series before the comparison");
  EXPECT_EQ(error("file-create.failed == 0.5"),
            "rule 'file-create.failed == 0.5': '0.5' is not a whole number of operations");
  EXPECT_EQ(error("file-create.failed == 1k"),
            "rule 'file-create.failed == 1k': '1k' is not a whole number of operations");
}

TEST(CheckBadRule, UnitThatDoesNotFitTheSeries) {
  const std::string data_units = "KiB/s, MiB/s, GiB/s, TiB/s, MB/s, GB/s, TB/s (or /sec)";
  EXPECT_EQ(error("ior:write >= 5 ops/s"),
            "rule 'ior:write >= 5 ops/s': ops/s does not fit ior:write: a data-path series is measured in " +
                data_units);
  EXPECT_EQ(error("file-create >= 5 MiB/s"),
            "rule 'file-create >= 5 MiB/s': MiB/s does not fit file-create: a metadata series is measured in "
            "ops/s (or ops/sec)");
  EXPECT_EQ(error("file-create >= 5GiB/s"),
            "rule 'file-create >= 5GiB/s': GiB/s does not fit file-create: a metadata series is measured in "
            "ops/s (or ops/sec)");
  EXPECT_EQ(error("file-create >= 5MB/s"),
            "rule 'file-create >= 5MB/s': MB/s does not fit file-create: a metadata series is measured in "
            "ops/s (or ops/sec)");
  EXPECT_EQ(error("file-create >= 5ms"),
            "rule 'file-create >= 5ms': unknown rate unit 'ms' (a number with optional k, M or G, then ops/s "
            "(or ops/sec))");
  EXPECT_EQ(error("ior:write >= 5 PB/s"),
            "rule 'ior:write >= 5 PB/s': unknown rate unit 'PB/s' (a number with "
            "optional k, M or G, then " +
                data_units + ")");
  EXPECT_EQ(error("ior:write.p99 < 5ms"),
            "rule 'ior:write.p99 < 5ms': p99 is measured for metadata series only, not ior:write");
  EXPECT_EQ(error("ior:write.failed == 0"),
            "rule 'ior:write.failed == 0': failed is measured for metadata series only, not ior:write");
}

// IOzone's kB/sec is 1024 bytes a second, SI's kB 1000: refused, naming both and what to write instead.
TEST(CheckBadRule, AmbiguousKilobytes) {
  for (const std::string unit : {"kB/s", "KB/s", "kB/sec", "KB/sec"}) {
    EXPECT_EQ(error("ior:write >= 5 " + unit),
              "rule 'ior:write >= 5 " + unit + "': '" + unit +
                  "' is ambiguous (IOzone's kB is 1024 bytes, SI's 1000): write "
                  "KiB/s, or MB/s");
  }
}

TEST(CheckBadRule, EveryBadLineOfAFileAtOnce) {
  const RuleParse p =
      parseRules("file-stat >= 1\nbogus >= 1\nfile-stat.p99 < 1\nfile-stat@0 >= 1\n", "r.txt");
  EXPECT_EQ(p.rules.size(), 1u);
  ASSERT_EQ(p.errors.size(), 3u);
  EXPECT_EQ(p.errors[0].rfind("r.txt:2: rule 'bogus >= 1': unknown series 'bogus'", 0), 0u) << p.errors[0];
  EXPECT_EQ(p.errors[1], "r.txt:3: rule 'file-stat.p99 < 1': a latency needs a unit (ns, us, µs, ms, s)");
  EXPECT_EQ(parseRule("file-create.stall <= 30").errors.at(0),
            "rule 'file-create.stall <= 30': a duration needs a unit (ns, us, µs, ms, s)");
  EXPECT_NE(parseRule("file-create.recovery <= 3 min").errors.at(0).find("unknown duration unit 'min'"),
            std::string::npos);
  EXPECT_EQ(p.errors[2],
            "r.txt:4: rule 'file-stat@0 >= 1': '@0' is not a rank count (a whole number from 1)");
}

TEST(CheckBadRule, AFileThatIsNotRulesIsOneErrorNotItsBytes) {
  // A binary file (a results file given as --rules): one error naming it, nothing of its bytes.
  const RuleParse binary =
      parseRules(std::string("file-stat >= 1\n\x89HDF\r\n\x1a\n\0\0\0bogus", 24), "run.h5");
  EXPECT_TRUE(binary.rules.empty());
  ASSERT_EQ(binary.errors.size(), 1u);
  EXPECT_EQ(binary.errors[0], "run.h5: not a text file of rules (a NUL byte on line 4)");
  // A long text file: the first 20 bad lines quoted, the rest counted.
  std::string log;
  for (int i = 0; i < 25; ++i) log += "a line of a log\n";
  const RuleParse text = parseRules(log, "job.log");
  ASSERT_EQ(text.errors.size(), 21u);
  EXPECT_EQ(text.errors[0].rfind("job.log:1: rule 'a line of a log'", 0), 0u) << text.errors[0];
  EXPECT_EQ(text.errors[20], "job.log: 5 more lines that are not rules (the first 20 are above)");
  // No rule at all.
  const RuleParse none = parseRules("# gates to come\n\n   \n", "gates.rules");
  EXPECT_TRUE(none.rules.empty());
  ASSERT_EQ(none.errors.size(), 1u);
  EXPECT_EQ(none.errors[0], "gates.rules: holds no rule (only blank lines and comments)");
  EXPECT_EQ(parseRules("", "empty.rules").errors.size(), 1u);
}

// --- Evaluation ---

ScalingPoint point(std::uint32_t ranks, double mean) {
  ScalingPoint p;
  p.ranks = ranks;
  p.iterations = 2;
  p.mean = mean;
  p.min = mean * 0.9;
  p.max = mean * 1.1;
  p.has_latency = true;
  p.latency = {1'500'000, 1'800'000, 2'000'000, 2'500'000, 9'000'000};
  p.ok = 1000;
  return p;
}

Configuration configuration() {
  Configuration c;
  c.label = "check";
  c.files = {"a.h5", "b.h5"};
  Series create{
      SeriesKind::kMetadata, "file-create", "ops/s", "ranks", {point(1, 20000.0), point(2, 41234.4)}};
  create.points[1].failed = 3;
  create.points[1].stonewall_mean = 40000.0;
  Series stat{SeriesKind::kMetadata, "file-stat", "ops/s", "ranks", {point(1, 50000.0)}};
  Series imported{SeriesKind::kMetadata, "dir-stat", "ops/s", "ranks", {point(4, 9000.0)}};
  imported.points[0].has_latency = false;
  imported.points[0].latency = {};
  Series ior{SeriesKind::kDataPath, "ior:write", "MiB/s", "clients", {point(1, 1536.0)}};
  ior.points[0].has_latency = false;
  c.series = {create, stat, imported, ior};
  return c;
}

std::vector<Outcome> check(std::string_view text) { return evaluate({parsed(text)}, configuration()); }

TEST(CheckEvaluate, PassAndFailWithValuesInTheRuleUnit) {
  const std::vector<Outcome> o = check("file-create@2 >= 50k");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_FALSE(o[0].passed());
  EXPECT_EQ(o[0].ranks, 2u);
  EXPECT_EQ(o[0].rule, "file-create@2 >= 50k");
  EXPECT_EQ(o[0].message, "file-create at 2 ranks: 41,234 ops/s, required >= 50,000 ops/s");
  const std::vector<Outcome> ok = check("file-create@2 >= 40k ops/s");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_TRUE(ok[0].passed());
  EXPECT_EQ(ok[0].message, "file-create at 2 ranks: 41,234 ops/s, required >= 40,000 ops/s");
}

TEST(CheckEvaluate, BoundaryEqualValues) {
  EXPECT_TRUE(check("file-stat >= 50000")[0].passed());
  EXPECT_FALSE(check("file-stat > 50000")[0].passed());
  EXPECT_TRUE(check("file-stat <= 50k")[0].passed());
  EXPECT_FALSE(check("file-stat < 50k")[0].passed());
  EXPECT_TRUE(check("file-stat == 50k")[0].passed());
  EXPECT_EQ(check("file-stat > 50000")[0].message,
            "file-stat at 1 rank: 50,000 ops/s, required > 50,000 ops/s");
}

TEST(CheckEvaluate, NearbyValuesNeverPrintAlike) {
  EXPECT_EQ(check("file-create@2 >= 41234.5")[0].message,
            "file-create at 2 ranks: 41,234.4 ops/s, required >= 41,234.5 ops/s");
}

TEST(CheckEvaluate, OneOutcomePerRankCountWithoutRanks) {
  const std::vector<Outcome> o = check("file-create >= 30k");
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o[0].ranks, 1u);
  EXPECT_FALSE(o[0].passed());
  EXPECT_EQ(o[0].message, "file-create at 1 rank: 20,000 ops/s, required >= 30,000 ops/s");
  EXPECT_EQ(o[1].ranks, 2u);
  EXPECT_TRUE(o[1].passed());
}

TEST(CheckEvaluate, IterationExtremesAndStonewall) {
  EXPECT_EQ(check("file-create.rate-min@1 >= 18k")[0].message,
            "file-create rate-min at 1 rank: 18,000 ops/s, required >= 18,000 ops/s");
  EXPECT_TRUE(check("file-create.rate-max@1 > 21999")[0].passed());
  const std::vector<Outcome> sw = check("file-create.stonewall-rate >= 1");
  ASSERT_EQ(sw.size(), 2u);
  EXPECT_EQ(sw[0].verdict, Verdict::kNoData);
  EXPECT_EQ(sw[0].message,
            "file-create.stonewall-rate >= 1: no file-create stonewall-rate at 1 rank in a.h5, b.h5: the "
            "stonewall (-W) did not fire");
  EXPECT_TRUE(sw[1].passed());
}

TEST(CheckEvaluate, LatencyInTheRuleUnit) {
  const std::vector<Outcome> o = check("file-stat.p99 < 2ms");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_FALSE(o[0].passed());
  EXPECT_EQ(o[0].message, "file-stat p99 at 1 rank: 2 ms, required < 2 ms");
  EXPECT_TRUE(check("file-stat.p99 <= 2000us")[0].passed());
  EXPECT_EQ(check("file-stat.p50 < 1.6ms")[0].message, "file-stat p50 at 1 rank: 1.5 ms, required < 1.6 ms");
  EXPECT_EQ(check("file-stat.latency-max < 1s")[0].message,
            "file-stat latency-max at 1 rank: 0.009 s, required < 1 s");
  EXPECT_TRUE(check("file-stat.p90 == 1800us")[0].passed());
  EXPECT_TRUE(check("file-stat.p999 > 2.4ms")[0].passed());
}

TEST(CheckEvaluate, FailedOperations) {
  const std::vector<Outcome> o = check("file-create.failed == 0");
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE(o[0].passed());
  EXPECT_FALSE(o[1].passed());
  EXPECT_EQ(o[1].message, "file-create failed at 2 ranks: 3 ops, required == 0 ops");
}

TEST(CheckEvaluate, DataPathInMiBOrGiB) {
  EXPECT_EQ(check("ior:write >= 2GiB/s")[0].message, "ior:write at 1 client: 1.5 GiB/s, required >= 2 GiB/s");
  EXPECT_EQ(check("ior:write >= 1000")[0].message,
            "ior:write at 1 client: 1,536 MiB/s, required >= 1,000 MiB/s");
  EXPECT_TRUE(check("ior:write >= 1000")[0].passed());
}

// 1 MB/s is 10^6 bytes a second, 1 MiB/s 2^20: a rate between the two passes one and fails the other.
TEST(CheckEvaluate, MegabytesAgainstMebibytes) {
  Configuration c = configuration();
  c.series[3].points[0].mean = 0.96;  // MiB/s: 1.0066 MB/s
  const auto at = [&](std::string_view text) { return evaluate({parsed(text)}, c)[0]; };
  EXPECT_TRUE(at("ior:write >= 1MB/s").passed());
  EXPECT_EQ(at("ior:write >= 1MB/s").message, "ior:write at 1 client: 1.007 MB/s, required >= 1 MB/s");
  EXPECT_FALSE(at("ior:write >= 1MiB/s").passed());
  EXPECT_EQ(at("ior:write >= 1MiB/s").message, "ior:write at 1 client: 0.96 MiB/s, required >= 1 MiB/s");
  c.series[3].points[0].mean = 1e6 / (1024.0 * 1024.0);
  EXPECT_TRUE(at("ior:write == 1 MB/s").passed());
  EXPECT_TRUE(at("ior:write < 1 MiB/s").passed());
  EXPECT_EQ(check("ior:write >= 2GB/s")[0].message, "ior:write at 1 client: 1.611 GB/s, required >= 2 GB/s");
}

// A rate of a point too short to time (model's rate_timing.hpp) is no data, with the counts that make it
// so; latencies, failed counts and server counters of the same point stay judged. --allow-short judges it,
// the message still saying so.
TEST(CheckEvaluate, RatesTooShortToTimeAreNoData) {
  Configuration c = configuration();
  ScalingPoint& p = c.series[0].points[1];  // file-create at 2 ranks
  p.ops = 26;
  p.ops_per_rank = 13;
  p.time_s = 0.000812;
  for (const char* rule : {"file-create@2 >= 1", "file-create.rate-min@2 >= 1", "file-create.rate-max@2 >= 1",
                           "file-create.stonewall-rate@2 >= 1"}) {
    const Outcome o = evaluate({parsed(rule)}, c)[0];
    EXPECT_EQ(o.verdict, Verdict::kNoData) << rule;
    EXPECT_NE(o.message.find(": too short to time: 26 ops (13 per rank) in 812 us (fewer than 10 ops per "
                             "rank or under 10 ms; --allow-short judges it)"),
              std::string::npos)
        << o.message;
  }
  EXPECT_EQ(
      evaluate({parsed("file-create@2 >= 1")}, c)[0].message,
      "file-create@2 >= 1: file-create at 2 ranks in a.h5, b.h5: too short to time: 26 ops (13 per rank) "
      "in 812 us (fewer than 10 ops per rank or under 10 ms; --allow-short judges it)");
  EXPECT_TRUE(evaluate({parsed("file-create.p99@2 <= 1s")}, c)[0].passed());
  EXPECT_EQ(evaluate({parsed("file-create.failed@2 <= 3")}, c)[0].verdict, Verdict::kPass);
  // The point at 1 rank (no time known: an import without a time table, say) is judged as before.
  EXPECT_EQ(evaluate({parsed("file-create >= 1")}, c)[0].verdict, Verdict::kPass);
  EXPECT_EQ(evaluate({parsed("file-create >= 1")}, c)[1].verdict, Verdict::kNoData);

  const Outcome judged = evaluate({parsed("file-create@2 >= 50k")}, c, ShortPhases::kJudged)[0];
  EXPECT_EQ(judged.verdict, Verdict::kFail);
  EXPECT_EQ(
      judged.message,
      "file-create at 2 ranks: 41,234 ops/s, required >= 50,000 ops/s (too short to time: 26 ops (13 per "
      "rank) in 812 us; judged by --allow-short)");
  EXPECT_TRUE(evaluate({parsed("file-create@2 >= 1")}, c, ShortPhases::kJudged)[0].passed());
  // Long enough: 13 ops per rank in 20 ms.
  p.time_s = 0.02;
  EXPECT_EQ(evaluate({parsed("file-create@2 >= 1")}, c)[0].message,
            "file-create at 2 ranks: 41,234 ops/s, required >= 1 ops/s");
  // 9 ops per rank, however long.
  p.ops = 18;
  p.ops_per_rank = 9;
  p.time_s = 30.0;
  EXPECT_EQ(evaluate({parsed("file-create@2 >= 1")}, c)[0].verdict, Verdict::kNoData);
}

TEST(CheckEvaluate, MissingSeriesFails) {
  const std::vector<Outcome> o = check("file-remove >= 1");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_FALSE(o[0].passed());
  EXPECT_EQ(o[0].ranks, 0u);
  EXPECT_EQ(o[0].verdict, Verdict::kNoData);
  EXPECT_EQ(o[0].message, "file-remove >= 1: no file-remove results in a.h5, b.h5");
  EXPECT_EQ(check("file-remove@8 >= 1")[0].message,
            "file-remove@8 >= 1: no file-remove results at 8 ranks in a.h5, b.h5");
  EXPECT_EQ(check("iozone:read@1 >= 1")[0].message,
            "iozone:read@1 >= 1: no iozone:read results at 1 client in a.h5, b.h5");
}

TEST(CheckEvaluate, MissingRankCountFails) {
  const std::vector<Outcome> o = check("file-create@8 >= 1");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].verdict, Verdict::kNoData);
  EXPECT_EQ(o[0].ranks, 8u);
  EXPECT_EQ(
      o[0].message,
      "file-create@8 >= 1: no file-create results at 8 ranks in a.h5, b.h5 (file-create has 1, 2 ranks)");
}

TEST(CheckEvaluate, ManyFilesAreShortened) {
  Configuration c = configuration();
  c.files = {"a.h5", "b.h5", "c.h5", "d.h5", "e.h5"};
  EXPECT_EQ(evaluate({parsed("tree-create > 0")}, c)[0].message,
            "tree-create > 0: no tree-create results in a.h5, b.h5, c.h5 and 2 more");
}

// A metric the results do not hold is no data, never a pass: the message names series, metric and files.
TEST(CheckEvaluate, MetricsImportsDoNotHaveAreNoData) {
  EXPECT_EQ(
      check("dir-stat.p99 < 1ms")[0].message,
      "dir-stat.p99 < 1ms: no dir-stat p99 at 4 ranks in a.h5, b.h5: imported results have no latencies");
  EXPECT_EQ(check("dir-stat.p99 < 1ms")[0].verdict, Verdict::kNoData);
  EXPECT_EQ(check("dir-stat.failed == 0")[0].message,
            "dir-stat.failed == 0: no dir-stat failed at 4 ranks in a.h5, b.h5: imported results have no "
            "operation counts");
  EXPECT_EQ(check("dir-stat.failed == 0")[0].verdict, Verdict::kNoData);
  EXPECT_EQ(check("dir-stat.stonewall-rate > 0")[0].verdict, Verdict::kNoData);
  EXPECT_EQ(
      check("file-stat.stonewall-rate > 0")[0].message,
      "file-stat.stonewall-rate > 0: no file-stat stonewall-rate at 1 rank in a.h5, b.h5: the stonewall "
      "(-W) did not fire");
  EXPECT_TRUE(check("dir-stat >= 9k")[0].passed());
  EXPECT_EQ(check("dir-stat >= 90k")[0].verdict, Verdict::kFail);
}

TEST(CheckEvaluate, VerdictNames) {
  EXPECT_EQ(verdictName(Verdict::kPass), "PASS");
  EXPECT_EQ(verdictName(Verdict::kFail), "FAIL");
  EXPECT_EQ(verdictName(Verdict::kNoData), "NO-DATA");
}

TEST(CheckRule, SubjectSplitsBeforeNamesAreChecked) {
  RuleSubject parts;
  EXPECT_EQ(splitRuleSubject("file-stat.p99@8", parts), "");
  EXPECT_EQ(parts.series, "file-stat");
  EXPECT_EQ(parts.metric, "p99");
  EXPECT_EQ(parts.ranks, 8u);
  EXPECT_EQ(splitRuleSubject("anything:at-all", parts), "");
  EXPECT_EQ(parts.series, "anything:at-all");
  EXPECT_EQ(parts.metric, "");
  EXPECT_EQ(parts.ranks, 0u);
  EXPECT_EQ(splitRuleSubject("file-stat.@2", parts), "no metric after 'file-stat.'");
  EXPECT_EQ(splitRuleSubject("file-stat@x", parts), "'@x' is not a rank count (a whole number from 1)");
  EXPECT_EQ(error("file-stat. >= 1"), "rule 'file-stat. >= 1': no metric after 'file-stat.'");
}

TEST(CheckEvaluate, RulesInOrder) {
  const std::vector<Outcome> o = evaluate(
      {parsed("file-stat >= 1"), parsed("file-create >= 1"), parsed("ior:write >= 1")}, configuration());
  ASSERT_EQ(o.size(), 4u);
  EXPECT_EQ(o[0].rule, "file-stat >= 1");
  EXPECT_EQ(o[1].rule, "file-create >= 1");
  EXPECT_EQ(o[2].rule, "file-create >= 1");
  EXPECT_EQ(o[3].rule, "ior:write >= 1");
  EXPECT_EQ(o[3].x_unit, "clients");
}

// Several configurations (the mdbench runs and each imported command line): a rule is checked on each that
// has its series, each verdict names it; none having it is one NO-DATA over every file.
TEST(CheckEvaluate, EachConfigurationApartNeverPooled) {
  Configuration runs = configuration();
  runs.label = "results";
  runs.files = {"a.h5"};
  Configuration mdtest;
  mdtest.label = "results (mdtest)";
  mdtest.files = {"a.h5", "m.h5"};
  mdtest.series = {Series{SeriesKind::kMetadata, "file-create", "ops/s", "ranks", {point(2, 9000.0)}}};
  const std::vector<Configuration> both = {runs, mdtest};
  const std::vector<Outcome> o = evaluate({parsed("file-create@2 >= 10k")}, both);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE(o[0].passed());
  EXPECT_EQ(o[0].configuration, "results");
  EXPECT_EQ(o[0].message, "[results] file-create at 2 ranks: 41,234 ops/s, required >= 10,000 ops/s");
  EXPECT_FALSE(o[1].passed());  // pooled, the mean 25,117 would have passed
  EXPECT_EQ(o[1].configuration, "results (mdtest)");
  EXPECT_EQ(o[1].message, "[results (mdtest)] file-create at 2 ranks: 9,000 ops/s, required >= 10,000 ops/s");
  EXPECT_EQ(testcaseName(o[1]), "file-create@2 >= 10k @ 2 ranks [results (mdtest)]");
  // Only one has file-stat: checked there alone; a rank count only the other has is NO-DATA in this one.
  const std::vector<Outcome> stat = evaluate({parsed("file-stat >= 1"), parsed("file-create@1 >= 1")}, both);
  ASSERT_EQ(stat.size(), 3u);
  EXPECT_EQ(stat[0].configuration, "results");
  EXPECT_TRUE(stat[1].passed());
  EXPECT_EQ(stat[2].verdict, Verdict::kNoData);
  EXPECT_EQ(
      stat[2].message,
      "[results (mdtest)] file-create@1 >= 1: no file-create results at 1 rank in a.h5, m.h5 (file-create "
      "has 2 ranks)");
  // No configuration has it: one NO-DATA naming every file once, no configuration.
  const std::vector<Outcome> none = evaluate({parsed("dir-create >= 1")}, both);
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].verdict, Verdict::kNoData);
  EXPECT_EQ(none[0].configuration, "");
  EXPECT_EQ(none[0].message, "dir-create >= 1: no dir-create results in a.h5, m.h5");
  // One configuration is named too: a verdict always says what it measured.
  const std::vector<Outcome> one =
      evaluate({parsed("file-create@2 >= 10k")}, std::vector<Configuration>{runs});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].configuration, "results");
  EXPECT_EQ(one[0].message, "[results] file-create at 2 ranks: 41,234 ops/s, required >= 10,000 ops/s");
}

// --- JUnit ---

TEST(CheckJUnit, ExactDocumentForATinyCase) {
  JUnitReport report;
  report.files = {"a.h5"};
  report.outcomes = {Outcome{.rule = "file-create >= 1",
                             .ranks = 2,
                             .x_unit = "ranks",
                             .verdict = Verdict::kPass,
                             .message = "file-create at 2 ranks: 5 ops/s, required >= 1 ops/s"},
                     Outcome{.rule = "file-stat >= 9",
                             .origin = "r.txt:3",
                             .ranks = 1,
                             .x_unit = "ranks",
                             .verdict = Verdict::kFail,
                             .message = "file-stat at 1 rank: 5 ops/s, required >= 9 ops/s"}};
  std::ostringstream out;
  writeJUnit(out, report);
  EXPECT_EQ(out.str(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"mdbench check\" tests=\"2\" failures=\"1\" errors=\"0\" time=\"0\">\n"
            "  <testsuite name=\"mdbench check\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\" "
            "time=\"0\">\n"
            "    <properties>\n"
            "      <property name=\"file\" value=\"a.h5\"/>\n"
            "    </properties>\n"
            "    <testcase classname=\"mdbench.check\" name=\"file-create &gt;= 1 @ 2 ranks\" time=\"0\">\n"
            "      <system-out>file-create at 2 ranks: 5 ops/s, required &gt;= 1 ops/s</system-out>\n"
            "    </testcase>\n"
            "    <testcase classname=\"mdbench.check\" name=\"file-stat &gt;= 9 @ 1 ranks\" time=\"0\">\n"
            "      <failure message=\"file-stat at 1 rank: 5 ops/s, required &gt;= 9 ops/s\" "
            "type=\"threshold\">rule: file-stat &gt;= 9 (r.txt:3)&#10;file-stat at 1 rank: 5 ops/s, required "
            "&gt;= 9 ops/s</failure>\n"
            "      <system-out>file-stat at 1 rank: 5 ops/s, required &gt;= 9 ops/s</system-out>\n"
            "    </testcase>\n"
            "  </testsuite>\n"
            "</testsuites>\n");
}

TEST(CheckJUnit, NoDataIsItsOwnFailureType) {
  JUnitReport report;
  report.files = {"a.h5"};
  report.outcomes = {Outcome{.rule = "file-stat@8 >= 1",
                             .ranks = 8,
                             .x_unit = "ranks",
                             .verdict = Verdict::kNoData,
                             .message = "file-stat@8 >= 1: no file-stat results at 8 ranks in a.h5"},
                     Outcome{.rule = "file-stat >= 9",
                             .ranks = 1,
                             .x_unit = "ranks",
                             .verdict = Verdict::kFail,
                             .message = "m"}};
  std::ostringstream out;
  writeJUnit(out, report);
  const std::string xml = out.str();
  EXPECT_NE(xml.find("tests=\"2\" failures=\"2\" errors=\"0\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"file-stat@8 &gt;= 1: no file-stat results at 8 ranks in a.h5\" "
                     "type=\"no-data\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<failure message=\"m\" type=\"threshold\">"), std::string::npos) << xml;
}

TEST(CheckJUnit, ReadErrorIsAnErroringTestcase) {
  JUnitReport report;
  report.files = {"gone.h5"};
  report.error = "gone.h5: cannot open";
  std::ostringstream out;
  writeJUnit(out, report);
  const std::string xml = out.str();
  EXPECT_NE(xml.find("tests=\"1\" failures=\"0\" errors=\"1\""), std::string::npos) << xml;
  EXPECT_NE(
      xml.find("<error message=\"gone.h5: cannot open\" type=\"results-file\">gone.h5: cannot open</error>"),
      std::string::npos)
      << xml;
}

TEST(CheckJUnit, EscapesEverything) {
  EXPECT_EQ(xmlEscape("a<b&c\"d>e'f"), "a&lt;b&amp;c&quot;d&gt;e&apos;f");
  EXPECT_EQ(xmlEscape("tab\tline\nret\r"), "tab&#9;line&#10;ret&#13;");
  EXPECT_EQ(xmlEscape(std::string("bell\x07nul") + '\0'), "bell\xEF\xBF\xBDnul\xEF\xBF\xBD");
  EXPECT_EQ(xmlEscape("µs ✓"), "µs ✓");
  EXPECT_EQ(xmlEscape("bad\xFF\xC3"), "bad\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(xmlEscape("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate

  JUnitReport report;
  report.files = {"dir \"<&>\"/a.h5"};
  report.notes = {"run-0001 in a.h5 <failed>"};
  report.outcomes = {Outcome{
      .rule = "x<&\">", .ranks = 0, .x_unit = "ranks", .verdict = Verdict::kFail, .message = "m<&\">"}};
  std::ostringstream out;
  writeJUnit(out, report);
  const std::string xml = out.str();
  EXPECT_NE(xml.find("<property name=\"file\" value=\"dir &quot;&lt;&amp;&gt;&quot;/a.h5\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<property name=\"note\" value=\"run-0001 in a.h5 &lt;failed&gt;\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("name=\"x&lt;&amp;&quot;&gt;\" time"), std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"m&lt;&amp;&quot;&gt;\""), std::string::npos);
  EXPECT_EQ(xml.find("m<"), std::string::npos);
}

TEST(CheckJUnit, TestcaseNames) {
  EXPECT_EQ(testcaseName(Outcome{
                .rule = "file-create >= 1", .ranks = 4, .x_unit = "ranks", .verdict = Verdict::kPass}),
            "file-create >= 1 @ 4 ranks");
  EXPECT_EQ(testcaseName(Outcome{
                .rule = "ior:write >= 1", .ranks = 2, .x_unit = "clients", .verdict = Verdict::kPass}),
            "ior:write >= 1 @ 2 clients");
  EXPECT_EQ(testcaseName(Outcome{
                .rule = "file-remove >= 1", .ranks = 0, .x_unit = "ranks", .verdict = Verdict::kFail}),
            "file-remove >= 1");
}

}  // namespace
}  // namespace mdbench

namespace mdbench {
namespace {

// --- Rules on the servers' counters (--server-stats) ---

Configuration serverConfiguration() {
  Configuration c = configuration();
  ScalingPoint& create = c.series[0].points[1];  // file-create at 2 ranks: 2 iterations of 1000 ops each
  create.server_iterations = 2;
  create.server_ops = 2000;
  create.server_deltas = {{"mds.request", 2004.0}, {"mds_server.req_create_latency.avgcount", 2000.0}};
  ScalingPoint& stat = c.series[1].points[0];  // file-stat at 1 rank: served from the client's cache
  stat.server_iterations = 1;
  stat.server_ops = 1000;
  stat.server_deltas = {{"mds.request", 4.0}};
  return c;
}

std::vector<Outcome> checkServer(std::string_view text) {
  return evaluate({parsed(text)}, serverConfiguration());
}

TEST(CheckServer, CounterAgainstTheOpsAndPerOp) {
  std::vector<Outcome> o = checkServer("file-create.server(mds_server.req_create_latency.avgcount)@2==ops");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].passed()) << o[0].message;
  EXPECT_EQ(o[0].message,
            "file-create server(mds_server.req_create_latency.avgcount) at 2 ranks: 1,000, required == 1,000 "
            "(the phase's operations)");
  o = checkServer("file-create.server(mds.request)/op@2 >= 1.5");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].verdict, Verdict::kFail) << o[0].message;
  o = checkServer("file-stat.server(mds.request)/op >= 0.9");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].verdict, Verdict::kFail) << o[0].message;  // 0.004 requests per stat: the client's cache
}

TEST(CheckServer, MissingCountersAreNoData) {
  std::vector<Outcome> o = checkServer("file-stat.server(mds.nothing) >= 1");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].verdict, Verdict::kNoData);
  EXPECT_NE(o[0].message.find("no counter mds.nothing"), std::string::npos) << o[0].message;
  o = checkServer("file-create.server(mds.request)@1 >= 1");  // a point without --server-stats
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].verdict, Verdict::kNoData);
  Configuration c = serverConfiguration();
  c.series[1].points[0].server_problem = "the server counters of ceph-mds:/x failed in iteration 0: gone";
  o = evaluate({parsed("file-stat.server(mds.request) >= 1")}, c);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].verdict, Verdict::kNoData);
}

TEST(CheckServer, BadServerRules) {
  EXPECT_FALSE(parseRule("file-stat.server(mds.request >= 1").errors.empty());
  EXPECT_FALSE(parseRule("file-stat.server(a b) >= 1").errors.empty());
  EXPECT_FALSE(parseRule("file-stat.server(mds.request)/s >= 1").errors.empty());
  EXPECT_FALSE(parseRule("file-stat.server(mds.request)/op == ops").errors.empty());
  EXPECT_FALSE(parseRule("file-stat.server(mds.request) >= 1ms").errors.empty());
  EXPECT_FALSE(parseRule("ior:write.server(mds.request) >= 1").errors.empty());
  EXPECT_TRUE(parseRule("file-stat.server(mds.request)@2 >= 1k").errors.empty());
}

}  // namespace
}  // namespace mdbench
