// The sources on real sockets, files and commands, and the deltas: source.hpp.
#include "mdbench/serverstats/source.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace mdbench::serverstats {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "mdbench-serverstats-XXXXXX").string();
    path = mkdtemp(templ.data());
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
  }
};

double secondsOf(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

Sample readOnce(const std::string& given, double timeout_s = kDefaultTimeout_s) {
  std::string error;
  const auto spec = parseSourceSpec(given, error);
  EXPECT_TRUE(spec) << error;
  return makeServerSource(*spec, timeout_s)->read();
}

TEST(SourceSpec, KindsAndBadValues) {
  std::string error;
  const auto ceph = parseSourceSpec("ceph-mds:/run/ceph/mds.a.asok", error);
  ASSERT_TRUE(ceph);
  EXPECT_EQ(ceph->kind, ServerSourceKind::kCephMds);
  EXPECT_EQ(ceph->where, "/run/ceph/mds.a.asok");
  const auto cmd = parseSourceSpec("cmd:echo a:1", error);
  ASSERT_TRUE(cmd);
  EXPECT_EQ(cmd->kind, ServerSourceKind::kCommand);
  EXPECT_EQ(cmd->where, "echo a:1");
  EXPECT_FALSE(parseSourceSpec("nfs:/x", error));
  EXPECT_EQ(error,
            "--server-stats 'nfs:/x': expected ceph-mds:ADMIN_SOCKET, lustre-mdt:PATH_GLOB, "
            "ganesha:DBUS_ADDRESS or cmd:COMMAND");
  EXPECT_FALSE(parseSourceSpec("lustre-mdt:", error));
  EXPECT_EQ(error, "--server-stats 'lustre-mdt:': nothing after 'lustre-mdt:'");
}

TEST(CommandSource, ReadsCountersAndReportsFailures) {
  const Sample ok = readOnce("cmd:printf 'a 1\\nb 2.5\\n'");
  ASSERT_EQ(ok.error, "");
  EXPECT_EQ(ok.counters, (Counters{{"a", 1}, {"b", 2.5}}));
  EXPECT_EQ(readOnce("cmd:echo a 1; exit 3").error, "'echo a 1; exit 3': exit status 3");
  EXPECT_EQ(readOnce("cmd:echo not counters").error,
            "the output of 'echo not counters': line 1: expected '<name> <number>', got 'not counters'");
}

TEST(CommandSource, AHangingCommandIsKilledAtTheTimeout) {
  Sample sample;
  const double took = secondsOf([&] { sample = readOnce("cmd:echo a 1; sleep 30", 0.5); });
  EXPECT_EQ(sample.error, "'echo a 1; sleep 30' did not finish within 0.5 s (killed)");
  EXPECT_LT(took, 3.0);
  // A shell that closed its output and goes on, and a background child that keeps the output open.
  EXPECT_LT(secondsOf([&] { sample = readOnce("cmd:echo a 1; exec >&-; sleep 30", 0.5); }), 3.0);
  EXPECT_EQ(sample.error, "'echo a 1; exec >&-; sleep 30' did not finish within 0.5 s (killed)");
  EXPECT_LT(secondsOf([&] { sample = readOnce("cmd:(sleep 30 &); echo a 1", 0.5); }), 3.0);
  EXPECT_EQ(sample.error, "'(sleep 30 &); echo a 1' did not finish within 0.5 s (killed)");
}

// A read given up (the run was stopped) ends at once, the command's whole process group killed; the
// abandon check is asked while the read waits, not only at its deadline.
TEST(CommandSource, AnAbandonedReadEndsAtOnceAndKillsTheGroup) {
  std::string error;
  const auto spec = parseSourceSpec("cmd:sleep 31 & sleep 31; echo a 1", error);
  ASSERT_TRUE(spec) << error;
  const auto t0 = std::chrono::steady_clock::now();
  const auto abandon = [&] { return std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(300); };
  Sample sample;
  const double took = secondsOf([&] { sample = makeServerSource(*spec, 20.0, abandon)->read(); });
  EXPECT_EQ(sample.error, "'sleep 31 & sleep 31; echo a 1' abandoned: the run was stopped (killed)");
  EXPECT_GT(took, 0.2);
  EXPECT_LT(took, 2.0);
  EXPECT_EQ(std::system("! pgrep -x -f 'sleep 31' >/dev/null"), 0) << "a sleep of the group survived";
}

TEST(LustreSource, GlobOfMdStatsFiles) {
  const TempDir dir;
  dir.write("mdt/fs-MDT0000/md_stats", "snapshot_time 1.5 secs.usecs\nopen 5 samples [reqs]\n");
  dir.write("mdt/fs-MDT0001/md_stats",
            "snapshot_time 1.5 secs.usecs\nopen 7 samples [reqs]\ngetattr 2 samples [reqs]\n");
  const Sample sample = readOnce("lustre-mdt:" + (dir.path / "mdt/*/md_stats").string());
  ASSERT_EQ(sample.error, "");
  EXPECT_EQ(sample.counters,
            (Counters{{"fs-MDT0000.open", 5}, {"fs-MDT0001.open", 7}, {"fs-MDT0001.getattr", 2}}));
  const std::string none = (dir.path / "nothing/*/md_stats").string();
  EXPECT_EQ(readOnce("lustre-mdt:" + none).error, "no file matches " + none);
  dir.write("mdt/fs-MDT0002/md_stats", "not md_stats\n");
  EXPECT_NE(
      readOnce("lustre-mdt:" + (dir.path / "mdt/*/md_stats").string()).error.find("fs-MDT0002/md_stats: "),
      std::string::npos);
}

// A Ceph admin socket that answers one request, or (reply empty) reads it and never answers.
class FakeAdminSocket {
 public:
  FakeAdminSocket(const fs::path& path, std::string reply) : path_(path.string()) {
    fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strcpy(addr.sun_path, path_.c_str());
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(listen(fd_, 1), 0);
    thread_ = std::thread([this, reply = std::move(reply)] {
      const int conn = accept(fd_, nullptr, nullptr);
      char c = 1;
      while (read(conn, &c, 1) == 1 && c != '\0') request_ += c;
      if (!reply.empty()) {
        const auto n = static_cast<std::uint32_t>(reply.size());
        const unsigned char length[4] = {static_cast<unsigned char>(n >> 24),
                                         static_cast<unsigned char>(n >> 16),
                                         static_cast<unsigned char>(n >> 8), static_cast<unsigned char>(n)};
        EXPECT_EQ(write(conn, length, 4), 4);
        EXPECT_EQ(write(conn, reply.data(), reply.size()), static_cast<ssize_t>(reply.size()));
      } else {
        std::this_thread::sleep_for(std::chrono::seconds(2));
      }
      close(conn);
    });
  }
  ~FakeAdminSocket() {
    thread_.join();
    close(fd_);
  }
  const std::string& request() {
    thread_.join();
    thread_ = std::thread([] {});
    return request_;
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::thread thread_;
  std::string request_;
};

TEST(CephSource, SpeaksTheAdminSocketProtocol) {
  const TempDir dir;
  FakeAdminSocket server(
      dir.path / "mds.a.asok",
      R"({"mds": {"request": 42}, "mds_server": {"req_create_latency": {"avgcount": 40, "sum": 0.5}}})");
  const Sample sample = readOnce("ceph-mds:" + (dir.path / "mds.a.asok").string());
  ASSERT_EQ(sample.error, "");
  EXPECT_EQ(server.request(), R"({"prefix": "perf dump"})");
  EXPECT_EQ(sample.counters, (Counters{{"mds.request", 42},
                                       {"mds_server.req_create_latency.avgcount", 40},
                                       {"mds_server.req_create_latency.sum", 0.5}}));
}

TEST(CephSource, NoDaemonAndASilentOneAreErrors) {
  const TempDir dir;
  const std::string missing = (dir.path / "none.asok").string();
  EXPECT_EQ(readOnce("ceph-mds:" + missing).error,
            "cannot connect to the admin socket " + missing + ": ENOENT (No such file or directory)");
  FakeAdminSocket silent(dir.path / "silent.asok", "");
  Sample sample;
  EXPECT_LT(secondsOf([&] { sample = readOnce("ceph-mds:" + (dir.path / "silent.asok").string(), 0.3); }),
            1.5);
  EXPECT_NE(sample.error.find("no reply within 0.3 s: ETIMEDOUT"), std::string::npos) << sample.error;
}

TEST(CephSource, AnAbandonedReadOfASilentDaemonEndsAtOnce) {
  const TempDir dir;
  FakeAdminSocket silent(dir.path / "silent.asok", "");
  std::string error;
  const auto spec = parseSourceSpec("ceph-mds:" + (dir.path / "silent.asok").string(), error);
  ASSERT_TRUE(spec) << error;
  Sample sample;
  EXPECT_LT(secondsOf([&] { sample = makeServerSource(*spec, 20.0, [] { return true; })->read(); }), 1.0);
  EXPECT_NE(sample.error.find("ECANCELED"), std::string::npos) << sample.error;
}

TEST(Delta, MovedAndPrimaryCountersKept) {
  const Counters before = {{"mds.request", 10}, {"mds.reply", 10}, {"x.same", 5}, {"x.gone", 3}};
  const Counters after = {
      {"mds.request", 2010}, {"mds.reply", 10}, {"x.same", 5}, {"x.new", 4}, {"x.gone", 3}};
  const ServerStatsDelta d = deltaOf(
      before, after, [](std::string_view n) { return n == "mds.reply"; },
      [](std::string_view) { return true; });
  EXPECT_EQ(d.status, ServerStatsStatus::kOk);
  ASSERT_EQ(d.counters.size(), 3u);
  EXPECT_EQ(d.counters[0].name, "mds.reply");
  EXPECT_EQ(d.counters[0].delta, 0);
  EXPECT_EQ(d.counters[1].name, "mds.request");
  EXPECT_EQ(d.counters[1].before, 10);
  EXPECT_EQ(d.counters[1].after, 2010);
  EXPECT_EQ(d.counters[1].delta, 2000);
  EXPECT_EQ(d.counters[2].name, "x.new");
  EXPECT_EQ(d.counters[2].delta, 4);
}

TEST(Delta, CountersGoingBackwardsAreReportedNotNegative) {
  const ServerStatsDelta d = deltaOf(
      {{"mds.request", 5000}, {"b", 1}, {"gauge", 7}}, {{"mds.request", 12}, {"b", 3}, {"gauge", 4}},
      [](std::string_view) { return false; }, [](std::string_view n) { return n != "gauge"; });
  EXPECT_EQ(d.status, ServerStatsStatus::kWentBackwards);
  EXPECT_EQ(d.problem, "1 counter went backwards (a restarted server?), e.g. mds.request: kept with delta 0");
  ASSERT_EQ(d.counters.size(), 3u);
  EXPECT_EQ(d.counters[0].delta, 2);
  EXPECT_EQ(d.counters[1].name, "gauge");  // a gauge may fall
  EXPECT_EQ(d.counters[1].delta, -3);
  EXPECT_EQ(d.counters[2].name, "mds.request");
  EXPECT_EQ(d.counters[2].before, 5000);
  EXPECT_EQ(d.counters[2].after, 12);
  EXPECT_EQ(d.counters[2].delta, 0);
}

TEST(Sampler, UnreadableAtStartIsRefusedAndAFailureMidRunIsReported) {
  const TempDir dir;
  const std::string file = (dir.path / "counters").string();
  std::unique_ptr<ServerSampler> sampler;
  EXPECT_EQ(ServerSampler::open({"cmd:cat " + file}, 2.0, sampler),
            "--server-stats 'cmd:cat " + file + "': cannot be read: 'cat " + file + "': exit status 1");
  EXPECT_EQ(sampler, nullptr);
  dir.write("counters", "ops 1\n");
  ASSERT_EQ(ServerSampler::open({"cmd:cat " + file}, 2.0, sampler), "");
  sampler->before(1.0);
  dir.write("counters", "ops 11\n");
  std::vector<ServerStatsDelta> deltas = sampler->after(2.0);
  ASSERT_EQ(deltas.size(), 1u);
  EXPECT_EQ(deltas[0].status, ServerStatsStatus::kOk);
  EXPECT_EQ(deltas[0].source, "cmd:cat " + file);
  EXPECT_EQ(deltas[0].kind, ServerSourceKind::kCommand);
  EXPECT_EQ(deltas[0].t_before, 1.0);
  EXPECT_EQ(deltas[0].t_after, 2.0);
  ASSERT_EQ(deltas[0].counters.size(), 1u);
  EXPECT_EQ(deltas[0].counters[0].delta, 10);
  EXPECT_FALSE(sampler->incomplete());
  sampler->before(3.0);
  fs::remove(file);
  deltas = sampler->after(4.0);
  EXPECT_EQ(deltas[0].status, ServerStatsStatus::kFailed);
  EXPECT_EQ(deltas[0].problem, "after the phase: 'cat " + file + "': exit status 1");
  EXPECT_TRUE(deltas[0].counters.empty());
  EXPECT_TRUE(sampler->incomplete());
}

// An md_stats file with nothing but its snapshot_time holds no counter: refused at the start, and a source
// that comes to hold none mid-run is a failed sample, never [ok] with nothing in it.
TEST(Sampler, ASourceWithNoCounterIsNeverOk) {
  const TempDir dir;
  const std::string file = (dir.path / "md_stats").string();
  dir.write("md_stats", "snapshot_time             1700000000.123456 secs.usecs\n");
  std::unique_ptr<ServerSampler> sampler;
  EXPECT_EQ(ServerSampler::open({"lustre-mdt:" + file}, 2.0, sampler),
            "--server-stats 'lustre-mdt:" + file +
                "': cannot be read: it holds no counter at all, so there is nothing to measure");
  EXPECT_EQ(sampler, nullptr);
  dir.write("md_stats", "snapshot_time             1700000000.123456 secs.usecs\nopen 5 samples [reqs]\n");
  ASSERT_EQ(ServerSampler::open({"lustre-mdt:" + file}, 2.0, sampler), "");
  sampler->before(1.0);
  dir.write("md_stats", "snapshot_time             1700000001.123456 secs.usecs\n");
  const std::vector<ServerStatsDelta> deltas = sampler->after(2.0);
  ASSERT_EQ(deltas.size(), 1u);
  EXPECT_EQ(deltas[0].status, ServerStatsStatus::kFailed);
  EXPECT_EQ(deltas[0].problem, "after the phase: it holds no counter at all, so there is nothing to measure");
  EXPECT_TRUE(sampler->incomplete());
}

}  // namespace
}  // namespace mdbench::serverstats
