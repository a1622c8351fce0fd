package figures

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/benchbook/benchbook/internal/result"
)

// Resolve is the run's resolve= (2% in results before it was recorded).
func Resolve(r *result.Result) float64 {
	if r.Protocol.Resolve > 0 {
		return r.Protocol.Resolve
	}
	return 0.02
}

func CyclesPerElement(r *result.Result, variant string) float64 {
	e := r.Protocol.Elements
	f := mhz(r)
	if e == nil || *e <= 0 || f <= 0 {
		return math.NaN()
	}
	return Median(Series(r, variant, "interleaved")) / float64(*e) * f / 1000
}

// ColdFaults is the median of a variant's cold passes' minor faults and of
// its setups'.
func ColdFaults(r *result.Result, variant string) (cold, setup float64, c *result.Cold) {
	v := r.Variant(variant)
	if v == nil || v.Series.Cold == nil {
		return math.NaN(), math.NaN(), nil
	}
	c = v.Series.Cold
	f := make([]float64, len(c.MinFlt))
	for i, x := range c.MinFlt {
		f[i] = float64(x)
	}
	sf := make([]float64, len(c.SetupMinFlt))
	for i, x := range c.SetupMinFlt {
		sf[i] = float64(x)
	}
	return Median(f), Median(sf), c
}

// LayoutP is the one-way analysis of the log fresh times by layout,
// recomputed (F against gonum's F distribution).
func LayoutP(r *result.Result, variant string) float64 {
	s := r.Variant(variant).Series.Fresh
	groups := map[int][]float64{}
	var all []float64
	for i, x := range s.SamplesNS {
		if x > 0 && i < len(s.Layout.IDs) {
			groups[s.Layout.IDs[i]] = append(groups[s.Layout.IDs[i]], math.Log(x))
			all = append(all, math.Log(x))
		}
	}
	grand := stat.Mean(all, nil)
	var between, within float64
	for _, g := range groups {
		m := stat.Mean(g, nil)
		between += float64(len(g)) * (m - grand) * (m - grand)
		for _, x := range g {
			within += (x - m) * (x - m)
		}
	}
	k, n := float64(len(groups)), float64(len(all))
	if k < 2 || n <= k || within == 0 {
		return math.NaN()
	}
	f := (between / (k - 1)) / (within / (n - k))
	return 1 - distuv.F{D1: k - 1, D2: n - k}.CDF(f)
}

// LiveCVs are the cv of every series of every live variant, recomputed.
func LiveCVs(r *result.Result) []float64 {
	var out []float64
	for i := range r.Variants {
		v := &r.Variants[i]
		if !Live(v) {
			continue
		}
		for _, n := range []string{"interleaved", "in_process", "fresh"} {
			if x := Series(r, v.Name, n); len(x) > 0 {
				out = append(out, CVPct(x))
			}
		}
	}
	return out
}

func OpsCount(r *result.Result) int {
	n := 0
	for i := range r.Variants {
		if l := r.Variants[i].Latency; l != nil && l.N > 0 {
			n++
		}
	}
	return n
}

// ClockSpread recomputes, from the processes' clock estimates, what the
// rule of docs/protocol.md judges: the spread of the estimates (10th to
// 90th percentile, min to max below 10) over their median and the largest
// change within one process, both in percent, and the median repeatability
// of the estimates in percent (NaN when none has one); ok is false when no
// process has an estimate.
func ClockSpread(r *result.Result) (spread, within, repeat float64, ok bool) {
	var procs []result.FreqProcess
	for i := range r.Variants {
		if s := r.Variants[i].Series.Interleaved; s != nil && len(s.FreqProcesses) > 0 {
			procs = append(procs, s.FreqProcesses...)
			break
		}
	}
	for i := range r.Variants {
		v := &r.Variants[i]
		if s := v.Series.InProcess; s != nil && len(s.FreqProcesses) > 0 {
			procs = append(procs, s.FreqProcesses[0])
		}
		if s := v.Series.Fresh; s != nil {
			procs = append(procs, s.FreqProcesses...)
		}
	}
	var ests, reps []float64
	for _, p := range procs {
		for _, e := range []*result.FreqEstimate{p.Before, p.After} {
			if e != nil {
				ests = append(ests, e.MHz)
				if e.NS > 0 {
					reps = append(reps, float64(e.MedianNS-e.NS)/float64(e.NS)*100)
				}
			}
		}
		if p.Before != nil && p.After != nil {
			within = math.Max(within, math.Abs(p.After.MHz-p.Before.MHz)/((p.Before.MHz+p.After.MHz)/2)*100)
		}
	}
	if len(ests) == 0 {
		return 0, 0, 0, false
	}
	sorted := append([]float64(nil), ests...)
	slicesSort(sorted)
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if n := len(sorted); n >= 10 {
		lo, hi = sorted[int(math.Round(0.1*float64(n-1)))], sorted[int(math.Round(0.9*float64(n-1)))]
	}
	repeat = math.NaN()
	if len(reps) > 0 {
		repeat = Median(reps)
	}
	return (hi - lo) / Median(ests) * 100, within, repeat, true
}
