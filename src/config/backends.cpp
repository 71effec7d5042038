// The backend rows' lookups, and the check that a backend's options go with it: backends.hpp.
#include "mdbench/config/backends.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "config_table.hpp"

namespace mdbench {

std::optional<Api> apiNamed(std::string_view name) {
  const auto same = [name](std::string_view row_name) {
    return std::equal(row_name.begin(), row_name.end(), name.begin(), name.end(), [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
  };
  for (const BackendRow& row : kBackendRows) {
    if (same(row.name)) return row.api;
  }
  return std::nullopt;
}

std::string apiNames(std::string_view separator, std::string_view last) {
  std::string names;
  for (std::size_t i = 0; i < kBackendRows.size(); ++i) {
    if (i > 0) names += i + 1 == kBackendRows.size() ? last : separator;
    names += kBackendRows[i].name;
  }
  return names;
}

const BackendRow* optionBackend(std::string_view long_name) {
  for (const BackendRow& row : kBackendRows) {
    if (long_name.size() > row.prefix.size() && long_name.starts_with(row.prefix) &&
        long_name[row.prefix.size()] == '.') {
      return &row;
    }
  }
  return nullptr;
}

std::vector<BackendOptionValue> backendOptionValues(const Config& config) {
  std::vector<BackendOptionValue> values;
  for (const config_detail::OptionRow& option : config_detail::kOptionRows) {
    const BackendRow* owner = optionBackend(option.long_name);
    if (owner == nullptr || owner->api != config.api) continue;
    if (option.land.get != nullptr)
      values.push_back({std::string(option.long_name), option.land.get(config)});
    if (option.land.get_text != nullptr) {
      values.push_back({std::string(option.long_name), option.land.get_text(config)});
    }
  }
  return values;
}

bool setBackendOption(Config& config, std::string_view name,
                      const std::variant<std::uint64_t, std::string>& value) {
  for (const config_detail::OptionRow& option : config_detail::kOptionRows) {
    if (option.long_name != name || optionBackend(name) == nullptr) continue;
    if (const std::string* text = std::get_if<std::string>(&value)) {
      if (option.land.get_text == nullptr) return false;
      option.land.text(config, *text);
      return true;
    }
    if (option.land.get == nullptr) return false;
    const std::uint64_t number = std::get<std::uint64_t>(value);
    if (option.land.on != nullptr && number != 0) option.land.on(config);
    if (option.land.number != nullptr) option.land.number(config, number);
    return true;
  }
  return false;
}

std::vector<BackendPlaceOption> backendPlaceOptions() {
  std::vector<BackendPlaceOption> places;
  for (const config_detail::OptionRow& option : config_detail::kOptionRows) {
    if (optionBackend(option.long_name) == nullptr || option.kind != config_detail::OptionKind::kText)
      continue;
    places.push_back({option.long_name, option.value_name, option.help});
  }
  return places;
}

namespace config_detail {

void checkBackendOptions(const RawOptions& raw, Api api, std::vector<std::string>& errors) {
  for (const OptionRow& option : kOptionRows) {
    const BackendRow* owner = optionBackend(option.long_name);
    if (owner == nullptr || !raw[option].given || owner->api == api) continue;
    errors.push_back(fmt::format("--{} is an option of -a {}, and this run's backend is {} (-a {} for it)",
                                 option.long_name, owner->name, apiName(api), owner->name));
  }
}

}  // namespace config_detail
}  // namespace mdbench
