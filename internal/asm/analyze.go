package asm

import (
	"fmt"
	"sort"
	"strings"
)

// ClockSymbols are the functions whose calls read the clock in benchbook's
// harnesses: clock_gettime in C, runtime.nanotime in Go.
var ClockSymbols = []string{"clock_gettime", "clock_gettime@plt", "__vdso_clock_gettime", "__clock_gettime",
	"runtime.nanotime", "runtime.nanotime1", "time.now", "time.Now", "time.runtimeNano"}

// IsClock reports whether a call target symbol reads the clock.
func IsClock(sym string) bool {
	base := sym
	if i := strings.IndexAny(base, "+"); i >= 0 {
		base = base[:i]
	}
	for _, s := range ClockSymbols {
		if base == s {
			return true
		}
	}
	return strings.HasSuffix(base, "/bench.Now") || strings.HasSuffix(base, ".bench.Now")
}

// Loop is a backward branch inside the timed region and the instructions it repeats.
type Loop struct {
	Start, End uint64         // first instruction and the backward branch
	Insts      int            // instructions per iteration
	FP         map[string]int // floating-point arithmetic per iteration, by mnemonic
	BodyInt    int            // integer arithmetic that is not the loop's own counting
	Memory     int            // instructions with a memory operand
	Calls      []string
}

// FPOps returns the floating-point arithmetic instructions per iteration.
func (l Loop) FPOps() int {
	n := 0
	for _, c := range l.FP {
		n += c
	}
	return n
}

// Hollow reports a loop that only counts: no arithmetic on data, no memory, no calls.
func (l Loop) Hollow() bool {
	return l.FPOps() == 0 && l.BodyInt == 0 && l.Memory == 0 && len(l.Calls) == 0
}

// Analysis is what the timed region of one variant holds.
type Analysis struct {
	Function   string
	ClockReads int      // clock calls in the whole function
	Region     []Inst   // instructions strictly between the first two clock reads
	Loops      []Loop   // backward branches inside the region, outermost first
	FP         int      // floating-point arithmetic instructions in the region
	Int        int      // integer arithmetic in the region (not zero idioms or stack adjustment)
	Calls      []string // calls in the region other than the clock
	Dead       bool     // no loop, no arithmetic, no call: the region times the clock alone
	Hollow     bool     // loops, but every loop only counts: the work is gone, the loop is not
	Finding    string   // one sentence from the numbers above
	// Batch is the harness's loop over k of a batch function (AnalyzeBatch),
	// nil for a single pass; Loops then holds the loops other than it.
	Batch *Loop `json:",omitempty"`
	// Hoisted counts the arithmetic instructions of a batch function outside
	// its loop over k: work done once for all k passes.
	Hoisted int `json:",omitempty"`
}

// Analyze finds the timed region of f and says what the compiler left in it.
// arm selects GNU arm64 operand order (destination first).
func Analyze(f Func, arm bool) (Analysis, error) {
	a := Analysis{Function: f.Name}
	var clocks []int
	for i, in := range f.Insts {
		if isCall(in.Mnemonic) && IsClock(in.Sym) {
			clocks = append(clocks, i)
		}
	}
	a.ClockReads = len(clocks)
	if len(clocks) < 2 {
		return a, fmt.Errorf("%s: expected two clock reads around the timed body, found %d", f.Name, len(clocks))
	}
	a.Region = f.Insts[clocks[0]+1 : clocks[1]]
	a.count(arm)
	a.Dead = len(a.Loops) == 0 && a.FP == 0 && a.Int == 0 && len(a.Calls) == 0
	a.Hollow = len(a.Loops) > 0 && allHollow(a.Loops)
	a.Finding = a.describe()
	return a, nil
}

func allHollow(loops []Loop) bool {
	for _, l := range loops {
		if !l.Hollow() {
			return false
		}
	}
	return true
}

func (a *Analysis) count(arm bool) {
	for i, in := range a.Region {
		switch {
		case isCall(in.Mnemonic):
			a.Calls = append(a.Calls, callName(in))
		case isFP(in.Mnemonic):
			a.FP++
		case isInt(in.Mnemonic) && !isZeroIdiom(in) && !isStackAdjust(in):
			a.Int++
		case isBranch(in.Mnemonic) && in.Target != 0 && in.Target <= in.Addr && in.Target >= a.Region[0].Addr:
			a.Loops = append(a.Loops, loopAt(a.Region, i, arm))
		}
	}
	sort.SliceStable(a.Loops, func(i, j int) bool { return a.Loops[i].Start < a.Loops[j].Start })
}

