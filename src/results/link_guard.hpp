// What in a results file could make HDF5 touch another file, found before any object is opened: a link that
// is not a hard link inside the file (soft, external, user-defined), an object with a second name, a
// dataset whose data lives elsewhere (external storage, a virtual dataset) or passes through a filter (which
// HDF5 may load from a plugin). mdbench writes none of these, so a file holding one is not ours as written.
#pragma once

#include <hdf5.h>

#include <string>

namespace mdbench::results {

// Once per process, before the first file is opened: external links can no longer be traversed (their
// class is replaced by one whose traversal fails, so that no code path follows one even by accident),
// filter plugins are not loaded, and HDF5 prints no error stack of its own.
void configureHdf5();

// "" or the first such object, named with its path in the file and, for a link, what it points to:
// "/runs is an external link to victim.h5:/runs". Walks the links only (H5Lvisit follows hard links alone);
// no object is opened through a link.
std::string foreignReference(hid_t file);

}  // namespace mdbench::results
