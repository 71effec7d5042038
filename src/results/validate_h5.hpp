// Lenient read-only HDF5 lookups for the validator, on top of h5.hpp: they report "absent or unreadable" as
// nullopt instead of throwing, and accept fixed-length strings where the schema says "string", so the
// validator can say precisely what is wrong. Private to src/results/validate_structure.cpp.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "h5.hpp"

namespace mdbench::validation {

// Whether a stored datatype is what the schema calls `expected` ("string" is variable or fixed length;
// numbers must be the exact little-endian type, as h5::describeType names them).
inline bool typeMatches(hid_t type, const std::string& expected) {
  if (expected == "string") return H5Tget_class(type) == H5T_STRING;
  return h5::describeType(type) == expected;
}

// Elements in a dataspace; -1 when it cannot be read.
inline std::int64_t elementCount(hid_t space) {
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  return n < 0 ? -1 : static_cast<std::int64_t>(n);
}

// A string attribute's value, variable or fixed length; nullopt when it is not a readable string.
inline std::optional<std::string> readStringAttribute(hid_t attribute) {
  const h5::Handle file_type(H5Aget_type(attribute));
  if (!file_type.valid() || H5Tget_class(file_type.get()) != H5T_STRING) return std::nullopt;
  const h5::Handle memory_type(H5Tcopy(H5T_C_S1));
  H5Tset_cset(memory_type.get(), H5Tget_cset(file_type.get()));
  if (H5Tis_variable_str(file_type.get()) > 0) {
    H5Tset_size(memory_type.get(), H5T_VARIABLE);
    char* text = nullptr;
    if (H5Aread(attribute, memory_type.get(), &text) < 0) return std::nullopt;
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
  }
  const std::size_t size = H5Tget_size(file_type.get());
  H5Tset_size(memory_type.get(), size + 1);
  H5Tset_strpad(memory_type.get(), H5T_STR_NULLTERM);
  std::vector<char> buffer(size + 1, '\0');
  if (H5Aread(attribute, memory_type.get(), buffer.data()) < 0) return std::nullopt;
  return std::string(buffer.data());
}

inline std::optional<std::string> readStringAttribute(hid_t object, const std::string& name) {
  if (H5Aexists(object, name.c_str()) <= 0) return std::nullopt;
  const h5::Handle attribute(H5Aopen(object, name.c_str(), H5P_DEFAULT));
  if (!attribute.valid()) return std::nullopt;
  return readStringAttribute(attribute.get());
}

// A single-valued integer attribute as uint64 (HDF5 converts); nullopt when absent, not an integer or
// unreadable.
inline std::optional<std::uint64_t> readUnsignedAttribute(hid_t object, const std::string& name) {
  if (H5Aexists(object, name.c_str()) <= 0) return std::nullopt;
  const h5::Handle attribute(H5Aopen(object, name.c_str(), H5P_DEFAULT));
  if (!attribute.valid()) return std::nullopt;
  const h5::Handle type(H5Aget_type(attribute.get()));
  const h5::Handle space(H5Aget_space(attribute.get()));
  if (!type.valid() || H5Tget_class(type.get()) != H5T_INTEGER || elementCount(space.get()) != 1) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  if (H5Aread(attribute.get(), H5T_NATIVE_UINT64, &value) < 0) return std::nullopt;
  return value;
}

// The names of an object's attributes, in name order.
inline std::vector<std::string> attributeNames(hid_t object) {
  std::vector<std::string> names;
  const auto collect = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
  };
  hsize_t index = 0;
  H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, &index, collect, &names);
  return names;
}

}  // namespace mdbench::validation
