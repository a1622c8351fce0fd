/* bench_freq.h: the driver's estimate of its own core clock (-freq),
 * included by driver.c after record() and now_ns(). The method is
 * stdlib/machine/freq.go's: time a chain of dependent integer additions,
 * one per cycle on every x86-64 core, so adds per nanosecond is the clock
 * in GHz. On x86-64 the chain is inline assembly, 64 dependent ADDs per
 * iteration; elsewhere a portable loop of 8 dependent XOR/ADD per
 * iteration whose value an empty asm claims to read and change, so the
 * compiler cannot fold it (less exact: the compiler picks the
 * instructions). A trial lasts about 1 ms; the record keeps the fastest
 * of 3 (an interrupt only slows a trial), the median and the slowest
 * (their distance from the fastest is the estimate's own repeatability). */
#ifndef BENCH_FREQ_H
#define BENCH_FREQ_H

#define BENCH_FREQ_TRIALS 3
#define BENCH_FREQ_TRIAL_NS 1000000LL

#if defined(__x86_64__) && !defined(BENCH_FREQ_PORTABLE) /* BENCH_FREQ_PORTABLE: the portable chain, to test it */
#define BENCH_FREQ_ADDS 64
static uint64_t freq_chain(uint64_t iterations, uint64_t step) {
  uint64_t x = 0;
  if (iterations == 0) return 0;
  __asm__ __volatile__("1:\n\t"
                       ".rept 64\n\t"
                       "addq %[s], %[x]\n\t"
                       ".endr\n\t"
                       "decq %[n]\n\t"
                       "jnz 1b"
                       : [x] "+r"(x), [n] "+r"(iterations)
                       : [s] "r"(step)
                       : "cc");
  return x;
}
#else
#define BENCH_FREQ_ADDS 8
static uint64_t freq_chain(uint64_t iterations, uint64_t step) {
  uint64_t x = 0;
  for (; iterations > 0; iterations--) {
    x ^= step; x += step; x ^= step; x += step;
    x ^= step; x += step; x ^= step; x += step;
    __asm__ __volatile__("" : "+r"(x));
  }
  return x;
}
#endif

static volatile uint64_t freq_sink_;
static uint64_t freq_iterations_;

static int64_t freq_time(uint64_t n) {
  int64_t t0 = now_ns();
  freq_sink_ = freq_chain(n, 3);
  return now_ns() - t0;
}

/* freq_calibrate: the iterations that take about 1 ms, found once per
 * process (by doubling a short run until the faster of two runs takes a
 * quarter of that, then scaling); the after estimate reuses them, so both time the same work. */
static uint64_t freq_calibrate(void) {
  uint64_t n = 256;
  for (int i = 0; i < 40; i++) {
    int64_t d = freq_time(n), d2 = freq_time(n); /* the faster of two: an interrupt in one does not shorten the trials */
    if (d2 < d) d = d2;
    if (d >= BENCH_FREQ_TRIAL_NS / 4) {
      uint64_t k = (uint64_t)((double)n * (double)BENCH_FREQ_TRIAL_NS / (double)d);
      return k > 0 ? k : 1;
    }
    n *= 2;
  }
  return n;
}

/* freq_estimate writes one freq record: when is "before" or "after". */
static void freq_estimate(const char *when) {
  if (freq_iterations_ == 0) freq_iterations_ = freq_calibrate();
  uint64_t n = freq_iterations_;
  int64_t t[BENCH_FREQ_TRIALS];
  for (int i = 0; i < BENCH_FREQ_TRIALS; i++) {
    int64_t d = freq_time(n);
    int j = i; /* insertion: t stays sorted */
    for (; j > 0 && t[j - 1] > d; j--) t[j] = t[j - 1];
    t[j] = d;
  }
  int64_t best = t[0] > 0 ? t[0] : 1, mid = t[BENCH_FREQ_TRIALS / 2], worst = t[BENCH_FREQ_TRIALS - 1];
  double mhz = (double)n * BENCH_FREQ_ADDS / (double)best * 1000.0;
  record("freq when=%s mhz=%.3f ns=%lld median_ns=%lld worst_ns=%lld iterations=%llu adds=%d", when, mhz,
         (long long)best, (long long)mid, (long long)worst, (unsigned long long)n, BENCH_FREQ_ADDS);
}

#endif
