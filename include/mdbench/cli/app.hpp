// The program: command line to exit status. main() only owns MPI and calls this.
#pragma once

#include <string>
#include <vector>

#include "mdbench/run/comm.hpp"

namespace mdbench {

// Exit statuses.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;  // an operation failed, or the run could not start or finish
inline constexpr int kExitUsage = 2;   // bad options: nothing touched the file system
// Every operation succeeded, but a --server-stats source could not be read around some phase.
inline constexpr int kExitServerStatsIncomplete = 4;

// Runs `mdbench ARGS...` on this rank. Collective over comm. Rank 0 prints; other ranks stay quiet.
int runApp(const std::vector<std::string>& args, Comm& comm);

}  // namespace mdbench
