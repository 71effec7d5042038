// --savePerOpDataCSV: every rank's per-op file looked at before the run makes anything (its results file
// too), as -o is: a FIFO, a directory, a link or an existing file under one of the names is a usage error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mdbench {

// "" or the first problem with the files of `prefix`: one per rank of `ranks`, or, for a sweep (`steps`
// not empty: the rank count of each step), one per rank of each step.
std::string perOpFilesProblem(const std::string& prefix, std::uint32_t ranks,
                              const std::vector<std::uint32_t>& steps);

}  // namespace mdbench
