// The counter parsers on fixtures: exact values. ceph-mds-perf-dump.json is a real `perf dump` of a Ceph 16.2
// MDS (captured on the test bed, tests/testbed/); the Lustre files are hand-written from Lustre's documented
// md_stats output (fixtures/README.md).
#include "mdbench/serverstats/parse.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace mdbench::serverstats {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(SERVERSTATS_FIXTURES) + "/" + name);
  EXPECT_TRUE(in) << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ParseJson, FlattensNestedNumbersAndSkipsTheRest) {
  const Parsed p = parseJsonCounters(
      R"({"mds": {"request": 2000, "reply": 1999.0, "name": "a"},
          "mds_server": {"req_create_latency": {"avgcount": 2000, "sum": 1.5, "avgtime": 0.00075}},
          "flags": [1, 2], "up": true, "none": null, "top": 7})");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.counters.size(), 6u);
  EXPECT_EQ(p.counters.at("mds.request"), 2000);
  EXPECT_EQ(p.counters.at("mds.reply"), 1999);
  EXPECT_EQ(p.counters.at("mds_server.req_create_latency.avgcount"), 2000);
  EXPECT_EQ(p.counters.at("mds_server.req_create_latency.sum"), 1.5);
  EXPECT_EQ(p.counters.at("mds_server.req_create_latency.avgtime"), 0.00075);
  EXPECT_EQ(p.counters.at("top"), 7);
}

TEST(ParseJson, MalformedInputIsAClearError) {
  EXPECT_EQ(parseJsonCounters("{\"mds\": {\"request\": 1").error, "not valid JSON");
  EXPECT_EQ(parseJsonCounters("[1, 2]").error, "not a JSON object");
  EXPECT_EQ(parseJsonCounters("").error, "not valid JSON");
  std::string deep;
  for (int i = 0; i < 20; ++i) deep += "{\"a\":";
  deep += "1";
  for (int i = 0; i < 20; ++i) deep += "}";
  EXPECT_EQ(parseJsonCounters(deep).error, "objects nested more than 16 deep");
}

TEST(ParseJson, RealCephPerfDump) {
  const Parsed p = parseJsonCounters(fixture("ceph-mds-perf-dump.json"));
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_GT(p.counters.size(), 100u);
  for (const char* name :
       {"mds.request", "mds.reply", "mds.forward", "mds_server.handle_client_request",
        "mds_server.req_create_latency.avgcount", "mds_server.req_getattr_latency.avgcount",
        "mds_server.req_lookup_latency.avgcount"}) {
    EXPECT_TRUE(p.counters.contains(name)) << name;
  }
}

TEST(ParseLustre, OldFormatOneFile) {
  const Parsed p = parseLustreMdStats(fixture("lustre-md_stats-2.10.txt"), "testfs-MDT0000");
  ASSERT_TRUE(p.ok()) << p.error;
  const Counters expected = {{"testfs-MDT0000.open", 2},
                             {"testfs-MDT0000.close", 1},
                             {"testfs-MDT0000.mknod", 3},
                             {"testfs-MDT0000.getattr", 3},
                             {"testfs-MDT0000.statfs", 20}};
  EXPECT_EQ(p.counters, expected);
}

TEST(ParseLustre, GetParamOutputWithTwoMdtsAndFields) {
  const Parsed p = parseLustreMdStats(fixture("lustre-get_param-2.15.txt"), "ignored");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.counters.size(), 7u * 5);
  EXPECT_EQ(p.counters.at("lustre-MDT0000.getattr"), 2001);
  EXPECT_EQ(p.counters.at("lustre-MDT0000.getattr.min"), 1);
  EXPECT_EQ(p.counters.at("lustre-MDT0000.getattr.max"), 30);
  EXPECT_EQ(p.counters.at("lustre-MDT0000.getattr.sum"), 6012);
  EXPECT_EQ(p.counters.at("lustre-MDT0000.getattr.sumsq"), 20122);
  EXPECT_EQ(p.counters.at("lustre-MDT0000.mkdir"), 4);
  EXPECT_EQ(p.counters.at("lustre-MDT0001.open"), 3);
  EXPECT_EQ(p.counters.at("lustre-MDT0001.getattr.sum"), 40);
  EXPECT_FALSE(p.counters.contains("ignored.open"));
  EXPECT_FALSE(p.counters.contains("lustre-MDT0000.snapshot_time"));
}

TEST(ParseLustre, MalformedInputIsAClearError) {
  EXPECT_EQ(parseLustreMdStats("open 3 samples [reqs]\n", "m").error, "no snapshot_time line: not md_stats");
  EXPECT_EQ(parseLustreMdStats("snapshot_time 1.0 secs.usecs\nopen three samples [reqs]\n", "m").error,
            "line 2: expected '<op> <count> samples [<unit>] ...': 'open three samples [reqs]'");
  EXPECT_EQ(parseLustreMdStats("snapshot_time 1.0 secs.usecs\nopen 3 samples [usecs] 1 2 x\n", "m").error,
            "line 2: unexpected 'x': 'open 3 samples [usecs] 1 2 x'");
  const Parsed bad = parseLustreMdStats("snapshot_time 1.0 secs.usecs\nopen 3 samples\ngarbage\n", "m");
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(bad.counters.empty());
}

TEST(ParseCommand, NameValueLinesAndJson) {
  const Parsed lines = parseCommandCounters("# counters\nreq 12\n\nlat.sum 0.25\r\n");
  ASSERT_TRUE(lines.ok()) << lines.error;
  EXPECT_EQ(lines.counters, (Counters{{"req", 12}, {"lat.sum", 0.25}}));
  const Parsed json = parseCommandCounters("  {\"a\": {\"b\": 3}}\n");
  ASSERT_TRUE(json.ok()) << json.error;
  EXPECT_EQ(json.counters, (Counters{{"a.b", 3}}));
}

TEST(ParseCommand, MalformedInputIsAClearError) {
  EXPECT_EQ(parseCommandCounters("req 12\nreq two\n").error,
            "line 2: expected '<name> <number>', got 'req two'");
  EXPECT_EQ(parseCommandCounters("a b c\n").error, "line 1: expected '<name> <number>', got 'a b c'");
  EXPECT_EQ(parseCommandCounters("x nan\n").error, "line 1: expected '<name> <number>', got 'x nan'");
  EXPECT_EQ(parseCommandCounters("\n# nothing\n").error, "no counters in the output");
  EXPECT_EQ(parseCommandCounters("{\"a\": ").error, "not valid JSON");
}

}  // namespace
}  // namespace mdbench::serverstats
