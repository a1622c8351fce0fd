package findings

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// The clock during the run: a topic of the one generator (sentences.go).
const (
	TopicClock = "clock"
	KindClock  = "clock"
	// FreqMoveLimitPct is the spread of the clock estimates, in percent of
	// their median, above which the clock moved (when it is also more
	// than FreqNoiseFactor times the estimates' own repeatability).
	FreqMoveLimitPct = 3.0
	FreqNoiseFactor  = 2.0
	// FreqAlpha is the level at which a rank correlation between a
	// process's clock and its pass time is called more than chance.
	FreqAlpha = 0.05
)

// ClockMove is what the rule found of the clock during a run.
type ClockMove struct {
	Processes, Estimates int
	MedianMHz            float64
	LowMHz, HighMHz      float64 // 10th and 90th percentile of the estimates (min and max below 10)
	SpreadPct            float64 // (High - Low) / Median, percent
	WithinPct            float64 // the largest before-after change of one process, percent of its mean
	WithinAt             int     // that process's index in the timeline, -1 when none has both
	RepeatPct            float64 // the median of the estimates' own repeatability
	LimitPct             float64 // max(FreqMoveLimitPct, FreqNoiseFactor × RepeatPct)
	Across, Within       bool    // the spread across processes, the change within one, exceeds the limit
	ChangeAt             int     // with Across: the first process after the largest step of the timeline
	FromMHz, ToMHz       float64 // the median clock of the processes before and from ChangeAt
}

// Moved says whether the clock moved during the run.
func (m ClockMove) Moved() bool { return m.Across || m.Within }

// JudgeClock applies the rule to the timeline; ok is false without estimates.
func JudgeClock(tl []result.ClockProc) (m ClockMove, ok bool) {
	var ests, reps []float64
	m.WithinAt, m.ChangeAt = -1, -1
	for i, p := range tl {
		for _, e := range []float64{p.Before, p.After} {
			if !math.IsNaN(e) {
				ests = append(ests, e)
			}
		}
		for _, s := range p.Spreads {
			if !math.IsNaN(s) {
				reps = append(reps, s)
			}
		}
		if !math.IsNaN(p.Before) && !math.IsNaN(p.After) {
			if w := math.Abs(p.After-p.Before) / p.MHz() * 100; m.WithinAt < 0 || w > m.WithinPct {
				m.WithinPct, m.WithinAt = w, i
			}
		}
	}
	if len(ests) == 0 {
		return m, false
	}
	m.Processes, m.Estimates = len(tl), len(ests)
	slices.Sort(ests)
	m.MedianMHz = stats.Median(ests)
	m.LowMHz, m.HighMHz = ests[0], ests[len(ests)-1]
	if n := len(ests); n >= 10 {
		m.LowMHz, m.HighMHz = ests[int(math.Round(0.1*float64(n-1)))], ests[int(math.Round(0.9*float64(n-1)))]
	}
	m.SpreadPct = (m.HighMHz - m.LowMHz) / m.MedianMHz * 100
	if len(reps) > 0 {
		m.RepeatPct = stats.Median(reps)
	}
	m.LimitPct = math.Max(FreqMoveLimitPct, FreqNoiseFactor*m.RepeatPct)
	m.Across = m.SpreadPct > m.LimitPct
	m.Within = m.WithinAt >= 0 && m.WithinPct > m.LimitPct
	if m.Across {
		m.ChangeAt, m.FromMHz, m.ToMHz = changePoint(tl)
	}
	return m, true
}

// changePoint is the split of the processes' clocks into a before and an
// after that differ most, each difference weighted by sqrt(k(n-k)/n) (the
// CUSUM statistic of one change in the mean), and the medians either side.
func changePoint(tl []result.ClockProc) (at int, from, to float64) {
	var c []float64
	var idx []int
	for i, p := range tl {
		if m := p.MHz(); !math.IsNaN(m) {
			c, idx = append(c, m), append(idx, i)
		}
	}
	n := len(c)
	if n < 2 {
		return -1, math.NaN(), math.NaN()
	}
	best, bestK := -1.0, 1
	var left float64
	total := 0.0
	for _, x := range c {
		total += x
	}
	for k := 1; k < n; k++ {
		left += c[k-1]
		d := math.Abs(left/float64(k)-(total-left)/float64(n-k)) * math.Sqrt(float64(k*(n-k))/float64(n))
		if d > best {
			best, bestK = d, k
		}
	}
	return idx[bestK], stats.Median(c[:bestK]), stats.Median(c[bestK:])
}

