package asm

import (
	"fmt"
	"strings"
)

// AnalyzeBatch analyses a batch function: k passes of the body between two
// clock reads, in a loop over k with a compiler barrier after each pass
// (bench_batch_NAME in C, main.bbBatch_NAME in Go). The loop over k is the
// harness's, not the body's work: it is taken out of Loops and kept in
// Batch, and its own counting (the increment and compare of k's counter)
// is not counted in Int. What is left is judged as Analyze judges a single
// pass, so a batch of a dead body is dead (the region holds the loop over
// k and nothing else) and a batch of a hollow body hollow. Arithmetic
// outside the loop over k, which would be work computed once for all k
// passes, is counted in Hoisted and named in the finding.
func AnalyzeBatch(f Func, arm bool) (Analysis, error) {
	a, err := Analyze(f, arm)
	if err != nil {
		return a, err
	}
	if len(a.Loops) == 0 {
		a.Finding = "the batch function has no loop over k between its two clock reads: " + a.Finding
		return a, nil
	}
	// The loop over k is the outermost loop: the one with the widest span.
	outer := 0
	for i, l := range a.Loops {
		if l.End-l.Start > a.Loops[outer].End-a.Loops[outer].Start {
			outer = i
		}
	}
	k := a.Loops[outer]
	var rest []Loop
	for i, l := range a.Loops {
		if i != outer {
			rest = append(rest, l)
		}
	}
	inLoop := func(addr uint64, loops []Loop) bool {
		for _, l := range loops {
			if addr >= l.Start && addr <= l.End {
				return true
			}
		}
		return false
	}
	// k's own instructions: inside the loop over k, outside every inner loop.
	var own []Inst
	for _, in := range a.Region {
		if in.Addr >= k.Start && in.Addr <= k.End && !inLoop(in.Addr, rest) {
			own = append(own, in)
		}
	}
	counters := counterRegs(own, arm)
	a.Int = 0
	a.Hoisted = 0
	for i, in := range a.Region {
		inK := in.Addr >= k.Start && in.Addr <= k.End
		switch {
		case isFP(in.Mnemonic):
			if !inK {
				a.Hoisted++
			}
		case isInt(in.Mnemonic) && !isZeroIdiom(in) && !isStackAdjust(in):
			if inK && !inLoop(in.Addr, rest) {
				next := ""
				if i+1 < len(a.Region) {
					next = a.Region[i+1].Mnemonic
				}
				if counters[dest(in, arm)] || isBranch(next) {
					continue // counting k
				}
			}
			a.Int++
			if !inK && !counters[dest(in, arm)] {
				a.Hoisted++
			}
		}
	}
	for _, l := range rest {
		if l.Start > k.End || l.End < k.Start {
			a.Hoisted += l.Insts
		}
	}
	a.Loops, a.Batch = rest, &k
	a.Dead = len(a.Loops) == 0 && a.FP == 0 && a.Int == 0 && len(a.Calls) == 0
	a.Hollow = len(a.Loops) > 0 && allHollow(a.Loops)
	a.Finding = a.describeBatch()
	return a, nil
}

func (a *Analysis) describeBatch() string {
	k := a.Batch
	head := fmt.Sprintf("between the two clock reads the batch loop repeats the pass k times (%s of its own, %d in the region)",
		plural(k.Insts-sumInsts(a.Loops, k), "instruction"), len(a.Region))
	var s string
	switch {
	case a.Dead:
		s = head + " and holds nothing else: the compiler removed the work; a batch of this variant times the clock and an empty loop"
	case a.Hollow:
		l := a.Loops[len(a.Loops)-1]
		s = fmt.Sprintf("%s; inside it a loop of %d instructions only counts (no floating-point or integer arithmetic on data, "+
			"no memory access): the compiler removed the body's work and kept its loop; a batch of this variant times empty loops", head, l.Insts)
	default:
		var parts []string
		for _, l := range a.Loops {
			parts = append(parts, describeLoop(l))
		}
		if len(a.Loops) == 0 {
			parts = append(parts, fmt.Sprintf("no inner loop, %d floating-point and %d integer arithmetic instructions", a.FP, a.Int))
		}
		if len(a.Calls) > 0 {
			parts = append(parts, "calls "+strings.Join(a.Calls, ", ")+" (not inlined: the work is in the callee)")
		}
		s = fmt.Sprintf("%s; it holds %s; the work is there", head, strings.Join(parts, "; "))
	}
	if a.Hoisted > 0 {
		s += fmt.Sprintf("; %s of work sit outside the batch loop, computed once for all k passes",
			plural(a.Hoisted, "instruction"))
	}
	return s
}

// sumInsts is the instructions of the loops inside k.
func sumInsts(loops []Loop, k *Loop) int {
	n := 0
	for _, l := range loops {
		if l.Start >= k.Start && l.End <= k.End {
			n += l.Insts
		}
	}
	return n
}
