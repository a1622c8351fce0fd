/* driver.c: the main of every %%c kernel binary. It runs the passes the
 * benchbook protocol asks for and appends one record per line to the file
 * named by -out, so that a process that dies keeps what it measured.
 * The record format is shared with the Go harness; see records.md. */
#include "benchbook.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <unistd.h>
#include <alloca.h>
#include <glob.h>

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

/* The driver's own system calls (issue 20): with page-table isolation and
 * no PCID every system call flushes the TLB, so the driver makes none
 * between a discarded pass (the warmup, a step's discarded round) and the
 * measured pass after it, and counts those it makes between two measured
 * passes (the fault count, the sample's record, a BENCH_OPS slot's waits):
 * sys_n_ counts the calls, sys_mark_ is the count when the last pass
 * ended; the syscalls record says the most between two passes. */
static long sys_n_, sys_mark_;

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
    sys_n_++;
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
  sys_n_++;
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
  int64_t ns = slots_[s].k > 1 ? v->batch(slots_[s].k) : v->once();
  sys_mark_ = sys_n_;
  return ns;
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

/* clock_stats: the clock measured right (records.md, `clock`). The
 * smallest delta of back-to-back reads is one read's cost, not the
 * clock's step (on VMs here deltas sit on a 10 ns grid while the smallest
 * is 20-31 ns), and a mean over the reads counts the time the thread was
 * descheduled (26-217 ns seen against a typical 20-31). So: the read cost
 * is the median over blocks of CLOCK_BLOCK_READS back-to-back reads (the
 * median block is one the thread ran through), and the values that the
 * deltas of CLOCK_PAIRS spaced pairs of reads take (0 to 127 dependent
 * steps between the two reads of a pair) are written as runs of adjacent
 * nanosecond values, from which the host reads the grid
 * (machine.ClockGrid: the same rule the fingerprint uses). */
#define CLOCK_BLOCKS 2000
#define CLOCK_BLOCK_READS 100
#define CLOCK_PAIRS 4000
#define CLOCK_MAX_DELTA 4096
#define CLOCK_MAX_RANGES 48
static double read_cost_ns_;

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* frequent_ranges writes the runs of values v (0 <= v < n) that at least
 * one count in 1000 of the total (and at least 2) took, as
 * "lo-hi,lo-hi" (a run of one value as "v"), at most CLOCK_MAX_RANGES,
 * or "none" (machine.FrequentRanges). */
static void frequent_ranges(const int32_t *count, int n, char *out, size_t size) {
  int64_t total = 0;
  for (int v = 0; v < n; v++) total += count[v];
  int64_t limit = total / 1000 > 2 ? total / 1000 : 2;
  size_t len = 0;
  int runs = 0;
  out[0] = 0;
  for (int v = 0; v < n && runs < CLOCK_MAX_RANGES; v++) {
    if (count[v] < limit) continue;
    int hi = v;
    while (hi + 1 < n && count[hi + 1] >= limit) hi++;
    int w = hi > v ? snprintf(out + len, size - len, "%s%d-%d", runs ? "," : "", v, hi)
                   : snprintf(out + len, size - len, "%s%d", runs ? "," : "", v);
    if (w < 0 || (size_t)w >= size - len) break;
    len += (size_t)w;
    runs++;
    v = hi;
  }
  if (runs == 0) snprintf(out, size, "none");
}

