// The type checks' listings (backend.hpp beginTypeChecks, listTypes, adoptListings), kept the same way by
// every backend: per directory, the names a listing found with another type than the batch's items (the
// suspects, each then checked by a call of its own), or "check every name" (no types listed, or the listing
// failed). A directory's listing is either adopted (taken before the phase's opening barrier, by this rank
// or another, and passed around as records) or taken by this rank at its first call there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "mdbench/backend/backend.hpp"

namespace mdbench {

class TypeListings {
 public:
  struct Listed {
    bool check_all = false;
    std::unordered_set<std::string> suspects;
  };

  // beginTypeChecks: the items' type; adopted listings stay for the batch that uses them.
  void begin(EntryType type) {
    type_ = type;
    listed_.clear();
  }
  // endTypeChecks: every listing is forgotten.
  void end() {
    type_.reset();
    listed_.clear();
    adopted_.clear();
  }
  // The open directory `local` (a descriptor or handle) closed: its number may come back for another.
  void forget(std::int64_t local) { listed_.erase(local); }

  // listTypes's record of one directory: `key` names it on every rank ("dev:ino", a path in the mount).
  static void append(std::string& out, std::string_view key, const Listed& listed);
  // adoptListings: the records of append, any number, in any order.
  void adopt(std::string_view records);

  // Whether `name` in the open directory `local` needs a type check of its own: outside a batch always;
  // inside, by the directory's listing: the one adopted under key() when there is one, else list(type,
  // listed) now (0, or an errno: then every name is checked).
  template <class Key, class List>
  bool needsCheck(std::int64_t local, const char* name, Key key, List list) {
    if (!type_) return true;
    auto [at, fresh] = listed_.try_emplace(local);
    Listed& view = at->second;
    if (fresh) {
      const auto adopted = adopted_.empty() ? adopted_.end() : adopted_.find(key());
      if (adopted != adopted_.end()) {
        view = adopted->second;  // kept: the directory may be opened again in this batch
      } else if (list(*type_, view) != 0) {
        view.check_all = true;
      }
    }
    return view.check_all || view.suspects.contains(name);
  }

 private:
  std::optional<EntryType> type_;
  std::unordered_map<std::int64_t, Listed> listed_;  // by open directory, since begin
  std::unordered_map<std::string, Listed> adopted_;  // by key, until end
};

}  // namespace mdbench
