// Server counters from the texts metadata servers print (--server-stats): pure parsers, no I/O.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace mdbench::serverstats {

// One sample of a source: counter name to value. Names are flattened: "section.name[.field]".
using Counters = std::map<std::string, double, std::less<>>;

// A parser's answer: the counters, or what is wrong with the text (empty when it parsed).
struct Parsed {
  Counters counters;
  std::string error;
  bool ok() const { return error.empty(); }
};

// A JSON object whose numbers are counters, nested objects flattened with '.' ("mds_server":
// {"req_create_latency": {"avgcount": 3}} gives mds_server.req_create_latency.avgcount = 3). Booleans,
// strings, arrays and nulls are skipped. Ceph's `perf dump` is such an object. Not an object: an error.
Parsed parseJsonCounters(std::string_view text);

// Lustre's md_stats as /proc/fs/lustre/mdt/<mdt>/md_stats holds it or `lctl get_param mdt.*.md_stats`
// prints it: "snapshot_time 1409777887.590578 secs.usecs", then one "<op> <count> samples [<unit>]" line per
// op, optionally followed by min, max, sum (and sum of squares). Each op gives "<mdt>.<op>" = count, and
// "<mdt>.<op>.min|max|sum|sumsq" when present. snapshot_time, start_time and elapsed_time are not counters.
// `mdt` names the MDT ("lustre-MDT0000"). A "mdt.<mdt>.md_stats=" header line (lctl get_param without -n)
// switches the MDT name for the lines after it.
Parsed parseLustreMdStats(std::string_view text, std::string_view mdt);

// NFS-Ganesha's reply to org.ganesha.nfsd.exportstats.GetFULLV3Stats or GetFULLV4Stats as `dbus-send
// --print-reply` prints it: "boolean true", "string "OK"", a time stamp struct, then an array with one struct
// per NFS operation: its name, then uint64 counts (total, errors; v3: and duplicates) and double latencies
// (skipped). Each op gives "<prefix>.<OP>" = total, "<prefix>.<OP>.errors" and "<prefix>.<OP>.dups" (v3).
// "boolean false" with "... does not have any activity" is no counters yet; with any other message (stats not
// enabled) an error quoting it.
Parsed parseGaneshaFullStats(std::string_view text, std::string_view prefix);

// A command's output: a JSON object of numbers (parseJsonCounters) when it starts with '{', else one
// "<name> <value>" pair per line (blank lines and lines starting with '#' skipped; a name has no spaces).
Parsed parseCommandCounters(std::string_view text);

}  // namespace mdbench::serverstats
