// Shared by the results-file tests that see the file itself (their target has src/results on its include
// path): the rows of a phase's `ranks` table as stored, with the derived columns (rank, node, rate) the
// reader does not keep.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "h5.hpp"
#include "results_layout.hpp"

namespace mdbench::results_test {

// `phase_group`: "/runs/run-0000/iterations/iter-0000/file-create".
inline std::vector<results::RankRow> storedRankRows(const std::string& path, const std::string& phase_group) {
  const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const h5::Handle group = h5::openGroup(file.get(), phase_group.substr(1));
  return h5::readCompound<results::RankRow>(group.get(), "ranks", results::kRankFields,
                                            [](const results::RankRow& row) { return row; });
}

}  // namespace mdbench::results_test
