#!/usr/bin/python3
"""Checks a chart written by `mdbench report` (src/report/svg_chart.cpp) through the structure it promises.

usage: check_svg.py FILE.svg... [--series LABEL]... [--points LABEL=N]... [--text STRING]...
                    [--no-text STRING]... [--peak LABEL] [--saturation LABEL] [--panels N] [--reference]
                    [--sum-of-ranks] [--same-looks] [--visible] [--band FROM,TO,TOL]... [--mark X,TOL]...
                    [--no-marks]

Every check but --same-looks applies to each file given. Always checked: the file is XML with an <svg> root in the SVG namespace, a viewBox, and no non-finite
number in any geometry attribute. Then, as asked:
  --series LABEL      a <g class="series" data-series="LABEL"> exists (LABEL may be a shell pattern:
                      "mdbench*" also finds "mdbench (ior)")
  --points LABEL=N    the series groups labelled LABEL hold N elements of class "point" in all
                      (summed over panels for a panel chart)
  --text STRING       some <text> element contains STRING
  --peak LABEL        a series group labelled LABEL contains an element of class "peak"
  --saturation LABEL  a series group labelled LABEL contains an element of class "saturation"
  --panels N          exactly N <g class="panel"> elements
  --reference         an element of class "reference" exists
  --no-text STRING    no <text> element contains STRING
  --sum-of-ranks      in each panel (throughput over time), the bold "all ranks" line equals the sum of
                      the "rank N" lines at every moment between two ends of any step (a finished rank
                      adds 0); relative tolerance 1e-6
  --visible           in each chart or panel: no two configurations' series look the same (colour and
                      marker), and no point of one is hidden under a marker of another drawn after it
                      (its centre inside that marker's bounding box)
  --same-looks        over all the files: every label's series groups have one colour and one marker, its
                      points are drawn in that colour and marker, and so are its legend markers
  --band FROM,TO,TOL  a shaded band (g.band, a stall) whose data-from and data-to are within TOL of FROM and
                      TO, and whose rect spans the plot's height from FROM's pixel to TO's on its chart's x
                      axis (read from the axis line and the x tick labels)
  --mark X,TOL        a mark (g.mark, a fault) whose data-x is within TOL of X, its line vertical over the
                      plot's height at X's pixel on its chart's x axis
  --no-marks          no band and no mark at all
Prints one line per failed check and exits 1 if any failed, 0 otherwise.
"""
import argparse
import fnmatch
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
GEOMETRY = ("x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width", "height", "d", "points",
            "transform", "viewBox", "data-x", "data-y", "data-low", "data-high")


def classes(element):
    return element.get("class", "").split()


def with_class(root, name):
    return [e for e in root.iter() if name in classes(e)]


def series_groups(root, label):
    return [g for g in with_class(root, "series") if fnmatch.fnmatchcase(g.get("data-series", ""), label)]


def steps(group):
    """A line series' steps as (start, end, rate), from its polyline's data-values (pairs of points)."""
    line = group.find(SVG + "polyline")
    if line is None:
        return []
    values = [tuple(map(float, v.split(","))) for v in line.get("data-values", "").split()]
    return [(values[i][0], values[i + 1][0], values[i][1]) for i in range(0, len(values) - 1, 2)]


def rate_at(line, t):
    return sum(rate for start, end, rate in line if start <= t < end)


def check_sum(root):
    failures = []
    panels = with_class(root, "panel") or [root]
    for panel in panels:
        groups = with_class(panel, "series")
        total = [steps(g) for g in groups if g.get("data-series") == "all ranks"]
        ranks = [steps(g) for g in groups if g.get("data-series", "").startswith("rank ")]
        name = panel.get("data-title", "chart")
        if len(total) != 1 or not ranks:
            failures.append(f"{name}: {len(total)} 'all ranks' lines and {len(ranks)} rank lines")
            continue
        edges = sorted({x for line in ranks + total for step in line for x in step[:2]})
        for a, b in zip(edges, edges[1:]):
            if b - a <= 1e-12 * max(1.0, abs(b)):
                continue
            t = (a + b) / 2
            want = sum(rate_at(line, t) for line in ranks)
            got = rate_at(total[0], t)
            if abs(got - want) > 1e-6 * max(1.0, want):
                failures.append(f"{name}: at {t:g} the sum line is {got:g}, the ranks add up to {want:g}")
                break
    return failures


def plot_of(chart):
    """A chart's (or panel's) plot box (left, top, bottom, right) and its x axis as a function from a value
    to its pixel, from the axis path "M left top V bottom H right" and the first and last x tick labels."""
    axis = next(e for e in with_class(chart, "axis") if e.tag == SVG + "path")
    left, top, bottom, right = map(float, re.fullmatch(r"M(\S+) (\S+) V(\S+) H(\S+)", axis.get("d")).groups())
    ticks = [(float("".join(t.itertext())), float(t.get("x"))) for t in chart.iter(SVG + "text")
             if classes(t) == ["tick-label", "x"]]
    (v0, p0), (v1, p1) = ticks[0], ticks[-1]
    return (left, top, bottom, right), lambda v: p0 + (v - v0) * (p1 - p0) / (v1 - v0)


