// The reference: the system calls mdbench's POSIX backend makes for `mdbench -u`, with no harness around
// them (no histogram, no per-op clock read, no backend interface). Shared by bench/ref_loop.cpp (a program
// of its own, run beside the mdbench binary) and bench/interleave.cpp (run between the runner's phases), so
// that both make exactly the same calls on the same names ("<kind>.mdbench.<rank>.<i>", as ItemNamer does).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdio>
#include <string_view>

namespace mdbench::bench {

// The phases the reference has, in mdbench's order, with mdbench's names.
enum class RefPhase { kDirCreate, kDirStat, kDirRemove, kFileCreate, kFileStat, kFileRead, kFileRemove };
constexpr std::array<RefPhase, 7> kRefPhases = {
    RefPhase::kDirCreate, RefPhase::kDirStat,  RefPhase::kDirRemove, RefPhase::kFileCreate,
    RefPhase::kFileStat,  RefPhase::kFileRead, RefPhase::kFileRemove};
constexpr std::array<std::string_view, 7> kRefPhaseNames = {
    "dir-create", "dir-stat", "dir-remove", "file-create", "file-stat", "file-read", "file-remove"};
constexpr std::string_view refPhaseName(RefPhase p) { return kRefPhaseNames[static_cast<std::size_t>(p)]; }
constexpr bool isDirPhase(RefPhase p) { return p <= RefPhase::kDirRemove; }

class RefNamer {
 public:
  RefNamer(const char* kind, int rank) {
    prefix_ = static_cast<std::size_t>(std::snprintf(buf_, sizeof buf_, "%s.mdbench.%d.", kind, rank));
  }
  const char* operator()(unsigned long i) {
    *std::to_chars(buf_ + prefix_, buf_ + sizeof buf_ - 1, i).ptr = '\0';
    return buf_;
  }

 private:
  char buf_[64];
  std::size_t prefix_;
};

// Items 0 .. items-1 of `phase` in the directory dfd, as rank `rank`; returns how many failed. One loop per
// phase, so that nothing but the naming and the call is done per item.
inline unsigned long referenceLoop(RefPhase phase, int dfd, int rank, unsigned long items) {
  RefNamer name(isDirPhase(phase) ? "dir" : "file", rank);
  unsigned long failed = 0;
  struct stat st;
  const auto each = [&](auto op) {
    for (unsigned long i = 0; i < items; ++i) failed += op(name(i)) ? 0 : 1;
  };
  switch (phase) {
    case RefPhase::kDirCreate:
      each([&](const char* n) { return mkdirat(dfd, n, 0777) == 0; });
      break;
    case RefPhase::kDirStat:
      each([&](const char* n) {
        return fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
      });
      break;
    case RefPhase::kDirRemove:
      each([&](const char* n) { return unlinkat(dfd, n, AT_REMOVEDIR) == 0; });
      break;
    case RefPhase::kFileCreate:
      each([&](const char* n) {
        const int fd = openat(dfd, n, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        return fd >= 0 && close(fd) == 0;
      });
      break;
    case RefPhase::kFileStat:
      each([&](const char* n) {
        return fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
      });
      break;
    case RefPhase::kFileRead:
      each([&](const char* n) {
        const int fd = openat(dfd, n, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        return fd >= 0 && close(fd) == 0;
      });
      break;
    case RefPhase::kFileRemove:
      each([&](const char* n) { return unlinkat(dfd, n, 0) == 0; });
      break;
  }
  return failed;
}

}  // namespace mdbench::bench
