// mdbench_docgen: writes the man page and the bash completion at build time, from the option tables.
// Usage: mdbench_docgen VERSION DATE MAN_OUT COMPLETION_OUT
#include <fmt/format.h>

#include <fstream>
#include <string>

#include "mdbench/cli/manpage.hpp"

namespace {

bool writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  out << text;
  out.close();
  if (!out) fmt::print(stderr, "mdbench_docgen: error: cannot write {}\n", path);
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    fmt::print(stderr, "usage: mdbench_docgen VERSION DATE MAN_OUT COMPLETION_OUT\n");
    return 2;
  }
  const mdbench::DocSet docs = mdbench::collectDocs(argv[1], argv[2]);
  const bool man = writeFile(argv[3], mdbench::manPage(docs));
  const bool completion = writeFile(argv[4], mdbench::bashCompletion(docs));
  return man && completion ? 0 : 1;
}
