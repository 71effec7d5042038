// Small RAII handles and typed helpers over the HDF5 C API: scalar attributes, 1-D and 2-D datasets and
// compound datasets with a packed file type, in the types of results-schema/. Failures throw h5::Error naming
// the object ("/runs/run-0000: attribute 'status' is missing"); callers add the file name.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <hdf5.h>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "mdbench/results/results_file.hpp"

namespace mdbench::results {
// Once per process, before anything else of HDF5 is used (link_guard.hpp).
void configureHdf5();
}  // namespace mdbench::results

namespace mdbench::h5 {

// A problem with an HDF5 object. The message names the object but not the file.
class Error : public ResultsFileError {
 public:
  using ResultsFileError::ResultsFileError;
};

// Silences HDF5's automatic error-stack printing while alive (users see our messages, not HDF5 dumps) and
// restores the previous setting afterwards, so guards nest.
class QuietErrors {
 public:
  QuietErrors() {
    results::configureHdf5();
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// The most specific entry of HDF5's current error stack, shortened to "unable to open file: No such file
// or directory" when it carries an errno message; "" when the stack is empty. Call it right after the
// failing call: the next API call clears the stack.
inline std::string errorDetail() {
  std::string innermost;
  const auto take = [](unsigned n, const H5E_error2_t* err, void* out) -> herr_t {
    if (n == 0 && err->desc != nullptr) *static_cast<std::string*>(out) = err->desc;
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, take, &innermost);
  const std::string_view marker = "error message = '";
  const std::size_t at = innermost.find(marker);
  if (at == std::string::npos) return innermost;
  const std::size_t begin = at + marker.size();
  const std::size_t end = innermost.find('\'', begin);
  const std::string message = innermost.substr(begin, end == std::string::npos ? end : end - begin);
  const std::string what = innermost.substr(0, innermost.find_first_of(":,"));
  return fmt::format("{}: {}", what, message);
}

// Throws Error("<object>: <what> (<HDF5 detail>)") when an HDF5 call returned a negative value.
template <class R>
requires std::signed_integral<R> R check(R result, std::string_view object, std::string_view what) {
  if (result >= 0) return result;
  const std::string detail = errorDetail();
  if (detail.empty()) throw Error(fmt::format("{}: {}", object, what));
  throw Error(fmt::format("{}: {} ({})", object, what, detail));
}

// The close call of each kind of HDF5 identifier a Handle may own.
struct Closer {
  H5I_type_t kind;
  herr_t (*close)(hid_t);
};
inline constexpr std::array<Closer, 7> kClosers = {{
    {H5I_FILE, H5Fclose},
    {H5I_GROUP, H5Gclose},
    {H5I_DATASET, H5Dclose},
    {H5I_ATTR, H5Aclose},
    {H5I_DATASPACE, H5Sclose},
    {H5I_DATATYPE, H5Tclose},
    {H5I_GENPROP_LST, H5Pclose},
}};

// Closes any HDF5 identifier with the close call of its kind.
inline herr_t closeId(hid_t id) {
  const H5I_type_t kind = H5Iget_type(id);
  for (const Closer& closer : kClosers) {
    if (closer.kind == kind) return closer.close(id);
  }
  return -1;
}

// Owns one HDF5 identifier (file, group, dataset, attribute, dataspace, datatype or property list).
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  ~Handle() { static_cast<void>(close()); }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      static_cast<void>(close());
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now; negative when closing failed (closing a file writes what is still cached).
  [[nodiscard]] herr_t close() {
    if (id_ < 0) return 0;
    return closeId(std::exchange(id_, H5I_INVALID_HID));
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

// Wraps the result of a call that creates an identifier; throws when it failed.
inline Handle make(hid_t id, std::string_view object, std::string_view what) {
  return Handle(check(id, object, what));
}

// The absolute path of an object ("/runs/run-0000"), for messages.
inline std::string pathOf(hid_t object) {
  const ssize_t size = H5Iget_name(object, nullptr, 0);
  if (size <= 0) return "?";
  std::string name(static_cast<std::size_t>(size) + 1, '\0');
  H5Iget_name(object, name.data(), name.size());
  name.resize(static_cast<std::size_t>(size));
  return name;
}

inline std::string childPath(hid_t parent, std::string_view child) {
  std::string path = pathOf(parent);
  if (path != "/") path += '/';
  path += child;
  return path;
}

// ---- Types ----

// The value types of results-schema/.
enum class Type : std::uint8_t { kString, kUint8, kUint32, kUint64, kInt32, kFloat64 };

// Each type's schema name and its predefined HDF5 types, in the file (little-endian, as the schema says)
// and in memory (the C++ type); strings have none (stringType makes theirs). One switch, so that the name,
// the file type and the memory type of a Type cannot disagree.
struct TypeInfo {
  std::string_view name;
  hid_t file = H5I_INVALID_HID;
  hid_t memory = H5I_INVALID_HID;
};

inline TypeInfo typeInfo(Type type) {
  switch (type) {
    case Type::kString:
      return {"string"};
    case Type::kUint8:
      return {"uint8", H5T_STD_U8LE, H5T_NATIVE_UINT8};
    case Type::kUint32:
      return {"uint32", H5T_STD_U32LE, H5T_NATIVE_UINT32};
    case Type::kUint64:
      return {"uint64", H5T_STD_U64LE, H5T_NATIVE_UINT64};
    case Type::kInt32:
      return {"int32", H5T_STD_I32LE, H5T_NATIVE_INT32};
    case Type::kFloat64:
      return {"float64", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE};
  }
  return {"?"};
}

inline std::string_view typeName(Type type) { return typeInfo(type).name; }

template <class T>
concept Number = std::same_as<T, std::uint8_t> || std::same_as<T, std::uint32_t> ||
    std::same_as<T, std::uint64_t> || std::same_as<T, std::int32_t> || std::same_as<T, double>;

template <Number T>
constexpr Type typeOf() {
  if constexpr (std::same_as<T, std::uint8_t>) return Type::kUint8;
  if constexpr (std::same_as<T, std::uint32_t>) return Type::kUint32;
  if constexpr (std::same_as<T, std::uint64_t>) return Type::kUint64;
  if constexpr (std::same_as<T, std::int32_t>) return Type::kInt32;
  return Type::kFloat64;
}

// Variable-length UTF-8 strings; `const char*` (or `char*`) in memory.
inline Handle stringType() {
  Handle type = make(H5Tcopy(H5T_C_S1), "string type", "cannot copy H5T_C_S1");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "string type", "cannot make it variable-length");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string type", "cannot set UTF-8");
  return type;
}

enum class Where : std::uint8_t { kFile, kMemory };

// A copy of the HDF5 type of `type` in the file or in memory, for the caller to own.
inline Handle copyType(Type type, Where where) {
  if (type == Type::kString) return stringType();
  const TypeInfo info = typeInfo(type);
  if (info.file == H5I_INVALID_HID) throw Error("unknown h5::Type");
  return make(H5Tcopy(where == Where::kFile ? info.file : info.memory), fmt::format("{} type", info.name),
              "cannot copy");
}

inline Handle fileType(Type type) { return copyType(type, Where::kFile); }
inline Handle memoryType(Type type) { return copyType(type, Where::kMemory); }

// The schema's name for a stored datatype: "string" (variable-length), "uint8", "uint32", "uint64",
// "int32", "float64", "compound"; anything else is described ("int16", "uint32 big-endian",
// "fixed-length string", "float32", "enum", ...) so that it never equals a schema type.
inline std::string describeType(hid_t type) {
  const H5T_class_t cls = H5Tget_class(type);
  const std::size_t bits = H5Tget_size(type) * 8;
  const bool big_endian = H5Tget_order(type) == H5T_ORDER_BE;
  const std::string order = big_endian ? " big-endian" : "";
  switch (cls) {
    case H5T_INTEGER:
      return fmt::format("{}int{}{}", H5Tget_sign(type) == H5T_SGN_NONE ? "u" : "", bits, order);
    case H5T_FLOAT:
      return fmt::format("float{}{}", bits, order);
    case H5T_STRING:
      return H5Tis_variable_str(type) > 0 ? "string" : "fixed-length string";
    case H5T_COMPOUND:
      return "compound";
    case H5T_ENUM:
      return "enum";
    case H5T_ARRAY:
      return "array";
    case H5T_VLEN:
      return "vlen";
    case H5T_OPAQUE:
      return "opaque";
    case H5T_REFERENCE:
      return "reference";
    case H5T_BITFIELD:
      return "bitfield";
    case H5T_TIME:
      return "time";
    default:
      return "unknown type";
  }
}

// ---- Files, groups, links ----

// File access with the default (sec2) driver. File locking stays on but is skipped on file systems that
// disable it (Lustre mounted without flock), where HDF5 would otherwise refuse to open anything.
inline Handle fileAccess() {
  results::configureHdf5();
  Handle fapl = make(H5Pcreate(H5P_FILE_ACCESS), "file access list", "cannot create");
  check(H5Pset_file_locking(fapl.get(), true, true), "file access list", "cannot set file locking");
  return fapl;
}

inline bool exists(hid_t parent, const std::string& name) {
  return check(H5Lexists(parent, name.c_str(), H5P_DEFAULT), childPath(parent, name), "cannot look it up") >
         0;
}

// Opens an existing object and checks its kind (H5I_GROUP or H5I_DATASET).
inline Handle openObject(hid_t parent, const std::string& name, H5I_type_t kind) {
  const std::string path = childPath(parent, name);
  const std::string_view noun = kind == H5I_GROUP ? "group" : "dataset";
  if (!exists(parent, name)) throw Error(fmt::format("{}: {} is missing", path, noun));
  Handle object = make(H5Oopen(parent, name.c_str(), H5P_DEFAULT), path, "cannot open");
  if (H5Iget_type(object.get()) != kind) throw Error(fmt::format("{}: is not a {}", path, noun));
  return object;
}

inline Handle openGroup(hid_t parent, const std::string& name) { return openObject(parent, name, H5I_GROUP); }
inline Handle openDataset(hid_t parent, const std::string& name) {
  return openObject(parent, name, H5I_DATASET);
}

inline Handle createGroup(hid_t parent, const std::string& name) {
  const std::string path = childPath(parent, name);
  return make(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), path,
              "cannot create group");
}

// Names of a group's links, in HDF5's name order (byte-wise).
inline std::vector<std::string> childNames(hid_t group) {
  const std::string path = pathOf(group);
  H5G_info_t info{};
  check(H5Gget_info(group, &info), path, "cannot list");
  std::vector<std::string> names;
  names.reserve(info.nlinks);
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t size =
        check(H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT), path,
              "cannot read a link name");
    std::string name(static_cast<std::size_t>(size) + 1, '\0');
    check(
        H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT),
        path, "cannot read a link name");
    name.resize(static_cast<std::size_t>(size));
    names.push_back(std::move(name));
  }
  return names;
}