# Half a pixel: coordinates are written with two decimals, and tick labels round their values.
PIXEL = 0.5


def drawn(root, kind):
    """Every band or mark ("band", "mark") of each chart or panel, with its chart's plot box and x axis."""
    for chart in with_class(root, "panel") or [root]:
        groups = with_class(chart, kind)
        if not groups:
            continue  # its axis need not have two x ticks to read a scale from
        box, pixel = plot_of(chart)
        for g in groups:
            yield g, box, pixel


def check_band(root, spec):
    """A band near FROM and TO, drawn where its axis puts them, over the plot's height."""
    want_from, want_to, tol = (float(v) for v in spec.split(","))
    seen = []
    for g, (_, top, bottom, _), pixel in drawn(root, "band"):
        a, b = float(g.get("data-from")), float(g.get("data-to"))
        seen.append(f"{a:g}-{b:g}")
        if abs(a - want_from) > tol or abs(b - want_to) > tol:
            continue
        rect = next(e for e in g if "band-area" in classes(e))
        x0, y0 = float(rect.get("x")), float(rect.get("y"))
        x1, y1 = x0 + float(rect.get("width")), y0 + float(rect.get("height"))
        if max(abs(x0 - pixel(a)), abs(x1 - pixel(b)), abs(y0 - top), abs(y1 - bottom)) > PIXEL:
            return [f"band {a:g}-{b:g} is drawn over x {x0:g}-{x1:g}, y {y0:g}-{y1:g}; its axis puts it over "
                    f"x {pixel(a):.2f}-{pixel(b):.2f}, y {top:g}-{bottom:g}"]
        return []
    return [f"no band {want_from:g}-{want_to:g} (+-{tol:g}); bands: {seen}"]


def check_mark(root, spec):
    """A mark near X, a vertical line where its axis puts X, over the plot's height."""
    want, tol = (float(v) for v in spec.split(","))
    seen = []
    for g, (_, top, bottom, _), pixel in drawn(root, "mark"):
        x = float(g.get("data-x"))
        seen.append(f"{x:g}")
        if abs(x - want) > tol:
            continue
        line = next(e for e in g if "mark-line" in classes(e))
        x1, y1, x2, y2 = (float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
        if x1 != x2 or max(abs(x1 - pixel(x)), abs(y1 - top), abs(y2 - bottom)) > PIXEL:
            return [f"mark {x:g} is drawn from ({x1:g}, {y1:g}) to ({x2:g}, {y2:g}); its axis puts it at "
                    f"x {pixel(x):.2f}, y {top:g} to {bottom:g}"]
        return []
    return [f"no mark at {want:g} (+-{tol:g}); marks: {seen}"]


def marker_box(e):
    """The bounding box of a marker: a <circle>, or a <path> of absolute M, L, H, V and Z commands."""
    if e.tag == SVG + "circle":
        cx, cy, r = (float(e.get(k)) for k in ("cx", "cy", "r"))
        return (cx - r, cy - r, cx + r, cy + r)
    tokens = re.findall(r"[MLHVZ]|-?[0-9.]+(?:e[-+]?[0-9]+)?", e.get("d", ""))
    xs, ys, x, y, command, i = [], [], 0.0, 0.0, "M", 0
    while i < len(tokens):
        if tokens[i] in "MLHVZ":
            command = tokens[i]
            i += 1
            continue
        if command in "ML":
            x, y = float(tokens[i]), float(tokens[i + 1])
            i += 2
        elif command == "H":
            x = float(tokens[i])
            i += 1
        elif command == "V":
            y = float(tokens[i])
            i += 1
        else:
            i += 1
        xs.append(x)
        ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys))


def check_visible(root):
    failures = []
    for panel in with_class(root, "panel") or [root]:
        name = panel.get("data-title", "chart")
        drawn, labels_of = [], {}
        for g in with_class(panel, "series"):
            if g.get("data-colour") is None:
                continue  # a line look (throughput over time) is not a configuration's
            look = (g.get("data-colour"), g.get("data-marker"))
            labels_of.setdefault(look, set()).add(g.get("data-series"))
            for p in with_class(g, "point"):
                box = marker_box(p)
                drawn.append((g.get("data-series"), ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), box))
        for look, labels in sorted(labels_of.items()):
            if len(labels) > 1:
                failures.append(f"{name}: {sorted(labels)} are all drawn as {look}")
        for i, (label, (cx, cy), _) in enumerate(drawn):
            for other, _, box in drawn[i + 1:]:
                if other != label and box[0] <= cx <= box[2] and box[1] <= cy <= box[3]:
                    failures.append(f"{name}: a point of {label!r} at ({cx:.1f}, {cy:.1f}) is hidden under a "
                                    f"marker of {other!r}")
                    break
    return failures