static void clock_stats(void) {
  static int64_t blocks[CLOCK_BLOCKS];
  static int32_t count[CLOCK_MAX_DELTA];
  int64_t prev = now_ns(), first = prev, step = 0;
  for (int b = 0; b < CLOCK_BLOCKS; b++) {
    int64_t start = prev;
    for (int i = 0; i < CLOCK_BLOCK_READS; i++) {
      int64_t t = now_ns();
      if (t != prev && (step == 0 || t - prev < step)) step = t - prev;
      prev = t;
    }
    blocks[b] = prev - start;
  }
  const int n = CLOCK_BLOCKS * CLOCK_BLOCK_READS;
  double mean = (double)(prev - first) / n;
  qsort(blocks, CLOCK_BLOCKS, sizeof blocks[0], cmp_i64);
  read_cost_ns_ = (double)(blocks[CLOCK_BLOCKS / 2 - 1] + blocks[CLOCK_BLOCKS / 2]) / 2 / CLOCK_BLOCK_READS;
  memset(count, 0, sizeof count);
  uint64_t x = 1, rng = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < CLOCK_PAIRS; i++) {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t steps = rng >> 57;
    int64_t t0 = now_ns();
    for (; steps > 0; steps--) {
      x = x * 5 + 1;
      __asm__ volatile("" : "+r"(x));
    }
    int64_t d = now_ns() - t0;
    if (d >= 0 && d < CLOCK_MAX_DELTA) count[d]++;
  }
  __asm__ volatile("" ::"r"(x));
  char spaced[CLOCK_MAX_RANGES * 12 + 8];
  frequent_ranges(count, CLOCK_MAX_DELTA, spaced, sizeof spaced);
  record("clock min_step_ns=%lld read_cost_ns=%.3f read_cost_mean_ns=%.3f reads=%d spaced=%s "
         "source=clock_gettime(CLOCK_MONOTONIC)",
         (long long)step, read_cost_ns_, mean, n, spaced);
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

/* cold times the first pass of a variant in the process; after says what
 * ran before it: "start" (nothing: setup has not run) or "setup" (setup ran,
 * then evict emptied the caches). */
static void cold(const char *name, const char *after) {
  int v = find_variant(name);
  if (v < 0) fail("unknown cold variant ", name);
  long f0 = minflt_now();
  int64_t ns = variants_[v].once();
  long f1 = minflt_now();
  record("cold variant=%s ns=%lld minflt=%ld after=%s", name, (long long)ns, f1 - f0, after);
}

/* llc_bytes is the largest cache size the kernel lists for cpu0 (the
 * last-level cache), or 0 when /sys does not say. */
static long long llc_bytes(void) {
  glob_t g;
  long long best = 0;
  if (glob("/sys/devices/system/cpu/cpu0/cache/index*/size", 0, NULL, &g) != 0) return 0;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    FILE *f = fopen(g.gl_pathv[i], "r");
    if (!f) continue;
    long long n = 0;
    char unit = 0;
    if (fscanf(f, "%lld%c", &n, &unit) >= 1) {
      if (unit == 'K') n <<= 10;
      else if (unit == 'M') n <<= 20;
      else if (unit == 'G') n <<= 30;
      if (n > best) best = n;
    }
    fclose(f);
  }
  globfree(&g);
  return best;
}

static volatile unsigned char evict_sink_;

/* evict empties the caches of what setup left in them before the cold pass.
 * By default it flushes the process's own pages (flush_own); with bytes > 0
 * (-evict-bytes), or where it cannot flush, it writes one byte in every 64
 * of a fresh mapping of bytes bytes (default: twice the last-level cache,
 * else 64 MiB), unmapped again. It asks for huge pages (MADV_HUGEPAGE, on 2 MiB bounds) and
 * allocates them in one call (MADV_POPULATE_WRITE, Linux 5.14), else with
 * 4 KiB pages and MAP_POPULATE: 520 MiB took 0.33-0.49 s so on this
 * project's VM against 0.60-0.90 s in 4 KiB pages (and up to 4.8 s when
 * huge pages were faulted in one at a time, compacting memory). One write
 * per line evicts as well as a write and a read did: a write allocates the
 * line. Either way it all falls in this phase, not in the cold pass. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define EVICT_TLB_PAGES 8192

/* evict_tlb: a flush, or a few hundred huge pages, leave most TLB entries
 * alone, where a stream in 4 KiB pages took them all: one write to each
 * page of a 4 KiB-page mapping of EVICT_TLB_PAGES pages (twice the largest
 * second-level TLB of these CPUs) takes them again. */
