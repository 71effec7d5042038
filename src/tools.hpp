// Subcommands on results files (validate, export): run on one rank, return the exit status.
#pragma once

#include <string>
#include <vector>

namespace mdbench {

int runValidate(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);

}  // namespace mdbench
