#define N (1 << 20)
static float a[N];
BENCH_SETUP() { for (int i = 0; i < N; i++) a[i] = (i & 7) * 0.25f; }
BENCH(discarded) { float s = 0; for (int i = 0; i < N; i++) s += a[i]; }
BENCH(sink)      { float s = 0; for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }
BENCH(checksum)  { float s = 0; for (int i = 0; i < N; i++) s += a[i]; bench_checksum(s, 917504.0); }