static void evict_tlb(void) {
  size_t tlb = (size_t)EVICT_TLB_PAGES * 4096;
  unsigned char *q = mmap(NULL, tlb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (q == MAP_FAILED) fail("evict: mmap failed: ", strerror(errno));
  madvise(q, tlb, MADV_NOHUGEPAGE);
  madvise(q, tlb, MADV_POPULATE_WRITE);
  for (size_t i = 0; i < tlb; i += 4096) q[i] = (unsigned char)i;
  evict_sink_ ^= q[tlb - 1];
  munmap(q, tlb);
}

/* flush_own flushes every cache line of this process's own pages from
 * every cache level (x86-64 CLFLUSH, which invalidates the line in the
 * whole coherence domain, then MFENCE): each page that /proc/self/pagemap
 * says is present, of each readable mapping /proc/self/maps lists but the
 * kernel's special ones ([vvar], [vdso], [vsyscall]). A page not present is
 * not touched: a flush of it would fault it in (the zero page for memory
 * never written), and the cold pass's faults would change. It returns the
 * bytes flushed, or -1 where it cannot (another architecture, no pagemap):
 * then evict writes a stream instead. The data setup wrote are the pages
 * flushed, whatever the size of the last-level cache: a stream of twice it
 * wrote 960 MiB a process on a VM whose CPUID lists a 480 MiB L3 (0.36-2.3
 * s), where the kernel's own pages are a few MiB. */
static long long flush_own(void) {
#if defined(__x86_64__)
  FILE *maps = fopen("/proc/self/maps", "r");
  int pm = open("/proc/self/pagemap", O_RDONLY);
  if (!maps || pm < 0) {
    if (maps) fclose(maps);
    if (pm >= 0) close(pm);
    return -1;
  }
  long page = sysconf(_SC_PAGESIZE);
  long long flushed = 0;
  char line[512];
  static uint64_t ents[512];
  while (fgets(line, sizeof line, maps)) {
    unsigned long lo, hi;
    char perms[8] = "";
    int name = 0;
    if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms, &name) < 3) continue;
    if (perms[0] != 'r') continue;
    const char *path = line + name;
    if (!strncmp(path, "[vvar", 5) || !strncmp(path, "[vdso", 5) || !strncmp(path, "[vsyscall", 9)) continue;
    for (unsigned long a = lo; a < hi;) {
      size_t n = (hi - a) / (unsigned long)page;
      if (n > sizeof ents / sizeof ents[0]) n = sizeof ents / sizeof ents[0];
      ssize_t got = pread(pm, ents, n * sizeof ents[0], (off_t)(a / (unsigned long)page * sizeof ents[0]));
      if (got <= 0) break;
      n = (size_t)got / sizeof ents[0];
      for (size_t i = 0; i < n; i++, a += (unsigned long)page) {
        if (!(ents[i] >> 63)) continue; /* not present */
        for (unsigned long l = a; l < a + (unsigned long)page; l += 64) __asm__ __volatile__("clflush (%0)" ::"r"(l) : "memory");
        flushed += page;
      }
    }
  }
  __asm__ __volatile__("mfence" ::: "memory");
  fclose(maps);
  close(pm);
  return flushed;
#else
  return -1;
#endif
}

static void evict(long long bytes) {
  int64_t t0 = now_ns();
  if (bytes <= 0) {
    long long flushed = flush_own();
    if (flushed >= 0) {
      evict_tlb();
      record("phase name=evict ns=%lld bytes=%lld huge=0 how=flush", (long long)(now_ns() - t0), flushed);
      return;
    }
    long long llc = llc_bytes();
    bytes = llc > 0 ? 2 * llc : 64LL << 20;
  }
  const size_t huge = (size_t)2 << 20;
  size_t len = (size_t)bytes + huge;
  unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) fail("evict: mmap failed: ", strerror(errno));
  unsigned char *p = (unsigned char *)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
  int hugepages = madvise(p, (size_t)bytes, MADV_HUGEPAGE) == 0 && madvise(p, (size_t)bytes, MADV_POPULATE_WRITE) == 0;
  if (!hugepages) {
    munmap(m, len);
    m = p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    len = (size_t)bytes;
    if (m == MAP_FAILED) fail("evict: mmap failed: ", strerror(errno));
  }
  for (long long i = 0; i < bytes; i += 64) p[i] = (unsigned char)i;
  evict_sink_ = p[bytes - 1];
  munmap(m, len);
  if (hugepages) evict_tlb();
  record("phase name=evict ns=%lld bytes=%lld huge=%d how=write", (long long)(now_ns() - t0), bytes, hugepages);
}

