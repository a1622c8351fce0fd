package bench

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
	for i := range f.r.Variants {
		v := &f.r.Variants[i]
		l := v.Latency
		if l == nil || l.N == 0 {
			continue
		}
		out = append(out, one(TopicLatency, KindLatency, v.Name, worstText(v.Name, l))...)
		out = append(out, one(TopicLatency, "", v.Name, overheadText(v.Name, l))...)
		if l.P9999NS > 0 && l.MaxNS > LatencyAloneRatio*l.P9999NS {
			out = append(out, one(TopicLatency, KindLatency, v.Name, fmt.Sprintf(
				"the worst operation of %s stands alone: %s is %s times the p99.99 %s, a single event (a realloc, a rehash, a page fault, an interrupt) rather than the end of a tail",
				v.Name, FormatNS(l.MaxNS), bigRatio(l.MaxNS/l.P9999NS), FormatNS(l.P9999NS)))...)
		}
		out = append(out, one(TopicLatency, KindLatency, v.Name, rateText(v.Name, l))...)
	}
	return out
}

// worstText: "the slowest of 30,000 operations of spiky took 20.1 µs,
// 479 times the median 42 ns; p99 ..., p99.9 ..., p99.99 ...".
func worstText(name string, l *Latency) string {
	text := fmt.Sprintf("the slowest of %s operations of %s took %s", commas(l.N), name, FormatNS(l.MaxNS))
	if l.P50NS > 0 {
		text += fmt.Sprintf(", %s times the median %s", bigRatio(l.MaxNS/l.P50NS), FormatNS(l.P50NS))
	} else {
		text += ", the median is below one tick of the counter"
	}
	return text + fmt.Sprintf("; p99 %s, p99.9 %s, p99.99 %s (each operation timed with %s, %d measured passes of %d operations in the in-process series; percentiles to 3 significant digits)",
		FormatNS(l.P99NS), FormatNS(l.P999NS), FormatNS(l.P9999NS), l.Clock, l.Passes, l.OpsPerPass)
}

// overheadText: the timer's cost against the median. It is reported, never
// subtracted.
func overheadText(name string, l *Latency) string {
	if l.P50NS > 0 && l.OverheadNS > l.P50NS/2 {
		return fmt.Sprintf("the timer's own cost (an empty operation, measured %s times in the same process) is %s, more than half the median %s of %s: the median is mostly the timer; the percentiles include it (it is not subtracted)",
			commas(l.OpsPerPass), FormatNS(l.OverheadNS), FormatNS(l.P50NS), name)
	}
	return fmt.Sprintf("the timer's own cost (an empty operation, measured %s times in the same process) is %s, included in every percentile of %s (it is not subtracted)",
		commas(l.OpsPerPass), FormatNS(l.OverheadNS), name)
}

// rateText flags a tick rate that moved or a TSC the kernel does not call
// constant and nonstop; "" when neither.
func rateText(name string, l *Latency) string {
	var why []string
	if d := l.RateDrift(); d > LatencyRateDrift {
		why = append(why, fmt.Sprintf("the counter's rate moved by %s between its calibrations before and after the passes (%s and %s ticks per µs)",
			FormatPct(d), sig(l.TicksPerUSStart), sig(l.TicksPerUSEnd)))
	}
	if l.Clock == "rdtsc" && !(strings.Contains(l.CPUFlags, "constant_tsc") && strings.Contains(l.CPUFlags, "nonstop_tsc")) {
		why = append(why, fmt.Sprintf("/proc/cpuinfo lists %q of constant_tsc and nonstop_tsc, so the TSC may change rate with the clock or stop in idle states", l.CPUFlags))
	}
	if len(why) == 0 {
		return ""
	}
	return fmt.Sprintf("the times of %s's operations are doubtful: %s", name, strings.Join(why, "; "))
}

// commas writes an integer with thousands separators: 1,000,000.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// bigRatio writes a ratio as FormatRatio does below 1000 and above with
// three significant digits and thousands separators: 13,800.
func bigRatio(x float64) string {
	if x < 1000 {
		return FormatRatio(x)
	}
	p := math.Pow(10, math.Floor(math.Log10(x))-2)
	return commas(int64(math.Round(x/p) * p))
}
