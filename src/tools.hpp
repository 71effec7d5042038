// Subcommands on results files (validate, export, import, report; check is in mdbench/check.hpp):
// run on one rank, return the exit status.
#pragma once

#include <string>
#include <vector>

namespace mdbench {

int runValidate(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
int runImport(const std::vector<std::string>& args);  // report_tools.cpp
int runReport(const std::vector<std::string>& args);  // report_tools.cpp

}  // namespace mdbench
