#include "mdbench/run/progress.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace mdbench {
namespace {

constexpr std::int64_t kS = 1'000'000'000;
constexpr std::int64_t kMs = 1'000'000;

// A stream whose text the test reads back.
class Capture {
 public:
  Capture() : file_(open_memstream(&buffer_, &size_)) {}
  ~Capture() {
    std::fclose(file_);
    std::free(buffer_);
  }
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  std::FILE* file() { return file_; }
  std::string text() {
    std::fflush(file_);
    return std::string(buffer_, size_);
  }

 private:
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* file_;
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// The one line printed by a reporter that sees `done` of `planned` ops at `at` after its phase started.
std::string firstLine(std::uint64_t planned, std::uint64_t done, std::int64_t at, double every_s = 1.0) {
  Capture out;
  ProgressReporter progress(out.file(), ProgressStyle::kLines, every_s);
  progress.beginPhase("file-stat", 0, 1, planned, 0);
  progress.update(at, done);
  return out.text();
}

TEST(ProgressLines, ExactLinesAndNothingBeforeTheFirstDueTime) {
  Capture out;
  ProgressReporter progress(out.file(), ProgressStyle::kLines, 1.0);
  EXPECT_EQ(progress.style(), ProgressStyle::kLines);
  const std::int64_t t0 = 5 * kS;  // any epoch
  progress.beginPhase("file-create", 1, 3, 100000, t0);
  EXPECT_EQ(progress.nextUpdateNs(), t0 + kS);
  progress.update(t0 + 500 * kMs, 10000);
  progress.update(t0 + kS - 1, 19999);
  EXPECT_EQ(out.text(), "");
  progress.update(t0 + kS, 20000);
  EXPECT_EQ(
      out.text(),
      "progress: file-create 2/3  rank 0: 20000/100000 (20.0%)  20.0k ops/s  elapsed 1.0 s  ETA 4.0 s\n");
  EXPECT_EQ(progress.nextUpdateNs(), t0 + 2 * kS);
  progress.update(t0 + 1500 * kMs, 30000);
  // The current rate is over the time since the last line: 31200 ops in 1.5 s; the ETA at the phase's
  // average rate: 48800 ops left at 51200 per 2.5 s.
  progress.update(t0 + 2500 * kMs, 51200);
  EXPECT_EQ(
      out.text(),
      "progress: file-create 2/3  rank 0: 20000/100000 (20.0%)  20.0k ops/s  elapsed 1.0 s  ETA 4.0 s\n"
      "progress: file-create 2/3  rank 0: 51200/100000 (51.2%)  20.8k ops/s  elapsed 2.5 s  ETA 2.4 s\n");
  EXPECT_EQ(progress.nextUpdateNs(), t0 + 3500 * kMs);
  const std::string before_end = out.text();
  progress.endPhase();
  EXPECT_EQ(out.text(), before_end);  // nothing to clear in a log
  EXPECT_EQ(progress.nextUpdateNs(), ProgressReporter::kNever);
  progress.update(t0 + 100 * kS, 60000);  // after the phase: nothing
  EXPECT_EQ(out.text(), before_end);
}

TEST(ProgressLines, OneIterationHasNoIterationCounter) {
  EXPECT_EQ(firstLine(4000, 1000, kS),
            "progress: file-stat  rank 0: 1000/4000 (25.0%)  1.00k ops/s  elapsed 1.0 s  ETA 3.0 s\n");
}

TEST(ProgressTerminal, RedrawsInPlaceAndClearsAtTheEnd) {
  Capture out;
  ProgressReporter progress(out.file(), ProgressStyle::kTerminal, 0.25);
  progress.beginPhase("dir-stat", 0, 2, 1000, 0);
  progress.update(100 * kMs, 100);
  EXPECT_EQ(out.text(), "");
  progress.update(300 * kMs, 300);
  progress.update(500 * kMs, 500);  // not due: 0.25 s after the last line is 0.55 s
  progress.update(600 * kMs, 600);
  const std::string lines =
      "\rdir-stat 1/2  rank 0: 300/1000 (30.0%)  1.00k ops/s  elapsed 0.3 s  ETA 0.7 s\x1b[K"
      "\rdir-stat 1/2  rank 0: 600/1000 (60.0%)  1.00k ops/s  elapsed 0.6 s  ETA 0.4 s\x1b[K";
  EXPECT_EQ(out.text(), lines);
  progress.endPhase();
  EXPECT_EQ(out.text(), lines + "\r\x1b[K");
  // A second phase too short for a line: nothing on screen, so nothing to clear.
  progress.beginPhase("dir-stat", 1, 2, 1000, kS);
  progress.update(kS + 100 * kMs, 1000);
  progress.endPhase();
  EXPECT_EQ(out.text(), lines + "\r\x1b[K");
}

TEST(ProgressTerminal, ShortPhasePrintsNothing) {
  Capture out;
  ProgressReporter progress(out.file(), ProgressStyle::kTerminal, 0.25);
  progress.beginPhase("file-remove", 0, 1, 10, 0);
  progress.update(10 * kMs, 5);
  progress.waiting(20 * kMs, 10);
  progress.endPhase();
  EXPECT_EQ(out.text(), "");
}

TEST(ProgressTerminal, FitsTheTerminalWidth) {
  int master = -1;
  int slave = -1;
  winsize size{};
  size.ws_col = 40;
  size.ws_row = 24;
  ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, &size), 0);
  std::FILE* tty = fdopen(slave, "w");
  ASSERT_NE(tty, nullptr);
  ProgressReporter progress(tty, ProgressStyle::kTerminal, 1.0);
  progress.beginPhase("file-create", 0, 1, 4000, 0);
  progress.update(kS, 1000);
  progress.endPhase();
  const std::string full = "file-create  rank 0: 1000/4000 (25.0%)  1.00k ops/s  elapsed 1.0 s  ETA 3.0 s";
  const std::string want = "\r" + full.substr(0, 39) + "\x1b[K\r\x1b[K";
  // The pty hands the bytes to the master side asynchronously: read until they are all there.
  std::string got;
  pollfd ready{master, POLLIN, 0};
  while (got.size() < want.size() && poll(&ready, 1, 2000) == 1) {
    char chunk[256];
    const ssize_t n = read(master, chunk, sizeof chunk);
    if (n <= 0) break;
    got.append(chunk, static_cast<std::size_t>(n));
  }
  EXPECT_EQ(got, want);
  std::fclose(tty);
  close(master);
}

