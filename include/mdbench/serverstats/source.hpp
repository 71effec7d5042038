// Where server counters come from (--server-stats SOURCE), and the sampler that turns two samples per phase
// into the deltas the phase result carries (model/server_stats.hpp). Used on rank 0 only.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/model/server_stats.hpp"
#include "mdbench/serverstats/parse.hpp"

namespace mdbench::serverstats {

// A source as given: "ceph-mds:ADMIN_SOCKET", "lustre-mdt:PATH_GLOB", "ganesha:DBUS_ADDRESS" or
// "cmd:COMMAND".
struct SourceSpec {
  ServerSourceKind kind = ServerSourceKind::kCommand;
  std::string where;  // the socket, the glob or the command
  std::string given;  // the whole text, for messages and the results file
};

// The spec of `given`, or none with `error` set ("--server-stats 'x': ...").
std::optional<SourceSpec> parseSourceSpec(std::string_view given, std::string& error);

// Bounds of one read: a source that takes longer is abandoned (a command is killed, with its process group).
inline constexpr double kDefaultTimeout_s = 10.0;
// Asked, at least every kAbandonCheck_ms while a read waits: true gives the read up at once (a command is
// killed, with its process group), so that a stop of the run never waits for a server. Empty: never.
using Abandon = std::function<bool()>;
inline constexpr int kAbandonCheck_ms = 100;
// Bytes one sample may have (a Ceph MDS's perf dump is about 40 KiB).
inline constexpr std::size_t kMaxSampleBytes = 16u << 20;

struct Sample {
  Counters counters;
  std::string error;  // "" when it was read
};

class ServerSource {
 public:
  explicit ServerSource(SourceSpec spec) : spec_(std::move(spec)) {}
  virtual ~ServerSource() = default;
  ServerSource(const ServerSource&) = delete;
  ServerSource& operator=(const ServerSource&) = delete;

  virtual Sample read() = 0;
  virtual std::string description() const = 0;
  // Counters kept even when they did not move (what a reader looks for first).
  virtual bool primary(std::string_view name) const = 0;
  // Counters that only go up while the server runs (a fall means a restart); the others are gauges (inodes
  // in cache, averages), whose delta may be negative.
  virtual bool monotonic(std::string_view name) const = 0;
  const SourceSpec& spec() const { return spec_; }

 private:
  SourceSpec spec_;
};

std::unique_ptr<ServerSource> makeServerSource(const SourceSpec& spec, double timeout_s = kDefaultTimeout_s,
                                               Abandon abandon = {});

// Pure: the delta of two samples. Counters kept: those whose value changed and the primary ones present in
// either sample; one missing from a sample counts as 0 there. A monotonic counter that fell is kept with
// delta 0 and makes the status kWentBackwards; a gauge's delta is after - before, negative or not.
using NamePredicate = std::function<bool(std::string_view)>;
ServerStatsDelta deltaOf(const Counters& before, const Counters& after, const NamePredicate& primary,
                         const NamePredicate& monotonic);

// Rank 0's sampler over every --server-stats source.
class ServerSampler {
 public:
  // Makes and reads each source once: "" or the first problem, naming the source (a usage error: exit 2).
  // `abandon` bounds every read of the sampler's sources, this one and later ones.
  static std::string open(const std::vector<std::string>& given, double timeout_s,
                          std::unique_ptr<ServerSampler>& out, const Abandon& abandon = {});
  explicit ServerSampler(std::vector<std::unique_ptr<ServerSource>> sources);

  bool empty() const { return sources_.empty(); }
  // Right before a phase's opening barrier; `t` is seconds since the run's epoch.
  void before(double t);
  // Right after its closing barrier: one delta per source, in the order given.
  std::vector<ServerStatsDelta> after(double t);
  // Whether a sample failed in any phase so far (the run's server numbers are incomplete).
  bool incomplete() const { return incomplete_; }

 private:
  std::vector<std::unique_ptr<ServerSource>> sources_;
  std::vector<Sample> before_;
  double t_before_ = 0.0;
  bool incomplete_ = false;
};

}  // namespace mdbench::serverstats
