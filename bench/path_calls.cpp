// The per-item system calls of a read (-e 0) and a file remove, as mdtest 4.1 makes them and as
// `--path-style full` made them before and after its type checks moved to the directory descriptor, on
// paths of mdtest's depth, in interleaved blocks of 500 items (the three variants a moment apart, so the
// machine's drift hits them alike). Prints the time per item and the ratios mdtest / variant. See
// bench/README.md, "mdbench against mdtest 4.1".
//   mdbench_path_calls DIR [ITEMS]     DIR must not exist (made and removed here); default 60000 items
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBlock = 500;

struct Tree {
  std::string dir;
  int dir_fd = -1;
  std::string path(int i) const { return dir + "/file.mdtest.0." + std::to_string(i); }
  static const char* nameOf(const std::string& path) { return path.c_str() + path.rfind('/') + 1; }
};

void readMdtest(const Tree& t, int i) { ::close(::open(t.path(i).c_str(), O_RDWR)); }
void readBefore(const Tree& t, int i) {
  const int fd = ::open(t.path(i).c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK);
  struct stat st;
  ::fstat(fd, &st);
  ::close(fd);
}
void readNow(const Tree& t, int i) { ::close(::open(t.path(i).c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK)); }
void removeMdtest(const Tree& t, int i) { ::unlink(t.path(i).c_str()); }
void removeBefore(const Tree& t, int i) {
  const std::string p = t.path(i);
  struct stat st;
  ::lstat(p.c_str(), &st);
  ::unlink(p.c_str());
}
void removeNow(const Tree& t, int i) {
  const std::string p = t.path(i);
  struct stat st;
  ::fstatat(t.dir_fd, Tree::nameOf(p), &st, AT_SYMLINK_NOFOLLOW);
  ::unlink(p.c_str());
}

using Op = void (*)(const Tree&, int);

void report(const char* what, const std::array<double, 3>& s, double per) {
  std::printf("%s: mdtest %.0f ns, full before %.0f ns (mdtest/full %.3f), full now %.0f ns (%.3f)\n", what,
              s[0] / per * 1e9, s[1] / per * 1e9, s[0] / s[1], s[2] / per * 1e9, s[0] / s[2]);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: mdbench_path_calls DIR [ITEMS]\n");
    return 2;
  }
  const std::string base = argv[1];
  const int items = argc > 2 ? std::atoi(argv[2]) / (3 * kBlock) * (3 * kBlock) : 60000;
  Tree t{base + "/test-dir.0-0/mdtest_tree.0"};
  if (::mkdir(base.c_str(), 0700) != 0 || ::mkdir((base + "/test-dir.0-0").c_str(), 0700) != 0 ||
      ::mkdir(t.dir.c_str(), 0700) != 0 || items <= 0) {
    std::perror(base.c_str());
    return 1;
  }
  t.dir_fd = ::open(t.dir.c_str(), O_RDONLY | O_DIRECTORY);
  for (int i = 0; i < items; ++i) ::close(::open(t.path(i).c_str(), O_RDWR | O_CREAT | O_EXCL, 0600));
  const auto timed = [&](Op op, int from, int to) {
    const auto t0 = Clock::now();
    for (int i = from; i < to; ++i) op(t, i);
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  // Reads: every variant reads every item, three passes, the order rotating per block.
  const std::array<Op, 3> reads{readMdtest, readBefore, readNow};
  std::array<double, 3> read_s{};
  for (int pass = 0; pass < 3; ++pass) {
    for (int b = 0; b < items; b += kBlock) {
      for (int k = 0; k < 3; ++k) {
        const int v = (k + b / kBlock + pass) % 3;
        read_s[v] += timed(reads[v], b, b + kBlock);
      }
    }
  }
  // Removes: each item once, a third of the blocks per variant, rotating.
  const std::array<Op, 3> removes{removeMdtest, removeBefore, removeNow};
  std::array<double, 3> remove_s{};
  for (int b = 0; b < items; b += 3 * kBlock) {
    for (int k = 0; k < 3; ++k) {
      const int v = (k + b / (3 * kBlock)) % 3;
      remove_s[v] += timed(removes[v], b + k * kBlock, b + (k + 1) * kBlock);
    }
  }
  report("read (open, close)", read_s, 3.0 * items);
  report("file remove", remove_s, items / 3.0);
  ::close(t.dir_fd);
  ::rmdir(t.dir.c_str());
  ::rmdir((base + "/test-dir.0-0").c_str());
  return ::rmdir(base.c_str()) == 0 ? 0 : 1;
}