// clockSentences say whether the clock moved during the run, by the rule
// of JudgeClock, and for each live variant whether its slower fresh passes
// came from slower-clock processes, with its cycles per element at each
// process's own clock.
func clockSentences(f *facts) []Sentence {
	tl := result.ClockTimeline(f.r)
	m, ok := JudgeClock(tl)
	if !ok {
		return nil
	}
	text := clockText(m, tl)
	if m.Moved() && f.loaded {
		text += fmt.Sprintf("; the load average was above %g, and an estimate is the adds the process's thread completed per nanosecond, so a low one may be time the thread did not run (the CPU shared) rather than a lower clock: either way its passes got fewer cycles", LoadLimit)
	}
	claim := ClaimClockStill
	if m.Moved() {
		claim = ClaimClockMoved
	}
	out := said(claim, "", TopicClock, clockKind(m), "", text)
	for i := range f.r.Variants {
		v := &f.r.Variants[i]
		if live(v) {
			out = append(out, said(ClaimClockVariant, "", TopicClock, "", v.Name, clockVariantText(v))...)
		}
	}
	return out
}

func clockKind(m ClockMove) string {
	if m.Moved() {
		return KindClock
	}
	return ""
}

// clockText is the sentence on the clock of the run's processes.
func clockText(m ClockMove, tl []result.ClockProc) string {
	var b strings.Builder
	if m.Moved() {
		b.WriteString("the clock moved during the run: ")
	} else {
		b.WriteString("the clock did not move during the run: ")
	}
	fmt.Fprintf(&b, "%d estimates in %d processes (each the fastest of 3 trials of a 1 ms chain of dependent adds, right before the process's warmup pass and right after its measured passes) read %.0f MHz at the median", m.Estimates, m.Processes, m.MedianMHz)
	if m.Estimates >= 10 {
		fmt.Fprintf(&b, ", %.0f to %.0f MHz from the 10th to the 90th percentile", m.LowMHz, m.HighMHz)
	} else {
		fmt.Fprintf(&b, ", %.0f to %.0f MHz", m.LowMHz, m.HighMHz)
	}
	fmt.Fprintf(&b, ", a spread of %s of the median", cvText(m.SpreadPct))
	if m.WithinAt >= 0 {
		p := tl[m.WithinAt]
		fmt.Fprintf(&b, "; within one process the clock changed by at most %s between before and after (%s: %.0f to %.0f MHz)", cvText(m.WithinPct), p.Label, p.Before, p.After)
	}
	fmt.Fprintf(&b, "; an estimate's own repeatability (its middle trial against its fastest, median over the estimates) is %s, so a spread above %s counts as a move (the larger of %s and %g times the repeatability)",
		cvText(m.RepeatPct), cvText(m.LimitPct), cvText(FreqMoveLimitPct), FreqNoiseFactor)
	if m.Across && m.ChangeAt >= 0 {
		fmt.Fprintf(&b, "; the largest step in the order the processes ran is at %s (process %d of %d): about %.0f MHz before it, %.0f MHz from it on", tl[m.ChangeAt].Label, m.ChangeAt+1, len(tl), m.FromMHz, m.ToMHz)
	}
	if m.Within && !m.Across {
		b.WriteString("; the move is inside a process, not between processes")
	}
	return b.String()
}

// clockVariantText relates a variant's fresh passes to their processes'
// clocks (Spearman) and gives its cycles per element at each process's
// own clock.
func clockVariantText(v *result.Variant) string {
	var parts []string
	s := v.Series.Fresh
	if s != nil && s.CyclesPerElement != nil {
		parts = append(parts, fmt.Sprintf("%s cycles per element at each fresh process's own clock (median)", numtext.Sig(*s.CyclesPerElement)))
	} else if s := v.Series.Interleaved; s != nil && s.CyclesPerElement != nil {
		parts = append(parts, fmt.Sprintf("%s cycles per element at the interleaved process's own clock (median)", numtext.Sig(*s.CyclesPerElement)))
	}
	if s != nil && len(s.FreqMHz) == len(s.SamplesNS) && len(s.SamplesNS) >= 10 {
		if rk, err := stats.Spearman(s.FreqMHz, s.SamplesNS); err == nil {
			what := "the time of a fresh pass does not follow its process's clock"
			switch {
			case rk.P < FreqAlpha && rk.Rho < 0:
				what = "the slower fresh passes came from the slower-clock processes"
			case rk.P < FreqAlpha:
				what = "the slower fresh passes came from the faster-clock processes, so not from the clock"
			}
			parts = append(parts, fmt.Sprintf("%s (Spearman's rho of a process's clock and its pass %.2f, p = %.2g, %d processes)", what, rk.Rho, rk.P, rk.N))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return v.Name + ": " + strings.Join(parts, "; ")
}
