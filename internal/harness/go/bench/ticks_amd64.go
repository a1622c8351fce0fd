package bench

// tickSource names the clock of tickBegin and tickEnd in the ticks record.
const tickSource = "rdtsc"

// tickBegin is LFENCE; RDTSC: the counter read after every earlier
// instruction has executed (Intel SDM vol. 2B, RDTSC). ticks_amd64.s.
func tickBegin() uint64

// tickEnd is RDTSCP; LFENCE: the counter read after the operation's
// instructions have executed, and before any later one starts (Intel SDM
// vol. 2B, RDTSCP). ticks_amd64.s.
func tickEnd() uint64

// tickFreq is 0: the TSC's rate is measured against the monotonic clock.
func tickFreq() uint64 { return 0 }
