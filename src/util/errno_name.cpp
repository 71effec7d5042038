// errno values as text. Not for the hot path: callers format only when reporting.
#include "mdbench/util/errno_name.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace mdbench {
namespace {

// strerror_r has two signatures (GNU returns the message, XSI fills buf and returns a status); overloads
// pick whichever the C library declared.
[[maybe_unused]] const char* strerrorResult(const char* gnu_result, const char* /*buf*/) {
  return gnu_result;
}
[[maybe_unused]] const char* strerrorResult(int xsi_status, const char* buf) {
  return xsi_status == 0 ? buf : nullptr;
}

}  // namespace

std::string errnoName(int err) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  if (const char* name = ::strerrorname_np(err); name != nullptr) {
    return name;
  }
#endif
  return fmt::format("E{}", err);
}

std::string errnoMessage(int err) {
  char buf[256] = {};
  const char* msg = strerrorResult(::strerror_r(err, buf, sizeof buf), buf);
  if (msg == nullptr || *msg == '\0') {
    return fmt::format("Unknown error {}", err);
  }
  return msg;
}

int lastErrno() { return errno != 0 ? errno : EIO; }

std::string describeErrno(int err) { return fmt::format("{} ({})", errnoName(err), errnoMessage(err)); }

}  // namespace mdbench
