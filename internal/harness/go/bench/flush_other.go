//go:build !amd64

package bench

// canFlush: no flush here; evict writes a stream instead.
const canFlush = false

func flushLines(addr, n uintptr) {}
