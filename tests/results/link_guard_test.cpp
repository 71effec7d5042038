// Nothing in a results file leads mdbench into another file: external, soft and user-defined links, a second
// name for an object, datasets stored elsewhere or filtered are refused by every reader and writer, naming
// the object, and the other file is never opened (an external link to a FIFO would block: the test would
// hang) nor written.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "mdbench/results/results_file.hpp"
#include "mdbench/results/validate.hpp"
#include "validate_fixture.hpp"

namespace mdbench::validate_test {
namespace {

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Every reader's and writer's message, or "" when it accepted the file.
std::string readError(const std::string& path) {
  try {
    readResultsFile(path);
  } catch (const ResultsFileError& e) {
    return e.what();
  }
  return {};
}

std::string appendError(const std::string& path) {
  bool exists_error = false;
  try {
    Hdf5Sink::open(path, OutputMode::kAppend, exists_error);
  } catch (const ResultsFileError& e) {
    return e.what();
  }
  return {};
}

class LinkGuard : public Validate {
 protected:
  // The victim: another valid results file, and a FIFO nobody writes to.
  void SetUp() override {
    Validate::SetUp();
    victim_ = (dir_ / "victim.h5").string();
    writeRun(victim_, Outcome::kComplete);
    fifo_ = (dir_ / "fifo").string();
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
    before_ = contents(victim_);
    writeRun(file_, Outcome::kComplete);
  }

  // Refused everywhere with `named` in the message; the victim untouched.
  void expectRefused(const std::string& named) {
    const ValidationResult result = validateResultsFile(file_);
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.first_problem.find(named), std::string::npos) << result.first_problem;
    EXPECT_NE(readError(file_).find(named), std::string::npos) << readError(file_);
    EXPECT_NE(appendError(file_).find(named), std::string::npos) << appendError(file_);
    EXPECT_EQ(contents(victim_), before_);
  }

  std::string victim_, fifo_, before_;
};

TEST_F(LinkGuard, ExternalLinkToAnotherResultsFile) {
  {
    const Id file = openFile(file_);
    ASSERT_GE(H5Ldelete(file, "runs", H5P_DEFAULT), 0);
    ASSERT_GE(H5Lcreate_external(victim_.c_str(), "/runs", file, "runs", H5P_DEFAULT, H5P_DEFAULT), 0);
  }
  expectRefused("/runs is an external link to " + victim_ + ":/runs");
}

TEST_F(LinkGuard, ExternalLinkToAFifoDeepInTheFile) {
  {
    const Id file = openFile(file_);
    ASSERT_GE(
        H5Lcreate_external(fifo_.c_str(), "/", file, (kRun + "/extra").c_str(), H5P_DEFAULT, H5P_DEFAULT), 0);
  }
  expectRefused(kRun + "/extra is an external link to " + fifo_);
}

TEST_F(LinkGuard, SoftLink) {
  {
    const Id file = openFile(file_);
    ASSERT_GE(H5Lmove(file, "runs", file, "elsewhere", H5P_DEFAULT, H5P_DEFAULT), 0);
    ASSERT_GE(H5Lcreate_soft("/elsewhere", file, "runs", H5P_DEFAULT, H5P_DEFAULT), 0);
  }
  expectRefused("/runs is a soft link to /elsewhere");
}

TEST_F(LinkGuard, SecondNameOfAGroup) {
  {
    const Id file = openFile(file_);
    ASSERT_GE(H5Lcreate_hard(file, kRun.c_str(), file, "/runs/run-0001", H5P_DEFAULT, H5P_DEFAULT), 0);
  }
  expectRefused("is one of 2 names of one object");
}

TEST_F(LinkGuard, DatasetStoredInAnExternalFile) {
  {
    const Id file = openFile(file_);
    const Id create(H5Pcreate(H5P_DATASET_CREATE));
    ASSERT_GE(H5Pset_external(create, fifo_.c_str(), 0, H5F_UNLIMITED), 0);
    const hsize_t dims[1] = {4};
    const Id space(H5Screate_simple(1, dims, nullptr));
    const Id dataset(H5Dcreate2(file, (kRun + "/outside").c_str(), H5T_STD_U64LE, space, H5P_DEFAULT, create,
                                H5P_DEFAULT));
    ASSERT_GE(static_cast<hid_t>(dataset), 0);
  }
  expectRefused(kRun + "/outside is a dataset stored in external files");
}

}  // namespace
}  // namespace mdbench::validate_test
