// Live progress of a run, printed by rank 0 while a phase runs: on a terminal one line per phase, rewritten
// in place; in a batch log a plain line every --progress SECONDS, so a log never floods.
#pragma once

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

namespace mdbench {

enum class ProgressStyle : std::uint8_t {
  kOff,
  kTerminal,  // one line per phase, redrawn with '\r' (and cleared when the phase ends)
  kLines,     // a plain line every `every_s` seconds of a phase (none for a phase shorter than that)
};

// What rank 0 knows while a phase runs: its own ops. Every line says so ("rank 0"): the other ranks' counts
// reach rank 0 only after the phase (one gather), and a live count from every rank would cost the
// measured ranks messages in the timed region.
class ProgressReporter {
 public:
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
  // Terminal style redraws at most every `every_s` seconds too (the app passes 0.25 there). An interval
  // that is not positive (--progress 0) or no stream makes the reporter kOff: style() says so.
  ProgressReporter(std::FILE* out, ProgressStyle style, double every_s);

  ProgressStyle style() const { return style_; }
  // A phase starts (after its opening barrier): its stable name, the iteration (0-based) out of
  // `iterations`, the ops rank 0 plans in it, and when it started on rank 0's clock.
  void beginPhase(std::string_view phase, std::uint32_t iteration, std::uint32_t iterations,
                  std::uint64_t planned, std::int64_t t_start_ns);
  // When update() or waiting() is next due (kNever when off): the hot loop compares its clock with it.
  std::int64_t nextUpdateNs() const { return next_ns_; }
  // Rank 0 is working: `done` of its planned ops at now_ns. Prints when due (and sets the next time).
  void update(std::int64_t now_ns, std::uint64_t done);
  // Rank 0 has finished its ops (`done`) and waits for the other ranks in the closing barrier. The first
  // call in a phase is taken as rank 0's finish time, due or not: call it once as soon as the ops are done,
  // then whenever due.
  void waiting(std::int64_t now_ns, std::uint64_t done);
  // The phase has ended on every rank: on a terminal the line is cleared, so the phase's table row that
  // follows starts on a clean line.
  void endPhase();

 private:
  // Implementation's choice (src/run/progress.cpp).
  std::string heading() const;  // "file-create 2/3  rank 0: "
  void print(const std::string& text);
  std::FILE* out_;
  ProgressStyle style_;
  std::int64_t every_ns_;
  std::int64_t next_ns_ = kNever;
  std::string phase_;
  std::uint32_t iteration_ = 0;
  std::uint32_t iterations_ = 1;
  std::uint64_t planned_ = 0;
  std::int64_t t_start_ns_ = 0;
  std::int64_t last_ns_ = 0;           // time of the last line (for the current rate)
  std::uint64_t last_done_ = 0;        // count at the last line
  std::int64_t finished_ns_ = kNever;  // rank 0's finish time (its first waiting() call)
  bool line_open_ = false;             // a terminal line is on screen
};

}  // namespace mdbench
