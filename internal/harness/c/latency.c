/* latency.c: the driver's side of BENCH_OPS (latency.h, records.md),
 * included by driver.c after the functions it uses (record, fail, now_ns,
 * the slots). Each BENCH_OPS slot has a histogram of operation times in
 * ticks, HDR style with 3 significant digits: values below 2048 have a
 * bucket each; above, each power of two [2^k, 2^(k+1)) is cut into 1024
 * buckets of width 2^(k-10), so a bucket is less than 1/1024 of its value
 * wide. Bucket index of v (v >= 2048): e = bitlen(v) - 11,
 * index = (e + 1) * 1024 + (v >> e) - 1024; its lowest value is
 * ((index % 1024) + 1024) << (index / 1024 - 1). stdlib/bench/latency.go
 * and the Go driver use the same buckets. */

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#define LAT_HALF 1024
#define LAT_BUCKETS (34 * LAT_HALF) /* values up to 2^43 - 1 ticks; larger ones are clamped */
#define LAT_WINDOW_NS 5000000LL     /* the calibration window of the tick rate */

bench_ops_state_t bench_ops_;

typedef struct {
  const char *name;
  int64_t n;
  int line;
} lat_decl_t;

static lat_decl_t lat_decls_[BENCH_MAX_VARIANTS];
static int nlat_decls_;

void bench_register_ops_(const char *name, int64_t n, int line) {
  if (nlat_decls_ < BENCH_MAX_VARIANTS) lat_decls_[nlat_decls_++] = (lat_decl_t){name, n, line};
}

typedef struct {
  int64_t n;      /* operations per pass, 0 for a BENCH variant */
  int line;
  uint64_t *hist; /* LAT_BUCKETS counts */
  uint64_t max, overhead;
  int64_t passes;
  /* Where the worst operation was: its measured pass (from 0), its index
   * in the pass, and CLOCK_MONOTONIC at its BENCH_OP_BEGIN; empty_max is
   * the worst of the n empty operations of the prelude. */
  int64_t max_pass, max_op, max_at_ns;
  uint64_t empty_max;
  /* max_run_delay and max_nivcsw: what the thread waited while the sample
   * (pass, or k passes) holding the worst operation ran: the growth of
   * its scheduler run delay (ns runnable but not running) and of its
   * involuntary context switches; -1 unread. */
  int64_t max_run_delay, max_nivcsw;
} lat_slot_t;

static lat_slot_t lat_slots_[BENCH_MAX_SLOTS];
static int lat_any_;
static uint64_t lat_cur_max_, lat_cur_max_t0_;
static int64_t lat_cur_max_op_;
static double lat_rate_start_;
/* The thread's waits around each measured pass of an ops slot (outside
 * the timed region): field 2 of /proc/thread-self/schedstat, kept open
 * and read with pread, and getrusage(RUSAGE_THREAD)'s ru_nivcsw. These two
 * system calls come right before the pass, after a discarded pass too: the
 * waits must bracket the pass that holds the worst operation, and a pass of
 * n operations is long beside the TLB refill a system call can cost (the
 * syscalls record counts them). */
static int lat_schedstat_fd_ = -1;
static int64_t lat_wait0_delay_, lat_wait0_nivcsw_;

/* lat_waits reads the thread's run delay (ns) and involuntary switches;
 * -1 for what cannot be read. */
static void lat_waits(int64_t *delay, int64_t *nivcsw) {
  *delay = -1;
  *nivcsw = -1;
  if (lat_schedstat_fd_ >= 0) {
    char buf[128];
    sys_n_++;
    ssize_t m = pread(lat_schedstat_fd_, buf, sizeof buf - 1, 0);
    if (m > 0) {
      buf[m] = 0;
      char *end;
      strtoull(buf, &end, 10); /* time on the CPU */
      if (end != buf) {
        char *end2;
        unsigned long long d = strtoull(end, &end2, 10);
        if (end2 != end) *delay = (int64_t)d;
      }
    }
  }
  struct rusage ru;
  sys_n_++;
  if (getrusage(RUSAGE_THREAD, &ru) == 0) *nivcsw = (int64_t)ru.ru_nivcsw;
}

static inline int lat_index(uint64_t v) {
  if (v >= (1ULL << 43)) v = (1ULL << 43) - 1;
  if (v < 2 * LAT_HALF) return (int)v;
  int e = 64 - __builtin_clzll(v) - 11;
  return (e + 1) * LAT_HALF + (int)(v >> e) - LAT_HALF;
}

static inline uint64_t lat_lowest(int i) {
  if (i < 2 * LAT_HALF) return (uint64_t)i;
  return ((uint64_t)(i % LAT_HALF) + LAT_HALF) << (i / LAT_HALF - 1);
}

