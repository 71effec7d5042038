// The backend a run's configuration asks for (-a, --path-style, -Y's call, -k, --verify-write).
#pragma once

#include <memory>
#include <string>

#include "mdbench/backend/backend.hpp"
#include "mdbench/config/config.hpp"

namespace mdbench {

// POSIX: the POSIX backend on `root_path` (an existing directory, never a link); DUMMY: the null backend,
// which never looks at `root_path`. Returns nullptr and sets `err` (an errno value) on failure.
std::unique_ptr<Backend> makeBackend(const Config& config, const std::string& root_path, int& err);

}  // namespace mdbench
