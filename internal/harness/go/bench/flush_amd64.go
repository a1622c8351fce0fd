package bench

// canFlush: flushLines flushes cache lines here (flush_amd64.s).
const canFlush = true

// flushLines flushes every 64-byte line of [addr, addr+n) from every cache
// level (CLFLUSH, then MFENCE); n is a positive multiple of 64.
func flushLines(addr, n uintptr)
