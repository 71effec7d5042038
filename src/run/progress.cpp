#include "mdbench/run/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "mdbench/run/signals.hpp"

namespace mdbench {
namespace {

using Ns = std::int64_t;
constexpr double kNsPerS = 1e9;

// The interval in nanoseconds; 0 when the reporter is to stay quiet. A huge interval (--progress 1e30) is
// as good as never, and is kept from overflowing.
Ns intervalNs(double every_s) {
  if (!(every_s > 0)) return 0;  // also NaN
  const double ns = every_s * kNsPerS;
  if (ns >= static_cast<double>(ProgressReporter::kNever)) return ProgressReporter::kNever;
  return std::max<Ns>(1, std::llround(ns));
}

// t + d, saturating at kNever: a time past the end of the clock is never reached.
Ns later(Ns t, Ns d) { return t > ProgressReporter::kNever - d ? ProgressReporter::kNever : t + d; }

double seconds(Ns ns) { return static_cast<double>(ns) / kNsPerS; }

// Three significant digits with an SI suffix: 7.00, 999, 1.00k, 12.3k, 1.20M. The suffix is chosen after
// rounding, so 999.7 reads 1.00k rather than 1000.
std::string shortNumber(double value) {
  if (!std::isfinite(value) || value < 0) return "?";
  if (value == 0) return "0";
  static constexpr std::array<const char*, 6> kSuffixes = {"", "k", "M", "G", "T", "P"};
  std::size_t unit = 0;
  while (value >= 999.5 && unit + 1 < kSuffixes.size()) {
    value /= 1000;
    ++unit;
  }
  const int decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
  return fmt::format("{:.{}f}{}", value, decimals, kSuffixes[unit]);
}

// "4.2 s" below 100 s (after rounding), then "3m05s" and "1h02m05s": a long phase's clock stays readable
// without a tenth of a second nobody needs there.
std::string shortDuration(double s) {
  if (!std::isfinite(s) || s >= 1e12) return "?";
  s = std::max(s, 0.0);
  if (s < 99.95) return fmt::format("{:.1f} s", s);
  const long long whole = std::llround(s);
  if (whole < 3600) return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  return fmt::format("{}h{:02}m{:02}s", whole / 3600, whole / 60 % 60, whole % 60);
}

// Ops per second over a span; "?" for an empty span (only a zero interval could make one).
std::string rateText(std::uint64_t ops, Ns span) {
  return span > 0 ? shortNumber(static_cast<double>(ops) / seconds(span)) : "?";
}

// What is left at the phase's average rate so far. Nothing left: 0; nothing done yet: unknown.
std::string etaText(std::uint64_t done, std::uint64_t planned, Ns elapsed) {
  if (done >= planned) return shortDuration(0);
  if (done == 0 || elapsed <= 0) return "?";
  const double remaining = static_cast<double>(planned - done);
  return shortDuration(remaining * seconds(elapsed) / static_cast<double>(done));
}

// Rounded down, so "100.0%" means done rather than nearly done.
std::string percentText(std::uint64_t done, std::uint64_t planned) {
  const double per_mille = std::floor(1000.0 * static_cast<double>(done) / static_cast<double>(planned));
  return fmt::format("{:.1f}%", per_mille / 10);
}

// Columns of the terminal `out` writes to; 0 when unknown (not a terminal, or one that does not say).
std::size_t terminalColumns(std::FILE* out) {
  winsize size{};
  if (ioctl(streamFd(out), TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

}  // namespace

ProgressReporter::ProgressReporter(std::FILE* out, ProgressStyle style, double every_s)
    : out_(out), style_(style), every_ns_(intervalNs(every_s)) {
  if (out_ == nullptr || every_ns_ == 0) style_ = ProgressStyle::kOff;
}

void ProgressReporter::beginPhase(std::string_view phase, std::uint32_t iteration, std::uint32_t iterations,
                                  std::uint64_t planned, std::int64_t t_start_ns) {
  if (style_ == ProgressStyle::kOff) return;
  phase_ = phase;
  iteration_ = iteration;
  iterations_ = iterations;
  planned_ = planned;
  t_start_ns_ = t_start_ns;
  last_ns_ = t_start_ns;
  last_done_ = 0;
  finished_ns_ = kNever;
  next_ns_ = later(t_start_ns, every_ns_);
}

std::string ProgressReporter::heading() const {
  std::string text = phase_;
  if (iterations_ > 1) text += fmt::format(" {}/{}", iteration_ + 1, iterations_);
  return text + "  rank 0: ";
}

void ProgressReporter::update(std::int64_t now_ns, std::uint64_t done) {
  if (style_ == ProgressStyle::kOff || now_ns < next_ns_) return;
  const Ns elapsed = now_ns - t_start_ns_;
  std::string text = heading() + fmt::format("{}/{}", done, planned_);
  // A phase with nothing planned for rank 0 has no meaningful share done.
  if (planned_ > 0) text += fmt::format(" ({})", percentText(done, planned_));
  const std::uint64_t since_last = done >= last_done_ ? done - last_done_ : 0;
  text += fmt::format("  {} ops/s  elapsed {}  ETA {}", rateText(since_last, now_ns - last_ns_),
                      shortDuration(seconds(elapsed)), etaText(done, planned_, elapsed));
  print(text);
  last_ns_ = now_ns;
  last_done_ = done;
  // From this line, not from the last due time: a loop that checks late never gets two lines in a row.
  next_ns_ = later(now_ns, every_ns_);
}

void ProgressReporter::waiting(std::int64_t now_ns, std::uint64_t done) {
  if (style_ == ProgressStyle::kOff) return;
  if (finished_ns_ == kNever) finished_ns_ = now_ns;
  if (now_ns < next_ns_) return;
  print(heading() + fmt::format("done {} op{} in {}; waiting for the other ranks  elapsed {}", done,
                                done == 1 ? "" : "s", shortDuration(seconds(finished_ns_ - t_start_ns_)),
                                shortDuration(seconds(now_ns - t_start_ns_))));
  next_ns_ = later(now_ns, every_ns_);
}

void ProgressReporter::endPhase() {
  next_ns_ = kNever;
  if (style_ == ProgressStyle::kTerminal && line_open_) {
    std::fputs("\r\x1b[K", out_);
    std::fflush(out_);
  }
  line_open_ = false;
}

void ProgressReporter::print(const std::string& text) {
  if (style_ == ProgressStyle::kTerminal) {
    // A line wider than the terminal wraps, and '\r' then redraws only its last row, leaving the rest on
    // screen: cut it to the width (one column spare, for terminals that wrap on the last one).
    const std::size_t columns = terminalColumns(out_);
    const std::string_view shown =
        columns > 1 && text.size() >= columns ? std::string_view(text).substr(0, columns - 1) : text;
    fmt::print(out_, "\r{}\x1b[K", shown);
    line_open_ = true;
  } else {
    fmt::print(out_, "progress: {}\n", text);
  }
  std::fflush(out_);
}

}  // namespace mdbench
