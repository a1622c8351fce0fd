package result

import (
	"fmt"
	"math"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// FreqEstimate is one `freq` record: iterations × adds dependent additions
// took NS nanoseconds in the fastest of the driver's 3 trials, MedianNS in
// the middle one and WorstNS in the slowest; MHz = iterations × adds / NS
// × 1000.
type FreqEstimate struct {
	MHz        float64 `json:"mhz"`
	NS         int64   `json:"ns"`
	MedianNS   int64   `json:"median_ns"`
	WorstNS    int64   `json:"worst_ns"`
	Iterations int64   `json:"iterations"`
	Adds       int64   `json:"adds"`
}

// SpreadPct is the estimate's own repeatability: how much slower its
// middle trial was than its fastest, in percent (the slowest is left out:
// one interrupt lands in one trial and says nothing of the estimate).
func (e *FreqEstimate) SpreadPct() float64 {
	if e == nil || e.NS <= 0 {
		return math.NaN()
	}
	return float64(e.MedianNS-e.NS) / float64(e.NS) * 100
}

// FreqProcess is the clock of one process of a series, before and after
// its measured passes (either nil when the process did not write it), and
// how many consecutive samples of the series it took.
type FreqProcess struct {
	Before  *FreqEstimate `json:"before"`
	After   *FreqEstimate `json:"after"`
	Samples int           `json:"samples"`
}

// MHz is the process's clock as its samples carry it: the mean of its
// estimates; NaN when it has none.
func (p FreqProcess) MHz() float64 {
	switch {
	case p.Before != nil && p.After != nil:
		return (p.Before.MHz + p.After.MHz) / 2
	case p.Before != nil:
		return p.Before.MHz
	case p.After != nil:
		return p.After.MHz
	}
	return math.NaN()
}

// MedianClockMHz is the run's clock: the median of every estimate of the
// run's processes (before and after, each process once); ok is false when
// the result has none (results made before the clock was estimated per
// process).
func (r *Result) MedianClockMHz() (mhz float64, ok bool) {
	var ests []float64
	for _, p := range ClockTimeline(r) {
		for _, e := range []float64{p.Before, p.After} {
			if !math.IsNaN(e) {
				ests = append(ests, e)
			}
		}
	}
	if len(ests) == 0 {
		return 0, false
	}
	return stats.Median(ests), true
}

// ClockProc is one process of the run with its clock estimates (NaN when
// missing), in the order the processes ran.
type ClockProc struct {
	Label         string
	Before, After float64
	Spreads       []float64 // each estimate's own repeatability, percent
}

func (p ClockProc) MHz() float64 {
	switch {
	case !math.IsNaN(p.Before) && !math.IsNaN(p.After):
		return (p.Before + p.After) / 2
	case !math.IsNaN(p.Before):
		return p.Before
	}
	return p.After
}

func newClockProc(label string, fp FreqProcess) ClockProc {
	p := ClockProc{Label: label, Before: math.NaN(), After: math.NaN()}
	if fp.Before != nil {
		p.Before = fp.Before.MHz
		p.Spreads = append(p.Spreads, fp.Before.SpreadPct())
	}
	if fp.After != nil {
		p.After = fp.After.MHz
		p.Spreads = append(p.Spreads, fp.After.SpreadPct())
	}
	return p
}

// ClockTimeline lists the run's processes in the order the protocol runs
// them: the interleaved process (or one per pair; every variant's
// interleaved series holds the same ones), the in-process series variant
// by variant, then the fresh processes run by run, variant by variant
// within a run. The cold series shares the fresh processes.
func ClockTimeline(r *Result) []ClockProc {
	var out []ClockProc
	for i := range r.Variants {
		if s := r.Variants[i].Series.Interleaved; s != nil && len(s.FreqProcesses) > 0 {
			for j, fp := range s.FreqProcesses {
				label := "the interleaved process"
				if len(s.FreqProcesses) > 1 {
					label = fmt.Sprintf("interleaved process %d of %d", j+1, len(s.FreqProcesses))
				}
				out = append(out, newClockProc(label, fp))
			}
			break
		}
	}
	runs := 0
	for i := range r.Variants {
		v := &r.Variants[i]
		if s := v.Series.InProcess; s != nil && len(s.FreqProcesses) > 0 {
			out = append(out, newClockProc(v.Name+"'s in-process series", s.FreqProcesses[0]))
		}
		if s := v.Series.Fresh; s != nil {
			runs = max(runs, len(s.FreqProcesses))
		}
	}
	for run := range runs {
		for i := range r.Variants {
			v := &r.Variants[i]
			if s := v.Series.Fresh; s != nil && run < len(s.FreqProcesses) {
				out = append(out, newClockProc(fmt.Sprintf("fresh process %d of %s", run+1, v.Name), s.FreqProcesses[run]))
			}
		}
	}
	return out
}

// CyclesPerElement is the median over the samples of ns per pass /
// elements × the sample's own clock in GHz: the cycles per element each
// process spent at the clock it ran at.
func CyclesPerElement(ns, mhz []float64, elements int64) (float64, bool) {
	if len(ns) != len(mhz) || len(ns) == 0 || elements <= 0 {
		return 0, false
	}
	c := make([]float64, len(ns))
	for i := range ns {
		c[i] = ns[i] / float64(elements) * mhz[i] / 1000
	}
	return stats.Median(c), true
}
