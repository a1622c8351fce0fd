/* latency.h: BENCH_OPS, the worst operation (included by benchbook.h).
 *
 *   BENCH_OPS(name, n) { ... BENCH_OP_BEGIN; op; BENCH_OP_END; ... }
 *
 * A variant like BENCH(name) whose body performs exactly n operations per
 * pass (n a constant expression > 0), each between BENCH_OP_BEGIN and
 * BENCH_OP_END. The pass is timed as any BENCH pass; in the measured passes
 * every operation is also timed on its own with the cheapest clock the
 * machine has, into a log-bucketed histogram (3 significant digits) that
 * the driver writes out after the measured rounds (records.md: ticks,
 * latency_buckets, latency). See docs/latency.md.
 *
 * The clock, bench_tick_begin_ / bench_tick_end_:
 *  - x86-64: LFENCE;RDTSC before the operation, RDTSCP;LFENCE after it.
 *    Intel SDM vol. 2B, RDTSC: "If software requires RDTSC to be executed
 *    only after all previous instructions have executed and all previous
 *    loads are globally visible, it can execute LFENCE immediately before
 *    RDTSC"; RDTSCP: "If software requires RDTSCP to be executed prior to
 *    execution of any subsequent instruction (including any memory
 *    accesses), it can execute LFENCE immediately after RDTSCP" (so the
 *    next operation's work does not start before the read). RDTSCP itself
 *    waits for the operation's instructions to execute. The TSC rate is
 *    calibrated against CLOCK_MONOTONIC in the same process, over 20 ms
 *    before the measured rounds and 20 ms after them.
 *  - arm64: ISB; MRS CNTVCT_EL0 (the virtual counter), rate CNTFRQ_EL0.
 *  - elsewhere: clock_gettime(CLOCK_MONOTONIC), in ns.
 * The fences and bookkeeping cost something: the driver measures n empty
 * operations (BENCH_OP_BEGIN; BENCH_OP_END) before the measured rounds and
 * reports their median as the overhead. It is not subtracted. */
#ifndef BENCHBOOK_LATENCY_H
#define BENCHBOOK_LATENCY_H
#include <stdint.h>
#include <time.h>

/* bench_tick_plain_: the counter where no fence pair is needed around it
 * (arm64's isb orders the read; clock_gettime is a call). */
static inline __attribute__((always_inline)) uint64_t bench_tick_plain_(void) {
#if defined(__aarch64__)
  uint64_t v;
  __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
  return v;
#else
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
#endif
}

static inline __attribute__((always_inline)) uint64_t bench_tick_begin_(void) {
#if defined(__x86_64__)
  uint32_t lo, hi;
  __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
  return ((uint64_t)hi << 32) | lo;
#else
  return bench_tick_plain_();
#endif
}

static inline __attribute__((always_inline)) uint64_t bench_tick_end_(void) {
#if defined(__x86_64__)
  uint32_t lo, hi;
  __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi) : : "rcx", "memory");
  return ((uint64_t)hi << 32) | lo;
#else
  return bench_tick_plain_();
#endif
}

/* bench_ops_: the state BENCH_OP_BEGIN and BENCH_OP_END keep; the driver
 * resets it before each measured pass and checks it after. */
typedef struct {
  uint64_t t0;
  int64_t begins, ends;
  int open;       /* a BENCH_OP_BEGIN is waiting for its BENCH_OP_END */
  int open_line;  /* line of the last BENCH_OP_BEGIN */
  int bad_line;   /* line of the first misuse, 0 if none */
  const char *bad_what;
  uint64_t *hist; /* the histogram the measured pass adds to, or NULL */
} bench_ops_state_t;
extern bench_ops_state_t bench_ops_;

void bench_ops_add_(uint64_t ticks);
void bench_register_ops_(const char *name, int64_t n, int line);

#define BENCH_OP_BEGIN                                                    \
  do {                                                                    \
    if (bench_ops_.open && !bench_ops_.bad_line) {                        \
      bench_ops_.bad_line = __LINE__;                                     \
      bench_ops_.bad_what = "BENCH_OP_BEGIN again before BENCH_OP_END";   \
    }                                                                     \
    bench_ops_.open = 1;                                                  \
    bench_ops_.open_line = __LINE__;                                      \
    bench_ops_.begins++;                                                  \
    bench_ops_.t0 = bench_tick_begin_();                                  \
  } while (0)

#define BENCH_OP_END                                                      \
  do {                                                                    \
    uint64_t bench_t1_ = bench_tick_end_();                               \
    if (!bench_ops_.open && !bench_ops_.bad_line) {                       \
      bench_ops_.bad_line = __LINE__;                                     \
      bench_ops_.bad_what = "BENCH_OP_END without a BENCH_OP_BEGIN";      \
    }                                                                     \
    bench_ops_.open = 0;                                                  \
    bench_ops_.ends++;                                                    \
    if (bench_ops_.hist) bench_ops_add_(bench_t1_ - bench_ops_.t0);       \
  } while (0)

#define BENCH_OPS(name, n)                                                \
  _Static_assert((n) > 0, "BENCH_OPS(" #name ", " #n                      \
                 "): the number of operations per pass must be > 0");     \
  __attribute__((constructor)) static void bench_register_ops_##name(void) { \
    bench_register_ops_(#name, (int64_t)(n), __LINE__);                   \
  }                                                                       \
  BENCH(name)

#endif
