// Package bench runs the measurement protocol of seed 000 on a built native
// kernel and returns a Result that carries every sample behind every figure
// and everything that can change its numbers: warmup discarded, variants
// interleaved round robin with an A/A control, an in-process series beside a
// fresh-process series, the cold pass and its page faults, the clock, the load,
// the machine.
package bench
