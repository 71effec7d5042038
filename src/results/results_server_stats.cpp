// --server-stats in a results file: results_server_stats.hpp.
#include "results_server_stats.hpp"

#include <fmt/format.h>

#include <cstddef>

#include "h5.hpp"

namespace mdbench::results {
namespace {

struct CounterRow {
  const char* name = nullptr;
  double before = 0.0;
  double after = 0.0;
  double delta = 0.0;
};

inline constexpr std::array<h5::Field, 4> kCounterFields = {{
    {"name", h5::Type::kString, offsetof(CounterRow, name)},
    {"before", h5::Type::kFloat64, offsetof(CounterRow, before)},
    {"after", h5::Type::kFloat64, offsetof(CounterRow, after)},
    {"delta", h5::Type::kFloat64, offsetof(CounterRow, delta)},
}};

void writeSource(hid_t parent, std::size_t index, const ServerStatsDelta& s) {
  const h5::Handle group = h5::createGroup(parent, serverSourceGroupName(index));
  h5::writeAttribute(group.get(), "source", s.source);
  h5::writeAttribute(group.get(), "kind", serverSourceKindName(s.kind));
  h5::writeAttribute(group.get(), "description", s.description);
  h5::writeAttribute(group.get(), "status", serverStatsStatusName(s.status));
  h5::writeAttribute(group.get(), "problem", s.problem);
  h5::writeAttribute(group.get(), "t_before", s.t_before);
  h5::writeAttribute(group.get(), "t_after", s.t_after);
  std::vector<CounterRow> rows;
  rows.reserve(s.counters.size());
  for (const ServerCounter& c : s.counters) rows.push_back({c.name.c_str(), c.before, c.after, c.delta});
  h5::writeCompound<CounterRow>(group.get(), "counters", kCounterFields, rows);
}

template <class E>
E parsed(std::optional<E> value, hid_t group, std::string_view attribute, const std::string& text) {
  if (!value)
    throw h5::Error(fmt::format("{}: {} '{}' is not one mdbench writes", h5::pathOf(group), attribute, text));
  return *value;
}

ServerStatsDelta readSource(hid_t group) {
  ServerStatsDelta s;
  s.source = h5::readAttribute<std::string>(group, "source");
  const std::string kind = h5::readAttribute<std::string>(group, "kind");
  s.kind = parsed(parseServerSourceKind(kind), group, "kind", kind);
  s.description = h5::readAttribute<std::string>(group, "description");
  const std::string status = h5::readAttribute<std::string>(group, "status");
  s.status = parsed(parseServerStatsStatus(status), group, "status", status);
  s.problem = h5::readAttribute<std::string>(group, "problem");
  s.t_before = h5::readAttribute<double>(group, "t_before");
  s.t_after = h5::readAttribute<double>(group, "t_after");
  s.counters = h5::readCompound<CounterRow>(group, "counters", kCounterFields, [](const CounterRow& r) {
    return ServerCounter{r.name != nullptr ? r.name : "", r.before, r.after, r.delta};
  });
  return s;
}

}  // namespace

std::string serverSourceGroupName(std::size_t index) { return fmt::format("source-{:02}", index); }

void writeServerStats(hid_t phase_group, const std::vector<ServerStatsDelta>& sources) {
  if (sources.empty()) return;
  const h5::Handle group = h5::createGroup(phase_group, kServerStatsGroup);
  for (std::size_t i = 0; i < sources.size(); ++i) writeSource(group.get(), i, sources[i]);
}

std::vector<ServerStatsDelta> readServerStats(hid_t phase_group) {
  std::vector<ServerStatsDelta> sources;
  if (!h5::exists(phase_group, kServerStatsGroup)) return sources;
  const h5::Handle group = h5::openGroup(phase_group, kServerStatsGroup);
  const std::vector<std::string> names = h5::childNames(group.get());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string expected = serverSourceGroupName(i);
    if (!h5::exists(group.get(), expected)) {
      throw h5::Error(fmt::format("{}: {} is missing (sources are numbered from source-00)",
                                  h5::pathOf(group.get()), expected));
    }
    sources.push_back(readSource(h5::openGroup(group.get(), expected).get()));
  }
  return sources;
}

std::string serverStatsProblem(const ServerStatsDelta& s) {
  if (s.status == ServerStatsStatus::kFailed && !s.counters.empty()) {
    return fmt::format("status failed but {} counters", s.counters.size());
  }
  if (!(s.t_before <= s.t_after)) return fmt::format("t_before {} after t_after {}", s.t_before, s.t_after);
  for (const ServerCounter& c : s.counters) {
    // A monotonic counter that fell keeps delta 0 (only in a went-backwards source); a gauge's is negative.
    const bool zeroed = c.after < c.before && c.delta == 0.0;
    if (zeroed && s.status != ServerStatsStatus::kWentBackwards) {
      return fmt::format("counter {} went backwards ({} to {}) but the status is {}", c.name, c.before,
                         c.after, serverStatsStatusName(s.status));
    }
    if (!zeroed && c.delta != c.after - c.before) {
      return fmt::format("counter {}: delta {} but after - before = {} - {}", c.name, c.delta, c.after,
                         c.before);
    }
  }
  return {};
}

}  // namespace mdbench::results
