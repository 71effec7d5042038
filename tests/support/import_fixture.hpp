// Shared by the importer tests: the fixtures in tests/fixtures/import, and the ImportError a parser throws.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "mdbench/model/imported.hpp"

namespace mdbench::import_test {

inline const std::filesystem::path kFixtures = std::filesystem::path(MDBENCH_FIXTURES) / "import";

inline std::string readFixture(const std::string& name) {
  std::ifstream in(kFixtures / name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The ImportError of parse(text, source), or a failed test when there is none.
template <class Parse>
ImportError importErrorOf(Parse parse, std::string_view text, const std::string& source) {
  try {
    parse(text, source);
  } catch (const ImportError& e) {
    return e;
  }
  ADD_FAILURE() << "no ImportError for:\n" << text;
  return ImportError(source, 0, "none");
}

}  // namespace mdbench::import_test
