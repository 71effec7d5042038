// For tests of what is printed on std::cout (the subcommands' help): the stream's buffer swapped for a
// string's while alive.
#pragma once

#include <iostream>
#include <sstream>
#include <string>

namespace mdbench::cout_test {

class CoutCapture {
 public:
  CoutCapture() : previous_(std::cout.rdbuf(text_.rdbuf())) {}
  ~CoutCapture() { std::cout.rdbuf(previous_); }
  CoutCapture(const CoutCapture&) = delete;
  CoutCapture& operator=(const CoutCapture&) = delete;
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::streambuf* previous_;
};

}  // namespace mdbench::cout_test
