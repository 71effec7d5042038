// The Boost table generated from the option rows (config_table.hpp), and the text options' checks.
#include "config_table.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "config_presets.hpp"
#include "config_values.hpp"

namespace mdbench::config_detail {
namespace {

// The semantic Boost parses a row's occurrences with: it tells the tokenizer whether the option takes a
// value (and whether it may be left out, or repeated), and stores each occurrence into slot.
po::value_semantic* semanticOf(const OptionRow& option, RawValue& slot) {
  switch (option.kind) {
    case OptionKind::kSwitch:
      return po::bool_switch()->notifier([&slot](bool) { slot.given = true; });
    case OptionKind::kCounter:  // Boost's "composing": occurrences combine rather than conflict
      return po::bool_switch()->composing()->notifier([&slot](bool) {
        slot.given = true;
        ++slot.count;
      });
    case OptionKind::kOptionalCount:
      // A list of at most one token, empty when the value is left out, so that "--random=" (an empty seed,
      // refused) differs from "--random" (none).
      return po::value<std::vector<std::string>>()
          ->implicit_value({}, "")
          ->value_name(std::string(option.value_name))
          ->notifier([&slot](const std::vector<std::string>& value) {
            slot.given = true;
            if (!value.empty()) slot.text = value.front();
          });
    case OptionKind::kCount:
    case OptionKind::kBytes:
    case OptionKind::kSeconds:
    case OptionKind::kText:
      break;
  }
  return po::value<std::string>()
      ->value_name(std::string(option.value_name))
      ->notifier([&slot](const std::string& value) {
        slot.given = true;
        slot.text = value;
      });
}

// A path the kernel would refuse (too long, a name too long), named with its option.
void checkPath(const std::string& label, const std::string& path, std::vector<std::string>& errors,
               std::size_t max_last_name = kMaxNameBytes) {
  if (const auto problem = pathProblem(path, max_last_name)) {
    errors.push_back(fmt::format("{}: {}", label, *problem));
  }
}

}  // namespace

po::options_description buildOptionTable(RawOptions& raw) {
  po::options_description table;
  for (const OptionRow& option : kOptionRows) {
    std::string names(option.long_name);
    if (option.short_name != 0) names += std::string{',', option.short_name};
    table.add_options()(names.c_str(), semanticOf(option, raw[option]), std::string(option.help).c_str());
  }
  return table;
}

const OptionRow& rowOf(const po::option_description& option) {
  for (const OptionRow& candidate : kOptionRows) {
    if (candidate.long_name == option.long_name()) return candidate;
  }
  throw std::logic_error("an option the rows did not make: " + option.long_name());
}

// -d's directories are also sent to every rank one per line, and a newline in a directory name is far more
// often a script's mistake ("$(ls ...)" giving two lines) than a name anyone chose.
void checkDirValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  if (value.empty()) {
    errors.push_back(fmt::format("{}: empty value, expected a directory", label));
    return;
  }
  const std::optional<std::vector<std::string>> targets = splitTargets(value);
  if (!targets) {
    errors.push_back(
        fmt::format("{}: '{}' has an empty directory name (DIR@DIR@...: one '@' between two)", label, value));
    return;
  }
  for (const std::string& path : *targets) {
    if (path.find('\n') != std::string::npos) {
      errors.push_back(fmt::format("{}: a directory name with a newline in it is not supported", label));
    }
    checkPath(label, path, errors);
  }
}

// A refused -d leaves targets empty, so that no cross-check counts its parts.
void landDir(Config& config, const std::string& value) {
  config.target = value;
  if (auto targets = splitTargets(value)) config.targets = std::move(*targets);
}

void checkStonewallFileValue(const std::string& label, const std::string& value,
                             std::vector<std::string>& errors) {
  if (value.empty()) errors.push_back(fmt::format("{}: empty value, expected a file name", label));
  // The file is written through FILE.tmp: its name needs room for the suffix.
  checkPath(label, value, errors, kMaxNameBytes - 4);
}

void checkOutputValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  if (value.empty()) errors.push_back(fmt::format("{}: empty value, expected a file name", label));
  checkPath(label, value, errors);
}

void checkPresetValue(const std::string& label, const std::string& value, std::vector<std::string>& errors) {
  if (findPreset(value) == nullptr) {
    errors.push_back(fmt::format("{}: unknown preset '{}' (expected {})", label, value, presetNames()));
  }
}

void landPreset(Config& config, const std::string& value) {
  if (findPreset(value) != nullptr) config.preset = value;
}

}  // namespace mdbench::config_detail
