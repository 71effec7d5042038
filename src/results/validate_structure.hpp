// The structural pass of `mdbench validate` (results file against the compiled-in schema), and the
// Problem both passes throw. Private to src/results/validate.cpp and src/results/validate_structure.cpp.
#pragma once

#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

namespace mdbench::validation {

// Where (an object path, or "" for the file itself) and what is wrong.
struct Problem {
  std::string object;
  std::string what;
};

[[noreturn]] inline void fail(std::string object, std::string what) {
  throw Problem{std::move(object), std::move(what)};
}

// Checks the open results file against results-schema/schema.json: the root's
// schema name and version, then every object the schema lists. Throws a Problem at the first thing wrong;
// objects and attributes the schema does not list are only added to `notes`.
void checkStructure(hid_t file, std::vector<std::string>& notes);

}  // namespace mdbench::validation
