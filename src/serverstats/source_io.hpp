// The I/O behind the sources (sources.cpp), each bounded in time and size. Private to serverstats.
#pragma once

#include <string>
#include <string_view>

#include "mdbench/serverstats/source.hpp"

namespace mdbench::serverstats {

// Sends `command` (a JSON request) to a Ceph daemon's admin socket and reads its reply into `reply`: "" or
// the problem. The protocol: the request and a NUL byte; the reply's length as 4 bytes big-endian, then
// the reply. Abandoned after timeout_s.
std::string adminSocketCommand(const std::string& socket_path, std::string_view command, double timeout_s,
                               std::string& reply, const Abandon& abandon = {});

// Runs `command` through /bin/sh -c in a process group of its own and reads its standard output into `out`
// (its standard error goes where mdbench's goes): "" when it exited 0 within timeout_s, else the problem.
// After timeout_s, or once `abandon` says so, the group is killed (SIGKILL) and reaped.
std::string runCommand(const std::string& command, double timeout_s, std::string& out,
                       const Abandon& abandon = {});

}  // namespace mdbench::serverstats
