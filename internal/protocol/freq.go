package protocol

import (
	"math"

	"github.com/benchbook/benchbook/internal/records"
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

// freqData is what the collectors read of the freq records.
type freqData struct {
	inter  [][]FreqProcess // per interleaved slot, its processes in order
	inproc map[string][]FreqProcess
}

// procFreq reads the freq records of one process that took n samples of a series.
func procFreq(recs []records.Record, n int) FreqProcess {
	p := FreqProcess{Samples: n}
	for _, rec := range recs {
		f, ok := rec.Value.(records.Freq)
		if !ok {
			continue
		}
		e := &FreqEstimate{MHz: f.MHz, NS: f.NS, MedianNS: f.MedianNS, WorstNS: f.WorstNS, Iterations: f.Iterations, Adds: f.Adds}
		switch f.When {
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
			if slot, _, ok := sample(rec); ok && slot < nslots {
				per[slot]++
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
		setFreq(v.Series.Interleaved, d.inter[i], e)
	}
	setFreq(v.Series.InProcess, d.inproc[v.Name], e)
	if fr := r.data.fresh[v.Name]; fr != nil {
		setFreq(v.Series.Fresh, fr.freq, e)
		if v.Series.Cold != nil {
			setFreq(&v.Series.Cold.Samples, fr.freq, e)
		}
	}
}

// setFreq attaches the processes' clocks to s when they account for its
// samples exactly, with the clock per sample and, with elements, the
// cycles per element; a series whose processes do not match is left
// without (nothing is better than a clock given to the wrong sample).
func setFreq(s *Samples, ps []FreqProcess, elements *int64) {
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