def check_looks(roots):
    """Per label, the (colour, marker) of its series groups, points and legend markers over all files."""
    looks = {}
    failures = []
    for path, root in roots:
        for g in with_class(root, "series"):
            if g.get("data-colour") is None:
                continue  # a line look (throughput over time) is not a configuration's
            look = (g.get("data-colour"), g.get("data-marker"))
            looks.setdefault(g.get("data-series"), set()).add(look)
            for p in with_class(g, "point"):
                if (p.get("fill"), p.get("data-marker")) != look:
                    failures.append(f"{path}: a point of {g.get('data-series')!r} is not drawn as {look}")
        for m in with_class(root, "legend-marker"):
            looks.setdefault(m.get("data-series"), set()).add((m.get("fill"), m.get("data-marker")))
    for label, seen in sorted(looks.items()):
        if len(seen) != 1:
            failures.append(f"{label!r} is drawn {len(seen)} ways: {sorted(seen)}")
    return failures


def check(args, path):
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        return [f"{path}: not readable XML: {e}"], None
    failures = []
    if root.tag != SVG + "svg":
        failures.append(f"root element is {root.tag}, not <svg> in the SVG namespace")
    if not root.get("viewBox"):
        failures.append("<svg> has no viewBox")
    for e in root.iter():
        for name in GEOMETRY:
            value = e.get(name, "").lower()
            if "nan" in value or "inf" in value:
                failures.append(f"non-finite {name}=\"{value}\" on <{e.tag.replace(SVG, '')}>")
    for label in args.series:
        if not series_groups(root, label):
            failures.append(f"no series {label!r}")
    for spec in args.points:
        label, _, expected = spec.rpartition("=")
        found = sum(len(with_class(g, "point")) for g in series_groups(root, label))
        if not expected.isdigit() or found != int(expected):
            failures.append(f"series {label!r}: {found} points, expected {expected}")
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
    for wanted in args.text:
        if not any(wanted in t for t in texts):
            failures.append(f"no text containing {wanted!r}")
    for kind, label in (("peak", args.peak), ("saturation", args.saturation)):
        if label is not None and not any(with_class(g, kind) for g in series_groups(root, label)):
            failures.append(f"series {label!r} has no {kind} mark")
    if args.panels is not None and len(with_class(root, "panel")) != args.panels:
        failures.append(f"{len(with_class(root, 'panel'))} panels, expected {args.panels}")
    if args.reference and not with_class(root, "reference"):
        failures.append("no reference line")
    for unwanted in args.no_text:
        if any(unwanted in t for t in texts):
            failures.append(f"a text contains {unwanted!r}")
    if args.sum_of_ranks:
        failures += check_sum(root)
    if args.visible:
        failures += check_visible(root)
    for spec in args.band:
        failures += check_band(root, spec)
    for spec in args.mark:
        failures += check_mark(root, spec)
    if args.no_marks and (with_class(root, "band") or with_class(root, "mark")):
        failures.append(f"{len(with_class(root, 'band'))} bands and {len(with_class(root, 'mark'))} marks, "
                        "expected none")
    return [f"{path}: {f}" for f in failures], root


def main():
    parser = argparse.ArgumentParser(description="Check an mdbench SVG chart's structure.")
    parser.add_argument("files", nargs="+", metavar="file")
    parser.add_argument("--series", action="append", default=[], metavar="LABEL")
    parser.add_argument("--points", action="append", default=[], metavar="LABEL=N")
    parser.add_argument("--text", action="append", default=[], metavar="STRING")
    parser.add_argument("--peak", metavar="LABEL")
    parser.add_argument("--saturation", metavar="LABEL")
    parser.add_argument("--panels", type=int, metavar="N")
    parser.add_argument("--reference", action="store_true")
    parser.add_argument("--no-text", action="append", default=[], metavar="STRING")
    parser.add_argument("--sum-of-ranks", action="store_true")
    parser.add_argument("--same-looks", action="store_true")
    parser.add_argument("--visible", action="store_true")
    parser.add_argument("--band", action="append", default=[], metavar="FROM,TO,TOL")
    parser.add_argument("--mark", action="append", default=[], metavar="X,TOL")
    parser.add_argument("--no-marks", action="store_true")
    args = parser.parse_args()
    failures, roots = [], []
    for path in args.files:
        found, root = check(args, path)
        failures += found
        if root is not None:
            roots.append((path, root))
    if args.same_looks:
        failures += check_looks(roots)
    for f in failures:
        print(f"check_svg: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
