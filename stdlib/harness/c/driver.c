/* driver.c: the main of every %%c kernel binary. It runs the passes the
 * benchbook protocol asks for and appends one record per line to the file
 * named by -out, so that a process that dies keeps what it measured.
 * The record format is shared with the Go harness; see records.md. */
#include "benchbook.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define BENCH_MAX_VARIANTS 256
#define BENCH_MAX_SLOTS 512

double bench_cs_sum_;
double bench_cs_want_;
int bench_cs_used_;

typedef struct {
  const char *name;
  bench_once_fn_ once;
  bench_batch_fn_ batch;
  int line;
} bench_variant_t;

static bench_variant_t variants_[BENCH_MAX_VARIANTS];
static int nvariants_;
static int duplicate_line_;
static const char *duplicate_name_;
static void (*setup_fn_)(void);
static int nsetup_;

void bench_register_(const char *name, bench_once_fn_ once, bench_batch_fn_ batch, int line) {
  for (int i = 0; i < nvariants_; i++) {
    if (strcmp(variants_[i].name, name) == 0) {
      duplicate_name_ = name;
      duplicate_line_ = line;
    }
  }
  if (nvariants_ < BENCH_MAX_VARIANTS) {
    variants_[nvariants_++] = (bench_variant_t){name, once, batch, line};
  }
}

void bench_register_setup_(void (*fn)(void), int line) {
  (void)line;
  setup_fn_ = fn;
  nsetup_++;
}

static int out_fd_ = 1;

/* record writes one line with a single write(2), so lines never interleave. */
static void record(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (n > (int)sizeof buf - 2) n = (int)sizeof buf - 2;
  buf[n++] = '\n';
  for (ssize_t off = 0; off < n;) {
    ssize_t w = write(out_fd_, buf + off, (size_t)(n - off));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    off += w;
  }
}

static void fail(const char *msg, const char *arg) {
  record("error msg=%s%s", msg, arg ? arg : "");
  fprintf(stderr, "benchbook driver: %s%s\n", msg, arg ? arg : "");
  exit(2);
}

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return bench_ns_(&t);
}

static long minflt_now(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

static int find_variant(const char *name) {
  for (int i = 0; i < nvariants_; i++)
    if (strcmp(variants_[i].name, name) == 0) return i;
  return -1;
}

typedef struct {
  int variant;
  int64_t k;
  double cs_got, cs_want;
  long cs_passes;
  int cs_used;
} slot_t;

static slot_t slots_[BENCH_MAX_SLOTS];
static int nslots_;

/* pass runs one timed sample of slot s: one pass, or a batch of k. */
static int64_t pass(int s) {
  bench_variant_t *v = &variants_[slots_[s].variant];
  return slots_[s].k > 1 ? v->batch(slots_[s].k) : v->once();
}

static void parse_slots(char *list) {
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    int v = find_variant(tok);
    if (v < 0) fail("unknown variant ", tok);
    if (nslots_ == BENCH_MAX_SLOTS) fail("too many slots", NULL);
    slots_[nslots_++] = (slot_t){.variant = v, .k = 1};
  }
}

static void parse_batches(char *list) {
  int i = 0;
  for (char *tok = strtok(list, ","); tok && i < nslots_; tok = strtok(NULL, ","), i++) {
    long long k = atoll(tok);
    slots_[i].k = k > 0 ? k : 1;
  }
}

static void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) fail("sched_setaffinity failed: ", strerror(errno));
  record("pinned cpu=%d", cpu);
}

/* clock_stats: the smallest non-zero step of the clock and the mean cost of
 * one read, measured over n back-to-back reads. */
static double read_cost_ns_;

static void clock_stats(void) {
  const int n = 200000;
  int64_t prev = now_ns(), start = prev, step = 0;
  for (int i = 0; i < n; i++) {
    int64_t t = now_ns();
    if (t != prev && (step == 0 || t - prev < step)) step = t - prev;
    prev = t;
  }
  read_cost_ns_ = (double)(prev - start) / n;
  record("clock resolution_ns=%lld read_cost_ns=%.3f reads=%d source=clock_gettime(CLOCK_MONOTONIC)",
         (long long)step, read_cost_ns_, n);
}

/* gaps reads the clock back to back for ms milliseconds and records every
 * gap longer than 5 us between two reads: time the thread did not run
 * (interrupts, the scheduler, a hypervisor), which lands inside passes. */
static void gaps(double ms) {
  const int64_t threshold = 5000;
  int64_t start = now_ns(), end = start + (int64_t)(ms * 1e6), prev = start, total = 0, longest = 0;
  long count = 0;
  for (int64_t t = prev; t < end; prev = t) {
    t = now_ns();
    if (t - prev > threshold) {
      count++;
      total += t - prev;
      if (t - prev > longest) longest = t - prev;
    }
  }
  record("gaps window_ns=%lld threshold_ns=%lld count=%ld total_ns=%lld max_ns=%lld", (long long)(prev - start),
         (long long)threshold, count, (long long)total, (long long)longest);
}

static void cold(const char *name) {
  int v = find_variant(name);
  if (v < 0) fail("unknown cold variant ", name);
  long f0 = minflt_now();
  int64_t ns = variants_[v].once();
  long f1 = minflt_now();
  record("cold variant=%s ns=%lld minflt=%ld", name, (long long)ns, f1 - f0);
}

static void run_setup(void) {
  if (!setup_fn_) return;
  long f0 = minflt_now();
  int64_t t0 = now_ns();
  setup_fn_();
  record("phase name=setup ns=%lld minflt=%ld", (long long)(now_ns() - t0), minflt_now() - f0);
}

