//go:build !amd64 && !arm64

package bench

// tickSource names the clock of tickBegin and tickEnd in the ticks record.
const tickSource = "clock_gettime"

func tickBegin() uint64 { return uint64(nanotime()) }
func tickEnd() uint64   { return uint64(nanotime()) }

// tickFreq is the monotonic clock's rate: one tick per nanosecond.
func tickFreq() uint64 { return 1e9 }
