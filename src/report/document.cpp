// The report document's renderings (document.hpp): the text for the console, the Markdown for files.
#include "mdbench/report/document.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace mdbench {
namespace {

std::string escapeMarkdown(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|' || c == '*' || c == '_' || c == '`' || c == '[' || c == ']' || c == '<' || c == '>')
      out += '\\';
    out += c;
  }
  return out;
}

// ---- Text ----

std::string tableText(const DocTable& t) {
  std::vector<std::size_t> width(t.header.size(), 0);
  const auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  };
  measure(t.header);
  for (const auto& row : t.rows) measure(row);
  std::string out;
  const auto line = [&](const std::vector<std::string>& row) {
    std::string text = "  ";
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::size_t w = i < width.size() ? width[i] : 0;
      text += i == 0 ? fmt::format("{:<{}}", row[i], w) : fmt::format("  {:>{}}", row[i], w);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  line(t.header);
  for (const auto& row : t.rows) line(row);
  return out;
}

std::string blockText(const DocBlock& b) {
  if (b.prose) return {};
  std::string out;
  switch (b.kind) {
    case DocBlockKind::kSubheading:
      for (const std::string& line : b.lines) out += "  " + line + "\n";
      break;
    case DocBlockKind::kList:
      for (const std::string& line : b.lines) out += "  " + line + "\n";
      break;
    case DocBlockKind::kLines:
      for (const std::string& line : b.lines) out += "    " + line + "\n";
      break;
    case DocBlockKind::kTable:
      out = tableText(b.table);
      break;
    case DocBlockKind::kNotes:
      for (const DocNote& n : b.notes) {
        out += n.label.empty() ? fmt::format("note: {}\n", n.text)
                               : fmt::format("note ({}): {}\n", n.label, n.text);
      }
      break;
    case DocBlockKind::kParagraph:  // prose and charts: not in the text
    case DocBlockKind::kChart:
      break;
  }
  return out;
}

// ---- Markdown ----

std::string tableMarkdown(const DocTable& t) {
  std::string out = "|";
  for (const std::string& h : t.header) out += " " + escapeMarkdown(h) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.header.size(); ++i) out += i == 0 ? "---|" : "---:|";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const std::string& cell : row) out += " " + escapeMarkdown(cell) + " |";
    out += "\n";
  }
  return out;
}

// Lines kept as they are (aligned columns, a source's own text): a fence longer than any run of backticks
// in them, so that nothing in a source's name can close it.
std::string fenced(const std::vector<std::string>& lines) {
  std::size_t longest = 0;
  for (const std::string& line : lines) {
    std::size_t run = 0;
    for (const char c : line) {
      run = c == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  std::string out = fence + "text\n";
  for (const std::string& line : lines) out += line + "\n";
  return out + fence + "\n";
}

std::string firstLine(const DocBlock& b) { return b.lines.empty() ? std::string() : b.lines.front(); }

std::string blockMarkdown(const DocBlock& b) {
  std::string out;
  switch (b.kind) {
    case DocBlockKind::kSubheading:
      return "### " + escapeMarkdown(firstLine(b)) + "\n\n";
    case DocBlockKind::kParagraph:
      for (const DocSpan& s : b.spans)
        out += s.strong ? "**" + escapeMarkdown(s.text) + "**" : escapeMarkdown(s.text);
      return out + "\n\n";
    case DocBlockKind::kList:
      for (const std::string& line : b.lines) out += "- " + escapeMarkdown(line) + "\n";
      return out + "\n";
    case DocBlockKind::kTable:
      return tableMarkdown(b.table) + "\n";
    case DocBlockKind::kLines:
      return fenced(b.lines) + "\n";
    case DocBlockKind::kChart:
      // A chart embedded as SVG, and with --png a link to the PNG beside it.
      out = fmt::format("![{}]({}.svg)", escapeMarkdown(firstLine(b)), b.chart_stem);
      if (b.chart_png) out += fmt::format(" ([PNG]({}.png))", b.chart_stem);
      return out + "\n\n";
    case DocBlockKind::kNotes:
      for (const DocNote& n : b.notes) {
        out += n.label.empty() ? fmt::format("- {}\n", escapeMarkdown(n.text))
                               : fmt::format("- {}: {}\n", escapeMarkdown(n.label), escapeMarkdown(n.text));
      }
      return out;
  }
  return out;
}

DocBlock block(DocBlockKind kind) {
  DocBlock b;
  b.kind = kind;
  return b;
}

}  // namespace

DocBlock docSubheading(std::string text) {
  DocBlock b = block(DocBlockKind::kSubheading);
  b.lines.push_back(std::move(text));
  return b;
}

DocBlock docParagraph(std::vector<DocSpan> spans) {
  DocBlock b = block(DocBlockKind::kParagraph);
  b.spans = std::move(spans);
  b.prose = true;
  return b;
}

DocBlock docList(std::vector<std::string> items, bool prose) {
  DocBlock b = block(DocBlockKind::kList);
  b.lines = std::move(items);
  b.prose = prose;
  return b;
}

DocBlock docTable(DocTable table) {
  DocBlock b = block(DocBlockKind::kTable);
  b.table = std::move(table);
  return b;
}

DocBlock docLines(std::vector<std::string> lines) {
  DocBlock b = block(DocBlockKind::kLines);
  b.lines = std::move(lines);
  return b;
}

DocBlock docChart(std::string alt, std::string stem, bool png) {
  DocBlock b = block(DocBlockKind::kChart);
  b.lines.push_back(std::move(alt));
  b.chart_stem = std::move(stem);
  b.chart_png = png;
  b.prose = true;
  return b;
}

DocBlock docNotes(std::vector<DocNote> notes) {
  DocBlock b = block(DocBlockKind::kNotes);
  b.notes = std::move(notes);
  return b;
}

std::string textHeading(const DocSection& section) { return section.text_heading; }

std::string markdownHeading(const DocSection& section) { return "## " + escapeMarkdown(section.heading); }

std::string renderText(const ReportDocument& doc) {
  std::string out;
  for (const DocBlock& b : doc.preface) out += blockText(b);
  for (const DocSection& s : doc.sections) {
    const std::string heading = textHeading(s);
    if (!heading.empty()) out += heading + "\n";
    for (const DocBlock& b : s.blocks) out += blockText(b);
    if (!heading.empty()) out += "\n";
  }
  if (out.empty()) out = "no results in the files given\n";
  return out;
}

std::string renderMarkdown(const ReportDocument& doc) {
  std::string out;
  if (!doc.title.empty()) out += "# " + escapeMarkdown(doc.title) + "\n\n";
  for (const DocBlock& b : doc.preface) out += blockMarkdown(b);
  for (const DocSection& s : doc.sections) {
    out += markdownHeading(s) + "\n\n";
    for (const DocBlock& b : s.blocks) out += blockMarkdown(b);
  }
  return out;
}

}  // namespace mdbench
