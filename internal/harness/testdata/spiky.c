static volatile unsigned long x;
static void spin_ns(long ns) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
}
/* every 1000th operation spins 20 us, the others add one */
BENCH_OPS(spiky, 10000) {
  for (int i = 0; i < 10000; i++) {
    BENCH_OP_BEGIN;
    if (i % 1000 == 999) spin_ns(20000);
    else x++;
    BENCH_OP_END;
  }
}
BENCH(plain) { x++; }
