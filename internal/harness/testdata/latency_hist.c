/* latency_hist.c: the C driver's histogram (c/latency.c) on values read
 * from stdin, for the Go tests that cross-check it (stdlib/bench and
 * go/bench): prints "index lowest" per value, then "p q value" for the
 * percentiles of all values. Build: cc -I ../c latency_hist.c */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "latency.h"

#define BENCH_MAX_VARIANTS 1
#define BENCH_MAX_SLOTS 1
static void record(const char *fmt, ...) { (void)fmt; }
static void fail(const char *msg, const char *arg) {
  fprintf(stderr, "%s%s\n", msg, arg ? arg : "");
  exit(2);
}
static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}
typedef struct { const char *name; } bench_variant_t;
typedef struct { int variant; int64_t k; } slot_t;
static bench_variant_t variants_[1];
static slot_t slots_[1];
static int nslots_;

static long sys_n_; /* the driver's count of its system calls (driver.c) */
#include "latency.c"

int main(void) {
  static uint64_t h[LAT_BUCKETS];
  unsigned long long v;
  bench_ops_.hist = h;
  while (scanf("%llu", &v) == 1) {
    bench_ops_add_(v);
    printf("%d %llu\n", lat_index(v), (unsigned long long)lat_lowest(lat_index(v)));
  }
  double qs[] = {0.5, 0.99, 0.999, 0.9999, 1};
  for (int i = 0; i < 5; i++) printf("p %g %llu\n", qs[i], (unsigned long long)lat_percentile(h, qs[i]));
  (void)lat_init, (void)lat_prelude, (void)lat_before, (void)lat_after, (void)lat_end;
  return 0;
}
