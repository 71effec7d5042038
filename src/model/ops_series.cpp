#include "mdbench/model/ops_series.hpp"

#include <algorithm>

namespace mdbench {

void SeriesRecorder::begin(std::int64_t t_start_ns, std::int64_t interval_ns) {
  t_start_ns_ = t_start_ns;
  interval_ns_ = std::max<std::int64_t>(1, interval_ns);
  next_boundary_ = t_start_ns + interval_ns_;
  ok_at_boundary_ = 0;
  counts_.clear();
  counts_.reserve(kMaxIntervals);
}

void SeriesRecorder::mergePairs() {
  for (std::size_t i = 0; i < kMaxIntervals / 2; ++i) counts_[i] = counts_[2 * i] + counts_[2 * i + 1];
  counts_.resize(kMaxIntervals / 2);
  interval_ns_ *= 2;
}

void SeriesRecorder::push(std::uint64_t ok) {
  counts_.push_back(static_cast<std::uint32_t>(ok - ok_at_boundary_));
  ok_at_boundary_ = ok;
}

void SeriesRecorder::close(std::uint64_t ok) {
  if (counts_.size() == kMaxIntervals) {
    // Full: pairs become one interval of twice the length. kMaxIntervals is even, so the interval ending
    // now is the first half of the next one, which stays open.
    mergePairs();
  } else {
    push(ok);
  }
  next_boundary_ = t_start_ns_ + static_cast<std::int64_t>(counts_.size() + 1) * interval_ns_;
}

void SeriesRecorder::tick(std::int64_t now_ns, std::uint64_t ok) {
  // The ops before now_ns completed by the first boundary passed (the loop checks after every op); any
  // further intervals that ended before now_ns saw no op complete.
  while (now_ns >= next_boundary_) {
    close(ok);
  }
}

void SeriesRecorder::finish(std::int64_t end_ns, std::uint64_t ok) {
  tick(end_ns, ok);
  // The interval end_ns falls in, cut short at end_ns; none when the phase ended exactly on a boundary
  // with nothing after it, or had no time at all.
  if (ok > ok_at_boundary_ ||
      end_ns > t_start_ns_ + static_cast<std::int64_t>(counts_.size()) * interval_ns_) {
    close(ok);
  }
  next_boundary_ = kNever;
}

void SeriesRecorder::coarsenTo(std::int64_t interval_ns) {
  while (interval_ns_ < interval_ns) {
    const std::size_t n = (counts_.size() + 1) / 2;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t b = 2 * i + 1;
      counts_[i] = counts_[2 * i] + (b < counts_.size() ? counts_[b] : 0);
    }
    counts_.resize(n);
    interval_ns_ *= 2;
  }
}

}  // namespace mdbench
