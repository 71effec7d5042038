/* What mdtest 4.1 does per item of a stat or read phase before its call, alone: clear two PATH_MAX
 * buffers and build the item's path with (s)printf (mdtest.c mdtest_stat / mdtest_read), in a loop, to set
 * the harness's share of a fast phase on tmpfs. Not part of the build:
 *   gcc -O2 -o /tmp/naming bench/mdtest_naming_cost.c && /tmp/naming [ITEMS]      (default 20000000) */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char** argv) {
  static char item[PATH_MAX], temp[PATH_MAX];
  const long n = argc > 1 ? atol(argv[1]) : 20000000;
  volatile char sink = 0;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < n; ++i) {
    memset(item, 0, PATH_MAX);
    memset(temp, 0, PATH_MAX);
    snprintf(item, sizeof item, "file.mdtest.0.%ld", i);
    snprintf(temp, sizeof temp, "%s/%s", "/dev/shm/mdtest-compare.XXXXXX/mdtest/#test-dir.0-0/mdtest_tree.0.0", item);
    strcpy(item, temp);
    sink ^= item[3];
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("ns per item: %.1f\n", ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)n);
  return 0;
}