TEST(ProgressOff, NeverPrintsAndNeverDue) {
  Capture out;
  ProgressReporter progress(out.file(), ProgressStyle::kOff, 1.0);
  EXPECT_EQ(progress.style(), ProgressStyle::kOff);
  EXPECT_EQ(progress.nextUpdateNs(), ProgressReporter::kNever);
  progress.beginPhase("file-create", 0, 1, 100, 0);
  EXPECT_EQ(progress.nextUpdateNs(), ProgressReporter::kNever);
  for (std::int64_t t = 0; t <= 10 * kS; t += 100 * kMs) progress.update(t, 1);
  progress.update(ProgressReporter::kNever, 100);
  progress.waiting(20 * kS, 100);
  progress.waiting(ProgressReporter::kNever, 100);
  progress.endPhase();
  EXPECT_EQ(out.text(), "");
}

TEST(ProgressOff, ZeroOrInvalidIntervalOrNoStreamIsOff) {
  Capture out;
  for (const double every_s : {0.0, -1.0, std::nan("")}) {
    for (const ProgressStyle style : {ProgressStyle::kLines, ProgressStyle::kTerminal}) {
      ProgressReporter progress(out.file(), style, every_s);
      EXPECT_EQ(progress.style(), ProgressStyle::kOff) << every_s;
      progress.beginPhase("file-create", 0, 1, 100, 0);
      EXPECT_EQ(progress.nextUpdateNs(), ProgressReporter::kNever) << every_s;
      progress.update(100 * kS, 50);
      progress.waiting(200 * kS, 100);
      progress.endPhase();
    }
  }
  EXPECT_EQ(out.text(), "");
  ProgressReporter no_stream(nullptr, ProgressStyle::kLines, 1.0);
  EXPECT_EQ(no_stream.style(), ProgressStyle::kOff);
  no_stream.beginPhase("file-create", 0, 1, 100, 0);
  no_stream.update(100 * kS, 50);
  no_stream.endPhase();
}

