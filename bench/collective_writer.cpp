#include "collective_writer.hpp"

#include <fmt/format.h>
#include <hdf5.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "h5.hpp"
#include "mdbench/model/metrics.hpp"
#include "mdbench/results/results_file.hpp"
#include "results_layout.hpp"

namespace mdbench::bench {
namespace {

// The results module's RAII handle (src/results/h5.hpp), built from the call that creates the identifier:
// throws when that call failed.
class Id : public h5::Handle {
 public:
  Id() = default;
  Id(hid_t id, std::string_view what) : h5::Handle(h5::check(id, "collective writer", what)) {}
  [[nodiscard]] herr_t reset() { return close(); }
};

void check(herr_t status, std::string_view what) {
  if (status < 0) throw std::runtime_error(fmt::format("HDF5: {} failed", what));
}

Id stringType() {
  Id type(H5Tcopy(H5T_C_S1), "H5Tcopy");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "H5Tset_size");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset");
  return type;
}

// Every rank calls these with the same name and value: attribute writes are collective under MPI-IO.
void writeScalar(hid_t object, const char* name, hid_t file_type, hid_t memory_type, const void* value) {
  const Id space(H5Screate(H5S_SCALAR), "H5Screate");
  const Id attribute(H5Acreate2(object, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), name);
  check(H5Awrite(attribute.get(), memory_type, value), name);
}
void writeAttribute(hid_t object, const char* name, std::uint32_t value) {
  writeScalar(object, name, H5T_STD_U32LE, H5T_NATIVE_UINT32, &value);
}
void writeAttribute(hid_t object, const char* name, std::uint64_t value) {
  writeScalar(object, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value);
}
void writeAttribute(hid_t object, const char* name, double value) {
  writeScalar(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}
void writeAttribute(hid_t object, const char* name, const std::string& value) {
  const Id type = stringType();
  const char* pointer = value.c_str();
  writeScalar(object, name, type.get(), type.get(), &pointer);
}

// The `ranks` row as results-schema/README.md lists it: packed in the file, the results module's RankRow in
// memory.
struct RankField {
  const char* name;
  hid_t file_type;
  hid_t memory_type;
  std::size_t offset;
};

std::array<RankField, 10> rankFields() {
  return {{
      {"rank", H5T_STD_U32LE, H5T_NATIVE_UINT32, offsetof(results::RankRow, rank)},
      {"node", H5T_STD_U32LE, H5T_NATIVE_UINT32, offsetof(results::RankRow, node)},
      {"planned", H5T_STD_U64LE, H5T_NATIVE_UINT64, results::inRecord(offsetof(RankPhaseRecord, planned))},
      {"ok", H5T_STD_U64LE, H5T_NATIVE_UINT64, results::inRecord(offsetof(RankPhaseRecord, ok))},
      {"failed", H5T_STD_U64LE, H5T_NATIVE_UINT64, results::inRecord(offsetof(RankPhaseRecord, failed))},
      {"bytes", H5T_STD_U64LE, H5T_NATIVE_UINT64, results::inRecord(offsetof(RankPhaseRecord, bytes))},
      {"t_start", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, results::inRecord(offsetof(RankPhaseRecord, t_start))},
      {"t_local_end", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
       results::inRecord(offsetof(RankPhaseRecord, t_local_end))},
      {"t_global_end", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
       results::inRecord(offsetof(RankPhaseRecord, t_global_end))},
      {"rate", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, offsetof(results::RankRow, rate)},
  }};
}

Id rankFileType() {
  std::size_t size = 0;
  for (const RankField& f : rankFields()) size += H5Tget_size(f.file_type);
  Id type(H5Tcreate(H5T_COMPOUND, size), "H5Tcreate");
  std::size_t offset = 0;
  for (const RankField& f : rankFields()) {
    check(H5Tinsert(type.get(), f.name, offset, f.file_type), "H5Tinsert");
    offset += H5Tget_size(f.file_type);
  }
  return type;
}

Id rankMemoryType() {
  Id type(H5Tcreate(H5T_COMPOUND, sizeof(results::RankRow)), "H5Tcreate");
  for (const RankField& f : rankFields())
    check(H5Tinsert(type.get(), f.name, f.offset, f.memory_type), "H5Tinsert");
  return type;
}

// What the phase attributes need from all ranks, reduced to every rank (three small allreduces).
struct Reduced {
  PhaseAggregate aggregate;
  LatencyHistogram latency;
};

Reduced reduceEverywhere(MPI_Comm comm, const RankPhaseRecord& mine, const LatencyHistogram& mine_latency) {
  constexpr std::size_t kSums = 4;
  const bool active = mine.planned > 0;
  const double rate = rankRate(mine);
  std::array<std::uint64_t, kSums + LatencyHistogram::kBuckets> sums{};
  sums[0] = mine.ok;
  sums[1] = mine.failed;
  sums[2] = mine.bytes;
  sums[3] = active ? 1 : 0;
  std::memcpy(sums.data() + kSums, mine_latency.counts().data(),
              LatencyHistogram::kBuckets * sizeof(std::uint64_t));
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_UINT64_T, MPI_SUM, comm);
  constexpr double kNone = -std::numeric_limits<double>::infinity();
  // The minimum rides along as the maximum of its negation.
  std::array<double, 3> maxima = {mine.t_global_end - mine.t_start, active ? rate : kNone,
                                  active ? -rate : kNone};
  MPI_Allreduce(MPI_IN_PLACE, maxima.data(), 3, MPI_DOUBLE, MPI_MAX, comm);
  double rate_sum = active ? rate : 0.0;
  MPI_Allreduce(MPI_IN_PLACE, &rate_sum, 1, MPI_DOUBLE, MPI_SUM, comm);

  // The formulas of metrics.cpp (aggregate()), from sums and extremes instead of the rows.
  Reduced r;
  PhaseAggregate& a = r.aggregate;
  a.ok = sums[0];
  a.failed = sums[1];
  a.bytes = sums[2];
  a.active_ranks = static_cast<std::uint32_t>(sums[3]);
  a.time_s = std::max(0.0, maxima[0]);
  if (a.time_s > 0.0) a.ops_per_s = static_cast<double>(a.ok) / a.time_s;
  if (a.active_ranks > 0) {
    a.rank_rate_max = maxima[1];
    a.rank_rate_min = -maxima[2];
    a.rank_rate_mean = rate_sum / a.active_ranks;
  }
  if (a.rank_rate_max > 0.0) a.balance = a.rank_rate_min / a.rank_rate_max;
  std::memcpy(r.latency.counts().data(), sums.data() + kSums,
              LatencyHistogram::kBuckets * sizeof(std::uint64_t));
  return r;
}

}  // namespace

