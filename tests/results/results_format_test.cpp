// The results file on disk: compound rows stored packed by the private HDF5 helpers behind the writer and
// reader (also used by the validator), and a foreign reader (h5py) seeing what the schema says.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "h5.hpp"
#include "mdbench/results/results_file.hpp"
#include "results_fixture.hpp"

namespace mdbench::results_test {
namespace {

// Runs a shell command and returns its standard output (stderr is folded in, to show in failures).
std::string commandOutput(const std::string& command, int& status) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    status = -1;
    return out;
  }
  char buf[4096];
  std::size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  status = pclose(pipe);
  return out;
}

// ---- Tests ----

// A row with padding in memory (uint8, then an 8-byte aligned double) is stored packed: 1 + 8 + 4 bytes.
struct PaddedRow {
  std::uint8_t flag = 0;
  double value = 0.0;
  std::uint32_t count = 0;
};
constexpr std::array<h5::Field, 3> kPaddedFields = {{
    {"flag", h5::Type::kUint8, offsetof(PaddedRow, flag)},
    {"value", h5::Type::kFloat64, offsetof(PaddedRow, value)},
    {"count", h5::Type::kUint32, offsetof(PaddedRow, count)},
}};

TEST(H5Helpers, CompoundRowsAreStoredPackedAndReadBack) {
  static_assert(sizeof(PaddedRow) == 24);
  const TempDir dir;
  const std::string path = dir.file("c.h5");
  const h5::QuietErrors quiet;
  {
    const h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT));
    ASSERT_TRUE(file.valid());
    const std::vector<PaddedRow> rows = {{1, 0.5, 7}, {0, -2.25, 4'000'000'000u}};
    h5::writeCompound<PaddedRow>(file.get(), "rows", kPaddedFields, rows);
    h5::writeAttribute(file.get(), "note", "h\u00e9llo");
  }
  const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  ASSERT_TRUE(file.valid());
  const h5::Handle dataset(H5Dopen2(file.get(), "rows", H5P_DEFAULT));
  const h5::Handle type(H5Dget_type(dataset.get()));
  EXPECT_EQ(H5Tget_size(type.get()), 13u);
  EXPECT_EQ(H5Tget_member_offset(type.get(), 0), 0u);
  EXPECT_EQ(H5Tget_member_offset(type.get(), 1), 1u);
  EXPECT_EQ(H5Tget_member_offset(type.get(), 2), 9u);

  const auto rows = h5::readCompound<PaddedRow>(file.get(), "rows", kPaddedFields, [](const PaddedRow& r) {
    return fmt::format("{} {} {}", r.flag, r.value, r.count);
  });
  EXPECT_EQ(rows, (std::vector<std::string>{"1 0.5 7", "0 -2.25 4000000000"}));
  EXPECT_EQ(h5::readAttribute<std::string>(file.get(), "note"), "h\u00e9llo");

  constexpr std::array<h5::Field, 1> kWrongType = {
      {{"value", h5::Type::kUint64, offsetof(PaddedRow, value)}}};
  EXPECT_EQ(errorOf([&] {
              h5::readCompound<PaddedRow>(file.get(), "rows", kWrongType, [](const PaddedRow&) { return 0; });
            }),
            "/rows: field 'value' is float64, expected uint64");
  EXPECT_EQ(errorOf([&] { h5::readAttribute<std::uint32_t>(file.get(), "note"); }),
            "/: attribute 'note' is string, expected uint32");
  EXPECT_EQ(errorOf([&] { h5::readVector<std::uint64_t>(file.get(), "missing"); }),
            "/missing: dataset is missing");
}

// The conversion buffers are sized to each transfer (h5.hpp's transferOf): a single row of
// strings and padding, and 100 000 of them (over 2 MiB to convert, so HDF5 goes through the 1 MiB buffer
// in strips), written and read back as they were, numbers, vectors and matrices alike.
struct NamedRow {
  std::uint8_t flag = 0;
  const char* name = nullptr;
  double value = 0.0;
  const char* note = nullptr;
};
constexpr std::array<h5::Field, 4> kNamedFields = {{
    {"flag", h5::Type::kUint8, offsetof(NamedRow, flag)},
    {"name", h5::Type::kString, offsetof(NamedRow, name)},
    {"value", h5::Type::kFloat64, offsetof(NamedRow, value)},
    {"note", h5::Type::kString, offsetof(NamedRow, note)},
}};

