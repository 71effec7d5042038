// Splits the command line into option occurrences for config.cpp's Boost option table (private to config).
#pragma once

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config_values.hpp"

namespace mdbench::config_detail {

namespace po = boost::program_options;

// One occurrence of an option, and its value when one was given.
struct Given {
  const po::option_description* option = nullptr;
  std::optional<std::string> value;
};

// "-n/--items", or "--keep" for an option without a short name.
inline std::string shownName(const po::option_description& option) {
  const std::string short_name = option.canonical_display_name(po::command_line_style::allow_dash_for_short);
  const std::string long_name = "--" + option.long_name();
  return short_name.size() == 2 && short_name[0] == '-' ? short_name + "/" + long_name : long_name;
}

inline bool takesValue(const po::option_description& option) { return option.semantic()->max_tokens() > 0; }

// A value that may be left out (-R [SEED]): Boost's implicit value makes min_tokens 0.
inline bool valueOptional(const po::option_description& option) {
  return takesValue(option) && option.semantic()->min_tokens() == 0;
}

// Boost's "composing" (occurrences combine) marks the options that may be repeated (-v).
inline bool repeatable(const po::option_description& option) { return option.semantic()->is_composing(); }

// As in mdtest, an option given again is accepted: a value option takes its last value ("-n 5 -n 10" is
// -n 10, "-n 5 --items=10" too) and a switch stays on ("-u ... -u", as the 2017 IO500 scripts give it),
// unless a later "=0" turns it off ("-u -u=0"; mdtest's flags count up, and "=N" sets the count): job scripts
// append to a base line. Only --preset, mdbench's own, is refused when repeated: two presets are two
// benchmarks.
inline bool repeatsAccepted(const po::option_description& option) { return option.long_name() != "preset"; }

// An optional value is taken from a word only when the word starts with a digit. There are no positional
// arguments, so such a word can mean nothing else ("-R 7", "-R7"; "-R 1.5" is then a bad seed rather than a
// stray argument), while "-R -n 5", "-Ru" and a final "-R" give no value.
inline bool startsWithDigit(const std::string& word) {
  return !word.empty() && word[0] >= '0' && word[0] <= '9';
}

// Exact lookups only: with Boost's prefix guessing, an abbreviation in a job script ("--dep") changes meaning
// or becomes ambiguous when an option is added.
inline const po::option_description* findLong(const po::options_description& all, const std::string& name) {
  if (name.empty() || name[0] == '-') return nullptr;  // "---n" must not find "-n"
  return all.find_nothrow(name, /*approx=*/false);
}
inline const po::option_description* findShort(const po::options_description& all, char letter) {
  return all.find_nothrow(std::string{'-', letter}, /*approx=*/false);
}

// Splits the arguments into options and values without ever stopping at the first problem. Boost's own parser
// throws on the first syntax error (a missing value, "--keep=1"), which would hide every later problem, so
// the tokenizer is ours; the table is Boost's. A repeated --preset is reported and its repeats dropped
// (repeatsAccepted); every other option's occurrences are all kept, in order.
class Tokenizer {
 public:
  Tokenizer(const std::vector<std::string>& args, const po::options_description& all,
            std::vector<std::string>& errors)
      : args_(args), all_(all), errors_(errors) {}

  std::vector<Given> run() {
    bool options_ended = false;
    for (next_ = 0; next_ < args_.size();) {
      const std::string& arg = args_[next_++];
      if (options_ended || arg.size() < 2 || arg[0] != '-') {
        errors_.push_back(fmt::format("unexpected argument '{}'", arg));
      } else if (arg == "--") {
        options_ended = true;
      } else if (arg[1] == '-') {
        longOption(arg);
      } else {
        shortGroup(arg);
      }
    }
    return std::move(given_);
  }

 private:
  // A dotted name is an ior backend's option: of one of mdbench's backends (named, with what it has), of
  // mdtest's POSIX built with a vendor's headers, or of a backend mdbench lacks.
  std::string unknownLongOption(const std::string& name) const {
    if (name.find('.') == std::string::npos || name.front() == '.') {
      return fmt::format("unknown option '--{}'", name);
    }
    const BackendRow* owner = optionBackend(name);
    if (owner == nullptr) {
      return fmt::format(
          "unknown option '--{}': an ior backend option; mdbench's backends ({}) have no "
          "such option",
          name, apiNames(", ", " and "));
    }
    std::string has;
    for (const OptionRow& option : kOptionRows) {
      if (optionBackend(option.long_name) == owner)
        has += (has.empty() ? "--" : ", --") + std::string(option.long_name);
    }
    const bool vendor = name.starts_with("posix.lustre.") || name.starts_with("posix.gpfs.") ||
                        name.starts_with("posix.beegfs.");
    return fmt::format("unknown option '--{}': -a {} has no such option{} (it has {})", name, owner->name,
                       vendor ? " (mdtest has it only when built with that file system's headers)" : "", has);
  }

  void longOption(const std::string& arg) {
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const po::option_description* option = findLong(all_, name);
    if (option == nullptr) {
      errors_.push_back(unknownLongOption(name));
    } else if (eq != std::string::npos && !takesValue(*option)) {
      addSwitchValue(*option, arg, arg.substr(eq + 1));
    } else if (eq != std::string::npos) {
      add(*option, arg.substr(eq + 1));
    } else if (valueOptional(*option)) {
      addWithOptionalNextValue(*option);
    } else if (takesValue(*option)) {
      addWithNextValue(*option);
    } else {
      add(*option, std::nullopt);
    }
  }