void bench_ops_add_(uint64_t ticks) {
  if ((int64_t)ticks < 0) ticks = 0; /* a counter that went back (another core's TSC) */
  bench_ops_.hist[lat_index(ticks)]++;
  if (ticks > lat_cur_max_) {
    lat_cur_max_ = ticks;
    lat_cur_max_t0_ = bench_ops_.t0;
    lat_cur_max_op_ = bench_ops_.begins - 1;
  }
}

/* lat_percentile: the lowest value of the bucket that holds the operation
 * of rank ceil(q * count) (from 1), q * count taken to 1e-6 of a rank
 * (0.999 * 100000 is 99900.00000000001 in floating point: rank 99900). */
static uint64_t lat_percentile(const uint64_t *h, double q) {
  uint64_t count = 0;
  for (int i = 0; i < LAT_BUCKETS; i++) count += h[i];
  if (count == 0) return 0;
  uint64_t rank = (uint64_t)(q * (double)count + 0.999999);
  if (rank < 1) rank = 1;
  uint64_t seen = 0;
  for (int i = 0; i < LAT_BUCKETS; i++) {
    seen += h[i];
    if (seen >= rank) return lat_lowest(i);
  }
  return 0;
}

static const char *lat_source(void) {
#if defined(__x86_64__)
  return "rdtsc";
#elif defined(__aarch64__)
  return "cntvct_el0";
#else
  return "clock_gettime";
#endif
}

/* lat_cpu_flags: which of constant_tsc and nonstop_tsc the first flags
 * line of /proc/cpuinfo lists, comma-separated, or "none". */
static void lat_cpu_flags(char *out, size_t size) {
  snprintf(out, size, "none");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[8192];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "flags", 5) != 0) continue;
    int c = strstr(line, " constant_tsc") != NULL, n = strstr(line, " nonstop_tsc") != NULL;
    if (c || n) snprintf(out, size, "%s%s%s", c ? "constant_tsc" : "", c && n ? "," : "", n ? "nonstop_tsc" : "");
    break;
  }
  fclose(f);
}

/* lat_rate measures ticks per microsecond against CLOCK_MONOTONIC over
 * LAT_WINDOW_NS and writes the ticks record. */
static double lat_rate(const char *when) {
  double rate;
  long long window = 0;
#if defined(__x86_64__)
  int64_t n0 = now_ns();
  uint64_t c0 = bench_tick_begin_();
  int64_t n1;
  do n1 = now_ns();
  while (n1 - n0 < LAT_WINDOW_NS);
  uint64_t c1 = bench_tick_end_();
  int64_t n2 = now_ns();
  window = (long long)(n2 - n0);
  rate = (double)(c1 - c0) / ((double)(n1 + n2) / 2 - (double)n0) * 1000.0;
#elif defined(__aarch64__)
  uint64_t frq;
  __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(frq));
  rate = (double)frq / 1e6;
#else
  rate = 1000.0;
#endif
  char flags[64];
  lat_cpu_flags(flags, sizeof flags);
  record("ticks when=%s source=%s ticks_per_us=%.6f window_ns=%lld cpu_flags=%s", when, lat_source(), rate, window,
         flags);
  return rate;
}

static void lat_fail(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fail(buf, NULL);
}

/* lat_init finds the BENCH_OPS slots, after the slots are parsed. */
static void lat_init(void) {
  for (int s = 0; s < nslots_; s++) {
    const char *name = variants_[slots_[s].variant].name;
    for (int d = 0; d < nlat_decls_; d++) {
      if (strcmp(lat_decls_[d].name, name) != 0) continue;
      lat_slots_[s].n = lat_decls_[d].n;
      lat_slots_[s].line = lat_decls_[d].line;
      lat_slots_[s].hist = calloc(LAT_BUCKETS, sizeof(uint64_t));
      if (!lat_slots_[s].hist) fail("BENCH_OPS: cannot allocate the histogram", NULL);
      lat_slots_[s].max_run_delay = lat_slots_[s].max_nivcsw = -1;
      lat_any_ = 1;
    }
  }
  if (lat_any_) lat_schedstat_fd_ = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
}

/* lat_prelude ends the prelude: the tick rate, then per BENCH_OPS slot a
 * pass of n empty operations whose median is the overhead. */
static void lat_prelude(void) {
  if (!lat_any_) return;
  lat_rate_start_ = lat_rate("start");
  uint64_t *h = calloc(LAT_BUCKETS, sizeof(uint64_t));
  if (!h) fail("BENCH_OPS: cannot allocate the histogram", NULL);
  for (int s = 0; s < nslots_; s++) {
    if (!lat_slots_[s].n) continue;
    memset(h, 0, LAT_BUCKETS * sizeof(uint64_t));
    memset(&bench_ops_, 0, sizeof bench_ops_);
    bench_ops_.hist = h;
    lat_cur_max_ = 0;
    for (int64_t i = 0; i < lat_slots_[s].n; i++) {
      BENCH_OP_BEGIN;
      BENCH_OP_END;
    }
    lat_slots_[s].overhead = lat_percentile(h, 0.5);
    lat_slots_[s].empty_max = lat_cur_max_;
  }
  memset(&bench_ops_, 0, sizeof bench_ops_);
  free(h);
}

