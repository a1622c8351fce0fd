package bench

import (
	"math"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// The clock during each run (issue 14, item 3). Every process the protocol
// runs is started with -freq: it estimates its own core clock with a chain
// of dependent adds right before its measured passes and right after them
// (records.md, `freq`). A series keeps those estimates per process
// (Samples.FreqProcesses, in the order the processes ran, each naming how
// many consecutive samples of the series it took) and one clock per sample
// (Samples.FreqMHz): the mean of its process's before and after
// estimates (the one there is when only one is). A mean rather than an
// interpolation by the sample's position: two estimates say nothing of
// how the clock went in between, and the mean is what both ends agree on.
// A fresh or cold series has one process per sample; an in-process series
// one process for all; an interleaved series one process, or one per pair
// with a baseline.

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

// freqData is what the collectors read of the freq records.
type freqData struct {
	inter  [][]FreqProcess // per interleaved slot, its processes in order
	inproc map[string][]FreqProcess
}

// procFreq reads the freq records of one process that took n samples of a series.
func procFreq(recs []harness.Record, n int) FreqProcess {
	p := FreqProcess{Samples: n}
	for _, rec := range recs {
		if rec.Kind != "freq" {
			continue
		}
		mhz, e1 := rec.Float("mhz")
		ns, e2 := rec.Int("ns")
		worst, e3 := rec.Int("worst_ns")
		mid, e6 := rec.Int("median_ns")
		it, e4 := rec.Int("iterations")
		adds, e5 := rec.Int("adds")
		if e1 != nil || e2 != nil || e3 != nil || e4 != nil || e5 != nil || e6 != nil {
			continue
		}
		e := &FreqEstimate{MHz: mhz, NS: ns, MedianNS: mid, WorstNS: worst, Iterations: it, Adds: adds}
		switch rec.Fields["when"] {
		case "before":
			p.Before = e
		case "after":
			p.After = e
		}
	}
	return p
}

// collectFreqInterleaved reads the clock of each interleaved process (one,
// or one per pair), with the samples each slot took in it.
func (d *collected) collectFreqInterleaved(ps []*proc, nslots int) {
	d.freq.inter = make([][]FreqProcess, nslots)
	for _, p := range ps {
		if p == nil {
			continue
		}
		per := make([]int, nslots)
		for _, rec := range p.Records {
			if rec.Kind == "sample" {
				if slot, _, _, ok := sample(rec); ok && slot < nslots {
					per[slot]++
				}
			}
		}
		for s := range nslots {
			d.freq.inter[s] = append(d.freq.inter[s], procFreq(p.Records, per[s]))
		}
	}
}

// collectFreqInProcess reads the clock of variant v's in-process series.
func (d *collected) collectFreqInProcess(v string, p *proc, n int) {
	if d.freq.inproc == nil {
		d.freq.inproc = map[string][]FreqProcess{}
	}
	d.freq.inproc[v] = []FreqProcess{procFreq(p.Records, n)}
}

// assembleFreq gives the series of variant v (slot i of the interleaved
// rounds) their clocks.
func (r *runner) assembleFreq(v *Variant, i int) {
	d, e := &r.data.freq, r.res.Protocol.Elements
	if i < len(d.inter) {
		v.Series.Interleaved.setFreq(d.inter[i], e)
	}
	v.Series.InProcess.setFreq(d.inproc[v.Name], e)
	if fr := r.data.fresh[v.Name]; fr != nil {
		v.Series.Fresh.setFreq(fr.freq, e)
		if v.Series.Cold != nil {
			v.Series.Cold.Samples.setFreq(fr.freq, e)
		}
	}
}

// setFreq attaches the processes' clocks to s when they account for its
// samples exactly, with the clock per sample and, with elements, the
// cycles per element; a series whose processes do not match is left
// without (nothing is better than a clock given to the wrong sample).
func (s *Samples) setFreq(ps []FreqProcess, elements *int64) {
	if s == nil || len(ps) == 0 {
		return
	}
	s.FreqProcesses = ps
	mhz, ok := FreqPerSample(ps, len(s.SamplesNS))
	if !ok {
		return
	}
	s.FreqMHz = mhz
	if elements != nil && *elements > 0 {
		if c, ok := CyclesPerElement(s.SamplesNS, mhz, *elements); ok {
			s.CyclesPerElement = &c
		}
	}
}

// FreqPerSample is the clock of each of n samples: each process's MHz for
// its Samples consecutive samples. ok is false when the processes do not
// account for exactly n samples or one of them has no estimate.
func FreqPerSample(ps []FreqProcess, n int) (mhz []float64, ok bool) {
	for _, p := range ps {
		m := p.MHz()
		if math.IsNaN(m) || p.Samples < 0 {
			return nil, false
		}
		for range p.Samples {
			mhz = append(mhz, m)
		}
	}
	return mhz, len(mhz) == n && n > 0
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

// MedianClockMHz is the run's clock: the median of every estimate of the
// run's processes (before and after, each process once); ok is false when
// the result has none (results made before the clock was estimated per
// process).
func (r *Result) MedianClockMHz() (mhz float64, ok bool) {
	var ests []float64
	for _, p := range clockTimeline(r) {
		for _, e := range []float64{p.before, p.after} {
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