inline void flush(hid_t object) {
  check(H5Fflush(object, H5F_SCOPE_GLOBAL), pathOf(object), "cannot flush the file");
}

// ---- Attributes (scalars) ----

namespace detail {

inline Handle createAttribute(hid_t object, const std::string& name, Type type) {
  const std::string where = fmt::format("{}: attribute '{}'", pathOf(object), name);
  // Rewriting an attribute (status, end_utc) replaces it, whatever its type was.
  if (check(H5Aexists(object, name.c_str()), where, "cannot look it up") > 0) {
    check(H5Adelete(object, name.c_str()), where, "cannot replace it");
  }
  const Handle space = make(H5Screate(H5S_SCALAR), where, "cannot create a scalar dataspace");
  const Handle file_type = fileType(type);
  return make(H5Acreate2(object, name.c_str(), file_type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), where,
              "cannot create");
}

// Opens an attribute and checks that it is a scalar of the expected type.
inline Handle openAttribute(hid_t object, const std::string& name, Type type) {
  const std::string where = fmt::format("{}: attribute '{}'", pathOf(object), name);
  if (check(H5Aexists(object, name.c_str()), where, "cannot look it up") == 0) {
    throw Error(fmt::format("{} is missing", where));
  }
  Handle attribute = make(H5Aopen(object, name.c_str(), H5P_DEFAULT), where, "cannot open");
  const Handle stored = make(H5Aget_type(attribute.get()), where, "cannot read its type");
  const std::string stored_name = describeType(stored.get());
  if (stored_name != typeName(type)) {
    throw Error(fmt::format("{} is {}, expected {}", where, stored_name, typeName(type)));
  }
  const Handle space = make(H5Aget_space(attribute.get()), where, "cannot read its dataspace");
  if (H5Sget_simple_extent_type(space.get()) != H5S_SCALAR)
    throw Error(fmt::format("{} is not a scalar", where));
  return attribute;
}

}  // namespace detail

