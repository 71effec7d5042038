#!/usr/bin/python3
"""Checks a chart written by `mdbench report` (src/report/svg_chart.cpp) through the structure it promises.

usage: check_svg.py FILE.svg [--series LABEL]... [--points LABEL=N]... [--text STRING]...
                    [--peak LABEL] [--saturation LABEL] [--panels N] [--reference]

Always checked: the file is XML with an <svg> root in the SVG namespace, a viewBox, and no non-finite
number in any geometry attribute. Then, as asked:
  --series LABEL      a <g class="series" data-series="LABEL"> exists
  --points LABEL=N    the series groups labelled LABEL hold N elements of class "point" in all
                      (summed over panels for a panel chart)
  --text STRING       some <text> element contains STRING
  --peak LABEL        a series group labelled LABEL contains an element of class "peak"
  --saturation LABEL  a series group labelled LABEL contains an element of class "saturation"
  --panels N          exactly N <g class="panel"> elements
  --reference         an element of class "reference" exists
Prints one line per failed check and exits 1 if any failed, 0 otherwise.
"""
import argparse
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
    return [g for g in with_class(root, "series") if g.get("data-series") == label]


def check(args):
    try:
        root = ET.parse(args.file).getroot()
    except (ET.ParseError, OSError) as e:
        return [f"{args.file}: not readable XML: {e}"]
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
    return failures


def main():
    parser = argparse.ArgumentParser(description="Check an mdbench SVG chart's structure.")
    parser.add_argument("file")
    parser.add_argument("--series", action="append", default=[], metavar="LABEL")
    parser.add_argument("--points", action="append", default=[], metavar="LABEL=N")
    parser.add_argument("--text", action="append", default=[], metavar="STRING")
    parser.add_argument("--peak", metavar="LABEL")
    parser.add_argument("--saturation", metavar="LABEL")
    parser.add_argument("--panels", type=int, metavar="N")
    parser.add_argument("--reference", action="store_true")
    failures = check(parser.parse_args())
    for f in failures:
        print(f"check_svg: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
