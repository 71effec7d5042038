// svg_style.hpp's looks of a series.
#include "svg_style.hpp"

namespace mdbench::svg {

Style styleFor(std::size_t index, SeriesLook look) {
  return {kPalette[index % kPalette.size()],
          static_cast<Marker>((index + index / kPalette.size()) % kMarkerCount), look,
          index / kPalette.size()};
}

Stroke strokeOf(const Style& style) {
  constexpr std::array<std::string_view, 3> kDashes = {"", "6 3", "2 2"};
  switch (style.look) {
    case SeriesLook::kBoldLine:
      return {std::string(kInk), "3", "", "1"};
    case SeriesLook::kThinLine:
      return {std::string(style.colour), "1.25", std::string(kDashes[style.round % kDashes.size()]), "0.85"};
    case SeriesLook::kMarkers:
      break;
  }
  return {std::string(style.colour), "2", "", "1"};
}

Attrs strokeAttrs(const Stroke& stroke) {
  Attrs attrs = {{"stroke", stroke.colour}, {"stroke-width", stroke.width}};
  if (!stroke.dash.empty()) attrs.emplace_back("stroke-dasharray", stroke.dash);
  if (stroke.opacity != "1") attrs.emplace_back("stroke-opacity", stroke.opacity);
  return attrs;
}

std::string_view lookName(SeriesLook look) {
  return look == SeriesLook::kBoldLine ? "bold" : look == SeriesLook::kThinLine ? "thin" : "markers";
}

void marker(Writer& w, const Style& style, double x, double y, double r, Attrs extra) {
  extra.emplace_back("data-marker", std::string(markerName(style.marker)));
  extra.emplace_back("fill", std::string(style.colour));
  extra.emplace_back("stroke", "#ffffff");
  extra.emplace_back("stroke-width", "1");
  if (style.marker == Marker::kCircle) {
    extra.insert(extra.begin() + 1, {{"cx", num(x)}, {"cy", num(y)}, {"r", num(r)}});
    w.leaf("circle", extra);
  } else {
    extra.insert(extra.begin() + 1, {"d", markerPath(style.marker, x, y, r)});
    w.leaf("path", extra);
  }
}

}  // namespace mdbench::svg
