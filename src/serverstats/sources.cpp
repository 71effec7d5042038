// The kinds of source (source.hpp): a Ceph MDS admin socket, Lustre md_stats files, NFS-Ganesha over D-Bus,
// a command.
#include <fmt/format.h>
#include <glob.h>

#include <algorithm>
#include <string>
#include <utility>

#include "mdbench/serverstats/source.hpp"
#include "mdbench/util/file_io.hpp"
#include "source_io.hpp"

namespace mdbench::serverstats {
namespace {

// The counters an MDS reader looks at first: requests in, replies out, forwards to the other MDS.
bool cephPrimary(std::string_view name) {
  return name == kCephRequestCounter || name == "mds.reply" || name == "mds.forward" ||
         name == "mds_server.handle_client_request";
}

// md_stats' counts of the ops a phase arrives as (model's lustreOpOf), for every MDT.
bool lustrePrimary(std::string_view name) {
  for (const std::string_view op :
       {"open", "close", "mknod", "mkdir", "getattr", "rename", "unlink", "rmdir"}) {
    if (isLustreOpCounter(name, op)) return true;
  }
  return false;
}

// Ceph's perf counters that only go up: the request counters, every mds_server counter and the counts and
// sums of the latency averages; the rest (inodes and caps held, memory, averages) are gauges.
bool cephMonotonic(std::string_view name) {
  if (name.ends_with(".avgtime")) return false;
  return cephPrimary(name) || name.starts_with("mds_server.") || name.ends_with(".avgcount") ||
         name.ends_with(".sum");
}

// md_stats' counts and sums only go up; min and max do not.
bool lustreMonotonic(std::string_view name) { return !name.ends_with(".min") && !name.ends_with(".max"); }

class CephMdsSource final : public ServerSource {
 public:
  CephMdsSource(SourceSpec spec, double timeout_s, Abandon abandon)
      : ServerSource(std::move(spec)), timeout_s_(timeout_s), abandon_(std::move(abandon)) {}
  Sample read() override {
    Sample sample;
    std::string reply;
    sample.error =
        adminSocketCommand(spec().where, R"({"prefix": "perf dump"})", timeout_s_, reply, abandon_);
    if (!sample.error.empty()) return sample;
    Parsed parsed = parseJsonCounters(reply);
    if (!parsed.ok()) {
      sample.error = fmt::format("perf dump from {}: {}", spec().where, parsed.error);
    } else {
      sample.counters = std::move(parsed.counters);
    }
    return sample;
  }
  std::string description() const override {
    return fmt::format("Ceph MDS perf dump through the admin socket {}", spec().where);
  }
  bool primary(std::string_view name) const override { return cephPrimary(name); }
  bool monotonic(std::string_view name) const override { return cephMonotonic(name); }

 private:
  double timeout_s_;
  Abandon abandon_;
};

// The MDT a md_stats file belongs to: the name of its directory (/proc/fs/lustre/mdt/<mdt>/md_stats).
std::string mdtOfPath(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return "mdt";
  const std::size_t start = path.rfind('/', slash - 1);
  return path.substr(start == std::string::npos ? 0 : start + 1,
                     slash - (start == std::string::npos ? 0 : start + 1));
}

class LustreMdtSource final : public ServerSource {
 public:
  explicit LustreMdtSource(SourceSpec spec) : ServerSource(std::move(spec)) {}
  Sample read() override {
    Sample sample;
    glob_t found{};
    const int rc = glob(spec().where.c_str(), GLOB_ERR, nullptr, &found);
    std::vector<std::string> paths(found.gl_pathv, found.gl_pathv + found.gl_pathc);
    globfree(&found);
    if (rc != 0 || paths.empty()) {
      sample.error = fmt::format("no file matches {}", spec().where);
      return sample;
    }
    for (const std::string& path : paths) {
      std::string text;
      if (std::string problem =
              readRegularFile(path, {"md_stats file", kMaxSampleBytes, Links::kFollow}, text);
          !problem.empty()) {
        sample.error = std::move(problem);
        return sample;
      }
      Parsed parsed = parseLustreMdStats(text, mdtOfPath(path));
      if (!parsed.ok()) {
        sample.error = fmt::format("{}: {}", path, parsed.error);
        return sample;
      }
      sample.counters.merge(parsed.counters);
    }
    return sample;
  }
  std::string description() const override {
    return fmt::format("Lustre md_stats files matching {}", spec().where);
  }
  bool primary(std::string_view name) const override { return lustrePrimary(name); }
  bool monotonic(std::string_view name) const override { return lustreMonotonic(name); }
};

class CommandSource final : public ServerSource {
 public:
  CommandSource(SourceSpec spec, double timeout_s, Abandon abandon)
      : ServerSource(std::move(spec)), timeout_s_(timeout_s), abandon_(std::move(abandon)) {}
  Sample read() override {
    Sample sample;
    std::string out;
    sample.error = runCommand(spec().where, timeout_s_, out, abandon_);
    if (!sample.error.empty()) return sample;
    Parsed parsed = parseCommandCounters(out);
    if (!parsed.ok()) {
      sample.error = fmt::format("the output of '{}': {}", spec().where, parsed.error);
    } else {
      sample.counters = std::move(parsed.counters);
    }
    return sample;
  }
  std::string description() const override {
    return fmt::format("the output of sh -c '{}' (killed after {} s)", spec().where, timeout_s_);
  }
  bool primary(std::string_view /*name*/) const override { return false; }
  bool monotonic(std::string_view /*name*/) const override { return true; }  // a site's counters

