// The type checks' listings' records (type_listings.hpp).
#include "mdbench/backend/type_listings.hpp"

#include <cstdlib>

namespace mdbench {

// One record per directory: the key, '\0', "1" (check every name) or "0", '\0', the suspects' count, '\0',
// then each suspect and a '\0' (no name holds a NUL).
void TypeListings::append(std::string& out, std::string_view key, const Listed& listed) {
  out.append(key);
  out += '\0';
  out += listed.check_all ? '1' : '0';
  out += '\0';
  out += std::to_string(listed.suspects.size());
  out += '\0';
  for (const std::string& name : listed.suspects) {
    out += name;
    out += '\0';
  }
}

void TypeListings::adopt(std::string_view records) {
  const auto next = [&records]() {
    const std::size_t end = records.find('\0');
    const std::string_view field = records.substr(0, end);
    records.remove_prefix(end == std::string_view::npos ? records.size() : end + 1);
    return field;
  };
  while (!records.empty()) {
    Listed& view = adopted_[std::string(next())];
    view.check_all = view.check_all || next() == "1";
    const std::uint64_t count = std::strtoull(std::string(next()).c_str(), nullptr, 10);
    for (std::uint64_t k = 0; k < count && !records.empty(); ++k) view.suspects.emplace(next());
  }
}

}  // namespace mdbench
