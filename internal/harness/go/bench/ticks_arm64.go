package bench

// tickSource names the clock of tickBegin and tickEnd in the ticks record.
const tickSource = "cntvct_el0"

// tickBegin is ISB; MRS CNTVCT_EL0, the virtual counter. ticks_arm64.s.
func tickBegin() uint64

// tickEnd is the same read as tickBegin.
func tickEnd() uint64 { return tickBegin() }

// tickFreq is CNTFRQ_EL0, the counter's rate in Hz. ticks_arm64.s.
func tickFreq() uint64