/* Pages (-pages 4k|huge): the page size of the kernel's static and setup
 * memory, the control of a TLB effect. Every private writable anonymous
 * mapping (the .bss past the file, [heap], malloc's mmaps; not the stack)
 * is advised MADV_HUGEPAGE (its 2 MiB-aligned interior) or MADV_NOHUGEPAGE
 * (all of it), once before the cold pass and again after setup (for what
 * setup mapped); with huge, after setup, MADV_COLLAPSE makes THPs of what
 * setup wrote (a write to a read-mapped huge zero page splits it into 4 KiB
 * pages). The pages record says what the process got: AnonHugePages summed
 * over /proc/self/smaps. */
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#define PAGES_HUGE_BYTES (2UL << 20)
static int pages_mode_; /* 0: not asked, 1: 4k, 2: huge */
static long long pages_advised_;
static int pages_collapse_errno_ = -1; /* -1 not tried, 0 all collapsed, else the first errno */

static void pages_advise(int collapse) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) fail("-pages: cannot read /proc/self/maps: ", strerror(errno));
  char line[1024];
  pages_advised_ = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi, off, inode;
    char perms[8], dev[32], path[512] = "";
    if (sscanf(line, "%lx-%lx %7s %lx %31s %lu %511s", &lo, &hi, perms, &off, dev, &inode, path) < 6) continue;
    if (perms[0] != 'r' || perms[1] != 'w' || perms[3] != 'p' || inode != 0) continue;
    if (path[0] == '[' && strcmp(path, "[heap]") != 0) continue; /* [stack], [vvar], ... */
    if (pages_mode_ == 1) {
      if (madvise((void *)lo, hi - lo, MADV_NOHUGEPAGE) == 0) pages_advised_ += (long long)(hi - lo);
      continue;
    }
    unsigned long a = (lo + PAGES_HUGE_BYTES - 1) & ~(PAGES_HUGE_BYTES - 1), b = hi & ~(PAGES_HUGE_BYTES - 1);
    if (a >= b) continue;
    if (madvise((void *)a, b - a, MADV_HUGEPAGE) != 0) continue;
    pages_advised_ += (long long)(b - a);
    if (collapse) {
      int e = madvise((void *)a, b - a, MADV_COLLAPSE) == 0 ? 0 : errno;
      if (pages_collapse_errno_ <= 0) pages_collapse_errno_ = e;
    }
  }
  fclose(f);
}

/* anon_huge_kb sums AnonHugePages over /proc/self/smaps. */
static long long anon_huge_kb(void) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return -1;
  char line[512];
  long long sum = 0, kb;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "AnonHugePages: %lld kB", &kb) == 1) sum += kb;
  fclose(f);
  return sum;
}

static void pages_after_setup(void) {
  if (!pages_mode_) return;
  pages_advise(pages_mode_ == 2);
  record("pages mode=%s advised_bytes=%lld anon_huge_kb=%lld collapse_errno=%d", pages_mode_ == 2 ? "huge" : "4k",
         pages_advised_, anon_huge_kb(), pages_collapse_errno_);
}

static void run_setup(void) {
  if (!setup_fn_) return;
  long f0 = minflt_now();
  int64_t t0 = now_ns();
  setup_fn_();
  record("phase name=setup ns=%lld minflt=%ld", (long long)(now_ns() - t0), minflt_now() - f0);
}

/* settle repeats whole rounds of every slot, in slot order, for at most ms
 * milliseconds (none at all when ms is 0). With a floor min_ms below ms it is adaptive: the rounds are
 * grouped in windows of at least 1 ms (and one round), and once min_ms has
 * passed it stops when SETTLE_CALM windows in a row were none of them more
 * than SETTLE_TOL below the fastest window before them: a pass no longer
 * getting faster (a clock ramping up, caches and TLB filling) has settled. */
