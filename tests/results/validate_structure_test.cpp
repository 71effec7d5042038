// The validator's structural pass: every kind of damage to the layout the schema describes (a missing
// object or attribute, a wrong kind, type, shape, compound field or allowed value), made on a copy with the
// HDF5 C API, is reported with the object it is in.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>

#include "validate_fixture.hpp"

namespace mdbench::validate_test {
namespace {

// ---- Structure ----

TEST_F(Validate, MissingRunAttribute) {
  deleteAttribute(valid(), kRun, "fs_type");
  EXPECT_TRUE(failsAt(kRun, "attribute fs_type missing"));
}

TEST_F(Validate, AttributeOfWrongType) {
  const double ranks = 3.0;
  replaceAttribute(valid(), kRun, "ranks", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &ranks);
  EXPECT_TRUE(failsAt(kRun, "attribute ranks: expected type uint32, found float64"));
}

TEST_F(Validate, SignedWhereUnsignedIsRequired) {
  const std::int32_t ok = 5;
  replaceAttribute(valid(), kFileCreate0, "ops_ok", H5T_STD_I32LE, H5T_NATIVE_INT32, &ok);
  EXPECT_TRUE(failsAt(kFileCreate0, "attribute ops_ok: expected type uint64, found int32"));
}

TEST_F(Validate, AttributeThatIsNotAScalar) {
  valid();
  {
    const Id file = openFile(file_);
    const Id run = openObject(file, kRun);
    ASSERT_GE(H5Adelete(run, "nodes"), 0);
    const hsize_t two = 2;
    const Id space(H5Screate_simple(1, &two, nullptr));
    const Id attribute(H5Acreate2(run, "nodes", H5T_STD_U32LE, space, H5P_DEFAULT, H5P_DEFAULT));
  }
  EXPECT_TRUE(failsAt(kRun, "attribute nodes: expected a scalar, found 2 value(s)"));
}

TEST_F(Validate, StatusNotAllowed) {
  setString(valid(), kRun, "status", "done");
  EXPECT_TRUE(
      failsAt(kRun, "attribute status: expected one of running|complete|failed|interrupted, found \"done\""));
}

TEST_F(Validate, PhaseNameNotAllowed) {
  setString(valid(), kFileCreate0, "phase", "file-touch");
  EXPECT_TRUE(failsAt(kFileCreate0, "attribute phase: expected one of"));
}

TEST_F(Validate, MissingRequiredDataset) {
  deleteLink(valid(), kRun + "/hosts");
  EXPECT_TRUE(failsAt(kRun + "/hosts", "missing (a required dataset)"));
}

TEST_F(Validate, MissingRequiredGroup) {
  deleteLink(valid(), kRun + "/config");
  EXPECT_TRUE(failsAt(kRun + "/config", "missing (a required group)"));
}

TEST_F(Validate, MissingPhaseHistogram) {
  deleteLink(valid(), kFileCreate0 + "/latency");
  EXPECT_TRUE(failsAt(kFileCreate0 + "/latency", "missing"));
}

TEST_F(Validate, MissingSummaryOfAFinishedRun) {
  deleteLink(valid(), kRun + "/summary");
  EXPECT_TRUE(failsAt(kRun + "/summary", "missing (a required group)"));
}

TEST_F(Validate, GroupWhereADatasetBelongs) {
  deleteLink(valid(), kRun + "/hosts");
  {
    const Id file = openFile(file_);
    const Id group(H5Gcreate2(file, (kRun + "/hosts").c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  }
  EXPECT_TRUE(failsAt(kRun + "/hosts", "expected a dataset, found a group"));
}

TEST_F(Validate, DatasetOfWrongShape) {
  replaceByDataset(valid(), kRun + "/node_of_rank", H5T_STD_U32LE, 5);
  EXPECT_TRUE(failsAt(kRun + "/node_of_rank", "expected shape dimension 0 = 3 (ranks), found shape [5]"));
}

TEST_F(Validate, HistogramOfWrongLength) {
  replaceByDataset(valid(), kFileCreate0 + "/latency", H5T_STD_U64LE, 591);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/latency", "expected shape dimension 0 = 592, found shape [591]"));
}

TEST_F(Validate, DatasetOfWrongType) {
  replaceByDataset(valid(), kRun + "/latency_bucket_low", H5T_IEEE_F64LE, 592);
  EXPECT_TRUE(failsAt(kRun + "/latency_bucket_low", "expected type uint64, found float64"));
}

TEST_F(Validate, CompoundWithAMissingField) {
  valid();
  const Id rows(H5Tcreate(H5T_COMPOUND, 16));
  H5Tinsert(rows, "rank", 0, H5T_STD_U32LE);
  H5Tinsert(rows, "node", 4, H5T_STD_U32LE);
  H5Tinsert(rows, "planned", 8, H5T_STD_U64LE);
  replaceByDataset(file_, kFileCreate0 + "/ranks", rows, 3);
  EXPECT_TRUE(failsAt(kFileCreate0 + "/ranks", "compound field ok missing"));
}

TEST_F(Validate, ErrorsCompoundWithAFieldOfWrongType) {
  valid();
  const Id rows(H5Tcreate(H5T_COMPOUND, 24));
  H5Tinsert(rows, "rank", 0, H5T_STD_U32LE);
  H5Tinsert(rows, "errno", 4, H5T_STD_I32LE);
  H5Tinsert(rows, "errno_name", 8, H5T_STD_U64LE);
  H5Tinsert(rows, "path", 16, vlenString());
  replaceByDataset(file_, kFileStat1 + "/errors", rows, 1);
  EXPECT_TRUE(
      failsAt(kFileStat1 + "/errors", "compound field errno_name: expected type string, found uint64"));
}

// ---- Structure of the schema version 2 additions ----

TEST_F(Validate, MissingPhaseItems) {
  deleteAttribute(valid(), kIter0 + "/file-rename", "items");
  EXPECT_TRUE(failsAt(kIter0 + "/file-rename", "attribute items missing (expected type uint64)"));
}

TEST_F(Validate, ConfigAttributeOfWrongType) {
  const std::uint32_t seconds = 30;
  replaceAttribute(valid(), kConfig, "stonewall_s", H5T_STD_U32LE, H5T_NATIVE_UINT32, &seconds);
  EXPECT_TRUE(failsAt(kConfig, "attribute stonewall_s: expected type float64, found uint32"));
}

TEST_F(Validate, PresetNotAllowed) {
  setString(valid(), kConfig, "preset", "io500-medium");
  EXPECT_TRUE(
      failsAt(kConfig, "attribute preset: expected one of |io500-easy|io500-hard, found \"io500-medium\""));
}

TEST_F(Validate, SummaryPhaseNameNotAllowed) {
  setString(valid(), kRun + "/summary/file-rename", "phase", "file-move");
  EXPECT_TRUE(failsAt(kRun + "/summary/file-rename", "attribute phase: expected one of"));
}

// ---- Structure of the schema version 5 additions: throughput over time ----

TEST_F(Validate, MissingOpsPerInterval) {
  deleteLink(valid(), kCounts0);
  EXPECT_TRUE(failsAt(kCounts0, "missing (a required dataset)"));
}

TEST_F(Validate, MissingOpsPerIntervalTotal) {
  deleteLink(valid(), kTotals0);
  EXPECT_TRUE(failsAt(kTotals0, "missing (a required dataset)"));
}

TEST_F(Validate, OpsPerIntervalOfOneDimension) {
  replaceByDataset(valid(), kCounts0, H5T_STD_U32LE, 12);
  EXPECT_TRUE(failsAt(kCounts0, "expected 2 dimension(s), found shape [12]"));
}

TEST_F(Validate, OpsPerIntervalWithARowMissing) {
  replaceByMatrix(valid(), kCounts0, H5T_STD_U32LE, 2, 4);
  EXPECT_TRUE(failsAt(kCounts0, "expected shape dimension 0 = 3 (ranks), found shape [2, 4]"));
}

TEST_F(Validate, OpsPerIntervalOfWrongType) {
  replaceByMatrix(valid(), kCounts0, H5T_STD_U64LE, 3, 4);
  EXPECT_TRUE(failsAt(kCounts0, "expected type uint32, found uint64"));
}

TEST_F(Validate, OpsPerIntervalTotalOfWrongType) {
  replaceByDataset(valid(), kTotals0, H5T_STD_U32LE, 4);
  EXPECT_TRUE(failsAt(kTotals0, "expected type uint64, found uint32"));
}

TEST_F(Validate, MissingIntervalOfTheSeries) {
  deleteAttribute(valid(), kCounts0, "interval_s");
  EXPECT_TRUE(failsAt(kCounts0, "attribute interval_s missing (expected type float64)"));
}

TEST_F(Validate, MissingDoneRate) {
  deleteAttribute(valid(), kFileCreate0, "last_done_ops_per_s");
  EXPECT_TRUE(failsAt(kFileCreate0, "attribute last_done_ops_per_s missing (expected type float64)"));
}

TEST_F(Validate, DoneOpsOfWrongType) {
  const double ops = 9.0;
  replaceAttribute(valid(), kFileCreate0, "first_done_ops", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &ops);
  EXPECT_TRUE(failsAt(kFileCreate0, "attribute first_done_ops: expected type uint64, found float64"));
}

TEST_F(Validate, MissingSeriesInterval) {
  deleteAttribute(valid(), kConfig, "series_interval_s");
  EXPECT_TRUE(failsAt(kConfig, "attribute series_interval_s missing (expected type float64)"));
}

}  // namespace
}  // namespace mdbench::validate_test
