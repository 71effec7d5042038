// NFS-Ganesha's statistics replies (real `dbus-send --print-reply` outputs of ganesha 4.3 on the test bed:
// GetFULLV4Stats before and after 5 files copied in with nfs-cp over NFSv4, GetFULLV3Stats after an nfs-ls
// over v3, GetTotalOPS with no activity; fixtures/README.md), and the console's requests by operation for
// each kind of source (model's serverStatsLines) on them and on the real Ceph perf dump.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mdbench/model/server_stats.hpp"
#include "mdbench/serverstats/parse.hpp"
#include "mdbench/serverstats/source.hpp"

namespace mdbench::serverstats {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(SERVERSTATS_FIXTURES) + "/" + name);
  EXPECT_TRUE(in) << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool contains(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

TEST(ParseGanesha, RealFullV4Stats) {
  const Parsed p = parseGaneshaFullStats(fixture("ganesha-fullv4-after.txt"), "v4");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.counters.at("v4.OPEN"), 6);
  EXPECT_EQ(p.counters.at("v4.OPEN.errors"), 0);
  EXPECT_EQ(p.counters.at("v4.SETCLIENTID"), 8);
  EXPECT_EQ(p.counters.at("v4.WRITE"), 6);
  EXPECT_FALSE(p.counters.contains("v4.OPEN.dups"));  // v4 has no duplicate count
  EXPECT_EQ(p.counters.size(), 30u);                  // 15 operations, a count and errors each
}

TEST(ParseGanesha, RealFullV3StatsHaveDuplicates) {
  const Parsed p = parseGaneshaFullStats(fixture("ganesha-fullv3.txt"), "v3");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.counters.at("v3.GETATTR"), 4);
  EXPECT_EQ(p.counters.at("v3.GETATTR.errors"), 0);
  EXPECT_EQ(p.counters.at("v3.GETATTR.dups"), 0);
  EXPECT_EQ(p.counters.at("v3.READDIRPLUS"), 2);
}

TEST(ParseGanesha, NoActivityIsNoCountersOtherRefusalsAreErrors) {
  const Parsed none = parseGaneshaFullStats(fixture("ganesha-no-activity.txt"), "v3");
  EXPECT_TRUE(none.ok()) << none.error;
  EXPECT_TRUE(none.counters.empty());
  EXPECT_EQ(parseGaneshaFullStats("   boolean false\n   string \"Stats disabled\"\n", "v4").error,
            "ganesha says: Stats disabled");
  EXPECT_EQ(parseGaneshaFullStats("", "v4").error, "no 'boolean' status: not a ganesha statistics reply");
  EXPECT_EQ(parseGaneshaFullStats("   boolean true\n   int32 3\n", "v4").error,
            "line 2: unexpected '   int32 3'");
}

ServerStatsDelta deltaOfSamples(ServerSourceKind kind, std::string source, const Counters& before,
                                const Counters& after) {
  ServerStatsDelta d = deltaOf(
      before, after, [](std::string_view) { return false; }, [](std::string_view) { return true; });
  d.kind = kind;
  d.source = std::move(source);
  return d;
}

TEST(ConsoleLines, GaneshaShowsNfsOperationsPerClientOp) {
  const Parsed before = parseGaneshaFullStats(fixture("ganesha-fullv4-before.txt"), "v4");
  const Parsed after = parseGaneshaFullStats(fixture("ganesha-fullv4-after.txt"), "v4");
  ASSERT_TRUE(before.ok() && after.ok());
  const ServerStatsDelta d =
      deltaOfSamples(ServerSourceKind::kGanesha, "ganesha:unix:path=/x", before.counters, after.counters);
  EXPECT_EQ(counterDelta(d, "v4.OPEN"), 5.0);  // 5 files copied in: one OPEN each
  const std::vector<std::string> lines = serverStatsLines({d}, Phase::kFileCreate, 5);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines[0].find("server ganesha:unix:path=/x [ok]: "), std::string::npos) << lines[0];
  EXPECT_TRUE(contains(lines, "    v4.OPEN                                       5     1.000/op"))
      << fmt::format("{}", fmt::join(lines, "\n"));
  EXPECT_FALSE(contains(lines, ".errors"));
}

TEST(ConsoleLines, CephShowsRequestTypesNotMessengerBytes) {
  const Parsed dump = parseJsonCounters(fixture("ceph-mds-perf-dump.json"));
  ASSERT_TRUE(dump.ok());
  const ServerStatsDelta d =
      deltaOfSamples(ServerSourceKind::kCephMds, "ceph-mds:/a.asok", {}, dump.counters);
  const std::vector<std::string> lines = serverStatsLines({d}, Phase::kFileCreate, 512);
  const std::string text = fmt::format("{}", fmt::join(lines, "\n"));
  EXPECT_NE(lines[0].find("10337 requests, 20.189/op"), std::string::npos) << text;
  // Every request type that moved, most first, none of the messenger's or memory pools' counters.
  ASSERT_EQ(lines.size(), 10u) << text;
  EXPECT_EQ(lines[1], "    lookup                                     8053    15.729/op");
  EXPECT_EQ(lines[3], "    create                                      512     1.000/op");
  EXPECT_EQ(lines[4], "    unlink                                      512     1.000/op");
  EXPECT_TRUE(contains(lines, "    getattr ")) << text;
  EXPECT_FALSE(contains(lines, "msgr_")) << text;
  EXPECT_FALSE(contains(lines, "mempool")) << text;
}

TEST(ConsoleLines, LustreSumsEachOpOverMdtsAndCmdKeepsLargestDeltas) {
  const Counters after{{"fs-MDT0000.open", 5},
                       {"fs-MDT0001.open", 7},
                       {"fs-MDT0001.getattr", 2},
                       {"fs-MDT0001.open.sum", 900}};
  const ServerStatsDelta lustre = deltaOfSamples(ServerSourceKind::kLustreMdt, "lustre-mdt:/x", {}, after);
  const std::vector<std::string> l = serverStatsLines({lustre}, Phase::kFileCreate, 12);
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[1], "    open                                         12     1.000/op");
  EXPECT_EQ(l[2], "    getattr                                       2     0.167/op");
  const ServerStatsDelta cmd = deltaOfSamples(ServerSourceKind::kCommand, "cmd:x", {}, {{"files", 100}});
  const std::vector<std::string> c = serverStatsLines({cmd}, Phase::kFileCreate, 100);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1], "    files                                                       100");
}

}  // namespace
}  // namespace mdbench::serverstats
