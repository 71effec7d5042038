// The numbers on a chart's axes (chart.hpp): tick values at round steps, values in SI notation, and which
// x scale kAuto means for a chart's data.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "mdbench/report/chart.hpp"

namespace mdbench {

std::vector<double> niceTicks(double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0.0, 1.0};
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) {
    const double half = lo == 0.0 ? 0.5 : std::fabs(lo) * 0.5;
    lo = lo == 0.0 ? 0.0 : lo - half;
    hi = hi == 0.0 ? 1.0 : hi + half;
  }
  const double span = hi - lo;
  if (!std::isfinite(span) || span <= 0.0) return {0.0, 1.0};
  constexpr std::array<double, 4> kMantissas = {1.0, 2.0, 2.5, 5.0};
  constexpr double kMaxIntervals = 7.0;
  // Start one decade below the answer and walk up: the first step giving <= 7 intervals follows one giving
  // more, and steps grow by at most 2.5x, so there are always at least 3 intervals (4 ticks).
  const int first = static_cast<int>(std::floor(std::log10(span / kMaxIntervals))) - 1;
  for (int exponent = first; exponent <= first + 3; ++exponent) {
    // Tick values are (integer * mantissa) scaled by an exact power of ten: 0.75, not 0.7500000000000001.
    const double power = std::pow(10.0, std::abs(exponent));
    const auto scaled = [&](double v) { return exponent >= 0 ? v * power : v / power; };
    for (const double m : kMantissas) {
      const double step = scaled(m);
      const auto tick = [&](double j) { return scaled(j * m) + 0.0; };  // + 0.0: no -0
      // The division may be off by one ulp; the ticks themselves decide coverage.
      double j0 = std::floor(lo / step);
      if (tick(j0 + 1) <= lo) ++j0;
      if (tick(j0) > lo) --j0;
      double j1 = std::ceil(hi / step);
      if (tick(j1 - 1) >= hi) --j1;
      if (tick(j1) < hi) ++j1;
      if (j1 - j0 > kMaxIntervals) continue;
      std::vector<double> ticks;
      for (double j = j0; j <= j1; ++j) ticks.push_back(tick(j));
      if (!std::isfinite(ticks.front()) || !std::isfinite(ticks.back())) return {lo, hi};  // near DBL_MAX
      return ticks;
    }
  }
  return {lo, hi};  // unreachable for finite spans
}

std::string formatSi(double value) {
  if (!std::isfinite(value)) return "n/a";
  if (value == 0.0) return "0";
  if (value < 0.0) return "-" + formatSi(-value);
  // Round to 3 significant digits first, so 999.7 becomes "1k" and not "1000".
  const std::string sci = fmt::format("{:.2e}", value);
  const int exponent = std::stoi(sci.substr(sci.find('e') + 1));
  if (exponent < -4) return fmt::format("{:.3g}", value);
  const double rounded = std::stod(sci);
  constexpr std::array<std::string_view, 7> kSuffixes = {"", "k", "M", "G", "T", "P", "E"};
  const int group = exponent >= 3 ? std::min(exponent / 3, 6) : 0;
  const int decimals = std::max(0, 2 - (exponent - 3 * group));
  std::string digits = fmt::format("{:.{}f}", rounded / std::pow(1000.0, group), decimals);
  if (digits.find('.') != std::string::npos) {
    while (digits.back() == '0') digits.pop_back();
    if (digits.back() == '.') digits.pop_back();
  }
  return digits + std::string(kSuffixes[static_cast<std::size_t>(group)]);
}

std::string formatPlain(double value) {
  if (!std::isfinite(value)) return "n/a";
  if (value == 0.0) return "0";
  if (value < 0.0) return "-" + formatPlain(-value);
  if (value >= 100.0) return fmt::format("{:.0f}", value);
  std::string digits = fmt::format("{:.{}f}", value, value >= 10.0 ? 1 : value >= 1.0 ? 2 : 3);
  if (value < 0.001) return fmt::format("{:.3g}", value);
  while (digits.back() == '0') digits.pop_back();
  if (digits.back() == '.') digits.pop_back();
  return digits;
}

XScale resolveXScale(const ChartSpec& spec) {
  if (spec.x_scale == XScale::kLinear) return XScale::kLinear;
  double lo = 0.0, hi = 0.0;
  bool any = false, positive = true;
  for (const auto& series : spec.series) {
    for (const auto& p : series.points) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      lo = any ? std::min(lo, p.x) : p.x;
      hi = any ? std::max(hi, p.x) : p.x;
      any = true;
      positive = positive && p.x > 0.0;
    }
  }
  if (!any || !positive) return XScale::kLinear;
  if (spec.x_scale == XScale::kLog2) return XScale::kLog2;
  return hi / lo >= 4.0 ? XScale::kLog2 : XScale::kLinear;
}

}  // namespace mdbench