static void settle(double ms) {
  int64_t t0 = now_ns(), end = t0 + (int64_t)(ms * 1e6);
  long passes = 0;
  do {
    for (int s = 0; s < nslots_; s++, passes++) pass(s);
  } while (now_ns() < end);
  record("phase name=settle ns=%lld passes=%ld", (long long)(now_ns() - t0), passes);
}

static void warmup(int w) {
  int64_t t0 = now_ns();
  for (int i = 0; i < w; i++)
    for (int s = 0; s < nslots_; s++) pass(s);
  record("phase name=warmup ns=%lld passes=%d", (long long)(now_ns() - t0), w * nslots_);
}

/* predict_k is testing.B's predictN: aim 20% over the goal, grow at most
 * 100x, at least by one, never beyond 1e9. */
static int64_t predict_k(int64_t goal, int64_t prev_k, int64_t prev_ns, int64_t last) {
  if (prev_ns <= 0) prev_ns = 1;
  int64_t k = goal * prev_k / prev_ns;
  k += k / 5;
  if (k > 100 * last) k = 100 * last;
  if (k < last + 1) k = last + 1;
  if (k > 1000000000) k = 1000000000;
  return k;
}

/* calibrate picks, for each slot whose single pass is shorter than goal ns
 * (a number of clock reads), the batch size k whose batch takes at least goal. */
static void calibrate(int64_t goal) {
  for (int s = 0; s < nslots_; s++) {
    int64_t k = 1, ns = variants_[slots_[s].variant].once();
    while (ns < goal && k < 1000000000) {
      k = predict_k(goal, k, ns, k);
      ns = variants_[slots_[s].variant].batch(k);
    }
    slots_[s].k = k;
    record("batch slot=%d variant=%s k=%lld ns=%lld goal_ns=%lld", s, variants_[slots_[s].variant].name,
           (long long)k, (long long)ns, (long long)goal);
  }
}

static void measure(int rounds) {
  for (int r = 0; r < rounds; r++) {
    for (int s = 0; s < nslots_; s++) {
      bench_cs_sum_ = 0;
      bench_cs_used_ = 0;
      long f0 = minflt_now();
      int64_t ns = pass(s);
      long f1 = minflt_now();
      if (bench_cs_used_) {
        slots_[s].cs_used = 1;
        slots_[s].cs_got += bench_cs_sum_;
        slots_[s].cs_want = bench_cs_want_;
        slots_[s].cs_passes += slots_[s].k;
      }
      record("sample round=%d slot=%d k=%lld ns=%lld minflt=%ld", r, s, (long long)slots_[s].k, (long long)ns,
             f1 - f0);
    }
  }
  for (int s = 0; s < nslots_; s++)
    if (slots_[s].cs_used)
      record("checksum slot=%d got=%.17g want=%.17g passes=%ld", s, slots_[s].cs_got, slots_[s].cs_want,
             slots_[s].cs_passes);
}

static void list(void) {
  for (int i = 0; i < nvariants_; i++) printf("variant %s %d\n", variants_[i].name, variants_[i].line);
  printf("setup %d\n", nsetup_);
}

int main(int argc, char **argv) {
  if (duplicate_name_) {
    fprintf(stderr, "variant %s is defined twice (again at line %d)\n", duplicate_name_, duplicate_line_);
    return 2;
  }
  if (argc < 2 || strcmp(argv[1], "list") == 0) {
    list();
    return 0;
  }
  if (strcmp(argv[1], "run") != 0) {
    fprintf(stderr, "usage: %s list | run -out FILE -slots a,b [options]\n", argv[0]);
    return 2;
  }
  const char *out = NULL, *cold_variant = NULL;
  char *slot_list = NULL, *batch_list = NULL;
  int pin_cpu = -1, warm = 1, rounds = 0, want_clock = 0;
  double settle_ms = 100;
  double calib_reads = 0, gaps_ms = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-clock") == 0) { want_clock = 1; continue; }
    if (!val) fail("missing value for ", a);
    i++;
    if (strcmp(a, "-out") == 0) out = val;
    else if (strcmp(a, "-slots") == 0) slot_list = strdup(val);
    else if (strcmp(a, "-batch") == 0) batch_list = strdup(val);
    else if (strcmp(a, "-cold") == 0) cold_variant = val;
    else if (strcmp(a, "-pin") == 0) pin_cpu = atoi(val);
    else if (strcmp(a, "-settle-ms") == 0) settle_ms = atof(val);
    else if (strcmp(a, "-warmup") == 0) warm = atoi(val);
    else if (strcmp(a, "-rounds") == 0) rounds = atoi(val);
    else if (strcmp(a, "-calibrate-reads") == 0) calib_reads = atof(val);
    else if (strcmp(a, "-gaps-ms") == 0) gaps_ms = atof(val);
    else fail("unknown option ", a);
  }
  if (out) {
    out_fd_ = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (out_fd_ < 0) {
      out_fd_ = 2;
      fail("cannot open -out file ", out);
    }
  }
  record("start lang=c pid=%ld harness=%d", (long)getpid(), BENCHBOOK_HARNESS_VERSION);
  if (!slot_list) fail("-slots is required", NULL);
  parse_slots(slot_list);
  if (batch_list) parse_batches(batch_list);
  if (pin_cpu >= 0) pin(pin_cpu);
  if (cold_variant) cold(cold_variant);
  if (want_clock) clock_stats();
  if (gaps_ms > 0) gaps(gaps_ms);
  run_setup();
  settle(settle_ms);
  warmup(warm);
  if (calib_reads > 0) {
    if (!want_clock) clock_stats();
    calibrate((int64_t)(calib_reads * read_cost_ns_) + 1);
  }
  measure(rounds);
  record("done");
  return 0;
}
