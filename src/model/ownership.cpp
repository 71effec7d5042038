#include "mdbench/model/ownership.hpp"

#include <fmt/format.h>

#include <charconv>
#include <limits>

namespace mdbench {
namespace {

constexpr std::string_view kHeaderStart = "mdbench-taken 1 bytes=";

bool eat(std::string_view& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// A decimal number up to `most`, consumed from the front of text (no sign, no leading '+').
bool eatNumber(std::string_view& text, std::uint64_t most, std::uint64_t& out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc() || out > most) return false;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return true;
}

bool eatOwner(std::string_view& text, std::uint32_t& owner) {
  if (eat(text, "shared")) {
    owner = kSharedOwner;
    return true;
  }
  std::uint64_t value = 0;
  if (!eatNumber(text, kSharedOwner - 1ull, value)) return false;
  owner = static_cast<std::uint32_t>(value);
  return true;
}

// The kind an entry or a name starts with: the file prefix or the directory prefix, eaten.
bool eatKind(std::string_view& text, std::string_view file_prefix, std::string_view dir_prefix,
             ItemKind& kind) {
  if (eat(text, file_prefix)) {
    kind = ItemKind::kFile;
    return true;
  }
  if (eat(text, dir_prefix)) {
    kind = ItemKind::kDir;
    return true;
  }
  return false;
}

// One entry line without its newline: "<f|d> <owner|shared> <item> <x|o>" or "<f|d> all x".
bool parseLine(std::string_view line, ItemFates& out) {
  ItemKind kind;
  if (!eatKind(line, "f ", "d ", kind)) return false;
  if (line == "all x") {
    out.setAllNotOurs(kind);
    return true;
  }
  std::uint32_t owner = 0;
  std::uint64_t item = 0;
  if (!eatOwner(line, owner) || !eat(line, " ") ||
      !eatNumber(line, std::numeric_limits<std::uint64_t>::max(), item) || !eat(line, " ")) {
    return false;
  }
  if (line != "x" && line != "o") return false;
  out.add(kind, owner, item, line == "x" ? ItemFate::kNotOurs : ItemFate::kOriginalName);
  return true;
}

}  // namespace

ItemFate ItemFates::of(ItemKind kind, std::uint32_t owner, std::uint64_t item) const {
  if (empty_) return ItemFate::kOurs;
  if (all_[index(kind)]) return ItemFate::kNotOurs;
  const auto& fates = fates_[index(kind)];
  const auto it = fates.find({owner, item});
  return it == fates.end() ? ItemFate::kOurs : it->second;
}

void ItemFates::add(ItemKind kind, std::uint32_t owner, std::uint64_t item, ItemFate fate) {
  const std::size_t k = index(kind);
  if (fate == ItemFate::kOurs || all_[k]) return;
  auto& fates = fates_[k];
  auto [it, inserted] = fates.emplace(std::make_pair(owner, item), fate);
  if (!inserted && fate == ItemFate::kNotOurs) it->second = fate;
  if (fates.size() > kMaxItemFates) setAllNotOurs(kind);
  update();
}

void ItemFates::setAllNotOurs(ItemKind kind) {
  fates_[index(kind)].clear();
  all_[index(kind)] = true;
  update();
}

void ItemFates::merge(const ItemFates& other) {
  for (const ItemKind kind : {ItemKind::kFile, ItemKind::kDir}) {
    const std::size_t k = index(kind);
    if (other.all_[k]) setAllNotOurs(kind);
    for (const auto& [key, fate] : other.fates_[k]) add(kind, key.first, key.second, fate);
  }
  update();
}

void ItemFates::forget(ItemKind kind) {
  fates_[index(kind)].clear();
  all_[index(kind)] = false;
  update();
}

void ItemFates::clear() {
  forget(ItemKind::kFile);
  forget(ItemKind::kDir);
}

bool ItemFates::leavesName(std::string_view name) const {
  if (empty_) return false;
  ItemKind kind;
  if (!eatKind(name, "file.mdbench.", "dir.mdbench.", kind)) return false;
  std::uint32_t owner = 0;
  std::uint64_t item = 0;
  if (!eatOwner(name, owner) || !eat(name, ".") ||
      !eatNumber(name, std::numeric_limits<std::uint64_t>::max(), item)) {
    return false;
  }
  const bool renamed = name == kRenamedSuffix;
  if (!renamed && !name.empty()) return false;
  const ItemFate fate = of(kind, owner, item);
  return fate == ItemFate::kNotOurs || (fate == ItemFate::kOriginalName && renamed);
}

std::string ItemFates::encode() const {
  std::string body;
  std::size_t entries = 0;
  for (const ItemKind kind : {ItemKind::kFile, ItemKind::kDir}) {
    const char letter = kind == ItemKind::kFile ? 'f' : 'd';
    if (all_[index(kind)]) {
      body += fmt::format("{} all x\n", letter);
      ++entries;
      continue;
    }
    for (const auto& [key, fate] : fates_[index(kind)]) {
      const std::string owner = key.first == kSharedOwner ? "shared" : fmt::format("{}", key.first);
      body += fmt::format("{} {} {} {}\n", letter, owner, key.second, fate == ItemFate::kNotOurs ? 'x' : 'o');
      ++entries;
    }
  }
  body += fmt::format("end {}\n", entries);
  std::string header = fmt::format("{}{:010}\n", kHeaderStart, kTakenHeaderBytes + body.size());
  return header + body;
}

std::size_t ItemFates::recordLength(std::string_view header) {
  std::uint64_t bytes = 0;
  if (header.size() != kTakenHeaderBytes || !eat(header, kHeaderStart) || header.size() != 11 ||
      header.back() != '\n' || !eatNumber(header, kMaxTakenRecordBytes, bytes) || header != "\n" ||
      bytes < kTakenHeaderBytes) {
    return 0;
  }
  return static_cast<std::size_t>(bytes);
}

std::string ItemFates::parseRecord(std::string_view text, ItemFates& out) {
  out.clear();
  const std::size_t length = recordLength(text.substr(0, kTakenHeaderBytes));
  if (length == 0) return "it does not start with mdbench's header";
  if (length != text.size()) {
    return fmt::format("its header says {} bytes, it has {}", length, text.size());
  }
  std::string_view rest = text.substr(kTakenHeaderBytes);
  ItemFates parsed;
  std::uint64_t lines = 0;
  while (!rest.empty()) {
    const std::size_t newline = rest.find('\n');
    if (newline == std::string_view::npos) return "its last line is cut short";
    const std::string_view line = rest.substr(0, newline);
    rest.remove_prefix(newline + 1);
    std::string_view end = line;
    std::uint64_t count = 0;
    if (eat(end, "end ") && eatNumber(end, std::numeric_limits<std::uint64_t>::max(), count) && end.empty()) {
      if (!rest.empty()) return "there is text after its end line";
      if (count != lines) return fmt::format("its end line says {} entries, it has {}", count, lines);
      out = std::move(parsed);
      return {};
    }
    if (!parseLine(line, parsed)) return fmt::format("line {} is not an entry: '{}'", lines + 2, line);
    ++lines;
  }
  return "it has no end line";
}

}  // namespace mdbench