 private:
  double timeout_s_;
  Abandon abandon_;
};

// A word for /bin/sh: in single quotes, a quote inside as '\''.
std::string shellWord(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// NFS-Ganesha's per-operation counts (Enable_FULLV3_Stats, Enable_FULLV4_Stats) over D-Bus at the address
// given (ganesha's bus: "unix:path=/run/dbus/system_bus_socket" for the machine's), through dbus-send.
class GaneshaSource final : public ServerSource {
 public:
  GaneshaSource(SourceSpec spec, double timeout_s, Abandon abandon)
      : ServerSource(std::move(spec)), timeout_s_(timeout_s), abandon_(std::move(abandon)) {}
  Sample read() override {
    Sample sample;
    for (const std::string_view version : {"v3", "v4"}) {
      const std::string method = version == "v3" ? "GetFULLV3Stats" : "GetFULLV4Stats";
      const std::string command = fmt::format(
          "exec dbus-send --bus={} --print-reply --reply-timeout={} --dest=org.ganesha.nfsd "
          "/org/ganesha/nfsd/ExportMgr org.ganesha.nfsd.exportstats.{}",
          shellWord(spec().where), static_cast<long>(timeout_s_ * 1000), method);
      std::string out;
      sample.error = runCommand(command, timeout_s_, out, abandon_);
      if (!sample.error.empty()) break;
      Parsed parsed = parseGaneshaFullStats(out, version);
      if (!parsed.ok()) {
        sample.error = fmt::format("{} from {}: {}", method, spec().where, parsed.error);
        break;
      }
      sample.counters.merge(parsed.counters);
    }
    if (!sample.error.empty()) sample.counters.clear();
    return sample;
  }
  std::string description() const override {
    return fmt::format("NFS-Ganesha GetFULLV3Stats and GetFULLV4Stats through dbus-send --bus={}",
                       spec().where);
  }
  bool primary(std::string_view /*name*/) const override { return false; }
  bool monotonic(std::string_view /*name*/) const override { return true; }  // counts only

 private:
  double timeout_s_;
  Abandon abandon_;
};

}  // namespace

std::optional<SourceSpec> parseSourceSpec(std::string_view given, std::string& error) {
  const std::size_t colon = given.find(':');
  const std::optional<ServerSourceKind> kind =
      colon == std::string_view::npos ? std::nullopt : parseServerSourceKind(given.substr(0, colon));
  if (!kind) {
    error = fmt::format(
        "--server-stats '{}': expected ceph-mds:ADMIN_SOCKET, lustre-mdt:PATH_GLOB, ganesha:DBUS_ADDRESS or "
        "cmd:COMMAND",
        given);
    return std::nullopt;
  }
  if (colon + 1 == given.size()) {
    error = fmt::format("--server-stats '{}': nothing after '{}:'", given, given.substr(0, colon));
    return std::nullopt;
  }
  return SourceSpec{*kind, std::string(given.substr(colon + 1)), std::string(given)};
}

std::unique_ptr<ServerSource> makeServerSource(const SourceSpec& spec, double timeout_s, Abandon abandon) {
  switch (spec.kind) {
    case ServerSourceKind::kCephMds:
      return std::make_unique<CephMdsSource>(spec, timeout_s, std::move(abandon));
    case ServerSourceKind::kLustreMdt:
      return std::make_unique<LustreMdtSource>(spec);
    case ServerSourceKind::kCommand:
      return std::make_unique<CommandSource>(spec, timeout_s, std::move(abandon));
    case ServerSourceKind::kGanesha:
      return std::make_unique<GaneshaSource>(spec, timeout_s, std::move(abandon));
  }
  return nullptr;
}

}  // namespace mdbench::serverstats
