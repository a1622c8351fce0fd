package findings

import (
	"fmt"
	"strings"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// KindLatency and TopicLatency: the worst operation of a BENCH_OPS variant.
const (
	KindLatency  = "latency"
	TopicLatency = "latency"
)

// The thresholds of the latency sentences.
const (
	// LatencyAloneRatio: a max more than this many times the p99.99 is an
	// event of its own, not the end of a tail.
	LatencyAloneRatio = 10.0
	// LatencyRateDrift: two calibrations of the tick rate further apart
	// than this (relative) make the conversion to ns doubtful.
	LatencyRateDrift = 0.01
)

// latencySentences: per BENCH_OPS variant, the worst operation against the
// median, the tail percentiles, the timer's share of the median, whether
// the worst stands alone, and whether the tick rate can be trusted.
func latencySentences(f *facts) []Sentence {
	var out []Sentence
	ops := opsOf(f.r)
	shared := sharedMethod(ops)
	if shared {
		out = append(out, one(TopicLatency, "", "", sharedText(ops))...)
	}
	for _, o := range ops {
		out = append(out, one(TopicLatency, KindLatency, o.name, worstText(o.name, o.l, !shared))...)
		if !shared {
			out = append(out, one(TopicLatency, "", o.name, overheadText(o.name, o.l))...)
		}
		if l := o.l; l.P9999NS > 0 && l.MaxNS > LatencyAloneRatio*l.P9999NS {
			if l.Preempted() {
				out = append(out, said(ClaimLatencyPreempted, "", TopicLatency, KindLatency, o.name, aloneText(o.name, l))...)
			} else {
				out = append(out, one(TopicLatency, KindLatency, o.name, aloneText(o.name, l))...)
			}
		}
		out = append(out, one(TopicLatency, KindLatency, o.name, rateText(o.name, o.l))...)
	}
	return append(out, one(TopicLatency, KindLatency, "", acrossText(ops))...)
}

// namedLatency is a BENCH_OPS variant's name and its latency entry.
type namedLatency struct {
	name string
	l    *result.Latency
}

// opsOf is the variants of r with operations timed, in result order.
func opsOf(r *result.Result) []namedLatency {
	var ops []namedLatency
	for i := range r.Variants {
		if l := r.Variants[i].Latency; l != nil && l.N > 0 {
			ops = append(ops, namedLatency{r.Variants[i].Name, l})
		}
	}
	return ops
}

// sharedMethod: two or more BENCH_OPS variants timed the same way (clock,
// passes, operations a pass) with timers that read the same, so the
// method and the timer's cost are said once for all of them.
func sharedMethod(ops []namedLatency) bool {
	if len(ops) < 2 {
		return false
	}
	a := ops[0].l
	for _, o := range ops[1:] {
		b := o.l
		if b.Clock != a.Clock || b.Passes != a.Passes || b.OpsPerPass != a.OpsPerPass || numtext.FormatNS(b.OverheadNS) != numtext.FormatNS(a.OverheadNS) {
			return false
		}
	}
	return true
}

// methodText: how the operations were timed.
func methodText(l *result.Latency) string {
	return fmt.Sprintf("each operation timed with %s, %d measured passes of %s operations in the in-process series; percentiles to 3 significant digits",
		l.Clock, l.Passes, numtext.FormatCount(l.OpsPerPass))
}

// sharedText: the method and the timer's cost, once for the BENCH_OPS
// variants that share them, naming those whose median is mostly the timer.
func sharedText(ops []namedLatency) string {
	l := ops[0].l
	var names, timerBound []string
	for _, o := range ops {
		names = append(names, o.name)
		if o.l.P50NS > 0 && o.l.OverheadNS > o.l.P50NS/2 {
			timerBound = append(timerBound, o.name)
		}
	}
	text := fmt.Sprintf("the %d BENCH_OPS variants (%s) were timed alike: %s; the timer's own cost (an empty operation, measured %s times in each process) is %s, included in every percentile (it is not subtracted)",
		len(ops), numtext.JoinAnd(names), methodText(l), numtext.FormatCount(l.OpsPerPass), numtext.FormatNS(l.OverheadNS))
	switch len(timerBound) {
	case 0:
	case len(ops):
		text += "; it is more than half the median of each, so their medians are mostly the timer"
	default:
		text += fmt.Sprintf("; it is more than half the median of %s, so those medians are mostly the timer", numtext.JoinAnd(timerBound))
	}
	return text
}

// acrossText sets the BENCH_OPS variants side by side: the range of their
// worst operations and of their p99.9, with the variants at either end;
// "" with fewer than two. A worst operation is one event, so the sentence
// says what each figure stands on.
func acrossText(ops []namedLatency) string {
	if len(ops) < 2 {
		return ""
	}
	worst := true // the first span is of the worst operations
	span := func(x func(*result.Latency) float64) string {
		defer func() { worst = false }()
		lo, hi := ops[0], ops[0]
		for _, o := range ops[1:] {
			if x(o.l) < x(lo.l) {
				lo = o
			}
			if x(o.l) > x(hi.l) {
				hi = o
			}
		}
		if numtext.FormatNS(x(lo.l)) == numtext.FormatNS(x(hi.l)) {
			return "is " + numtext.FormatNS(x(hi.l)) + " in each"
		}
		text := fmt.Sprintf("ranges from %s (%s) to %s (%s)", numtext.FormatNS(x(lo.l)), lo.name, numtext.FormatNS(x(hi.l)), hi.name)
		if x(lo.l) > 0 && (!worst || lo.l.Divisible() && hi.l.Divisible()) {
			text += fmt.Sprintf(", %s times", numtext.FormatBigRatio(x(hi.l)/x(lo.l)))
		} else if x(lo.l) > 0 {
			text += " (not divided: " + floorWhy(lo, hi) + ")"
		}
		return text
	}
	fewest := ops[0].l.N
	for _, o := range ops[1:] {
		fewest = min(fewest, o.l.N)
	}
	return fmt.Sprintf("side by side, the worst operation of the %d BENCH_OPS variants %s, and their p99.9 %s; a worst operation is one event of this run and may not repeat, while a p99.9 stands on the slowest 0.1%% of at least %s operations",
		len(ops), span(func(l *result.Latency) float64 { return l.MaxNS }), span(func(l *result.Latency) float64 { return l.P999NS }), numtext.FormatCount(fewest))
}

// worstText: "the slowest of 30,000 operations of spiky took 20.1 µs,
// 479 times the median 42 ns; p99 ..., p99.9 ..., p99.99 ...", with how
// the operations were timed when that is not said once for all.
func worstText(name string, l *result.Latency, method bool) string {
	text := fmt.Sprintf("the slowest of %s operations of %s took %s", numtext.FormatCount(l.N), name, numtext.FormatNS(l.MaxNS))
	if l.P50NS > 0 {
		text += fmt.Sprintf(", %s times the median %s", numtext.FormatBigRatio(l.MaxNS/l.P50NS), numtext.FormatNS(l.P50NS))
	} else {
		text += ", the median is below one tick of the counter"
	}
	text += fmt.Sprintf("; p99 %s, p99.9 %s, p99.99 %s", numtext.FormatNS(l.P99NS), numtext.FormatNS(l.P999NS), numtext.FormatNS(l.P9999NS))
	if method {
		text += " (" + methodText(l) + ")"
	}
	return text
}

// overheadText: the timer's cost against the median. It is reported, never
// subtracted.
func overheadText(name string, l *result.Latency) string {
	if l.P50NS > 0 && l.OverheadNS > l.P50NS/2 {
		return fmt.Sprintf("the timer's own cost (an empty operation, measured %s times in the same process) is %s, more than half the median %s of %s: the median is mostly the timer; the percentiles include it (it is not subtracted)",
			numtext.FormatCount(l.OpsPerPass), numtext.FormatNS(l.OverheadNS), numtext.FormatNS(l.P50NS), name)
	}
	return fmt.Sprintf("the timer's own cost (an empty operation, measured %s times in the same process) is %s, included in every percentile of %s (it is not subtracted)",
		numtext.FormatCount(l.OpsPerPass), numtext.FormatNS(l.OverheadNS), name)
}

// rateText flags a tick rate that moved or a TSC the kernel does not call
// constant and nonstop; "" when neither.
func rateText(name string, l *result.Latency) string {
	var why []string
	if d := l.RateDrift(); d > LatencyRateDrift {
		why = append(why, fmt.Sprintf("the counter's rate moved by %s between its calibrations before and after the passes (%s and %s ticks per µs)",
			numtext.FormatPct(d), numtext.Sig(l.TicksPerUSStart), numtext.Sig(l.TicksPerUSEnd)))
	}
	if l.Clock == "rdtsc" && !(strings.Contains(l.CPUFlags, "constant_tsc") && strings.Contains(l.CPUFlags, "nonstop_tsc")) {
		why = append(why, fmt.Sprintf("/proc/cpuinfo lists %q of constant_tsc and nonstop_tsc, so the TSC may change rate with the clock or stop in idle states", l.CPUFlags))
	}
	if len(why) == 0 {
		return ""
	}
	return fmt.Sprintf("the times of %s's operations are doubtful: %s", name, strings.Join(why, "; "))
}

// aloneText: a worst operation far beyond the p99.99, where it was, and
// what the run measured of its cause, from its controls only: a
// preemption when the thread was switched out and waited at least half
// the worst during the pass that holds it (Preempted); else, within the
// empty operations' worst it is as long as an interruption of the timer
// alone, so it is attributed to one; above it, the run does not say what
// it was (and gives what the thread waited in its pass, when recorded).
func aloneText(name string, l *result.Latency) string {
	text := fmt.Sprintf("the worst operation of %s stands alone: %s is %s times the p99.99 %s, one event rather than the end of a tail",
		name, numtext.FormatNS(l.MaxNS), numtext.FormatBigRatio(l.MaxNS/l.P9999NS), numtext.FormatNS(l.P9999NS))
	if l.MaxPass != nil && l.MaxOp != nil {
		text += fmt.Sprintf(" (operation %d of measured pass %d)", *l.MaxOp, *l.MaxPass)
	}
	switch {
	case l.Preempted():
		return text + fmt.Sprintf("; the thread was preempted for %s during the pass that holds it (%s), at least half the worst operation: "+
			"a preemption can explain it (the run does not time where in the pass the wait fell)", numtext.FormatNS(float64(*l.MaxRunDelayNS)), switchesText(*l.MaxInvoluntary))
	case l.WithinFloor():
		return text + fmt.Sprintf("; the worst of the empty operations, %s, is as long, and an empty operation waits for nothing but an interruption of the thread: "+
			"an interruption explains it, not the operation", numtext.FormatNS(l.EmptyMaxNS))
	case l.AboveFloor():
		text += fmt.Sprintf("; it is longer than the worst of the empty operations, %s, which bounds what an interruption did to those", numtext.FormatNS(l.EmptyMaxNS))
		if l.MaxRunDelayNS != nil && l.MaxInvoluntary != nil {
			text += fmt.Sprintf(", and the thread waited %s during the pass that holds it (%s), no preemption of half of it or more", numtext.FormatNS(float64(*l.MaxRunDelayNS)), switchesText(*l.MaxInvoluntary))
		}
		return text + ": this run does not measure what it was"
	}
	return text + "; this result does not record the empty operations' worst, so it does not tell an interruption from the operation"
}

// switchesText: "1 involuntary switch", "3 involuntary switches".
func switchesText(n int64) string {
	if n == 1 {
		return "1 involuntary switch"
	}
	return fmt.Sprintf("%d involuntary switches", n)
}

// floorWhy says why two worst operations are not divided: one within its
// interruption floor, or put down to a preemption.
func floorWhy(a, b namedLatency) string {
	var in, pre []string
	for _, o := range []namedLatency{a, b} {
		switch {
		case o.l.EmptyMaxTicks <= 0:
			return "this result does not record the empty operations' worst, the interruption floor"
		case o.l.Preempted():
			pre = append(pre, o.name)
		case !o.l.AboveFloor():
			in = append(in, o.name)
		}
	}
	var why []string
	if len(in) > 0 {
		why = append(why, fmt.Sprintf("the worst of %s is within the worst of its empty operations, as long as an interruption", numtext.JoinAnd(in)))
	}
	if len(pre) > 0 {
		why = append(why, fmt.Sprintf("the thread of %s was preempted for at least half its worst during the pass that holds it", numtext.JoinAnd(pre)))
	}
	return strings.Join(why, ", and ") + ", and a ratio to it would divide by the noise floor"
}
