// What a phase cost the metadata servers (--server-stats): per source, the counters that moved between a
// sample taken right before the phase's opening barrier and one right after its closing barrier. Plain
// data, header only: the run fills it (serverstats), the results file stores it, the report and the rules
// read it.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mdbench/model/phase.hpp"
#include "mdbench/util/enum_names.hpp"

namespace mdbench {

// What kind of server a source reads; decides which counter counts "server requests".
enum class ServerSourceKind : std::uint8_t { kCephMds, kLustreMdt, kCommand, kGanesha };

// kOk: both samples read, every kept counter went up or stayed. kFailed: a sample could not be read (no
// counters; `problem` says why). kWentBackwards: a counter fell between the samples (a restarted server);
// those counters keep their samples and a delta of 0, never a negative one.
enum class ServerStatsStatus : std::uint8_t { kOk, kFailed, kWentBackwards };

// One counter: both samples and their difference (after - before; 0 when it went backwards). Values are
// doubles: Ceph's latency sums are fractional, and counts below 2^53 stay exact.
struct ServerCounter {
  std::string name;  // "mds.request", "mds_server.req_create_latency.avgcount", "lustre-MDT0000.open"
  double before = 0.0;
  double after = 0.0;
  double delta = 0.0;
};

// One source in one phase. Times are seconds since the run's epoch on rank 0's clock (as the ranks' t_start).
struct ServerStatsDelta {
  std::string source;       // as given: "ceph-mds:/var/run/ceph/ceph-mds.a.asok"
  std::string description;  // what was read and how
  ServerSourceKind kind = ServerSourceKind::kCommand;
  ServerStatsStatus status = ServerStatsStatus::kOk;
  std::string problem;  // kFailed, kWentBackwards: what happened
  double t_before = 0.0;
  double t_after = 0.0;
  std::vector<ServerCounter> counters;  // those that moved, plus the source's primary ones; sorted by name
};

inline constexpr EnumNames<ServerSourceKind, 4> kServerSourceKindNames{{
    {ServerSourceKind::kCephMds, "ceph-mds"},
    {ServerSourceKind::kLustreMdt, "lustre-mdt"},
    {ServerSourceKind::kCommand, "cmd"},
    {ServerSourceKind::kGanesha, "ganesha"},
}};
inline std::string_view serverSourceKindName(ServerSourceKind kind) {
  return nameOf(kServerSourceKindNames, kind);
}
inline std::optional<ServerSourceKind> parseServerSourceKind(std::string_view name) {
  return valueOf(kServerSourceKindNames, name);
}

inline constexpr EnumNames<ServerStatsStatus, 3> kServerStatsStatusNames{{
    {ServerStatsStatus::kOk, "ok"},
    {ServerStatsStatus::kFailed, "failed"},
    {ServerStatsStatus::kWentBackwards, "went-backwards"},
}};
inline std::string_view serverStatsStatusName(ServerStatsStatus status) {
  return nameOf(kServerStatsStatusNames, status);
}
inline std::optional<ServerStatsStatus> parseServerStatsStatus(std::string_view name) {
  return valueOf(kServerStatsStatusNames, name);
}

// The Ceph MDS counter that counts client requests: one per request a client sent this MDS (forwards to
// another MDS count again there).
inline constexpr std::string_view kCephRequestCounter = "mds.request";

// The md_stats operation a phase's client operations arrive as on a Lustre MDT ("" for readdir, which
// md_stats does not count): creates are opens with a create intent, a read opens, a stat is a getattr.
inline std::string_view lustreOpOf(Phase phase) {
  const PhaseInfo& info = phaseInfo(phase);
  switch (info.action) {
    case PhaseAction::kCreate:
      return info.scope == PhaseScope::kFiles ? "open" : "mkdir";
    case PhaseAction::kStat:
      return "getattr";
    case PhaseAction::kReaddir:
      return "";
    case PhaseAction::kRead:
      return "open";
    case PhaseAction::kRename:
      return "rename";
    case PhaseAction::kRemove:
      return info.scope == PhaseScope::kFiles ? "unlink" : "rmdir";
  }
  return "";
}

// Whether `name` is the counter of `op` of one MDT in a lustre-mdt source ("<mdt>.<op>": the MDT's name has
// no dot, and the op's min/max/sum fields have one more).
inline bool isLustreOpCounter(std::string_view name, std::string_view op) {
  const std::size_t dot = name.find('.');
  return !op.empty() && dot != std::string_view::npos && name.substr(dot + 1) == op;
}

// The operation a request counter counts, or "" for any other counter: a Ceph MDS's
// "mds_server.req_<op>_latency.avgcount" (one per client request of that type: "create", "lookup",
// "getattr", "unlink", "open"...), a Lustre MDT's "<mdt>.<op>" (md_stats: "open", "getattr"...) and
// NFS-Ganesha's "v3.<OP>" / "v4.<OP>" (one per NFS operation: "v4.OPEN", "v3.LOOKUP"). None for a cmd:
// source, whose counters mdbench cannot interpret.
inline std::string_view requestOpOf(ServerSourceKind kind, std::string_view name) {
  switch (kind) {
    case ServerSourceKind::kCephMds: {
      constexpr std::string_view head = "mds_server.req_", tail = "_latency.avgcount";
      if (name.size() > head.size() + tail.size() && name.starts_with(head) && name.ends_with(tail))
        return name.substr(head.size(), name.size() - head.size() - tail.size());
      return "";
    }
    case ServerSourceKind::kLustreMdt: {
      const std::size_t dot = name.find('.');
      if (dot == std::string_view::npos || name.find('.', dot + 1) != std::string_view::npos) return "";
      return name.substr(dot + 1);
    }
    case ServerSourceKind::kGanesha:
      if ((name.starts_with("v3.") || name.starts_with("v4.")) && name.find('.', 3) == std::string_view::npos)
        return name;
      return "";
    case ServerSourceKind::kCommand:
      return "";
  }
  return "";
}

// "Server requests" of one source in a phase: Ceph's mds.request, Lustre's md_stats op of the phase summed
// over the source's MDTs, Ganesha's NFS operations of every kind; none for a cmd: source (whose counters
// mdbench cannot interpret) or a failed one.
inline std::optional<double> serverRequests(const ServerStatsDelta& source, Phase phase) {
  if (source.status == ServerStatsStatus::kFailed) return std::nullopt;
  std::optional<double> sum;
  for (const ServerCounter& counter : source.counters) {
    bool counts = false;
    switch (source.kind) {
      case ServerSourceKind::kCephMds:
        counts = counter.name == kCephRequestCounter;
        break;
      case ServerSourceKind::kLustreMdt:
        counts = isLustreOpCounter(counter.name, lustreOpOf(phase));
        break;
      case ServerSourceKind::kGanesha:
        counts = !requestOpOf(source.kind, counter.name).empty();
        break;
      case ServerSourceKind::kCommand:
        break;
    }
    if (counts) sum = sum.value_or(0.0) + counter.delta;
  }
  // Ceph's and Ganesha's counters are kept only when they moved: a source read with none moved made 0.
  if (!sum && (source.kind == ServerSourceKind::kCephMds || source.kind == ServerSourceKind::kGanesha))
    return 0.0;
  return sum;
}

// The delta of a named counter in a source, or none when the source did not keep it (a counter that did not
// move is kept only when primary: then 0 is the answer only for a source that was read).
inline std::optional<double> counterDelta(const ServerStatsDelta& source, std::string_view name) {
  if (source.status == ServerStatsStatus::kFailed) return std::nullopt;
  for (const ServerCounter& counter : source.counters) {
    if (counter.name == name) return counter.delta;
  }
  return std::nullopt;
}

// Whether a counter is a sum, time or extreme rather than a count (Ceph's latency "sum" and "avgtime",
// Lustre's min/max/sum/sumsq): left out of the top counters, kept in the file.
inline bool isCountCounter(std::string_view name) {
  for (const std::string_view field : {".avgtime", ".sum", ".sumsq", ".min", ".max"}) {
    if (name.ends_with(field)) return false;
  }
  return true;
}

// The counts most worth showing first: the largest deltas of counts, largest first (name order on ties).
inline std::vector<const ServerCounter*> topCounters(const ServerStatsDelta& source, std::size_t top) {
  std::vector<const ServerCounter*> picked;
  for (const ServerCounter& c : source.counters) {
    if (c.delta > 0 && isCountCounter(c.name)) picked.push_back(&c);
  }
  std::stable_sort(picked.begin(), picked.end(),
                   [](const ServerCounter* a, const ServerCounter* b) { return a->delta > b->delta; });
  if (picked.size() > top) picked.resize(top);
  return picked;
}

// The requests a source took in a phase by operation (requestOpOf; summed over a Lustre source's MDTs),
// those that moved, most first (name order on ties).
inline std::vector<std::pair<std::string, double>> requestsByOp(const ServerStatsDelta& source) {
  std::vector<std::pair<std::string, double>> ops;
  for (const ServerCounter& c : source.counters) {
    const std::string_view op = requestOpOf(source.kind, c.name);
    if (op.empty() || c.delta <= 0) continue;
    const auto it = std::find_if(ops.begin(), ops.end(), [op](const auto& o) { return o.first == op; });
    if (it == ops.end()) {
      ops.emplace_back(op, c.delta);
    } else {
      it->second += c.delta;
    }
  }
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  return ops;
}

// The per-phase text the console and the report show: one line of server requests per client op per source
// (and over all of them), then each source's requests by operation with their count per client op (a cmd:
// source, whose counters mean nothing to mdbench: its `top` largest deltas). `ops` is the phase's client
// operations.
inline std::vector<std::string> serverStatsLines(const std::vector<ServerStatsDelta>& sources, Phase phase,
                                                 std::uint64_t ops, std::size_t top = 5) {
  std::vector<std::string> lines;
  double all = 0.0;
  std::size_t counted = 0;
  const auto per_op = [ops](double requests) {
    return ops == 0 ? std::string("-") : fmt::format("{:.3f}", requests / static_cast<double>(ops));
  };
  for (const ServerStatsDelta& s : sources) {
    const std::optional<double> requests = serverRequests(s, phase);
    std::string head = fmt::format("server {} [{}]", s.source, serverStatsStatusName(s.status));
    if (requests) {
      head += fmt::format(": {:.0f} requests, {}/op", *requests, per_op(*requests));
      all += *requests;
      ++counted;
    }
    if (!s.problem.empty()) head += fmt::format(" ({})", s.problem);
    lines.push_back(std::move(head));
    if (s.kind == ServerSourceKind::kCommand) {
      for (const ServerCounter* c : topCounters(s, top)) {
        lines.push_back(fmt::format("    {:<48} {:>14.0f}", c->name, c->delta));
      }
      continue;
    }
    for (const auto& [op, count] : requestsByOp(s)) {
      lines.push_back(fmt::format("    {:<32} {:>14.0f} {:>9}/op", op, count, per_op(count)));
    }
  }
  if (counted > 1) {
    lines.push_back(fmt::format("server requests per client op over {} sources: {} ({:.0f} requests, {} ops)",
                                counted, per_op(all), all, ops));
  }
  return lines;
}

}  // namespace mdbench
