// Imported results of other tools in a results file (schema version 4): /datapath/import-NNNN for IOR and
// IOzone, /metadata-imports/import-NNNN for mdtest. Each group holds where the numbers came from as
// attributes and one compound `results` table, one row per operation and client (rank) count.
#include "results_imports.hpp"

#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "h5.hpp"
#include "mdbench/results/results_file.hpp"
#include "mdbench/util/file_io.hpp"
#include "results_files.hpp"
#include "results_layout.hpp"

namespace mdbench {
namespace {

using results::ImportKind;
using results::kDataPathGroup;
using results::kMetadataImportsGroup;
using results::kProvenance;

template <class Import>
void writeProvenance(hid_t group, const Import& imp) {
  for (const auto& [name, member] : kProvenance<Import>) h5::writeAttribute(group, name, imp.*member);
}

template <class Import>
void readProvenance(hid_t group, Import& out) {
  for (const auto& [name, member] : kProvenance<Import>)
    out.*member = h5::readAttribute<std::string>(group, name);
}

// The group `parent` in the file, created when absent; then the first free import-NNNN below it.
h5::Handle newImportGroup(hid_t file, const char* parent, std::string& path) {
  const h5::Handle top =
      h5::exists(file, parent) ? h5::openGroup(file, parent) : h5::createGroup(file, parent);
  auto index = static_cast<std::uint32_t>(h5::childNames(top.get()).size());
  while (h5::exists(top.get(), importGroupName(index))) ++index;
  path = fmt::format("/{}/{}", parent, importGroupName(index));
  return h5::createGroup(top.get(), importGroupName(index));
}

// The optional tables of a metadata import (results_imports.hpp): only rows that have the numbers.
void writeDetails(hid_t group, const MetadataImport& imp) {
  std::vector<results::RankStatisticsFileRow> ranks;
  std::vector<results::LatencyFileRow> latency;
  for (std::size_t i = 0; i < imp.rows.size(); ++i) {
    const MetadataImportRow& r = imp.rows[i];
    const auto row = static_cast<std::uint32_t>(i);
    if (r.has_rank_statistics) {
      ranks.push_back({row, r.per_rank_ops_per_s_max, r.per_rank_ops_per_s_min, r.per_rank_ops_per_s_mean});
    }
    if (r.has_latency) {
      latency.push_back({row, r.latency_p50_ns, r.latency_p90_ns, r.latency_p99_ns, r.latency_max_ns});
    }
  }
  if (!ranks.empty()) {
    h5::writeCompound<results::RankStatisticsFileRow>(group, results::kRankStatisticsTable,
                                                      results::kRankStatisticsFields, ranks);
  }
  if (!latency.empty())
    h5::writeCompound<results::LatencyFileRow>(group, results::kLatencyTable, results::kLatencyFields,
                                               latency);
}

void writeDetails(hid_t /*group*/, const DataPathImport& /*imp*/) {}

// A detail row's index into the rows it belongs to; a file whose index is past them is damaged.
MetadataImportRow& detailTarget(MetadataImport& imp, std::uint32_t row, const char* table) {
  if (row >= imp.rows.size()) {
    throw h5::Error(
        fmt::format("{}/{}: row {} is past the {} rows of results", imp.group, table, row, imp.rows.size()));
  }
  return imp.rows[row];
}

void readDetails(hid_t group, MetadataImport& imp) {
  if (h5::exists(group, results::kRankStatisticsTable)) {
    const auto rows = h5::readCompound<results::RankStatisticsFileRow>(
        group, results::kRankStatisticsTable, results::kRankStatisticsFields,
        [](const results::RankStatisticsFileRow& r) { return r; });
    for (const results::RankStatisticsFileRow& r : rows) {
      MetadataImportRow& target = detailTarget(imp, r.row, results::kRankStatisticsTable);
      target.has_rank_statistics = true;
      target.per_rank_ops_per_s_max = r.per_rank_ops_per_s_max;
      target.per_rank_ops_per_s_min = r.per_rank_ops_per_s_min;
      target.per_rank_ops_per_s_mean = r.per_rank_ops_per_s_mean;
    }
  }
  if (h5::exists(group, results::kLatencyTable)) {
    const auto rows =
        h5::readCompound<results::LatencyFileRow>(group, results::kLatencyTable, results::kLatencyFields,
                                                  [](const results::LatencyFileRow& r) { return r; });
    for (const results::LatencyFileRow& r : rows) {
      MetadataImportRow& target = detailTarget(imp, r.row, results::kLatencyTable);
      target.has_latency = true;
      target.latency_p50_ns = r.p50_ns;
      target.latency_p90_ns = r.p90_ns;
      target.latency_p99_ns = r.p99_ns;
      target.latency_max_ns = r.max_ns;
    }
  }
}

void readDetails(hid_t /*group*/, DataPathImport& /*imp*/) {}

template <class Import>
void writeImport(hid_t file, const Import& imp, const ImportRecord& record, std::string& path) {
  using Kind = ImportKind<Import>;
  const h5::Handle group = newImportGroup(file, Kind::kParent, path);
  Import stamped = imp;  // with the provenance of the import itself
  stamped.imported_utc = record.imported_utc;
  stamped.mdbench_version = record.mdbench_version;
  writeProvenance(group.get(), stamped);
  std::vector<typename Kind::FileRow> rows;
  rows.reserve(imp.rows.size());
  for (const auto& r : imp.rows) rows.push_back(Kind::toFile(r));
  h5::writeCompound<typename Kind::FileRow>(group.get(), "results", Kind::fields(), rows);
  writeDetails(group.get(), imp);
}

// Every import-NNNN group of one kind, when its parent group is there.
template <class Import>
void readImportsOf(hid_t file, std::vector<Import>& out) {
  using Kind = ImportKind<Import>;
  if (!h5::exists(file, Kind::kParent)) return;
  const h5::Handle top = h5::openGroup(file, Kind::kParent);
  for (const std::string& name : results::numberedChildren(top.get(), "import-")) {
    const h5::Handle group = h5::openGroup(top.get(), name);
    Import imp;
    imp.group = fmt::format("/{}/{}", Kind::kParent, name);
    readProvenance(group.get(), imp);
    imp.rows =
        h5::readCompound<typename Kind::FileRow>(group.get(), "results", Kind::fields(), Kind::fromFile);
    readDetails(group.get(), imp);
    out.push_back(std::move(imp));
  }
}

}  // namespace

std::string importGroupName(std::uint32_t index) { return fmt::format("import-{:04}", index); }

namespace {

constexpr std::string_view kRole = "results file";

// A message about the temporary copy, told about the file the user named.
std::string aboutTarget(std::string message, const std::string& temp, const std::string& path) {
  for (std::size_t at = message.find(temp); at != std::string::npos;
       at = message.find(temp, at + path.size()))
    message.replace(at, temp.size(), path);
  return message;
}

// Writes the imports into `file` (a new, empty file, or a copy of the results file being appended to).
std::vector<std::string> writeInto(int fd, const std::string& file_path, bool appending,
                                   const std::vector<DataPathImport>& datapath,
                                   const std::vector<MetadataImport>& metadata, const ImportRecord& record) {
  std::vector<std::string> written;
  const h5::Handle file = appending ? results::openForAppend(file_path) : results::createFile(fd, file_path);
  for (const DataPathImport& imp : datapath) writeImport(file.get(), imp, record, written.emplace_back());
  for (const MetadataImport& imp : metadata) writeImport(file.get(), imp, record, written.emplace_back());
  h5::flush(file.get());
  return written;
}

// Far more than the imports take in the file: a group with its attributes per import, a row per line.
std::uint64_t reserveFor(const std::vector<DataPathImport>& datapath,
                         const std::vector<MetadataImport>& metadata) {
  std::uint64_t bytes = 64 * 1024;
  for (const DataPathImport& imp : datapath) bytes += 16 * 1024 + 512 * imp.rows.size();
  for (const MetadataImport& imp : metadata) bytes += 16 * 1024 + 512 * imp.rows.size();
  return bytes;
}

}  // namespace

// The imports go into a new file beside the target (file_io.hpp): a copy of the results file when
// appending, an empty one otherwise. Only once every write succeeded is it renamed into place, so a failed
// import (a full disk, a bad file) leaves the target as it was, byte for byte; nothing that is not a
// regular file (a link, a FIFO) is ever opened for writing, and HDF5 only ever opens our own file.
std::vector<std::string> writeImports(const std::string& path, OutputMode mode,
                                      const std::vector<DataPathImport>& datapath,
                                      const std::vector<MetadataImport>& metadata,
                                      const ImportRecord& record) {
  if (mode == OutputMode::kForce) {
    throw ResultsFileError(fmt::format("{}: imports never replace a file (no --force)", path));
  }
  const OutputCheck output = checkOutput(path, kRole);
  if (output.state == OutputState::kRefused) throw ResultsFileError(output.problem);
  const bool appending = output.state == OutputState::kRegularFile;
  if (appending && mode == OutputMode::kCreate) {
    throw ResultsFileError(fmt::format("{} exists: use --append to add the imports to it", path));
  }
  NewFile out(path, kRole);
  if (!out.error().empty()) throw ResultsFileError(out.error());
  FileIdentity original;
  if (appending) {
    if (std::string problem = out.copyFrom(path, original); !problem.empty()) throw ResultsFileError(problem);
  }
  // Room first: HDF5 running out of space (or into ulimit -f) halfway cannot close the file cleanly.
  if (std::string problem = out.reserve(reserveFor(datapath, metadata)); !problem.empty()) {
    throw ResultsFileError(problem);
  }
  std::vector<std::string> written;
  {
    const h5::QuietErrors quiet;
    try {
      written = writeInto(out.fd(), out.tempPath(), appending, datapath, metadata, record);
    } catch (const h5::Error& e) {
      throw ResultsFileError(fmt::format("{}: {}", path, aboutTarget(e.what(), out.tempPath(), path)));
    } catch (const ResultsFileError& e) {
      throw ResultsFileError(aboutTarget(e.what(), out.tempPath(), path));
    }
  }
  // Appending: the target must still be the file that was copied (another import meanwhile would be lost).
  if (std::string problem =
          out.commit(appending ? Replace::kRegularFile : Replace::kNothing, appending ? &original : nullptr);
      !problem.empty()) {
    throw ResultsFileError(problem);
  }
  return written;
}

void readImports(hid_t file, StoredResults& out) {
  readImportsOf(file, out.datapath);
  readImportsOf(file, out.metadata_imports);
}

}  // namespace mdbench