inline void writeAttribute(hid_t object, const std::string& name, std::string_view value) {
  const Handle attribute = detail::createAttribute(object, name, Type::kString);
  const std::string text(value);
  const char* pointer = text.c_str();
  const Handle type = stringType();
  check(H5Awrite(attribute.get(), type.get(), &pointer),
        fmt::format("{}: attribute '{}'", pathOf(object), name), "cannot write");
}

template <Number T>
void writeAttribute(hid_t object, const std::string& name, T value) {
  const Handle attribute = detail::createAttribute(object, name, typeOf<T>());
  const Handle type = memoryType(typeOf<T>());
  check(H5Awrite(attribute.get(), type.get(), &value),
        fmt::format("{}: attribute '{}'", pathOf(object), name), "cannot write");
}

template <class T>
requires Number<T> || std::same_as<T, std::string> T readAttribute(hid_t object, const std::string& name) {
  const std::string where = fmt::format("{}: attribute '{}'", pathOf(object), name);
  if constexpr (std::same_as<T, std::string>) {
    const Handle attribute = detail::openAttribute(object, name, Type::kString);
    const Handle type = stringType();
    char* pointer = nullptr;
    check(H5Aread(attribute.get(), type.get(), &pointer), where, "cannot read");
    std::string value = pointer != nullptr ? pointer : "";
    H5free_memory(pointer);
    return value;
  } else {
    const Handle attribute = detail::openAttribute(object, name, typeOf<T>());
    const Handle type = memoryType(typeOf<T>());
    T value{};
    check(H5Aread(attribute.get(), type.get(), &value), where, "cannot read");
    return value;
  }
}

