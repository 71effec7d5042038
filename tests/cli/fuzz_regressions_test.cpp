// Replays every saved fuzzer input (fuzz/regressions/<target>/, the crashes found and fixed, and the seed
// corpus fuzz/corpus/<target>/) through the fuzzed entry points: only the exceptions the readers document
// may escape. Under scripts/sanitize.sh the same replay also catches memory errors and leaks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_entry.hpp"

namespace mdbench {
namespace {

namespace fs = std::filesystem;

// The saved inputs of one target: its regressions and its seed corpus, sorted.
std::vector<fs::path> inputsOf(const std::string& target) {
  const fs::path regressions = fs::path(MDBENCH_FUZZ_REGRESSIONS) / target;
  const fs::path corpus = fs::path(MDBENCH_FUZZ_REGRESSIONS).parent_path() / "corpus" / target;
  std::vector<fs::path> inputs;
  for (const fs::path& dir : {regressions, corpus}) {
    if (!fs::is_directory(dir)) continue;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
      if (entry.is_regular_file()) inputs.push_back(entry.path());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

std::string contentsOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class Feed>
void replay(const std::string& target, Feed feed) {
  const std::vector<fs::path> inputs = inputsOf(target);
  ASSERT_FALSE(inputs.empty()) << "no saved inputs for " << target << " under " << MDBENCH_FUZZ_REGRESSIONS;
  for (const fs::path& input : inputs) {
    SCOPED_TRACE(input.string());
    EXPECT_NO_THROW(feed(input));
  }
}

TEST(FuzzRegressions, Options) {
  replay("options", [](const fs::path& input) { fuzz::fuzzOptions(contentsOf(input)); });
}

TEST(FuzzRegressions, Import) {
  replay("import", [](const fs::path& input) { fuzz::fuzzImport(contentsOf(input)); });
}

TEST(FuzzRegressions, Rules) {
  replay("rules", [](const fs::path& input) { fuzz::fuzzRules(contentsOf(input)); });
}

TEST(FuzzRegressions, StonewallFiles) {
  replay("stonewall", [](const fs::path& input) { fuzz::fuzzStonewall(contentsOf(input)); });
}

TEST(FuzzRegressions, ResultsFiles) {
  replay("results", [](const fs::path& input) { fuzz::fuzzResultsFile(input.string()); });
}

}  // namespace
}  // namespace mdbench
