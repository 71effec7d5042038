// Messages on standard error (diagnostics.hpp).
#include "mdbench/util/diagnostics.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace mdbench {

namespace {
std::string& invokedAsStorage() {
  static std::string path = "mdbench";
  return path;
}
}  // namespace

void setInvokedAs(std::string_view path) {
  if (!path.empty()) invokedAsStorage() = std::string(path);
}
const std::string& invokedAs() { return invokedAsStorage(); }

void printError(std::string_view message) { fmt::print(stderr, "mdbench: error: {}\n", message); }

void printWarning(std::string_view message) { fmt::print(stderr, "mdbench: warning: {}\n", message); }

void printCommandError(std::string_view command, std::string_view message) {
  fmt::print(stderr, "mdbench {}: error: {}\n", command, message);
}

void printInternalError(std::uint32_t rank, std::string_view what) {
  fmt::print(stderr, "mdbench: internal error on rank {}: {}\n", rank, what);
}

}  // namespace mdbench
