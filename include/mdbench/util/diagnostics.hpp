// Messages for the user on standard error, in one shape each, so that every part of the program reports a
// problem the same way: "mdbench: error: MESSAGE".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mdbench {

// The path the program was started as (argv[0]; "mdbench" until main sets it): mdtest's console prints it.
void setInvokedAs(std::string_view path);
const std::string& invokedAs();

// "mdbench: error: MESSAGE" and a newline on standard error.
void printError(std::string_view message);
// "mdbench: warning: MESSAGE": something that runs but may not measure what was meant (--warningAsErrors
// makes the main command's warnings usage errors).
void printWarning(std::string_view message);
// A subcommand's: "mdbench COMMAND: error: MESSAGE".
void printCommandError(std::string_view command, std::string_view message);

// A bug or resource exhaustion caught at the top: "mdbench: internal error on rank R: WHAT".
void printInternalError(std::uint32_t rank, std::string_view what);

}  // namespace mdbench