// ---- 1-D datasets ----

namespace detail {

inline Handle createDataset(hid_t parent, const std::string& name, hid_t file_type,
                            std::span<const hsize_t> dims) {
  const Handle space = make(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                            childPath(parent, name), "cannot create dataspace");
  return make(H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              childPath(parent, name), "cannot create dataset");
}

inline Handle createDataset(hid_t parent, const std::string& name, hid_t file_type, std::size_t length) {
  const std::array<hsize_t, 1> dims = {length};
  return createDataset(parent, name, file_type, dims);
}

// A dataset transfer property list for moving the whole of `dataset` as memory_type, its type-conversion
// buffers sized to the transfer. HDF5's default is 1 MiB, allocated and zeroed on every H5Dread and H5Dwrite
// that converts (a compound row's padding, a string, a byte order): a results file is hundreds of small
// datasets, and clearing that memory took most of the time of writing or validating one (2026-12-07: 69% of
// a Validate test's time, in H5FL_blk_calloc). A transfer of more than 1 MiB still converts through 1 MiB,
// strip by strip, as before.
inline Handle transferOf(hid_t dataset, hid_t memory_type, const std::string& path) {
  constexpr hsize_t kMostBytes = hsize_t{1} << 20;
  const Handle space = make(H5Dget_space(dataset), path, "cannot read its dataspace");
  const Handle stored = make(H5Dget_type(dataset), path, "cannot read its type");
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  if (points < 0) throw Error(fmt::format("{}: cannot count its elements", path));
  // Twice the larger type's size: a type read from the file reports a variable-length string at its
  // size in memory (a pointer, 8 bytes), where HDF5 converts it at its size in the file (16).
  const hsize_t element = 2 * std::max<hsize_t>({1, H5Tget_size(stored.get()), H5Tget_size(memory_type)});
  const hsize_t fit = static_cast<hsize_t>(points) > kMostBytes / element
                          ? kMostBytes
                          : static_cast<hsize_t>(points) * element;
  Handle transfer = make(H5Pcreate(H5P_DATASET_XFER), path, "cannot create a transfer property list");
  check(H5Pset_buffer(transfer.get(), static_cast<std::size_t>(std::max(fit, element)), nullptr, nullptr),
        path, "cannot size the conversion buffer");
  return transfer;
}

// The size of the file that holds object (path names it in errors).
inline hsize_t fileBytes(hid_t object, const std::string& path) {
  const Handle file = make(H5Iget_file_id(object), path, "cannot find its file");
  hsize_t bytes = 0;
  check(H5Fget_filesize(file.get(), &bytes), path, "cannot read its file's size");
  return bytes;
}

// The dimensions of a dataset of `Rank` dimensions; throws for other shapes.
// A damaged dataspace can claim billions of elements, which would be allocated before the read fails.
// mdbench writes every element it declares (no fill values, no compression), so a dataset's elements
// cannot take more bytes than the whole file.
template <std::size_t Rank>
std::array<std::size_t, Rank> extent(hid_t dataset) {
  const std::string path = pathOf(dataset);
  const Handle space = make(H5Dget_space(dataset), path, "cannot read its dataspace");
  if (H5Sget_simple_extent_type(space.get()) != H5S_SIMPLE ||
      H5Sget_simple_extent_ndims(space.get()) != static_cast<int>(Rank)) {
    throw Error(fmt::format("{}: is not {}-dimensional", path, Rank == 1 ? "one" : "two"));
  }
  std::array<hsize_t, Rank> dims{};
  check(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), path, "cannot read its shape");
  const Handle type = make(H5Dget_type(dataset), path, "cannot read its type");
  const std::size_t element_bytes = std::max<std::size_t>(1, H5Tget_size(type.get()));
  const hsize_t file_bytes = fileBytes(dataset, path);
  // Dimension by dimension, so that the product of two damaged ones cannot overflow first.
  hsize_t room = file_bytes / element_bytes;
  for (const hsize_t d : dims) {
    if (d != 0 && d > room) {
      throw Error(fmt::format("{}: claims {} elements of {} bytes, more than the {}-byte file holds", path,
                              fmt::join(dims, " x "), element_bytes, file_bytes));
    }
    room = d == 0 ? room : room / d;
  }
  std::array<std::size_t, Rank> out{};
  for (std::size_t i = 0; i < Rank; ++i) out[i] = static_cast<std::size_t>(dims[i]);
  return out;
}

