/* benchbook.h: the harness every %%c cell is compiled with. It is included
 * before the cell's own code; the cell's lines keep their numbers (#line).
 *
 *   BENCH(name) { body }     a variant: its timed function holds the body
 *                            inlined between exactly two clock reads.
 *   BENCH_SETUP() { ... }    runs once per process, after the cold pass
 *                            (before it with -cold-after-setup).
 *   bench_sink(x)            an empty asm statement that claims to read x.
 *   bench_checksum(x, want)  adds x to the variant's checksum; the harness
 *                            checks the total against want per pass.
 *   BENCH_OPS(name, n) { ... BENCH_OP_BEGIN; op; BENCH_OP_END; ... }
 *                            a variant whose pass performs exactly n
 *                            operations, each timed on its own (rdtsc on
 *                            x86-64) into a histogram: the result's
 *                            latency{p50_ns ... max_ns, overhead_ns}.
 *                            See latency.h and docs/latency.md.
 *
 * Nothing else is timed: a body whose result is unused may be deleted by the
 * compiler, which is what the benchbook notebook shows you. */
#ifndef BENCHBOOK_H
#define BENCHBOOK_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <time.h>

#define BENCHBOOK_HARNESS_VERSION 10

/* BENCH_PAD: bytes a kernel may add to each row of a table whose row stride
 * is a power of two (%bench pad=BYTES measures a build with
 * -DBENCH_PAD=BYTES beside the build without it); 0 unless given. */
#ifndef BENCH_PAD
#define BENCH_PAD 0
#endif

typedef int64_t (*bench_once_fn_)(void);
typedef int64_t (*bench_batch_fn_)(int64_t);

void bench_register_(const char *name, bench_once_fn_ once, bench_batch_fn_ batch, int line);
void bench_register_setup_(void (*fn)(void), int line);

/* Written by bench_checksum, read and reset by the driver around each pass. */
extern double bench_cs_sum_;
extern double bench_cs_want_;
extern int bench_cs_used_;

static inline int64_t bench_ns_(const struct timespec *t) {
  return (int64_t)t->tv_sec * 1000000000 + (int64_t)t->tv_nsec;
}

/* The value must be computed, stored where the asm can read it, and the
 * "memory" clobber stops the compiler from caching loads across it. */
#define bench_sink(x)                                                     \
  do {                                                                    \
    __typeof__(x) bench_sink_v_ = (x);                                    \
    __asm__ __volatile__("" : : "r,m"(bench_sink_v_) : "memory");         \
  } while (0)

/* A store to caller-visible variables: the driver adds it into the checksum. */
#define bench_checksum(x, want)                                           \
  ((void)(bench_cs_sum_ += (double)(x), bench_cs_want_ = (double)(want),  \
          bench_cs_used_ = 1))

/* bench_barrier_: a compiler barrier, no instruction. The compiler may not
 * move a load or store of memory across it, nor keep a value of memory in a
 * register across it. glibc declares clock_gettime __leaf__ (it never calls
 * back into this file), so without a barrier a store to a static variable
 * of the cell could legally move across a clock read; with one at each
 * clock read, every access to memory of the body stays between them. */
#define bench_barrier_() __asm__ __volatile__("" : : : "memory")

/* bench_time_NAME: one pass between two clock reads, the function whose
 * assembly the notebook shows. bench_batch_NAME: k passes between two clock
 * reads, for passes too short to time alone; the barrier after each pass
 * stops the compiler from computing the body once for all k. Both are
 * disassembled and analysed (harness.Variant's Batch fields). */
#define BENCH(name)                                                       \
  static inline __attribute__((always_inline)) void bench_body_##name(void); \
  __attribute__((noinline, used)) int64_t bench_time_##name(void) {       \
    struct timespec bench_t0_, bench_t1_;                                 \
    clock_gettime(CLOCK_MONOTONIC, &bench_t0_);                           \
    bench_barrier_();                                                     \
    bench_body_##name();                                                  \
    bench_barrier_();                                                     \
    clock_gettime(CLOCK_MONOTONIC, &bench_t1_);                           \
    return bench_ns_(&bench_t1_) - bench_ns_(&bench_t0_);                 \
  }                                                                       \
  __attribute__((noinline, used)) int64_t bench_batch_##name(int64_t k) { \
    struct timespec bench_t0_, bench_t1_;                                 \
    clock_gettime(CLOCK_MONOTONIC, &bench_t0_);                           \
    bench_barrier_();                                                     \
    for (int64_t bench_i_ = 0; bench_i_ < k; bench_i_++) {                \
      bench_body_##name();                                                \
      bench_barrier_();                                                   \
    }                                                                     \
    clock_gettime(CLOCK_MONOTONIC, &bench_t1_);                           \
    return bench_ns_(&bench_t1_) - bench_ns_(&bench_t0_);                 \
  }                                                                       \
  __attribute__((constructor)) static void bench_register_##name(void) {  \
    bench_register_(#name, bench_time_##name, bench_batch_##name, __LINE__); \
  }                                                                       \
  static inline __attribute__((always_inline)) void bench_body_##name(void)

#define BENCH_SETUP()                                                     \
  static void bench_setup_body_(void);                                    \
  __attribute__((constructor)) static void bench_register_setup_body_(void) { \
    bench_register_setup_(bench_setup_body_, __LINE__);                   \
  }                                                                       \
  static void bench_setup_body_(void)

#include "latency.h"

#endif