#define SETTLE_CALM 3
#define SETTLE_TOL 0.02
static void settle(double ms, double min_ms) {
  int64_t t0 = now_ns(), end = t0 + (int64_t)(ms * 1e6), floor_ = t0 + (int64_t)(min_ms * 1e6);
  long passes = 0;
  int adaptive = min_ms < ms, stable = 0, calm = 0;
  double best = -1;
  for (; ms > 0;) {
    int64_t w0 = now_ns(), wt;
    long rounds = 0;
    do {
      for (int s = 0; s < nslots_; s++, passes++) pass(s);
      rounds++;
      wt = now_ns();
    } while (wt - w0 < 1000000 && wt < end);
    if (wt >= end) break;
    if (!adaptive) continue;
    double per = (double)(wt - w0) / (double)rounds;
    if (best < 0 || per < best * (1 - SETTLE_TOL)) calm = 0;
    else calm++;
    if (best < 0 || per < best) best = per;
    if (calm >= SETTLE_CALM && wt >= floor_) {
      stable = 1;
      break;
    }
  }
  record("phase name=settle ns=%lld passes=%ld stable=%d", (long long)(now_ns() - t0), passes, stable);
}

/* warmup runs the discarded rounds right before the measured ones; its
 * phase record waits in warm_ns_ (-1: none) until the first measured pass
 * is over, so that no write comes between the two. */
static int64_t warm_ns_ = -1;
static int warm_passes_;

static void warmup(int w) {
  int64_t t0 = now_ns();
  for (int i = 0; i < w; i++)
    for (int s = 0; s < nslots_; s++) pass(s);
  warm_ns_ = now_ns() - t0, warm_passes_ = w * nslots_;
}

static void warmup_record(void) {
  if (warm_ns_ >= 0) record("phase name=warmup ns=%lld passes=%d", (long long)warm_ns_, warm_passes_);
  warm_ns_ = -1;
}

#include "latency.c"

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

/* CALIB_TIMINGS is how many times calibrate times each candidate (the
 * single pass, then each batch size): their median decides, never one
 * timing, which one interrupt makes too slow (seen: a disturbed pass
 * switched batching off for one point of a sweep). */
#define CALIB_TIMINGS 3

static int64_t median3(int64_t a, int64_t b, int64_t c) {
  if (a > b) { int64_t t = a; a = b; b = t; }
  if (b > c) { int64_t t = b; b = c; c = t; }
  return a > b ? a : b;
}

/* calibrate picks, for each slot whose single pass is shorter than goal ns
 * (a number of clock reads), the batch size k whose batch takes at least
 * goal, each decided on the median of CALIB_TIMINGS timings. */
static void calibrate(int64_t goal) {
  for (int s = 0; s < nslots_; s++) {
    const bench_variant_t *v = &variants_[slots_[s].variant];
    int64_t k = 1, ns = median3(v->once(), v->once(), v->once());
    while (ns < goal && k < 1000000000) {
      k = predict_k(goal, k, ns, k);
      ns = median3(v->batch(k), v->batch(k), v->batch(k));
    }
    slots_[s].k = k;
    record("batch slot=%d variant=%s k=%lld ns=%lld goal_ns=%lld timings=%d", s, v->name, (long long)k, (long long)ns,
           (long long)goal, CALIB_TIMINGS);
  }
}

/* The order of the slots in a measured round: order_[pos] is the slot that
 * runs at position pos. Without -order-seed it is the slot order; with it,
 * each round is a fresh Fisher-Yates shuffle of the slot order drawn from
 * splitmix64 (records.md; harness.RoundOrder in Go reproduces it). Settle
 * and warmup keep the slot order. */
static int order_[BENCH_MAX_SLOTS];
static int shuffle_;
static uint64_t rng_state_;

