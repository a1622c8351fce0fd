package harness

import (
	"strconv"
	"strings"
)

// Args are the options of one run of a kernel's driver (records.md's
// table), typed: the host builds an Args and Argv writes its command line,
// so no caller spells a flag or formats a value. A zero Args runs the
// driver's defaults except where a field says otherwise; TestArgsTable
// holds Argv to records.md's table (every flag there has a field, and no
// field writes a flag that is not there).
type Args struct {
	Out            string   // -out: the record file
	Slots          []string // -slots: variants by name, in slot order
	Batch          []int64  // -batch: passes per sample, per slot (nil: 1 each)
	Cold           string   // -cold: the variant of the cold pass ("": none)
	ColdAfterSetup bool     // -cold-after-setup
	EvictBytes     int64    // -evict-bytes (0: the driver's default)
	// Layout, nil for the driver's: -stack-pad, -heap-pad and -no-aslr.
	Layout *Layout
	Pin    *int // -pin: the CPU (nil: not pinned)
	// SettleMS is -settle-ms, the settle's bound (0: no settle round);
	// SettleMinMS its floor, nil for a fixed settle.
	SettleMS       float64
	SettleMinMS    *float64
	Warmup         int     // -warmup: discarded rounds
	Rounds         int     // -rounds: measured rounds
	CalibrateReads int     // -calibrate-reads (0: no calibration)
	Clock          bool    // -clock
	GapsMS         int     // -gaps-ms (0: none)
	OrderSeed      *uint64 // -order-seed (nil: slot order)
	Pages          string  // -pages: "4k" or "huge" ("": the driver's, 4k)
	Freq           bool    // -freq
	Step           bool    // -step
	StepRounds     int     // -step-rounds (0: the driver's, 1)
	StepWarmup     int     // -step-warmup
}

// Layout is where a process puts its stack and heap (records.md, Layout).
type Layout struct {
	StackPad, HeapPad int
	NoASLR            bool
}

// Argv is the driver's command line for a: "run" and the flags.
func (a Args) Argv() []string {
	argv := []string{"run"}
	str := func(flag, v string) { argv = append(argv, flag, v) }
	num := func(flag string, v int64) { str(flag, strconv.FormatInt(v, 10)) }
	ms := func(flag string, v float64) { str(flag, strconv.FormatFloat(v, 'f', -1, 64)) }
	on := func(flag string, b bool) {
		if b {
			argv = append(argv, flag)
		}
	}
	if a.Out != "" {
		str("-out", a.Out)
	}
	str("-slots", strings.Join(a.Slots, ","))
	if a.Batch != nil {
		ks := make([]string, len(a.Batch))
		for i, k := range a.Batch {
			ks[i] = strconv.FormatInt(k, 10)
		}
		str("-batch", strings.Join(ks, ","))
	}
	if a.Cold != "" {
		str("-cold", a.Cold)
	}
	on("-cold-after-setup", a.ColdAfterSetup)
	if a.EvictBytes > 0 {
		num("-evict-bytes", a.EvictBytes)
	}
	if l := a.Layout; l != nil {
		num("-stack-pad", int64(l.StackPad))
		num("-heap-pad", int64(l.HeapPad))
		on("-no-aslr", l.NoASLR)
	}
	if a.Pin != nil {
		num("-pin", int64(*a.Pin))
	}
	ms("-settle-ms", a.SettleMS)
	if a.SettleMinMS != nil {
		ms("-settle-min-ms", *a.SettleMinMS)
	}
	num("-warmup", int64(a.Warmup))
	num("-rounds", int64(a.Rounds))
	if a.CalibrateReads > 0 {
		num("-calibrate-reads", int64(a.CalibrateReads))
	}
	on("-clock", a.Clock)
	if a.GapsMS > 0 {
		num("-gaps-ms", int64(a.GapsMS))
	}
	if a.OrderSeed != nil {
		str("-order-seed", strconv.FormatUint(*a.OrderSeed, 10))
	}
	if a.Pages != "" {
		str("-pages", a.Pages)
	}
	on("-freq", a.Freq)
	on("-step", a.Step)
	if a.StepRounds > 0 {
		num("-step-rounds", int64(a.StepRounds))
	}
	if a.StepWarmup > 0 {
		num("-step-warmup", int64(a.StepWarmup))
	}
	return argv
}
