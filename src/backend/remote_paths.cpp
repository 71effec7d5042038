// remote_paths.hpp.
#include "remote_paths.hpp"

#include <fmt/format.h>

#include "mdbench/config/option_docs.hpp"

namespace mdbench {

std::string remotePath(const std::string& path, const std::string& prefix) {
  std::string out = path;
  if (!prefix.empty() && out.starts_with(prefix)) out.erase(0, prefix.size());
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (out.empty() || out.front() != '/') out.insert(out.begin(), '/');
  return out;
}

std::string remoteParent(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? std::string("/") : path.substr(0, slash);
}

std::string remoteRefusal(const Config& config, std::string_view api_label, std::string_view names_by,
                          std::string_view no_mknod, bool has_sync) {
  if (config.make_node && !no_mknod.empty()) {
    return fmt::format("{} makes files with mknod, which {} has no call for ({}): leave it out",
                       optionLabel("mknod"), api_label, no_mknod);
  }
  if (config.path_style == PathStyle::kDirfd) {
    return fmt::format("{} dirfd: {} (mdtest's calls); {} runs in the full style only",
                       optionLabel("path-style"), names_by, api_label);
  }
  if (!has_sync && config.sync_phases) {
    return fmt::format(
        "{} syncs the file system after each phase, which {} has no call for (mdtest refuses "
        "it too): leave it out",
        optionLabel("sync"), api_label);
  }
  return {};
}

}  // namespace mdbench
