// CSV quoting for `mdbench export`, written once for its tables (runs, imports, server counters).
#pragma once

#include <string>
#include <string_view>

namespace mdbench::results {

// RFC 4180: a field with a comma, a double quote, CR or LF is quoted, its quotes doubled.
inline void appendCsvField(std::string& line, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    line += field;
    return;
  }
  line += '"';
  for (const char c : field) {
    if (c == '"') line += '"';
    line += c;
  }
  line += '"';
}

}  // namespace mdbench::results
