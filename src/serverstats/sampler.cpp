// The deltas of two samples and rank 0's sampler (source.hpp).
#include <fmt/format.h>

#include <utility>

#include "mdbench/serverstats/source.hpp"

namespace mdbench::serverstats {
namespace {

double valueIn(const Counters& counters, const std::string& name) {
  const auto it = counters.find(name);
  return it == counters.end() ? 0.0 : it->second;
}

ServerStatsDelta failed(const ServerSource& source, std::string problem) {
  ServerStatsDelta delta;
  delta.status = ServerStatsStatus::kFailed;
  delta.problem = std::move(problem);
  delta.source = source.spec().given;
  delta.kind = source.spec().kind;
  delta.description = source.description();
  return delta;
}

// Why a sample cannot be used: the source's own error, or no counter at all (a command that prints nothing,
// a socket or file that holds no number): a source with nothing to measure is a failure, never [ok].
std::string problemOf(const Sample& sample) {
  if (!sample.error.empty()) return sample.error;
  if (sample.counters.empty()) return "it holds no counter at all, so there is nothing to measure";
  return {};
}

}  // namespace

ServerStatsDelta deltaOf(const Counters& before, const Counters& after, const NamePredicate& primary,
                         const NamePredicate& monotonic) {
  ServerStatsDelta delta;
  Counters names = before;
  for (const auto& [name, value] : after) names.emplace(name, value);
  std::vector<std::string> fell;
  for (const auto& [name, unused] : names) {
    ServerCounter counter{name, valueIn(before, name), valueIn(after, name), 0.0};
    if (counter.after == counter.before && !primary(name)) continue;
    if (counter.after < counter.before && monotonic(name)) {
      fell.push_back(name);
    } else {
      counter.delta = counter.after - counter.before;
    }
    delta.counters.push_back(std::move(counter));
  }
  if (!fell.empty()) {
    delta.status = ServerStatsStatus::kWentBackwards;
    delta.problem =
        fmt::format("{} counter{} went backwards (a restarted server?), e.g. {}: kept with delta 0",
                    fell.size(), fell.size() == 1 ? "" : "s", fell.front());
  }
  return delta;
}

std::string ServerSampler::open(const std::vector<std::string>& given, double timeout_s,
                                std::unique_ptr<ServerSampler>& out, const Abandon& abandon) {
  std::vector<std::unique_ptr<ServerSource>> sources;
  for (const std::string& text : given) {
    std::string error;
    const std::optional<SourceSpec> spec = parseSourceSpec(text, error);
    if (!spec) return error;
    sources.push_back(makeServerSource(*spec, timeout_s, abandon));
    if (const std::string problem = problemOf(sources.back()->read()); !problem.empty())
      return fmt::format("--server-stats '{}': cannot be read: {}", text, problem);
  }
  out = std::make_unique<ServerSampler>(std::move(sources));
  return {};
}

ServerSampler::ServerSampler(std::vector<std::unique_ptr<ServerSource>> sources)
    : sources_(std::move(sources)) {}

void ServerSampler::before(double t) {
  t_before_ = t;
  before_.clear();
  for (const auto& source : sources_) before_.push_back(source->read());
}

std::vector<ServerStatsDelta> ServerSampler::after(double t) {
  std::vector<ServerStatsDelta> deltas;
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    const ServerSource& source = *sources_[i];
    const Sample sample = sources_[i]->read();
    ServerStatsDelta delta;
    if (const std::string problem = problemOf(before_[i]); !problem.empty()) {
      delta = failed(source, "before the phase: " + problem);
    } else if (const std::string problem_after = problemOf(sample); !problem_after.empty()) {
      delta = failed(source, "after the phase: " + problem_after);
    } else {
      delta = deltaOf(
          before_[i].counters, sample.counters, [&](std::string_view n) { return source.primary(n); },
          [&](std::string_view n) { return source.monotonic(n); });
      delta.source = source.spec().given;
      delta.kind = source.spec().kind;
      delta.description = source.description();
    }
    delta.t_before = t_before_;
    delta.t_after = t;
    if (delta.status == ServerStatsStatus::kFailed) incomplete_ = true;
    deltas.push_back(std::move(delta));
  }
  return deltas;
}

}  // namespace mdbench::serverstats
