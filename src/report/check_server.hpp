// Rules on what a phase cost the metadata servers (--server-stats, schema version 7):
//   SERIES.server(COUNTER) OP VALUE      the counter's delta summed over every source, mean over iterations;
//                                        VALUE a number, or `ops`: the phase's own operations (ok + failed)
//   SERIES.server(COUNTER)/op OP VALUE   that delta per client operation
// e.g. `file-create.server(mds_server.req_create_latency.avgcount)==ops`,
// `file-stat.server(mds.request)/op>=0.9`. Private to the report module: check_rules.cpp calls these for the
// metrics kServerCounter/kServerPerOp.
#pragma once

#include <string>
#include <string_view>

#include "mdbench/report/check.hpp"
#include "mdbench/report/scaling.hpp"

namespace mdbench::check_detail {

// True for a metric written server(...), whatever follows.
bool isServerMetricText(std::string_view metric);
// Parses server(COUNTER)[/op] into rule.metric and rule.counter. Returns the problem.
std::string parseServerMetric(std::string_view metric, Rule& rule);
// Parses the value of a server rule: a plain number (k, M, G allowed) or `ops`. Returns the problem.
std::string parseServerValue(std::string_view text, Rule& rule);

// The measured value and the limit at a point (the limit differs from rule.limit for `ops`), or why the
// point has none.
struct ServerMeasured {
  double value = 0.0;
  double limit = 0.0;
  std::string missing;
};
ServerMeasured measureServer(const ScalingPoint& point, const Rule& rule);

// How the metric reads in a message: "server(mds.request)/op".
std::string serverMetricLabel(const Rule& rule);

}  // namespace mdbench::check_detail