TEST(ProgressLines, HugeIntervalNeverComesDue) {
  Capture out;
  ProgressReporter progress(out.file(), ProgressStyle::kLines, 1e300);
  EXPECT_EQ(progress.style(), ProgressStyle::kLines);
  progress.beginPhase("file-create", 0, 1, 100, 5 * kS);
  EXPECT_EQ(progress.nextUpdateNs(), ProgressReporter::kNever);
  progress.update(ProgressReporter::kNever - 1, 50);
  EXPECT_EQ(out.text(), "");
}

// Called every microsecond of 10 seconds, as a hot loop that checks the clock on every op would: exactly one
// line per second, at 1, 2, ..., 10 s.
TEST(ProgressLines, AtMostOneLinePerIntervalWhenCalledConstantly) {
  for (const ProgressStyle style : {ProgressStyle::kLines, ProgressStyle::kTerminal}) {
    Capture out;
    ProgressReporter progress(out.file(), style, 1.0);
    progress.beginPhase("file-create", 0, 1, 20'000'000, 0);
    for (std::int64_t t = 1000; t <= 10 * kS; t += 1000)
      progress.update(t, static_cast<std::uint64_t>(t / 1000));
    const std::string text = out.text();
    EXPECT_EQ(count(text, "rank 0: "), 10u);
    EXPECT_EQ(count(text, "\n"), style == ProgressStyle::kLines ? 10u : 0u);
    EXPECT_EQ(count(text, "\r"), style == ProgressStyle::kTerminal ? 10u : 0u);
    for (int s = 1; s <= 10; ++s) EXPECT_EQ(count(text, fmt::format("elapsed {}.0 s ", s)), 1u) << s;
    EXPECT_EQ(count(text, "  1.00M ops/s  "), 10u);  // 1000 ops per fake millisecond
  }
}

// The next line is due an interval after the last one, not on a fixed grid: a loop that checks every 0.7 s
// gets lines at least a second apart (1.4, 2.8, 4.2, ...), never two in a row.
TEST(ProgressLines, NextLineIsAnIntervalAfterTheLastOne) {
  Capture out;
  ProgressReporter progress(out.file(), ProgressStyle::kLines, 1.0);
  progress.beginPhase("file-create", 0, 1, 1000, 0);
  std::vector<std::int64_t> printed;
  for (std::int64_t t = 700 * kMs; t <= 10 * kS; t += 700 * kMs) {
    const std::size_t before = out.text().size();
    progress.update(t, 1);
    if (out.text().size() != before) {
      printed.push_back(t);
      EXPECT_EQ(progress.nextUpdateNs(), t + kS);
    }
  }
  const std::vector<std::int64_t> want = {1400 * kMs, 2800 * kMs, 4200 * kMs, 5600 * kMs,
                                          7000 * kMs, 8400 * kMs, 9800 * kMs};
  EXPECT_EQ(printed, want);
}

TEST(ProgressWaiting, SaysRankZeroIsDoneAndWaits) {
  Capture out;
  ProgressReporter progress(out.file(), ProgressStyle::kLines, 1.0);
  progress.beginPhase("file-create", 1, 3, 100000, 0);
  progress.waiting(8100 * kMs, 100000);
  EXPECT_EQ(out.text(),
            "progress: file-create 2/3  rank 0: done 100000 ops in 8.1 s; waiting for the other ranks  "
            "elapsed 8.1 s\n");
  EXPECT_EQ(progress.nextUpdateNs(), 9100 * kMs);
  progress.waiting(9 * kS, 100000);
  progress.waiting(9300 * kMs, 100000);
  EXPECT_EQ(out.text(),
            "progress: file-create 2/3  rank 0: done 100000 ops in 8.1 s; waiting for the other ranks  "
            "elapsed 8.1 s\n"
            "progress: file-create 2/3  rank 0: done 100000 ops in 8.1 s; waiting for the other ranks  "
            "elapsed 9.3 s\n");
}

