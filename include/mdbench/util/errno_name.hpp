// errno values as text: the symbolic name ("ENOENT") and the message.
#pragma once

#include <string>

namespace mdbench {

std::string errnoName(int err);      // "ENOENT"; "E<number>" if unknown
std::string errnoMessage(int err);   // strerror text
std::string describeErrno(int err);  // "ENOENT (No such file or directory)"
// errno after a call that failed: EIO where the call left it 0 (a failure is never reported as success).
int lastErrno();

}  // namespace mdbench