struct CollectivePhaseFile::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  PhaseFlush flush = PhaseFlush::kEveryPhase;
  Id file;  // declared first: closed after the groups opened in it
  Id iterations;
  Id rank_file_type = rankFileType();
  Id rank_memory_type = rankMemoryType();
  Id collective_transfer;
  Id no_fill;  // every element is written, so HDF5 need not write fill values first

  Id iterationGroup(std::uint32_t iteration) {
    const std::string name = fmt::format("iter-{:04}", iteration);
    const htri_t exists = H5Lexists(iterations.get(), name.c_str(), H5P_DEFAULT);
    check(exists, "H5Lexists");
    if (exists > 0) return Id(H5Gopen2(iterations.get(), name.c_str(), H5P_DEFAULT), "H5Gopen2");
    Id group(H5Gcreate2(iterations.get(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "H5Gcreate2");
    writeAttribute(group.get(), "iteration", iteration);
    return group;
  }

  void writeAggregate(hid_t group, const PhaseAggregate& a, const LatencySummary& l) {
    writeAttribute(group, "ops_ok", a.ok);
    writeAttribute(group, "ops_failed", a.failed);
    writeAttribute(group, "bytes", a.bytes);
    writeAttribute(group, "time_s", a.time_s);
    writeAttribute(group, "ops_per_s", a.ops_per_s);
    writeAttribute(group, "rate_formula", std::string("ops_ok / max(t_global_end - t_start)"));
    writeAttribute(group, "active_ranks", a.active_ranks);
    writeAttribute(group, "rank_rate_min", a.rank_rate_min);
    writeAttribute(group, "rank_rate_max", a.rank_rate_max);
    writeAttribute(group, "rank_rate_mean", a.rank_rate_mean);
    writeAttribute(group, "balance", a.balance);
    writeAttribute(group, "latency_p50_ns", l.p50_ns);
    writeAttribute(group, "latency_p90_ns", l.p90_ns);
    writeAttribute(group, "latency_p99_ns", l.p99_ns);
    writeAttribute(group, "latency_p999_ns", l.p999_ns);
    writeAttribute(group, "latency_max_ns", l.max_ns);
  }

  // Each rank writes row `rank` of the table: one hyperslab per rank, one collective write.
  void writeRanks(hid_t group, const results::RankRow& row) {
    const hsize_t dims[1] = {static_cast<hsize_t>(size)};
    const Id file_space(H5Screate_simple(1, dims, nullptr), "H5Screate_simple");
    const Id dataset(H5Dcreate2(group, "ranks", rank_file_type.get(), file_space.get(), H5P_DEFAULT,
                                no_fill.get(), H5P_DEFAULT),
                     "H5Dcreate2 ranks");
    const hsize_t start[1] = {static_cast<hsize_t>(rank)};
    const hsize_t count[1] = {1};
    check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
          "H5Sselect_hyperslab");
    const Id memory_space(H5Screate_simple(1, count, nullptr), "H5Screate_simple");
    check(H5Dwrite(dataset.get(), rank_memory_type.get(), memory_space.get(), file_space.get(),
                   collective_transfer.get(), &row),
          "H5Dwrite ranks");
  }

  // Every rank holds the same merged histogram; rank 0 writes it, the others take part with empty selections.
  void writeLatency(hid_t group, const LatencyHistogram& latency) {
    const hsize_t dims[1] = {LatencyHistogram::kBuckets};
    const Id file_space(H5Screate_simple(1, dims, nullptr), "H5Screate_simple");
    const Id dataset(H5Dcreate2(group, "latency", H5T_STD_U64LE, file_space.get(), H5P_DEFAULT, no_fill.get(),
                                H5P_DEFAULT),
                     "H5Dcreate2 latency");
    const Id memory_space(H5Screate_simple(1, dims, nullptr), "H5Screate_simple");
    if (rank != 0) {
      check(H5Sselect_none(file_space.get()), "H5Sselect_none");
      check(H5Sselect_none(memory_space.get()), "H5Sselect_none");
    }
    check(H5Dwrite(dataset.get(), H5T_NATIVE_UINT64, memory_space.get(), file_space.get(),
                   collective_transfer.get(), latency.counts().data()),
          "H5Dwrite latency");
  }
};