// The length of a one-dimensional dataset; throws for other shapes.
inline std::size_t length1d(hid_t dataset) { return extent<1>(dataset)[0]; }

inline void checkType(hid_t dataset, std::string_view expected) {
  const Handle type = make(H5Dget_type(dataset), pathOf(dataset), "cannot read its type");
  const std::string stored = describeType(type.get());
  if (stored != expected)
    throw Error(fmt::format("{}: is {}, expected {}", pathOf(dataset), stored, expected));
}

}  // namespace detail

// Writes any contiguous range of numbers (vector, array, span) as a 1-D dataset.
template <std::ranges::contiguous_range R>
requires Number<std::ranges::range_value_t<R>>
void writeVector(hid_t parent, const std::string& name, const R& values) {
  using T = std::ranges::range_value_t<R>;
  const Handle file_type = fileType(typeOf<T>());
  const Handle dataset = detail::createDataset(parent, name, file_type.get(), std::ranges::size(values));
  if (std::ranges::empty(values)) return;
  const Handle type = memoryType(typeOf<T>());
  const std::string path = childPath(parent, name);
  const Handle transfer = detail::transferOf(dataset.get(), type.get(), path);
  check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, transfer.get(), std::ranges::data(values)),
        path, "cannot write");
}

template <Number T>
std::vector<T> readVector(hid_t parent, const std::string& name) {
  const Handle dataset = openDataset(parent, name);
  detail::checkType(dataset.get(), typeName(typeOf<T>()));
  std::vector<T> values(detail::length1d(dataset.get()));
  if (values.empty()) return values;
  const Handle type = memoryType(typeOf<T>());
  const std::string path = pathOf(dataset.get());
  const Handle transfer = detail::transferOf(dataset.get(), type.get(), path);
  check(H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, transfer.get(), values.data()), path,
        "cannot read");
  return values;
}

// ---- 2-D datasets ----

// A row-major matrix of numbers: element (r, c) at values[r * cols + c].
template <Number T>
struct Matrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<T> values;
};

