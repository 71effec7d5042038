// What in a results file could make HDF5 touch another file: link_guard.hpp.
#include "link_guard.hpp"

#include <H5PLpublic.h>
#include <fmt/format.h>
#include <hdf5.h>

#include <cstring>
#include <string>
#include <vector>

#include "h5.hpp"

namespace mdbench::results {
namespace {

// The external-link class mdbench installs over HDF5's: a query gives the stored value (the file and object
// named, for messages), a traversal fails.
hid_t refuseTraversal(const char* /*name*/, hid_t /*group*/, const void* /*data*/, std::size_t /*size*/,
                      hid_t /*lapl*/, hid_t /*dxpl*/) {
  return H5I_INVALID_HID;
}

ssize_t queryValue(const char* /*name*/, const void* data, std::size_t size, void* buffer,
                   std::size_t buffer_size) {
  if (buffer != nullptr && buffer_size > 0) std::memcpy(buffer, data, std::min(size, buffer_size));
  return static_cast<ssize_t>(size);
}

const H5L_class_t kRefusedExternal = {H5L_LINK_CLASS_T_VERS,
                                      H5L_TYPE_EXTERNAL,
                                      "external link (refused by mdbench)",
                                      nullptr,
                                      nullptr,
                                      nullptr,
                                      refuseTraversal,
                                      nullptr,
                                      queryValue};

// A link's stored value: a soft link's path, an external link's packed file and object names.
std::vector<char> linkValue(hid_t root, const char* name, const H5L_info_t& info) {
  std::vector<char> value(info.u.val_size + 1, '\0');
  if (info.u.val_size > 0 && H5Lget_val(root, name, value.data(), info.u.val_size, H5P_DEFAULT) < 0)
    value.assign(1, '\0');
  return value;
}

std::string describeLink(hid_t root, const char* name, const H5L_info_t& info) {
  const std::string path = fmt::format("/{}", name);
  if (info.type == H5L_TYPE_SOFT) {
    return fmt::format("{} is a soft link to {}", path, linkValue(root, name, info).data());
  }
  if (info.type == H5L_TYPE_EXTERNAL) {
    std::vector<char> value = linkValue(root, name, info);
    const char* file = nullptr;
    const char* object = nullptr;
    unsigned flags = 0;
    if (H5Lunpack_elink_val(value.data(), info.u.val_size, &flags, &file, &object) >= 0 && file != nullptr) {
      return fmt::format("{} is an external link to {}:{} (another file)", path, file,
                         object != nullptr ? object : "?");
    }
    return fmt::format("{} is an external link (to another file)", path);
  }
  return fmt::format("{} is a user-defined link (type {})", path, static_cast<int>(info.type));
}

// A dataset's data in the file itself, as mdbench writes it: no external storage, not virtual, no filter.
std::string datasetProblem(hid_t root, const char* name) {
  const std::string path = fmt::format("/{}", name);
  const h5::Handle dataset(H5Dopen2(root, name, H5P_DEFAULT));
  if (!dataset.valid()) return fmt::format("{}: a dataset that cannot be opened", path);
  const h5::Handle create(H5Dget_create_plist(dataset.get()));
  if (!create.valid()) return fmt::format("{}: a dataset whose storage cannot be read", path);
  if (H5Pget_layout(create.get()) == H5D_VIRTUAL) {
    return fmt::format("{} is a virtual dataset (its data is in other files)", path);
  }
  if (H5Pget_external_count(create.get()) != 0) {
    return fmt::format("{} is a dataset stored in external files", path);
  }
  if (H5Pget_nfilters(create.get()) != 0) {
    return fmt::format("{} is a dataset with a filter (mdbench writes none; HDF5 may load it from a plugin)",
                       path);
  }
  return {};
}

struct Walk {
  std::string problem;
};

herr_t visitLink(hid_t root, const char* name, const H5L_info_t* info, void* data) {
  auto& walk = *static_cast<Walk*>(data);
  if (info->type != H5L_TYPE_HARD) {
    walk.problem = describeLink(root, name, *info);
    return 1;
  }
  // Only hard links are followed to here, through groups of this file: the object is in the file.
  H5O_info_t object{};
  if (H5Oget_info_by_name2(root, name, &object, H5O_INFO_BASIC, H5P_DEFAULT) < 0) {
    walk.problem = fmt::format("/{}: an object that cannot be looked at", name);
    return 1;
  }
  if (object.rc > 1) {
    walk.problem = fmt::format("/{} is one of {} names of one object (a hard link; mdbench makes none)", name,
                               object.rc);
    return 1;
  }
  if (object.type == H5O_TYPE_DATASET) walk.problem = datasetProblem(root, name);
  return walk.problem.empty() ? 0 : 1;
}

}  // namespace

void configureHdf5() {
  static const bool done = [] {
    // Off for good: every message is mdbench's own. Left on, HDF5 also prints "HDF5: infinite loop closing
    // library" at exit whenever a file could not be closed (HDF5 1.10 cannot close one after a failed
    // write, which mdbench has already reported in words).
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    static_cast<void>(H5Lregister(&kRefusedExternal));
    static_cast<void>(H5PLset_loading_state(0));
    return true;
  }();
  static_cast<void>(done);
}

std::string foreignReference(hid_t file) {
  configureHdf5();
  Walk walk;
  if (H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, visitLink, &walk) < 0 && walk.problem.empty()) {
    const std::string detail = h5::errorDetail();
    return fmt::format("its links cannot be listed{}{}", detail.empty() ? "" : ": ", detail);
  }
  return walk.problem;
}

}  // namespace mdbench::results
