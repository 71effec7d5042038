// The build's version and git commit.
#pragma once

#include <string_view>

namespace mdbench {

std::string_view version();
std::string_view gitCommit();

}  // namespace mdbench