// Writes rows x cols numbers, row-major, as a 2-D dataset (either dimension may be 0); returns the
// dataset, for its attributes.
template <Number T>
Handle writeMatrix(hid_t parent, const std::string& name, std::size_t rows, std::size_t cols,
                   std::span<const T> values) {
  if (values.size() != rows * cols) {
    throw Error(fmt::format("{}: {} values for {} x {}", childPath(parent, name), values.size(), rows, cols));
  }
  const Handle file_type = fileType(typeOf<T>());
  const std::array<hsize_t, 2> dims = {rows, cols};
  Handle dataset = detail::createDataset(parent, name, file_type.get(), dims);
  if (values.empty()) return dataset;
  const Handle type = memoryType(typeOf<T>());
  const std::string path = childPath(parent, name);
  const Handle transfer = detail::transferOf(dataset.get(), type.get(), path);
  check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, transfer.get(), values.data()), path,
        "cannot write");
  return dataset;
}

template <Number T>
Matrix<T> readMatrix(hid_t parent, const std::string& name) {
  const Handle dataset = openDataset(parent, name);
  detail::checkType(dataset.get(), typeName(typeOf<T>()));
  const auto [rows, cols] = detail::extent<2>(dataset.get());
  Matrix<T> m{rows, cols, std::vector<T>(rows * cols)};
  if (m.values.empty()) return m;
  const Handle type = memoryType(typeOf<T>());
  const std::string path = pathOf(dataset.get());
  const Handle transfer = detail::transferOf(dataset.get(), type.get(), path);
  check(H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, transfer.get(), m.values.data()), path,
        "cannot read");
  return m;
}

// The memory of the variable-length strings one H5Dread allocates, freed when the arena goes out of scope.
// H5Dvlen_reclaim cannot do that job alone: when a read fails (a corrupt global heap entry in the middle of
// a dataset), HDF5 1.10 returns without freeing the strings it had already converted, and no pointer to
// them ever reaches the caller. Allocating through the transfer property list's vlen memory manager
// keeps every block in the arena, whatever the read did. The strings come from the file's global heap and
// mdbench writes each one once, so together they cannot take more bytes than the file: a damaged length
// (or many elements naming one heap object) makes the allocation, and so the read, fail instead.
class VlenArena {
 public:
  VlenArena(hid_t dataset, hid_t memory_type, const std::string& path)
      : transfer_(detail::transferOf(dataset, memory_type, path)), room_(detail::fileBytes(dataset, path)) {
    check(H5Pset_vlen_mem_manager(transfer_.get(), &VlenArena::allocate, this, &VlenArena::release, this),
          path, "cannot set the string memory manager");
  }
  ~VlenArena() {
    for (void* block : blocks_) std::free(block);
  }
  VlenArena(const VlenArena&) = delete;
  VlenArena& operator=(const VlenArena&) = delete;

  // The dataset transfer property list to pass to H5Dread.
  hid_t transfer() const { return transfer_.get(); }

 private:
  static void* allocate(std::size_t size, void* self) {
    auto* arena = static_cast<VlenArena*>(self);
    if (size > arena->room_) return nullptr;
    void* block = std::malloc(size == 0 ? 1 : size);
    if (block == nullptr) return nullptr;
    try {
      arena->blocks_.push_back(block);
    } catch (...) {
      std::free(block);
      return nullptr;
    }
    arena->room_ -= size;
    return block;
  }
  // HDF5 frees through here only what it reclaims itself; the arena frees it at the end.
  static void release(void* /*block*/, void* /*self*/) {}

  Handle transfer_;
  hsize_t room_;  // bytes the strings may still take
  std::vector<void*> blocks_;
};

inline void writeStrings(hid_t parent, const std::string& name, const std::vector<std::string>& values) {
  const Handle type = stringType();
  const Handle dataset = detail::createDataset(parent, name, type.get(), values.size());
  if (values.empty()) return;
  std::vector<const char*> pointers;
  pointers.reserve(values.size());
  for (const std::string& value : values) pointers.push_back(value.c_str());
  const std::string path = childPath(parent, name);
  const Handle transfer = detail::transferOf(dataset.get(), type.get(), path);
  check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, transfer.get(), pointers.data()), path,
        "cannot write");
}

inline std::vector<std::string> readStrings(hid_t parent, const std::string& name) {
  const Handle dataset = openDataset(parent, name);
  const std::string path = pathOf(dataset.get());
  detail::checkType(dataset.get(), "string");
  std::vector<char*> pointers(detail::length1d(dataset.get()), nullptr);
  if (pointers.empty()) return {};
  const Handle type = stringType();
  const VlenArena arena(dataset.get(), type.get(), path);
  check(H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, arena.transfer(), pointers.data()), path,
        "cannot read");
  std::vector<std::string> values;
  values.reserve(pointers.size());
  for (const char* pointer : pointers) values.emplace_back(pointer != nullptr ? pointer : "");
  return values;
}

