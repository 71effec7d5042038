// The report as one document, built once (report.hpp's reportDocument) and rendered as text for the console
// and as Markdown for `report -d`/`--markdown`. A section one rendering has, every rendering has: the
// renderers walk the same sections and blocks, and differ only in how each kind of block looks.
//
// The text is the terse rendering: it leaves out prose (the document's title, its explanations and the
// charts, which a terminal cannot show) and keeps every heading, table, list, block of lines and note.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mdbench {

// A table: the first column left-aligned (a count, a phase), the others right-aligned (numbers).
struct DocTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// A run of text in a paragraph; strong text is set in bold where the rendering can.
struct DocSpan {
  std::string text;
  bool strong = false;
};

// A note on a configuration (label set) or on the whole report.
struct DocNote {
  std::string label;
  std::string text;
};

enum class DocBlockKind : std::uint8_t {
  kSubheading,  // a run's title within a section (lines[0])
  kParagraph,   // prose (spans); never in the text
  kList,        // one item per line (lines)
  kTable,       // table
  kLines,       // lines kept as they are, aligned columns (lines)
  kChart,       // a chart file beside the document (chart_stem + ".svg"; alt in lines[0]); never in the text
  kNotes,       // notes
};

struct DocBlock {
  DocBlockKind kind = DocBlockKind::kParagraph;
  std::vector<std::string> lines;
  std::vector<DocSpan> spans;
  DocTable table;
  std::vector<DocNote> notes;
  std::string chart_stem;
  bool chart_png = false;  // a PNG of the chart lies beside its SVG (--png)
  // Shown only where prose is (a list of the configurations, say): left out of the text.
  bool prose = false;
};

struct DocSection {
  std::string heading;  // "Throughput over time"
  // The text's heading line, "" for none ("First-done and last-done rates (...):" where the Markdown has
  // the throughput over time: the text has only the rates, not the charts).
  std::string text_heading;
  std::vector<DocBlock> blocks;
};

struct ReportDocument {
  std::string title;              // "mdbench report"
  std::vector<DocBlock> preface;  // before the first section
  std::vector<DocSection> sections;
};

// Block builders, so that a block's kind and its fields are set together.
DocBlock docSubheading(std::string text);
DocBlock docParagraph(std::vector<DocSpan> spans);
DocBlock docList(std::vector<std::string> items, bool prose = false);
DocBlock docTable(DocTable table);
DocBlock docLines(std::vector<std::string> lines);
DocBlock docChart(std::string alt, std::string stem, bool png);
DocBlock docNotes(std::vector<DocNote> notes);

// The renderings. The text: headings at the margin, everything under them indented, a blank line after
// each headed section; "no results in the files given" when nothing is left. The Markdown: "#" for the
// title, "##" for sections, "###" for subheadings, tables as pipe tables, lines in a fence no backtick run
// of theirs can close, charts as images (with a link to the PNG), and every text escaped.
std::string renderText(const ReportDocument& doc);
std::string renderMarkdown(const ReportDocument& doc);

// A section's heading line as each rendering shows it ("" where the text has none).
std::string textHeading(const DocSection& section);
std::string markdownHeading(const DocSection& section);

}  // namespace mdbench
