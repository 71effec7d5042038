// mdbench(1) in man(7) roff, from the option rows and the table of subcommands.
#include "mdbench/cli/manpage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "mdbench/cli/subcommands.hpp"

namespace mdbench {
namespace {

namespace po = boost::program_options;

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// An option of a subcommand as Boost holds it. Boost names the value "arg" when the program gave it no name:
// only the words that are not options are left so.
OptionDoc subcommandOption(const po::option_description& option, bool& operand) {
  OptionDoc doc;
  doc.long_name = option.long_name();
  const std::string short_name = option.canonical_display_name(po::command_line_style::allow_dash_for_short);
  if (short_name.size() == 2 && short_name[0] == '-') doc.short_name = short_name.substr(1);
  if (option.semantic()->max_tokens() > 0) doc.value_name = option.semantic()->name();
  doc.description = option.description();
  operand = doc.value_name == "arg";
  if (operand) doc.value_name = upper(doc.long_name);
  return doc;
}

// The notes' lines, without the blank lines before and after them.
std::vector<std::string> noteLines(std::string_view notes) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(notes)};
  for (std::string line; std::getline(in, line);) {
    if (!lines.empty() || !line.empty()) lines.push_back(line);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace

SubcommandDoc subcommandDoc(const Subcommand& sub) {
  SubcommandDoc doc;
  doc.name = sub.name;
  doc.usage = sub.usage;
  doc.purpose = sub.summary;
  std::replace(doc.purpose.begin(), doc.purpose.end(), '\n', ' ');
  const po::options_description options = sub.options();
  for (const auto& option : options.options()) {
    bool operand = false;
    OptionDoc option_doc = subcommandOption(*option, operand);
    (operand ? doc.operands : doc.options).push_back(std::move(option_doc));
  }
  doc.notes = noteLines(sub.notes);
  return doc;
}

std::vector<SubcommandDoc> subcommandDocs() {
  std::vector<SubcommandDoc> docs;
  for (const Subcommand& sub : subcommands()) docs.push_back(subcommandDoc(sub));
  return docs;
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

std::string trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(' ');
  return std::string(text.substr(first, last - first + 1));
}

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

void appendExitStatus(std::string& man) {
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
.B 4
Every operation succeeded, but a \fB\-\-server\-stats\fR source could not be read during the run: its
counters are incomplete (the results file says which source and phase).
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
)";
}

void appendEnvironmentAndFiles(std::string& man) {
  man += R"(.SH ENVIRONMENT
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
)";
}

void appendExamples(std::string& man) {
  man += R"(.SH EXAMPLES
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
  appendExitStatus(man);
  appendEnvironmentAndFiles(man);
  appendExamples(man);
  return man;
}

}  // namespace mdbench