/* lat_before readies the state for a measured pass of slot s. */
static void lat_before(int s) {
  memset(&bench_ops_, 0, sizeof bench_ops_);
  bench_ops_.hist = lat_slots_[s].hist;
  lat_cur_max_ = 0;
  if (lat_slots_[s].n) lat_waits(&lat_wait0_delay_, &lat_wait0_nivcsw_);
}

/* lat_after checks the pass's BENCH_OP_BEGIN/END against its slot. */
static void lat_after(int s) {
  lat_slot_t *l = &lat_slots_[s];
  const char *name = variants_[slots_[s].variant].name;
  int64_t delay1 = -1, nivcsw1 = -1;
  if (l->n) lat_waits(&delay1, &nivcsw1);
  bench_ops_.hist = NULL;
  if (bench_ops_.bad_line) lat_fail("%s (line %d, variant %s)", bench_ops_.bad_what, bench_ops_.bad_line, name);
  if (bench_ops_.open)
    lat_fail("BENCH_OP_BEGIN at line %d has no BENCH_OP_END in the same pass (variant %s)", bench_ops_.open_line, name);
  if (!l->n) {
    if (bench_ops_.begins > 0)
      lat_fail("BENCH_OP_BEGIN at line %d is in BENCH(%s), which is not a BENCH_OPS(%s, n) variant", bench_ops_.open_line,
               name, name);
    return;
  }
  int64_t want = l->n * slots_[s].k;
  if (bench_ops_.begins != want)
    lat_fail("BENCH_OPS(%s, %lld) at line %d: a pass did %lld operations (BENCH_OP_BEGIN ... BENCH_OP_END), not %lld",
             name, (long long)l->n, l->line, (long long)(bench_ops_.begins / slots_[s].k), (long long)l->n);
  if (lat_cur_max_ > l->max) {
    /* CLOCK_MONOTONIC at the operation's start: now, less the ticks since. */
    uint64_t ticks_now = bench_tick_end_();
    int64_t ns_now = now_ns();
    double rate = lat_rate_start_ > 0 ? lat_rate_start_ : 1000.0;
    l->max = lat_cur_max_;
    l->max_pass = l->passes + lat_cur_max_op_ / l->n;
    l->max_op = lat_cur_max_op_ % l->n;
    l->max_at_ns = ns_now - (int64_t)((double)(ticks_now - lat_cur_max_t0_) * 1000.0 / rate);
    l->max_run_delay = delay1 >= 0 && lat_wait0_delay_ >= 0 ? delay1 - lat_wait0_delay_ : -1;
    l->max_nivcsw = nivcsw1 >= 0 && lat_wait0_nivcsw_ >= 0 ? nivcsw1 - lat_wait0_nivcsw_ : -1;
  }
  l->passes += slots_[s].k;
}

/* lat_end writes the tick rate again and each BENCH_OPS slot's histogram:
 * its non-empty buckets as index:count, in latency_buckets records short
 * enough for record's buffer, then the latency record. */
static void lat_end(void) {
  if (!lat_any_) return;
  double rate = (lat_rate_start_ + lat_rate("end")) / 2;
  for (int s = 0; s < nslots_; s++) {
    lat_slot_t *l = &lat_slots_[s];
    if (!l->n) continue;
    char buf[900];
    size_t len = 0;
    int nonempty = 0;
    uint64_t count = 0;
    for (int i = 0; i < LAT_BUCKETS; i++) {
      if (!l->hist[i]) continue;
      nonempty++;
      count += l->hist[i];
      char item[48];
      int m = snprintf(item, sizeof item, "%s%d:%llu", len ? "," : "", i, (unsigned long long)l->hist[i]);
      if (len + (size_t)m >= sizeof buf - 1) {
        record("latency_buckets slot=%d buckets=%s", s, buf);
        len = 0;
        m = snprintf(item, sizeof item, "%d:%llu", i, (unsigned long long)l->hist[i]);
      }
      memcpy(buf + len, item, (size_t)m + 1);
      len += (size_t)m;
    }
    if (len) record("latency_buckets slot=%d buckets=%s", s, buf);
    record("latency slot=%d variant=%s ops=%lld passes=%lld n=%llu max_ticks=%llu overhead_ticks=%llu ticks_per_us=%.6f "
           "nonempty=%d max_pass=%lld max_op=%lld max_at_ns=%lld empty_max_ticks=%llu "
           "max_run_delay_ns=%lld max_nivcsw=%lld",
           s, variants_[slots_[s].variant].name, (long long)l->n, (long long)l->passes, (unsigned long long)count,
           (unsigned long long)l->max, (unsigned long long)l->overhead, rate, nonempty, (long long)l->max_pass,
           (long long)l->max_op, (long long)l->max_at_ns, (unsigned long long)l->empty_max,
           (long long)l->max_run_delay, (long long)l->max_nivcsw);
  }
}
