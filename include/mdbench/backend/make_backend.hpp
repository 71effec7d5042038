// The backend a run's configuration asks for (-a, --path-style, -Y's call, -k, --verify-write).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "mdbench/backend/backend.hpp"
#include "mdbench/config/config.hpp"

namespace mdbench {

// makeStorage(config)->open (storage.hpp). POSIX: the POSIX backend on `root_path` (an existing directory,
// never a link), with --posix.*; DUMMY: the null backend, which never looks at `root_path`, with --dummy.*
// (`rank`: this rank's number, for
// --dummy.delay-only-rank0). Returns nullptr and sets `err` (an errno value) on failure.
std::unique_ptr<Backend> makeBackend(const Config& config, const std::string& root_path, std::uint32_t rank,
                                     int& err);

}  // namespace mdbench
