// mdbench(1) in man(7) roff, from the option tables; and the subcommands' --help read back into tables.
#include "mdbench/cli/manpage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "mdbench/report/check.hpp"
#include "tools.hpp"

namespace mdbench {
namespace {

using ToolEntry = int (*)(const std::vector<std::string>&);

// The subcommands app.cpp dispatches; the test checks this list against the names --help gives.
const std::vector<std::pair<std::string, ToolEntry>>& tools() {
  static const std::vector<std::pair<std::string, ToolEntry>> kTools = {
      {"validate", runValidate}, {"export", runExport}, {"import", runImport},
      {"report", runReport},     {"check", runCheck},   {"clean", runClean}};
  return kTools;
}

// Swaps std::cout's buffer for a string's while alive: the subcommands print their help there.
class CoutCapture {
 public:
  CoutCapture() : previous_(std::cout.rdbuf(text_.rdbuf())) {}
  ~CoutCapture() { std::cout.rdbuf(previous_); }
  CoutCapture(const CoutCapture&) = delete;
  CoutCapture& operator=(const CoutCapture&) = delete;
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::streambuf* previous_;
};

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(' ');
  return std::string(text.substr(first, last - first + 1));
}

bool isOptionLine(const std::string& line) { return line.rfind("  -", 0) == 0; }

// Boost pads every option's names to one column and starts descriptions there; a name too long for it puts
// its description on the next line, indented to the column. So the column is the smallest position where
// text follows a run of spaces after the names, or where an indented continuation starts.
std::size_t descriptionColumn(const std::vector<std::string>& lines, std::size_t begin, std::size_t end) {
  std::size_t column = std::string::npos;
  for (std::size_t i = begin; i < end; ++i) {
    const std::string& line = lines[i];
    const std::size_t start = isOptionLine(line) ? line.find("  ", 2) : 0;
    if (start == std::string::npos) continue;
    const std::size_t text = line.find_first_not_of(' ', start);
    if (text != std::string::npos) column = std::min(column, text);
  }
  return column;
}

// "-f [ --format ] json|csv", "--force", "--file arg".
OptionDoc parseOptionNames(const std::string& left) {
  OptionDoc doc;
  std::string rest = trim(left);
  if (rest.rfind("--", 0) != 0 && rest.size() > 1) {
    doc.short_name = rest.substr(1, 1);
    const std::size_t open = rest.find("[ --");
    const std::size_t close = rest.find(" ]");
    if (open != std::string::npos && close != std::string::npos) {
      doc.long_name = rest.substr(open + 4, close - open - 4);
      rest = trim(rest.substr(close + 2));
    } else {
      rest = trim(rest.substr(2));
    }
  } else {
    const std::size_t space = rest.find(' ');
    doc.long_name = rest.substr(2, space == std::string::npos ? std::string::npos : space - 2);
    rest = space == std::string::npos ? std::string() : trim(rest.substr(space));
  }
  doc.value_name = rest;
  return doc;
}

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

SubcommandDoc parseSubcommandHelp(std::string name, const std::string& help) {
  SubcommandDoc doc;
  doc.name = std::move(name);
  const std::vector<std::string> lines = splitLines(help);
  std::size_t i = 0;
  std::string caption;
  for (; i < lines.size() && !isOptionLine(lines[i]); ++i)
    caption += (caption.empty() ? "" : " ") + trim(lines[i]);
  if (!caption.empty() && caption.back() == ':') caption.pop_back();
  const std::size_t split = caption.find(": ");
  doc.usage = caption.substr(0, split);
  doc.purpose = split == std::string::npos ? std::string() : caption.substr(split + 2);

  std::size_t end = i;
  while (end < lines.size() && (isOptionLine(lines[end]) || lines[end].rfind("    ", 0) == 0)) ++end;
  const std::size_t column = descriptionColumn(lines, i, end);
  std::vector<OptionDoc> options;
  for (; i < end; ++i) {
    const std::string& line = lines[i];
    if (isOptionLine(line)) {
      // Names running past the column (no space before it) have their description on the next line.
      const bool overflow = column < line.size() && line[column - 1] != ' ';
      const std::size_t cut = overflow ? line.size() : std::min(column, line.size());
      options.push_back(parseOptionNames(line.substr(0, cut)));
      options.back().description = trim(line.substr(cut));
    } else if (!options.empty()) {
      std::string& description = options.back().description;
      description += (description.empty() ? "" : " ") + trim(line);
    }
  }
  for (OptionDoc& option : options) {
    // Boost names a value "arg" when the program gave it no name: only the positional words are left so.
    if (option.value_name == "arg") {
      option.value_name = upper(option.long_name);
      doc.operands.push_back(std::move(option));
    } else {
      doc.options.push_back(std::move(option));
    }
  }
  while (i < lines.size() && trim(lines[i]).empty()) ++i;
  doc.notes.assign(lines.begin() + static_cast<std::ptrdiff_t>(i), lines.end());
  while (!doc.notes.empty() && trim(doc.notes.back()).empty()) doc.notes.pop_back();
  return doc;
}

std::string subcommandHelp(std::string_view name) {
  for (const auto& [tool, run] : tools()) {
    if (tool != name) continue;
    CoutCapture capture;
    run({"--help"});
    return capture.text();
  }
  return {};
}

std::vector<SubcommandDoc> subcommandDocs() {
  std::vector<SubcommandDoc> docs;
  for (const auto& entry : tools())
    docs.push_back(parseSubcommandHelp(entry.first, subcommandHelp(entry.first)));
  return docs;
}

std::vector<std::string> subcommandNamesInHelp(const std::string& help) {
  // "Subcommands: validate|export|import|report|check on results files, clean DIR for leftovers (--help).":
  // the first word of each comma-separated part, split at '|'.
  std::vector<std::string> names;
  constexpr std::string_view kLead = "Subcommands:";
  for (const std::string& line : splitLines(help)) {
    if (line.rfind(kLead, 0) != 0) continue;
    std::istringstream parts(line.substr(kLead.size()));
    for (std::string part; std::getline(parts, part, ',');) {
      std::istringstream words(part);
      std::string first;
      words >> first;
      std::istringstream alternatives(first);
      for (std::string name; std::getline(alternatives, name, '|');) names.push_back(name);
    }
  }
  return names;
}

DocSet collectDocs(std::string version, std::string date) {
  return DocSet{mainOptionDocs(), presetDocs(), subcommandDocs(), std::move(version), std::move(date)};
}

std::string roffEscape(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (text[i] == '\\') {
      out += "\\e";
    } else if (text[i] == '-') {
      out += "\\-";
    } else if (byte < 0x80) {
      out += text[i];
    } else {
      // UTF-8 to \[uXXXX], so that groff needs no input encoding.
      const int extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1;
      unsigned code = byte & (0x3Fu >> extra);
      for (int k = 0; k < extra && i + 1 < text.size(); ++k) code = (code << 6) | (text[++i] & 0x3Fu);
      out += fmt::format("\\[u{:04X}]", code);
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

namespace {

std::string oneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// ".TP" head: \fB\-n\fR, \fB\-\-items\fR \fIN\fR
std::string optionHead(const OptionDoc& option) {
  std::string head;
  if (!option.short_name.empty()) head += fmt::format("\\fB{}\\fR, ", roffEscape("-" + option.short_name));
  head += fmt::format("\\fB{}\\fR", roffEscape("--" + option.long_name));
  std::string value = option.value_name;
  if (!value.empty() && value.front() == '[' && value.back() == ']')
    value = value.substr(1, value.size() - 2);
  if (value.empty()) return head;
  if (option.value_optional) return head + fmt::format(" [\\fI{}\\fR]", roffEscape(value));
  return head + fmt::format(" \\fI{}\\fR", roffEscape(value));
}

void appendOptions(std::string& man, const std::vector<OptionDoc>& options) {
  for (const OptionDoc& option : options) {
    man += ".TP\n" + optionHead(option) + "\n" + roffEscape(oneLine(option.description));
    if (option.repeatable) man += " (repeatable)";
    man += "\n";
  }
}

// "mdbench validate FILE...": the command in bold, its arguments as given.
std::string usageLine(const std::string& usage) {
  const std::size_t second_space = usage.find(' ', usage.find(' ') + 1);
  const std::string command = usage.substr(0, second_space);
  const std::string rest = second_space == std::string::npos ? std::string() : usage.substr(second_space);
  return fmt::format("\\fB{}\\fR{}", roffEscape(command), roffEscape(rest));
}

// A subcommand's text after its options: lines at the margin are filled into paragraphs; "  TERM  text"
// rows (continued on lines indented further) become tagged paragraphs.
void appendNotes(std::string& man, const std::vector<std::string>& notes) {
  bool in_paragraph = false;
  for (const std::string& line : notes) {
    const std::string text = trim(line);
    if (text.empty()) {
      in_paragraph = false;
    } else if (line.rfind("    ", 0) == 0) {
      man += roffEscape(text) + "\n";
    } else if (line.rfind("  ", 0) == 0) {
      const std::size_t gap = text.find("  ");
      man += ".TP\n" + roffEscape(text.substr(0, gap)) + "\n";
      if (gap != std::string::npos) man += roffEscape(trim(text.substr(gap))) + "\n";
      in_paragraph = false;
    } else {
      if (!in_paragraph) man += ".PP\n";
      man += roffEscape(text) + "\n";
      in_paragraph = true;
    }
  }
}

void appendHeader(std::string& man, const DocSet& docs) {
  man += ".\\\" mdbench(1): generated by mdbench_docgen from the option tables; do not edit.\n";
  man += fmt::format(".TH MDBENCH 1 \"{}\" \"mdbench {}\" \"User Commands\"\n", docs.date, docs.version);
  man += ".SH NAME\nmdbench \\- MPI metadata benchmark for parallel file systems\n";
  man += ".SH SYNOPSIS\n";
  man += "\\fBmpiexec \\-n\\fR \\fIRANKS\\fR \\fBmdbench\\fR [\\fIOPTIONS\\fR]\n.br\n";
  man += "\\fBmdbench\\fR [\\fIOPTIONS\\fR]\n";
  for (const SubcommandDoc& sub : docs.subcommands) man += ".br\n" + usageLine(sub.usage) + "\n";
  man += R"(.SH DESCRIPTION
\fBmdbench\fR measures file system metadata performance in the manner of \fBmdtest\fR.
Every MPI rank creates, stats, reads, renames and removes its own files and directories in one shared tree
of directories or in a tree per rank.
Each phase runs between barriers on a monotonic clock and is reported as the aggregate and per\-rank rate,
with latency percentiles.
Item counts are exact, failed operations are counted apart and never in a rate, and the exit status says
whether anything failed.
.PP
Every run is recorded in an HDF5 results file; the subcommands below validate, export, import, report and
check such files, and clean up after killed jobs.
They run on one process.
.PP
Short options are mdtest's letters with mdtest's meaning.
Options that are not known are errors, never ignored.
)";
}

void appendMainOptions(std::string& man, const DocSet& docs) {
  man += ".SH OPTIONS\n";
  for (const OptionGroupDoc& group : docs.groups) {
    man += fmt::format(".SS \"{}\"\n", roffEscape(group.caption));
    appendOptions(man, group.options);
  }
  man += ".SS Presets\n";
  man +=
      "\\fB\\-\\-preset\\fR \\fINAME\\fR reads these options before the others; later options replace their "
      "values but cannot turn their switches off.\n";
  for (const PresetDoc& preset : docs.presets) {
    man += ".TP\n\\fB" + roffEscape(preset.name) + "\\fR\n" + roffEscape(preset.options) + "\n";
  }
}

void appendSubcommands(std::string& man, const DocSet& docs) {
  man += ".SH SUBCOMMANDS\n";
  for (const SubcommandDoc& sub : docs.subcommands) {
    man += fmt::format(".SS \"mdbench {}\"\n", roffEscape(sub.name));
    man += usageLine(sub.usage) + "\n.br\n" + roffEscape(sub.purpose) + "\n";
    for (const OptionDoc& operand : sub.operands) {
      man += fmt::format(
          ".PP\nEach word that is not an option is a \\fI{}\\fR: {} (\\fB{}\\fR \\fI{}\\fR says the same).\n",
          roffEscape(operand.value_name), roffEscape(operand.description),
          roffEscape("--" + operand.long_name), roffEscape(operand.value_name));
    }
    appendOptions(man, sub.options);
    appendNotes(man, sub.notes);
  }
}

void appendReference(std::string& man) {
  man += R"(.SH EXIT STATUS
.TP
.B 0
The run finished and every operation succeeded.
.TP
.B 1
An operation failed (each rank's first failure is printed with its path and errno), the target directory
could not be used, or something the run made could not be removed.
.TP
.B 2
The options were wrong (every problem is listed at once) or the results file exists; nothing on the file
system was touched.
.TP
.B 3
\fBcheck\fR only: a rule did not hold.
.TP
.B 128+N
Stopped by signal \fIN\fR: 130 after SIGINT, 143 after SIGTERM, 129 after SIGHUP, 131 after SIGQUIT,
141 after SIGPIPE (or a standard output that went away).
The phase in progress ends at its barrier, is recorded as interrupted, and what the run made is removed.
Rank 0's last line on standard error is \fBmdbench: exit status\fR \fIN\fR (\fIwhat it means\fR): a job
script takes the status from it, since a launcher's own status after a signal cannot be trusted.
.PP
The subcommands: \fBvalidate\fR 0 when every file is valid, 1 when one is not; \fBimport\fR and
\fBreport\fR 0 when done, 1 when a file cannot be read, parsed or written; \fBcheck\fR 0 when every rule
holds, 3 when one fails, 1 when a results file cannot be read; \fBclean\fR 0 when everything found was
removed, 1 when something stays.
All of them exit with 2 on bad usage.
.SH ENVIRONMENT
.TP
.B SLURM_JOB_ID\fR, \fBSLURM_JOB_NAME
Inside a Slurm job: recorded in the results file; the job id becomes part of the default results file name.
.TP
.B PBS_JOBID\fR, \fBPBS_JOBNAME
The same for PBS, read when no Slurm job id is set.
.TP
.B MDBENCH_CLOCK
\fBsteady\fR times operations with CLOCK_MONOTONIC even where the CPU's time\-stamp counter could be read
directly.
.TP
.B MDBENCH_FAKE_HOSTS
A test hook: one host name per rank, comma\-separated, replacing the names the ranks report.
Never for measurements.
.SH FILES
.TP
.I mdbench\-<UTC time>[\-<job id>].h5
The results file a run writes in the current directory when \fB\-o\fR is not given.
.TP
.I DIR/mdbench.iter.<i>/
What one iteration makes; removed at the end unless \fB\-\-keep\fR.
Without \fB\-d\fR the run works in a new \fImdbench.<time>.<pid>\fR in the current directory.
.TP
.I .mdbench\-run
The mark in every directory a run makes to work in.
Later jobs of a split workload and \fBmdbench clean\fR enter only directories that carry it.
.TP
.I /usr/share/mdbench/jobscripts/
Slurm and PBS job scripts, set by environment variables (see the README there).
.TP
.I /usr/share/mdbench/results\-schema/
The results file's schema (JSON) and its description.
.SH EXAMPLES
Files only, a tree per rank, 64 ranks:
.PP
.RS
.nf
mpiexec \-n 64 mdbench \-d /lustre/scratch/md \-n 10000 \-u \-F
.fi
.RE
.PP
A tree of depth 2 and branching 8, items in the leaves, 3901 bytes written and read per file:
.PP
.RS
.nf
mpiexec \-n 64 mdbench \-d /gpfs/md \-n 20000 \-z 2 \-b 8 \-L \-w 3901 \-e 3901
.fi
.RE
.PP
A scaling sweep over 1, 2, 4, ... 64 ranks, then a report and an acceptance gate:
.PP
.RS
.nf
mpiexec \-n 64 mdbench \-\-sweep pow2 \-d /lustre/scratch/md \-n 10000 \-o sweep.h5
mdbench report sweep.h5 \-d report/
mdbench check sweep.h5 \-\-require 'file\-create>=50000' \-\-junit acceptance.xml
.fi
.RE
.PP
Remove what a killed job left:
.PP
.RS
.nf
mdbench clean \-\-dry\-run /lustre/scratch/md
mdbench clean /lustre/scratch/md
.fi
.RE
.SH SEE ALSO
.BR mpiexec (1),
.BR mdtest (1)
)";
}

}  // namespace

std::string manPage(const DocSet& docs) {
  std::string man;
  appendHeader(man, docs);
  appendMainOptions(man, docs);
  appendSubcommands(man, docs);
  appendReference(man);
  return man;
}

}  // namespace mdbench