TEST(ProgressWaiting, FinishTimeIsTheFirstCallEvenBeforeDue) {
  Capture out;
  ProgressReporter progress(out.file(), ProgressStyle::kTerminal, 1.0);
  progress.beginPhase("dir-remove", 0, 1, 1, 0);
  progress.waiting(500 * kMs, 1);
  EXPECT_EQ(out.text(), "");
  progress.waiting(1200 * kMs, 1);
  EXPECT_EQ(out.text(),
            "\rdir-remove  rank 0: done 1 op in 0.5 s; waiting for the other ranks  elapsed 1.2 s\x1b[K");
  progress.endPhase();
  // The next phase has its own finish time.
  progress.beginPhase("tree-remove", 0, 1, 3, 10 * kS);
  progress.waiting(12 * kS, 3);
  EXPECT_EQ(count(out.text(),
                  "tree-remove  rank 0: done 3 ops in 2.0 s; waiting for the other ranks  "
                  "elapsed 2.0 s\x1b[K"),
            1u);
}

TEST(ProgressFormat, NothingDoneYetHasNoEta) {
  EXPECT_EQ(firstLine(1000, 0, kS),
            "progress: file-stat  rank 0: 0/1000 (0.0%)  0 ops/s  elapsed 1.0 s  ETA ?\n");
}

TEST(ProgressFormat, AllDoneHasNoTimeLeft) {
  EXPECT_EQ(firstLine(1000, 1000, kS),
            "progress: file-stat  rank 0: 1000/1000 (100.0%)  1.00k ops/s  elapsed 1.0 s  ETA 0.0 s\n");
}

TEST(ProgressFormat, NothingPlannedHasNoShare) {
  EXPECT_EQ(firstLine(0, 0, kS), "progress: file-stat  rank 0: 0/0  0 ops/s  elapsed 1.0 s  ETA 0.0 s\n");
}

TEST(ProgressFormat, ShareIsRoundedDown) {
  EXPECT_EQ(count(firstLine(100000, 99999, kS), "99999/100000 (99.9%)"), 1u);
  EXPECT_EQ(count(firstLine(3, 2, kS), "2/3 (66.6%)"), 1u);
}

TEST(ProgressFormat, RatesHaveThreeSignificantDigits) {
  struct Case {
    std::uint64_t ops;
    std::int64_t span;
    const char* shown;
  };
  const std::vector<Case> cases = {
      {0, kS, "0"},
      {1, 4 * kS, "0.25"},
      {7, kS, "7.00"},
      {42, kS, "42.0"},
      {999, kS, "999"},
      {1000, kS, "1.00k"},
      {9994, kS, "9.99k"},
      {12345, kS, "12.3k"},
      {123456, kS, "123k"},
      {999499, kS, "999k"},
      {999500, kS, "1.00M"},
      {1200000, kS, "1.20M"},
      {1999, 2 * kS, "1.00k"},
      {2'500'000'000, kS, "2.50G"},
  };
  for (const Case& c : cases) {
    const std::string line = firstLine(2 * c.ops + 1, c.ops, c.span);
    EXPECT_EQ(count(line, fmt::format("  {} ops/s  ", c.shown)), 1u) << c.ops << ": " << line;
  }
}

TEST(ProgressFormat, DurationsTurnToMinutesAt100Seconds) {
  struct Case {
    std::int64_t at;
    const char* shown;
  };
  const std::vector<Case> cases = {
      {kS, "1.0 s"},       {99900 * kMs, "99.9 s"}, {99960 * kMs, "1m40s"},
      {185 * kS, "3m05s"}, {3599 * kS, "59m59s"},   {3725 * kS, "1h02m05s"},
  };
  for (const Case& c : cases) {
    // Half done: the time left equals the time gone.
    const std::string line = firstLine(2000, 1000, c.at);
    EXPECT_EQ(count(line, fmt::format("  elapsed {}  ETA {}\n", c.shown, c.shown)), 1u) << line;
  }
}

TEST(ProgressFormat, AnEtaBeyondAnyClockIsUnknown) {
  // One op in 1000 s, 10^15 planned: 10^18 s left.
  const std::string line = firstLine(1'000'000'000'000'000, 1, 1000 * kS);
  EXPECT_EQ(count(line, "  elapsed 16m40s  ETA ?\n"), 1u) << line;
}

}  // namespace
}  // namespace mdbench
