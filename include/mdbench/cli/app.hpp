// The program: command line to exit status. main() only owns MPI and calls this.
#pragma once

#include <optional>
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

// What needs no MPI, for a process no launcher started (a singleton): the subcommands (validate, export,
// import, report, check, clean, ...), --help, --version and a command line that does not parse, answered
// before MPI_Init, which costs a singleton more than the answer. nullopt: a run, for runApp under MPI.
std::optional<int> runWithoutMpi(const std::vector<std::string>& args);

}  // namespace mdbench