CollectivePhaseFile::CollectivePhaseFile(const std::string& path, MPI_Comm comm, CollectiveOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.comm = comm;
  MPI_Comm_rank(comm, &m.rank);
  MPI_Comm_size(comm, &m.size);
  const Id access(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate");
  check(H5Pset_fapl_mpio(access.get(), comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
  m.flush = options.flush;
  if (options.metadata == MetadataIo::kCollective) {
    check(H5Pset_all_coll_metadata_ops(access.get(), true), "H5Pset_all_coll_metadata_ops");
    check(H5Pset_coll_metadata_write(access.get(), true), "H5Pset_coll_metadata_write");
  }
  m.file = Id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), "H5Fcreate " + path);
  const Id runs(H5Gcreate2(m.file.get(), "runs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "H5Gcreate2");
  const Id run(H5Gcreate2(runs.get(), "run-0000", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "H5Gcreate2");
  m.iterations = Id(H5Gcreate2(run.get(), "iterations", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "H5Gcreate2");
  m.collective_transfer = Id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate");
  check(H5Pset_dxpl_mpio(m.collective_transfer.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
  m.no_fill = Id(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate");
  check(H5Pset_fill_time(m.no_fill.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time");
}

CollectivePhaseFile::~CollectivePhaseFile() = default;

void CollectivePhaseFile::writePhase(const PhaseSlot& slot, const RankPhaseRecord& mine, std::uint32_t node,
                                     const LatencyHistogram& mine_latency) {
  Impl& m = *impl_;
  const Reduced reduced = reduceEverywhere(m.comm, mine, mine_latency);
  const Id iteration = m.iterationGroup(slot.iteration);
  const std::string name(phaseName(slot.phase));
  const Id group(H5Gcreate2(iteration.get(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                 "H5Gcreate2");
  writeAttribute(group.get(), "phase", name);
  writeAttribute(group.get(), "iteration", slot.iteration);
  writeAttribute(group.get(), "order", slot.order);
  m.writeAggregate(group.get(), reduced.aggregate, latencySummary(reduced.latency));
  const results::RankRow row = results::rankRowOf(static_cast<std::uint32_t>(m.rank), node, mine);
  m.writeRanks(group.get(), row);
  m.writeLatency(group.get(), reduced.latency);
  if (m.flush == PhaseFlush::kEveryPhase) check(H5Fflush(m.file.get(), H5F_SCOPE_GLOBAL), "H5Fflush");
}

void CollectivePhaseFile::close() {
  Impl& m = *impl_;
  check(m.iterations.reset(), "closing the iterations group");
  check(m.collective_transfer.reset(), "closing a property list");
  check(m.no_fill.reset(), "closing a property list");
  check(m.file.reset(), "H5Fclose");
}

// ---- Reading back, default driver ----

namespace {

std::vector<std::byte> readAll(hid_t dataset, hid_t type) {
  const Id space(H5Dget_space(dataset), "H5Dget_space");
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  std::vector<std::byte> bytes(static_cast<std::size_t>(points) * H5Tget_size(type));
  check(H5Dread(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), "H5Dread");
  return bytes;
}

// "" when the two datasets have equal types and equal bytes.
std::string compareDataset(hid_t a, hid_t b, const std::string& path) {
  const Id da(H5Dopen2(a, path.c_str(), H5P_DEFAULT), "H5Dopen2 " + path);
  const Id db(H5Dopen2(b, path.c_str(), H5P_DEFAULT), "H5Dopen2 " + path);
  const Id ta(H5Dget_type(da.get()), "H5Dget_type");
  const Id tb(H5Dget_type(db.get()), "H5Dget_type");
  if (H5Tequal(ta.get(), tb.get()) <= 0) return path + ": different types";
  if (readAll(da.get(), ta.get()) != readAll(db.get(), ta.get())) return path + ": different values";
  return {};
}

std::string attributeName(hid_t attribute) {
  const ssize_t length = H5Aget_name(attribute, 0, nullptr);
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  H5Aget_name(attribute, name.size(), name.data());
  name.resize(static_cast<std::size_t>(length));
  return name;
}

std::string readString(hid_t attribute) {
  const Id type = stringType();
  char* pointer = nullptr;
  check(H5Aread(attribute, type.get(), &pointer), "H5Aread");
  std::string value = pointer != nullptr ? pointer : "";
  H5free_memory(pointer);
  return value;
}

double readNumber(hid_t attribute) {
  double value = 0.0;
  check(H5Aread(attribute, H5T_NATIVE_DOUBLE, &value), "H5Aread");
  return value;
}

std::string compareAttributes(hid_t a, hid_t b, const std::string& path) {
  const Id ga(H5Gopen2(a, path.c_str(), H5P_DEFAULT), "H5Gopen2 " + path);
  const Id gb(H5Gopen2(b, path.c_str(), H5P_DEFAULT), "H5Gopen2 " + path);
  H5O_info_t ia{}, ib{};
  check(H5Oget_info2(ga.get(), &ia, H5O_INFO_NUM_ATTRS), "H5Oget_info2");
  check(H5Oget_info2(gb.get(), &ib, H5O_INFO_NUM_ATTRS), "H5Oget_info2");
  if (ia.num_attrs != ib.num_attrs) {
    return fmt::format("{}: {} attributes against {}", path, ia.num_attrs, ib.num_attrs);
  }
  for (hsize_t i = 0; i < ia.num_attrs; ++i) {
    const Id aa(H5Aopen_by_idx(ga.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, H5P_DEFAULT, H5P_DEFAULT),
                "H5Aopen");
    const std::string name = attributeName(aa.get());
    if (H5Aexists(gb.get(), name.c_str()) <= 0) return fmt::format("{}: no attribute '{}'", path, name);
    const Id ab(H5Aopen(gb.get(), name.c_str(), H5P_DEFAULT), "H5Aopen");
    const Id type(H5Aget_type(aa.get()), "H5Aget_type");
    if (H5Tget_class(type.get()) == H5T_STRING) {
      if (readString(aa.get()) != readString(ab.get()))
        return fmt::format("{}: attribute '{}' differs", path, name);
      continue;
    }
    const double x = readNumber(aa.get());
    const double y = readNumber(ab.get());
    if (std::abs(x - y) > 1e-12 * std::max(std::abs(x), std::abs(y))) {
      return fmt::format("{}: attribute '{}' is {} against {}", path, name, x, y);
    }
  }
  return {};
}

}  // namespace

std::string comparePhaseGroups(const std::string& a, const std::string& b,
                               const std::vector<std::string>& groups) {
  const Id fa(H5Fopen(a.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "H5Fopen " + a);
  const Id fb(H5Fopen(b.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "H5Fopen " + b);
  for (const std::string& group : groups) {
    for (std::string problem :
         {compareAttributes(fa.get(), fb.get(), group), compareDataset(fa.get(), fb.get(), group + "/ranks"),
          compareDataset(fa.get(), fb.get(), group + "/latency")}) {
      if (!problem.empty()) return problem;
    }
  }
  return {};
}

}  // namespace mdbench::bench