  // mdtest's "-F=1", "-u=0", "--verify-write=1", "-v=3": a switch given a whole number is on when it is
  // more than 0, off for 0 (a later occurrence replaces an earlier one, so "-F=0" turns off a preset's -F);
  // a counter (-v) is set to the number.
  void addSwitchValue(const po::option_description& option, const std::string& arg,
                      const std::string& value) {
    const Converted number = toWholeNumber(value, std::numeric_limits<std::uint32_t>::max());
    if (number.problem) {
      errors_.push_back(
          fmt::format("{}: takes 0 (off) or a whole number (on), got '{}'", shownName(option), arg));
    } else if (repeatable(option)) {
      add(option, std::to_string(number.value));
    } else {
      add(option, number.value > 0 ? "1" : "0");
    }
  }

  // "-uFL", "-n5", "-uFn 5": switches may be grouped; a value option takes the rest of the word or the next
  // one. An optional value ("-R7") is the rest of the word only when that starts with a digit ("-RuF" is
  // -R -u -F). As in mdtest, "=" after a letter gives that letter its value: "-n=5", "-d=DIR", "-uF=1".
  void shortGroup(const std::string& arg) {
    for (std::size_t pos = 1; pos < arg.size(); ++pos) {
      const po::option_description* option = findShort(all_, arg[pos]);
      if (option == nullptr) {
        // Whether the unknown option takes a value is unknowable, so the rest of the word is not guessed at.
        errors_.push_back(arg.size() == 2 ? fmt::format("unknown option '-{}'", arg[pos])
                                          : fmt::format("unknown option '-{}' in '{}'", arg[pos], arg));
        return;
      }
      const std::string rest = arg.substr(pos + 1);
      if (rest.starts_with('=')) {  // mdtest's "-n=5", "-d=DIR", "-F=1": the value follows the '='
        takesValue(*option) ? add(*option, rest.substr(1)) : addSwitchValue(*option, arg, rest.substr(1));
        return;
      }
      if (!takesValue(*option) || (valueOptional(*option) && !rest.empty() && !startsWithDigit(rest))) {
        add(*option, std::nullopt);
      } else if (!rest.empty()) {
        add(*option, rest);
        return;
      } else {
        valueOptional(*option) ? addWithOptionalNextValue(*option) : addWithNextValue(*option);
        return;
      }
    }
  }

  // As Boost does: the next word is the value unless it is one of our options ("-d -u" lacks a value).
  void addWithNextValue(const po::option_description& option) {
    if (next_ < args_.size() && !isKnownOption(args_[next_])) {
      add(option, args_[next_++]);
    } else if (next_ < args_.size() && namesOption(args_[next_], option)) {
      // "--server-stats $VAR" with VAR holding "--server-stats=A --server-stats=B": the flag is doubled.
      errors_.push_back(
          fmt::format("{}: needs a value, and the next word '{}' is the same option: each {} takes "
                      "its own value; a variable holding whole options goes on the command line "
                      "by itself",
                      shownName(option), args_[next_], shownName(option)));
    } else {
      errors_.push_back(fmt::format("{}: needs a value", shownName(option)));
    }
  }

  // Whether WORD is OPTION by its long name: "--name" or "--name=...".
  static bool namesOption(const std::string& word, const po::option_description& option) {
    const std::string flag = "--" + option.long_name();
    return word == flag || word.starts_with(flag + "=");
  }

  void addWithOptionalNextValue(const po::option_description& option) {
    if (next_ < args_.size() && startsWithDigit(args_[next_])) {
      add(option, args_[next_++]);
    } else {
      add(option, std::nullopt);
    }
  }

  bool isKnownOption(const std::string& word) const {
    if (word == "--") return true;
    if (word.size() < 2 || word[0] != '-') return false;
    if (word[1] != '-') return findShort(all_, word[1]) != nullptr;
    return findLong(all_, word.substr(2, word.find('=') - 2)) != nullptr;
  }

  void add(const po::option_description& option, std::optional<std::string> value) {
    if (!repeatable(option) && !repeatsAccepted(option)) {
      const int count = ++seen_[&option];
      if (count == 2) errors_.push_back(fmt::format("{}: given more than once", shownName(option)));
      if (count > 1) return;
    }
    given_.push_back({&option, std::move(value)});
  }

  const std::vector<std::string>& args_;
  const po::options_description& all_;
  std::vector<std::string>& errors_;
  std::size_t next_ = 0;
  std::map<const po::option_description*, int> seen_;
  std::vector<Given> given_;
};

// Hands each value to its option's Boost semantic, whose notifier stores it, in order: a later occurrence
// replaces an earlier one (the command line after a preset).
inline void applyGiven(const std::vector<Given>& given, std::vector<std::string>& errors) {
  for (const Given& occurrence : given) {
    std::vector<std::string> tokens;
    if (occurrence.value) tokens.push_back(*occurrence.value);
    try {
      boost::any stored;
      occurrence.option->semantic()->parse(stored, tokens, /*utf8=*/false);
      occurrence.option->semantic()->notify(stored);
    } catch (const po::error& e) {  // not expected for string and switch semantics; reported, never thrown
      errors.push_back(fmt::format("{}: {}", shownName(*occurrence.option), e.what()));
    }
  }
}

}  // namespace mdbench::config_detail
