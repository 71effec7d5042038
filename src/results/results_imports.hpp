// Imported results (schema version 4) in a results file: group names and the reader's part.
#pragma once

#include <cstdint>
#include <string>

#include "h5.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench {

inline constexpr const char* kDataPathGroup = "datapath";
inline constexpr const char* kMetadataImportsGroup = "metadata-imports";

std::string importGroupName(std::uint32_t index);  // "import-0000", ...
// Reads /datapath and /metadata-imports, when present, into out. Throws h5::Error.
void readImports(hid_t file, StoredResults& out);

}  // namespace mdbench
