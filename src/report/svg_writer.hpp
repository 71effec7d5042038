// SVG building blocks for the charts: an XML writer (escaped text and attributes, balanced elements,
// fixed-precision coordinates so output is byte-for-byte deterministic), marker shapes, label placement.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mdbench/util/xml_text.hpp"

namespace mdbench::svg {

inline std::size_t utf8Length(std::string_view s, std::size_t i) { return utf8SequenceLength(s, i); }

// Text as XML 1.0 accepts it: labels come from file names and command lines, so invalid UTF-8 bytes
// become '?' and control characters (which XML forbids even escaped) become spaces.
inline std::string sanitize(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8Length(s, i);
    if (n == 0) {
      out += '?';
      ++i;
    } else if (n == 1 && static_cast<unsigned char>(s[i]) < 0x20) {
      out += ' ';
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

inline std::size_t codepoints(std::string_view s) {
  std::size_t count = 0;
  for (const char c : s) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return count;
}

// Sanitized text cut to at most max_chars code points, the last being an ellipsis when it was cut.
inline std::string truncate(std::string_view s, std::size_t max_chars) {
  std::string clean = sanitize(s);
  if (codepoints(clean) <= max_chars) return clean;
  if (max_chars == 0) return {};
  std::size_t kept = 0;
  std::size_t end = 0;
  while (end < clean.size() && kept + 1 < max_chars) {
    end += utf8Length(clean, end);
    ++kept;
  }
  clean.resize(end);
  while (!clean.empty() && clean.back() == ' ') clean.pop_back();
  return clean + "\u2026";
}

// Sanitized text has no control characters or invalid bytes left, so this escapes the five markup ones.
inline std::string escape(std::string_view s) { return xmlEscape(s); }

// A coordinate: two decimals, trailing zeros dropped, never "-0" (and never nan: callers keep their
// scales finite, and this is the last line of defence).
inline std::string num(double v) {
  if (!std::isfinite(v)) v = 0.0;
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// A data value, in the shortest form that reads back as the same double.
inline std::string raw(double v) { return fmt::format("{}", v); }

using Attrs = std::vector<std::pair<std::string_view, std::string>>;

class Writer {
 public:
  void open(std::string_view tag, const Attrs& attrs) {
    startTag(tag, attrs);
    out_ += ">\n";
    open_.emplace_back(tag);
  }
  void close() {
    if (open_.empty()) throw std::logic_error("svg::Writer::close without an open element");
    out_ += fmt::format("</{}>\n", open_.back());
    open_.pop_back();
  }
  void leaf(std::string_view tag, const Attrs& attrs) {
    startTag(tag, attrs);
    out_ += "/>\n";
  }
  // A <line>: `head` (class, data-) before the coordinates, `tail` (stroke) after.
  void line(const Attrs& head, double x1, double y1, double x2, double y2, const Attrs& tail) {
    Attrs attrs = head;
    attrs.insert(attrs.end(), {{"x1", num(x1)}, {"y1", num(y1)}, {"x2", num(x2)}, {"y2", num(y2)}});
    attrs.insert(attrs.end(), tail.begin(), tail.end());
    leaf("line", attrs);
  }
  // A text element; the content is sanitized and escaped here.
  void text(const Attrs& attrs, std::string_view content) {
    startTag("text", attrs);
    out_ += fmt::format(">{}</text>\n", escape(sanitize(content)));
  }
  void append(std::string_view s) { out_ += s; }
  std::string finish() {
    if (!open_.empty()) throw std::logic_error("svg::Writer::finish with open elements");
    return std::move(out_);
  }

 private:
  void startTag(std::string_view tag, const Attrs& attrs) {
    out_ += fmt::format("{:{}}<{}", "", 2 * open_.size(), tag);
    for (const auto& [name, value] : attrs) out_ += fmt::format(" {}=\"{}\"", name, escape(sanitize(value)));
  }

  std::string out_;
  std::vector<std::string> open_;
};

// --- Marker shapes ------------------------------------------------------------------------------------

enum class Marker : std::uint8_t {
  kCircle,
  kSquare,
  kTriangleUp,
  kDiamond,
  kTriangleDown,
  kCross,
  kStar,
  kHexagon
};
inline constexpr std::size_t kMarkerCount = 8;

// The shape's name, for machines reading a chart (data-marker).
inline std::string_view markerName(Marker m) {
  constexpr std::array<std::string_view, kMarkerCount> kNames = {
      "circle", "square", "triangle-up", "diamond", "triangle-down", "cross", "star", "hexagon"};
  return kNames[static_cast<std::size_t>(m) % kMarkerCount];
}

// A regular polygon (or a star, when inner_ratio > 0: every other vertex at that fraction of r).
inline std::string polygon(double cx, double cy, double r, int corners, double inner_ratio, double rotation) {
  const int vertices = inner_ratio > 0 ? 2 * corners : corners;
  std::string d;
  for (int i = 0; i < vertices; ++i) {
    const double radius = (inner_ratio > 0 && i % 2 == 1) ? r * inner_ratio : r;
    const double a = rotation + 2.0 * std::numbers::pi * i / vertices;
    d += fmt::format("{}{} {} ", i == 0 ? "M" : "L", num(cx + radius * std::sin(a)),
                     num(cy - radius * std::cos(a)));
  }
  return d + "Z";
}

// Path data for every marker but the circle (drawn as <circle>); sizes are tuned to look equally heavy.
inline std::string markerPath(Marker m, double x, double y, double r) {
  const double s = r * 0.88;
  switch (m) {
    case Marker::kSquare:
      return fmt::format("M{} {} H{} V{} H{} Z", num(x - s), num(y - s), num(x + s), num(y + s), num(x - s));
    case Marker::kTriangleUp:
      return polygon(x, y + r * 0.2, r * 1.3, 3, 0, 0);
    case Marker::kDiamond:
      return polygon(x, y, r * 1.3, 4, 0, 0);
    case Marker::kTriangleDown:
      return polygon(x, y - r * 0.2, r * 1.3, 3, 0, std::numbers::pi);
    case Marker::kCross:
      return polygon(x, y, r * 1.35, 4, 0.45, std::numbers::pi / 4);
    case Marker::kStar:
      return polygon(x, y, r * 1.45, 5, 0.5, 0);
    case Marker::kHexagon:
      return polygon(x, y, r * 1.1, 6, 0, 0);
    case Marker::kCircle:
      break;
  }
  return {};
}

// --- Label placement ----------------------------------------------------------------------------------

struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// Annotations (peak, saturation, reference labels) go to the least bad of their candidate spots: never
// outside the plot if any spot fits, then as few other labels and as little data covered as possible,
// then the caller's order of preference. Deterministic: ties go to the earlier candidate.
class LabelPlacer {
 public:
  struct Spot {
    double x, y;  // the text's anchor point and baseline
    std::string_view anchor;
  };
  // `data`: small boxes along the curves and around the markers, which labels should not hide.
  LabelPlacer(Box plot, double font_size, std::vector<Box> data)
      : plot_(plot), font_size_(font_size), data_(std::move(data)) {}

  Spot place(const std::vector<Spot>& candidates, double text_width) {
    Spot best = candidates.front();
    double best_cost = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const double c = cost(boxOf(candidates[i], text_width)) + static_cast<double>(i);
      if (c < best_cost) {
        best_cost = c;
        best = candidates[i];
      }
    }
    // Nothing fitted: keep the spot but slide it horizontally into the plot.
    const Box b = boxOf(best, text_width);
    if (b.x1 > plot_.x1) best.x -= b.x1 - plot_.x1;
    if (b.x0 < plot_.x0) best.x += plot_.x0 - b.x0;
    taken_.push_back(boxOf(best, text_width));
    return best;
  }

 private:
  Box boxOf(const Spot& s, double w) const {
    const double x0 = s.anchor == "end" ? s.x - w : s.anchor == "middle" ? s.x - w / 2 : s.x;
    return {x0 - 2, s.y - font_size_, x0 + w + 2, s.y + 3};
  }
  double cost(const Box& b) const {
    double c = 0.0;
    if (b.x0 < plot_.x0 || b.x1 > plot_.x1 || b.y0 < plot_.y0 - font_size_ || b.y1 > plot_.y1) c += 1e6;
    for (const auto& t : taken_) c += t.overlaps(b) ? 1e4 : 0.0;
    for (const auto& d : data_) c += d.overlaps(b) ? 10.0 : 0.0;
    return c;
  }

  Box plot_;
  double font_size_;
  std::vector<Box> data_;
  std::vector<Box> taken_;
};

}  // namespace mdbench::svg
