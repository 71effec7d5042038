// Output tests of sinks (google/benchmark's test/output_test.h is the idea): a sink's text captured and
// matched line by line, exactly. A mismatch names the first line that differs, both versions of it, and
// shows the whole output, so that a changed format is seen at once.
#pragma once

#include <gtest/gtest.h>
#include <stdio.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace mdbench::output_test {

// A FILE* whose output lands in memory (open_memstream), for sinks that print to a FILE*.
class CapturedFile {
 public:
  CapturedFile() : file_(open_memstream(&data_, &size_)) {
    if (file_ == nullptr) throw std::runtime_error("open_memstream failed");
  }
  ~CapturedFile() {
    std::fclose(file_);
    std::free(data_);
  }
  CapturedFile(const CapturedFile&) = delete;
  CapturedFile& operator=(const CapturedFile&) = delete;

  std::FILE* file() const { return file_; }
  // Everything written so far.
  std::string text() {
    std::fflush(file_);
    return std::string(data_, size_);
  }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* file_;
};

// Feeds a whole run through a sink of type SinkT printing to a FILE*: begin, each phase, end; the text it
// printed.
template <class SinkT, class Run, class RunPlan>
std::string sinkText(const Run& run, const RunPlan& plan) {
  CapturedFile out;
  SinkT sink(out.file());
  sink.begin(run.info, plan);
  for (const auto& phase : run.phases) sink.phase(phase, plan);
  sink.end(run, plan);
  return out.text();
}

// The lines of `text`, without their '\n'; a last line without one is a line too.
inline std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Every line of `text` equal to `expected`, in order, and no more and no fewer; text must end in '\n'.
inline ::testing::AssertionResult linesAre(const std::string& text,
                                           const std::vector<std::string>& expected) {
  const std::vector<std::string> actual = splitLines(text);
  const auto failure = [&](const std::string& what) {
    return ::testing::AssertionFailure() << what << "\nwhole output:\n" << text;
  };
  for (std::size_t i = 0; i < actual.size() && i < expected.size(); ++i) {
    if (actual[i] != expected[i]) {
      return failure("line " + std::to_string(i + 1) + " differs:\n  expected: \"" + expected[i] +
                     "\"\n  actual:   \"" + actual[i] + "\"");
    }
  }
  if (actual.size() != expected.size()) {
    return failure(std::to_string(actual.size()) + " lines, expected " + std::to_string(expected.size()));
  }
  if (!text.empty() && text.back() != '\n') return failure("the last line has no newline");
  return ::testing::AssertionSuccess();
}

}  // namespace mdbench::output_test