/* splitmix64 is Steele, Lea and Flood's generator, as in Java's SplittableRandom. */
static uint64_t splitmix64(void) {
  uint64_t z = (rng_state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* round_order sets order_ for the next round: j is the high 64 bits of
 * next() * (i + 1), a number in [0, i]. */
static void round_order(void) {
  for (int i = 0; i < nslots_; i++) order_[i] = i;
  if (!shuffle_) return;
  for (int i = nslots_ - 1; i > 0; i--) {
    int j = (int)(((unsigned __int128)splitmix64() * (uint64_t)(i + 1)) >> 64);
    int t = order_[i];
    order_[i] = order_[j];
    order_[j] = t;
  }
}

/* In step mode (-step) the driver waits for a line on stdin before the
 * prelude and before each measured round, and writes "ok" to stdout after
 * each; EOF or the line "stop" ends the run early. */
static int step_;

/* step_wait reads one line from stdin; it returns 0 at EOF, on an error,
 * or for the line "stop". It reads a byte at a time so nothing is buffered. */
static int step_wait(void) {
  char line[64];
  size_t n = 0;
  for (;;) {
    char c;
    sys_n_++;
    ssize_t r = read(0, &c, 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return 0;
    if (c == '\n') break;
    if (n < sizeof line - 1) line[n++] = c;
  }
  if (n > 0 && line[n - 1] == '\r') n--;
  line[n] = 0;
  return strcmp(line, "stop") != 0;
}

/* step_ok tells the peer the step is done. Every record of the step went
 * out with its own write(2) before, so the -out file is complete. A peer
 * that went away is noticed by the next step_wait (SIGPIPE is ignored). */
static void step_ok(void) {
  ssize_t w;
  do w = (sys_n_++, write(1, "ok\n", 3));
  while (w < 0 && errno == EINTR);
}

/* In step mode a step runs step_rounds_ measured rounds (the last step
 * what is left), each step after step_warm_ discarded rounds in slot order:
 * the peer's step ran in between, on this core or the other, and what it
 * did to the caches is paid by discarded passes, not measured ones. */
static int step_rounds_ = 1, step_warm_;

/* measure runs the measured rounds; it returns 1 if step mode stopped it.
 * A sample's minflt is the faults between the count after the pass before
 * and the count after it, and -1 (not counted) on the first measured pass
 * after discarded ones: its count before would be a system call between
 * them. */
static int measure(int rounds) {
  long fprev = -1, first_max = 0, between_max = 0, samples = 0;
  int after_discard = 1;
  int stopped = 0;
  for (int r = 0; r < rounds; r++) {
    int first = step_ && r % step_rounds_ == 0;
    if (first) {
      if (!step_wait()) {
        stopped = 1;
        break;
      }
      for (int i = 0; i < step_warm_; i++)
        for (int s = 0; s < nslots_; s++) pass(s);
      if (step_warm_ > 0) fprev = -1, after_discard = 1;
    }
    round_order();
    for (int p = 0; p < nslots_; p++) {
      int s = order_[p];
      bench_cs_sum_ = 0;
      bench_cs_used_ = 0;
      lat_before(s);
      long gap = sys_n_ - sys_mark_;
      if (after_discard) first_max = gap > first_max ? gap : first_max;
      else between_max = gap > between_max ? gap : between_max;
      int64_t ns = pass(s);
      long f1 = minflt_now();
      lat_after(s);
      if (bench_cs_used_) {
        slots_[s].cs_used = 1;
        slots_[s].cs_got += bench_cs_sum_;
        slots_[s].cs_want = bench_cs_want_;
        slots_[s].cs_passes += slots_[s].k;
      }
      record("sample round=%d slot=%d pos=%d k=%lld ns=%lld minflt=%ld", r, s, p, (long long)slots_[s].k,
             (long long)ns, fprev >= 0 ? f1 - fprev : -1L);
      warmup_record();
      fprev = f1, after_discard = 0, samples++;
    }
    if (step_ && ((r + 1) % step_rounds_ == 0 || r + 1 == rounds)) step_ok();
  }
  warmup_record();
  if (rounds > 0) record("syscalls after_discarded=%ld between=%ld samples=%ld", first_max, between_max, samples);
  return stopped;
}

static void checksums(void) {
  for (int s = 0; s < nslots_; s++)
    if (slots_[s].cs_used)
      record("checksum slot=%d got=%.17g want=%.17g passes=%ld", s, slots_[s].cs_got, slots_[s].cs_want,
             slots_[s].cs_passes);
}

/* parse_u64 parses a decimal uint64 (digits only), or fails naming the option. */
static uint64_t parse_u64(const char *opt, const char *val) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(val, &end, 10);
  if (*val < '0' || *val > '9' || *end || errno) fail("not a decimal uint64: ", opt);
  return (uint64_t)v;
}

#include "bench_freq.h"

/* freq_: -freq was given: estimate the core clock right before the warmup
 * and right after the measured rounds (bench_freq.h). */
static int freq_;

/* prelude_t holds the options of everything before the measured rounds. */
typedef struct {
  const char *cold_variant;
  int pin_cpu, warm, clock, cold_after_setup;
  double settle_ms, settle_min_ms, calib_reads, gaps_ms;
  long long evict_bytes;
} prelude_t;

/* prelude runs what comes before the measured rounds, in the protocol's order. */
static void prelude(const prelude_t *o) {
  if (o->pin_cpu >= 0) pin(o->pin_cpu);
  if (pages_mode_) pages_advise(0);
  if (o->cold_variant && !o->cold_after_setup) cold(o->cold_variant, "start");
  if (o->clock) clock_stats();
  if (o->gaps_ms > 0) gaps(o->gaps_ms);
  run_setup();
  pages_after_setup();
  if (o->cold_after_setup) {
    evict(o->evict_bytes);
    cold(o->cold_variant, "setup");
  }
  settle(o->settle_ms, o->settle_min_ms);
  if (o->calib_reads > 0) {
    if (!o->clock) clock_stats();
    calibrate((int64_t)(o->calib_reads * read_cost_ns_) + 1);
  }
  lat_prelude();
  /* The warmup comes last, right before the measured rounds: work that
   * leaves the data alone for a millisecond (the clock estimate, the empty
   * operations) can let other work on the core evict it (seen on a VM: a
   * 64 KiB chase read 4 us warm and 40-170 us after 1-4 ms of register-only
   * work), and the first measured pass would pay for it. */
  if (freq_) freq_estimate("before");
  warmup(o->warm);
}

/* Layout: -no-aslr re-executes the binary once with ADDR_NO_RANDOMIZE set,
 * a flag execve keeps, so the re-executed process finds it set and goes on;
 * -heap-pad and -stack-pad shift later heap allocations and every frame of
 * the measuring code; the layout record says where things landed. */
static const char *aslr_err_;

static void no_aslr(char **argv) {
  int p = personality(0xffffffff);
  if (p < 0) {
    aslr_err_ = "-no-aslr: personality failed";
    return;
  }
  if (p & ADDR_NO_RANDOMIZE) return; /* re-executed, or started under setarch -R */
  if (personality((unsigned long)p | ADDR_NO_RANDOMIZE) < 0 || !(personality(0xffffffff) & ADDR_NO_RANDOMIZE)) {
    aslr_err_ = "-no-aslr: personality(ADDR_NO_RANDOMIZE) refused";
    return;
  }
  execv("/proc/self/exe", argv);
  aslr_err_ = "-no-aslr: re-exec of /proc/self/exe failed";
}

/* aslr_on: 1 if this process's addresses are randomised. */
static int aslr_on(void) {
  int p = personality(0xffffffff);
  if (p >= 0 && (p & ADDR_NO_RANDOMIZE)) return 0;
  FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
  int level = 2;
  if (f) {
    if (fscanf(f, "%d", &level) != 1) level = 2;
    fclose(f);
  }
  return level != 0;
}

typedef struct {
  prelude_t pre;
  int rounds;
  long long stack_pad, heap_pad;
  void *heap_probe;
} run_t;

/* measured runs everything after the layout is set: the layout record, the
 * prelude and the measured rounds; it returns 1 if step mode stopped it. */
__attribute__((noinline)) static int measured(run_t *r) {
  volatile int here = 0;
  record("layout stack_pad=%lld heap_pad=%lld stack_addr=%p heap_addr=%p text_addr=%p aslr=%d", r->stack_pad,
         r->heap_pad, (void *)&here, r->heap_probe, (void *)variants_[slots_[0].variant].once, aslr_on());
  if (step_ && !step_wait()) return 1;
  prelude(&r->pre);
  if (step_) step_ok();
  int stopped = measure(r->rounds);
  if (freq_) freq_estimate("after");
  return stopped + here;
}

/* padded moves the stack pointer down by stack_pad bytes (rounded up to
 * the stack's 16-byte alignment) before measured: the alloca stays live
 * until measured returns, and gcc makes no tail call of a function that
 * calls alloca. */
__attribute__((noinline)) static int padded(run_t *r) {
  volatile char *pad = alloca((size_t)r->stack_pad);
  if (r->stack_pad > 0) pad[0] = 0;
  int stopped = measured(r);
  if (r->stack_pad > 0) pad[r->stack_pad - 1] = 0;
  return stopped;
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
  for (int i = 2; i < argc; i++)
    if (strcmp(argv[i], "-no-aslr") == 0) no_aslr(argv);
  const char *out = NULL;
  char *slot_list = NULL, *batch_list = NULL;
  run_t run = {.pre = {.pin_cpu = -1, .warm = 1, .settle_ms = 100, .settle_min_ms = -1}};
  prelude_t *pre = &run.pre;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-clock") == 0) { pre->clock = 1; continue; }
    if (strcmp(a, "-step") == 0) { step_ = 1; continue; }
    if (strcmp(a, "-cold-after-setup") == 0) { pre->cold_after_setup = 1; continue; }
    if (strcmp(a, "-no-aslr") == 0) continue; /* acted on above */
    if (strcmp(a, "-freq") == 0) { freq_ = 1; continue; }
    if (!val) fail("missing value for ", a);
    i++;
    if (strcmp(a, "-out") == 0) out = val;
    else if (strcmp(a, "-slots") == 0) slot_list = strdup(val);
    else if (strcmp(a, "-batch") == 0) batch_list = strdup(val);
    else if (strcmp(a, "-cold") == 0) pre->cold_variant = val;
    else if (strcmp(a, "-pin") == 0) pre->pin_cpu = atoi(val);
    else if (strcmp(a, "-settle-ms") == 0) pre->settle_ms = atof(val);
    else if (strcmp(a, "-settle-min-ms") == 0) pre->settle_min_ms = atof(val);
    else if (strcmp(a, "-step-rounds") == 0) step_rounds_ = atoi(val);
    else if (strcmp(a, "-step-warmup") == 0) step_warm_ = atoi(val);
    else if (strcmp(a, "-warmup") == 0) pre->warm = atoi(val);
    else if (strcmp(a, "-rounds") == 0) run.rounds = atoi(val);
    else if (strcmp(a, "-evict-bytes") == 0) pre->evict_bytes = (long long)parse_u64(a, val);
    else if (strcmp(a, "-stack-pad") == 0) run.stack_pad = (long long)parse_u64(a, val);
    else if (strcmp(a, "-heap-pad") == 0) run.heap_pad = (long long)parse_u64(a, val);
    else if (strcmp(a, "-calibrate-reads") == 0) pre->calib_reads = atof(val);
    else if (strcmp(a, "-gaps-ms") == 0) pre->gaps_ms = atof(val);
    else if (strcmp(a, "-pages") == 0) {
      if (strcmp(val, "4k") == 0) pages_mode_ = 1;
      else if (strcmp(val, "huge") == 0) pages_mode_ = 2;
      else fail("-pages: want 4k or huge, not ", val);
    }
    else if (strcmp(a, "-order-seed") == 0) { rng_state_ = parse_u64(a, val); shuffle_ = 1; }
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
  if (step_ && !out) fail("-step needs -out: stdout carries the ok lines", NULL);
  if (step_rounds_ < 1) fail("-step-rounds must be at least 1", NULL);
  if (step_warm_ < 0) fail("-step-warmup must not be negative", NULL);
  if (pre->settle_min_ms < 0 || pre->settle_min_ms > pre->settle_ms) pre->settle_min_ms = pre->settle_ms;
  if (pre->cold_after_setup && !pre->cold_variant) fail("-cold-after-setup needs -cold", NULL);
  if (aslr_err_) fail(aslr_err_, NULL);
  parse_slots(slot_list);
  if (batch_list) parse_batches(batch_list);
  lat_init();
  if (step_) signal(SIGPIPE, SIG_IGN);
  /* The heap pad is kept and never written; the probe is where the next
   * small allocation went. */
  static void *heap_pad;
  if (run.heap_pad > 0 && !(heap_pad = malloc((size_t)run.heap_pad))) fail("-heap-pad: malloc failed", NULL);
  run.heap_probe = malloc(64);
  int stopped = padded(&run);
  lat_end();
  checksums();
  record("done stopped=%d", stopped);
  return 0;
}
