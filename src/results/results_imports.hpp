// Imported results (schema version 4) in a results file: the reader's part (the layout of an import group is
// in results_layout.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "h5.hpp"
#include "mdbench/results/results_file.hpp"

namespace mdbench {

std::string importGroupName(std::uint32_t index);  // "import-0000", ...
// Reads /datapath and /metadata-imports, when present, into out. Throws h5::Error.
void readImports(hid_t file, StoredResults& out);

}  // namespace mdbench