func callName(in Inst) string {
	if in.Sym != "" {
		return in.Sym
	}
	return fmt.Sprintf("%#x", in.Target)
}

// loopAt builds the loop closed by the backward branch at region[end].
func loopAt(region []Inst, end int, arm bool) Loop {
	br := region[end]
	start := end
	for start > 0 && region[start-1].Addr >= br.Target {
		start--
	}
	body := region[start : end+1]
	l := Loop{Start: body[0].Addr, End: br.Addr, Insts: len(body), FP: map[string]int{}}
	counters := counterRegs(body, arm)
	for i, in := range body {
		switch {
		case isCall(in.Mnemonic):
			l.Calls = append(l.Calls, callName(in))
		case isFP(in.Mnemonic):
			l.FP[in.Mnemonic]++
		case isInt(in.Mnemonic) && !isZeroIdiom(in):
			next := ""
			if i+1 < len(body) {
				next = body[i+1].Mnemonic
			}
			if !counters[dest(in, arm)] && !(isBranch(next) && i+1 == len(body)-1) {
				l.BodyInt++
			}
		}
		if touchesMemory(in) {
			l.Memory++
		}
	}
	return l
}

// counterRegs returns the registers a loop compares: its induction variables.
func counterRegs(body []Inst, arm bool) map[string]bool {
	regs := map[string]bool{}
	for _, in := range body {
		if isCompare(in.Mnemonic) {
			for _, op := range operands(in.Operands) {
				if r := register(op); r != "" {
					regs[r] = true
				}
			}
		}
	}
	return regs
}

func (a *Analysis) describe() string {
	n := len(a.Region)
	switch {
	case a.Dead:
		return fmt.Sprintf("between the two clock reads there are %d instructions and no loop: "+
			"the compiler removed the work; this variant times the clock", n)
	case a.Hollow:
		l := a.Loops[len(a.Loops)-1]
		return fmt.Sprintf("between the two clock reads there is a loop of %d instructions that only counts "+
			"(no floating-point or integer arithmetic on data, no memory access), %d instructions in all: "+
			"the compiler removed the body's work and kept the loop; this variant times an empty loop", l.Insts, n)
	}
	var parts []string
	for _, l := range a.Loops {
		parts = append(parts, describeLoop(l))
	}
	if len(a.Loops) == 0 {
		parts = append(parts, fmt.Sprintf("no loop, %d floating-point and %d integer arithmetic instructions", a.FP, a.Int))
	}
	if len(a.Calls) > 0 {
		parts = append(parts, "calls "+strings.Join(a.Calls, ", ")+" (not inlined: the work is in the callee)")
	}
	return fmt.Sprintf("between the two clock reads there are %d instructions: %s; the work is there",
		n, strings.Join(parts, "; "))
}

func describeLoop(l Loop) string {
	s := fmt.Sprintf("a loop of %d instructions", l.Insts)
	if fp := l.FPOps(); fp > 0 {
		var names []string
		for mn, c := range l.FP {
			names = append(names, fmt.Sprintf("%d %s", c, mn))
		}
		sort.Strings(names)
		s += fmt.Sprintf(" with %s per iteration (%s)", plural(fp, "floating-point operation"), strings.Join(names, ", "))
	} else if l.BodyInt > 0 {
		s += fmt.Sprintf(" with %s on data per iteration", plural(l.BodyInt, "integer operation"))
	}
	if l.Memory > 0 {
		s += ", " + plural(l.Memory, "memory access")
	}
	return s
}

// plural writes "1 loop" or "3 loops" ("access" takes "es").
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	if strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// IsClockCall reports whether an instruction is a call that reads the clock.
func IsClockCall(in Inst) bool { return isCall(in.Mnemonic) && IsClock(in.Sym) }

// IsFP reports whether a mnemonic is floating-point arithmetic.
func IsFP(mnemonic string) bool { return isFP(mnemonic) }