// ---- Compound datasets ----

// One field of a compound row: its name in the file, its type, and where it sits in the C++ row struct.
// String fields are `const char*` members (variable-length strings).
struct Field {
  const char* name;
  Type type;
  std::size_t offset;
};

// The in-memory compound type of a row struct of `size` bytes.
inline Handle memoryCompound(std::size_t size, std::span<const Field> fields) {
  Handle type = make(H5Tcreate(H5T_COMPOUND, size), "compound type", "cannot create");
  for (const Field& field : fields) {
    const Handle member = memoryType(field.type);
    check(H5Tinsert(type.get(), field.name, field.offset, member.get()), "compound type",
          "cannot insert a field");
  }
  return type;
}

// The file's compound type: the fields in the given order, packed (no struct padding), little-endian.
inline Handle packedFileCompound(std::span<const Field> fields) {
  std::vector<Handle> members;
  std::size_t size = 0;
  for (const Field& field : fields) {
    members.push_back(fileType(field.type));
    size += H5Tget_size(members.back().get());
  }
  Handle type = make(H5Tcreate(H5T_COMPOUND, size), "compound type", "cannot create");
  std::size_t offset = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    check(H5Tinsert(type.get(), fields[i].name, offset, members[i].get()), "compound type",
          "cannot insert a field");
    offset += H5Tget_size(members[i].get());
  }
  return type;
}

template <class Row>
requires std::is_standard_layout_v<Row>
void writeCompound(hid_t parent, const std::string& name, std::span<const Field> fields,
                   std::span<const Row> rows) {
  const Handle file_type = packedFileCompound(fields);
  const Handle dataset = detail::createDataset(parent, name, file_type.get(), rows.size());
  if (rows.empty()) return;
  const Handle memory_type = memoryCompound(sizeof(Row), fields);
  const std::string path = childPath(parent, name);
  const Handle transfer = detail::transferOf(dataset.get(), memory_type.get(), path);
  check(H5Dwrite(dataset.get(), memory_type.get(), H5S_ALL, H5S_ALL, transfer.get(), rows.data()), path,
        "cannot write");
}

// Reads a 1-D compound dataset into Row structs and returns convert(row) for each. Every field listed must
// be stored with its type (further stored fields are ignored); strings are freed after the conversion.
template <class Row, class Convert>
requires std::is_standard_layout_v<Row> && std::invocable<Convert, const Row&>
auto readCompound(hid_t parent, const std::string& name, std::span<const Field> fields, Convert convert)
    -> std::vector<std::invoke_result_t<Convert, const Row&>> {
  const Handle dataset = openDataset(parent, name);
  const std::string path = pathOf(dataset.get());
  detail::checkType(dataset.get(), "compound");
  const Handle stored = make(H5Dget_type(dataset.get()), path, "cannot read its type");
  for (const Field& field : fields) {
    const int index = H5Tget_member_index(stored.get(), field.name);
    if (index < 0) throw Error(fmt::format("{}: field '{}' is missing", path, field.name));
    const Handle member = make(H5Tget_member_type(stored.get(), static_cast<unsigned>(index)), path,
                               "cannot read a field type");
    const std::string member_type = describeType(member.get());
    if (member_type != typeName(field.type)) {
      throw Error(fmt::format("{}: field '{}' is {}, expected {}", path, field.name, member_type,
                              typeName(field.type)));
    }
  }
  std::vector<Row> rows(detail::length1d(dataset.get()));
  std::vector<std::invoke_result_t<Convert, const Row&>> out;
  if (rows.empty()) return out;
  const Handle memory_type = memoryCompound(sizeof(Row), fields);
  // Frees the strings HDF5 allocates, also when the read or a conversion fails.
  const VlenArena arena(dataset.get(), memory_type.get(), path);
  check(H5Dread(dataset.get(), memory_type.get(), H5S_ALL, H5S_ALL, arena.transfer(), rows.data()), path,
        "cannot read");
  out.reserve(rows.size());
  for (const Row& row : rows) out.push_back(convert(row));
  return out;
}

}  // namespace mdbench::h5