TEST(H5Helpers, TransfersOfOneRowAndOfManyStripsReadBackWhole) {
  const TempDir dir;
  const std::string path = dir.file("sizes.h5");
  const h5::QuietErrors quiet;
  for (const std::size_t count : {std::size_t{1}, std::size_t{100'000}}) {
    SCOPED_TRACE(count);
    std::vector<std::string> names;
    std::vector<NamedRow> rows;
    std::vector<std::uint64_t> numbers;
    for (std::size_t i = 0; i < count; ++i) names.push_back(fmt::format("item.{}", i));
    for (std::size_t i = 0; i < count; ++i) {
      rows.push_back({static_cast<std::uint8_t>(i % 3), names[i].c_str(), 0.5 * static_cast<double>(i),
                      i % 2 == 0 ? "even" : ""});
      numbers.push_back(i * 7);
    }
    const std::string set = fmt::format("n{}", count);
    {
      const h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
      ASSERT_TRUE(file.valid());
      h5::writeCompound<NamedRow>(file.get(), set, kNamedFields, rows);
      h5::writeStrings(file.get(), set + ".names", names);
      h5::writeVector(file.get(), set + ".numbers", numbers);
      h5::writeMatrix<std::uint64_t>(file.get(), set + ".matrix", count, 1, numbers);
    }
    const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    ASSERT_TRUE(file.valid());
    std::size_t i = 0;
    std::size_t wrong = 0;
    h5::readCompound<NamedRow>(file.get(), set, kNamedFields, [&](const NamedRow& r) {
      const bool same = r.flag == i % 3 && names[i] == r.name && r.value == 0.5 * static_cast<double>(i) &&
                        std::string(r.note) == (i % 2 == 0 ? "even" : "");
      wrong += same ? 0 : 1;
      ++i;
      return 0;
    });
    EXPECT_EQ(i, count);
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(h5::readStrings(file.get(), set + ".names"), names);
    EXPECT_EQ(h5::readVector<std::uint64_t>(file.get(), set + ".numbers"), numbers);
    EXPECT_EQ(h5::readMatrix<std::uint64_t>(file.get(), set + ".matrix").values, numbers);
  }
}

TEST(ResultsFile, H5pyReadsTheFile) {
  const TempDir dir;
  const std::string path = dir.file("r.h5");
  writeRun(path, OutputMode::kCreate, SyntheticRun{}, 1);

  int status = 0;
  const std::string probe = commandOutput("/usr/bin/python3 -c 'import h5py' ", status);
  ASSERT_EQ(status, 0) << "this test needs h5py: apt-get install python3-h5py\n" << probe;

  const std::string script =
      "import h5py, sys\n"
      "f = h5py.File(sys.argv[1], 'r')\n"
      "run = f['runs/run-0000']\n"
      "print(f.attrs['schema'], f.attrs['schema_version'], f.attrs['schema_version'].dtype)\n"
      "print(run.attrs['status'], run.attrs['exit_status'], run.attrs['exit_status'].dtype)\n"
      "print(run.attrs['job_name'], run['config'].attrs['kinds'], run['config'].attrs['leaf_only'].dtype)\n"
      "d = run['iterations/iter-0000/file-create/ranks']\n"
      "print(d.dtype.itemsize, [(n, d.dtype.fields[n][0].str, d.dtype.fields[n][1]) for n in "
      "d.dtype.names])\n"
      "print([float(x) for x in d['rate']])\n"
      "e = run['iterations/iter-0000/file-create/errors']\n"
      "text = lambda v: v.decode() if isinstance(v, bytes) else v\n"
      "print(e[0]['errno'], text(e[0]['errno_name']), text(e[0]['path']))\n"
      "c = run['config'].attrs\n"
      "print(text(c['targets']), c['random_seed'], c['random_seed'].dtype, c['stonewall_s'], "
      "c['shift_used'])\n"
      "p = run['iterations/iter-0001/file-create']\n"
      "print(p.attrs['items'], p.attrs['stonewalled'], p.attrs['ops_at_stonewall'], "
      "p.attrs['stonewall_time_s'], "
      "p.attrs['ops_per_s_at_stonewall'])\n"
      "print([float(x) for x in p['ranks']['t_stonewall']], [int(x) for x in "
      "p['ranks']['ops_at_stonewall']])\n"
      "print(text(run['iterations/iter-0000/file-readdir'].attrs['phase']))\n"
      "s = run['iterations/iter-0000/file-create/ops_per_interval']\n"
      "t = run['iterations/iter-0000/file-create/ops_per_interval_total']\n"
      "print(s.shape, s.dtype, s.attrs['interval_s'], s[2].tolist(), t.dtype, t[:].tolist())\n"
      "print(p.attrs['first_done_ops'], p.attrs['first_done_ops'].dtype, p.attrs['last_done_ops_per_s'])\n";
  const std::string script_path = dir.file("probe.py");
  writeText(script_path, script);
  const std::string out = commandOutput("/usr/bin/python3 " + script_path + " " + path, status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(
      out,
      "mdbench-results 10 uint32\n"
      "failed 1 int32\n"
      "md test files uint8\n"
      "88 [('rank', '<u4', 0), ('node', '<u4', 4), ('planned', '<u8', 8), ('ok', '<u8', 16), "
      "('failed', '<u8', 24), ('bytes', '<u8', 32), ('t_start', '<f8', 40), ('t_local_end', '<f8', 48), "
      "('t_global_end', '<f8', 56), ('rate', '<f8', 64), ('ops_at_stonewall', '<u8', 72), "
      "('t_stonewall', '<f8', 80)]\n"
      "[2.0, 3.0, 4.0]\n"
      "17 EEXIST /scratch/other/mdbench.iter.0/mdbench_tree.1.0/mdbench_tree.1.2/file.mdbench.1.3\n"
      "/scratch/run@/scratch/other 18446744073709551557 uint64 0.5 0\n"
      "4 1 9 1.0 9.0\n"
      "[2.0, 0.0, 2.25] [2, 4, 3]\n"
      "file-readdir\n"
      "(3, 4) uint32 0.5 [3, 1, 0, 0] uint64 [6, 3, 1, 1]\n"
      "9 uint64 5.5\n");
}

}  // namespace
}  // namespace mdbench::results_test
