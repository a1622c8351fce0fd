package protocol

import (
	"errors"
	"fmt"
)

// ErrChecksum is returned when a variant's consumed result does not match.
var ErrChecksum = errors.New("checksum mismatch")

// assemble turns what the processes measured into the result: series with
// their summaries, the checksums, the comparisons, the A/A control, the
// judged prediction and the findings.
func (r *runner) assemble() {
	res, d := r.res, &r.data
	// The block of each round taken (a run cut short planned more).
	res.RoundBlock = d.roundBlock
	if len(d.inter) > 0 && len(d.inter[0]) < len(res.RoundBlock) {
		res.RoundBlock = res.RoundBlock[:len(d.inter[0])]
	}
	if d.clock != nil {
		res.Conditions.Clock = *d.clock
	}
	for i, name := range r.opt.Variants {
		hv := r.variant(name)
		v := Variant{Name: name, Batch: int(max(d.batch[name], 1))}
		if r.opt.Batch > 0 {
			v.BatchAuto = int(max(d.autoBatch[name], 1))
		}
		if hv != nil {
			v.Asm, v.Dead, v.Hollow, v.Finding = hv.Asm, hv.Dead, hv.Hollow, hv.Finding
			if v.Batch > 1 {
				v.BatchAsm, v.BatchDead, v.BatchHollow, v.BatchFinding = hv.BatchAsm, hv.BatchDead, hv.BatchHollow, hv.BatchFinding
			}
			v.RegionInstructions = len(hv.Analysis.Region)
		}
		if i < len(d.inter) {
			v.Series.Interleaved = NewSamples(d.inter[i])
			if v.Series.Interleaved != nil && i < len(d.pos) && len(d.pos[i]) == len(d.inter[i]) {
				v.Series.Interleaved.Positions = d.pos[i]
			}
		}
		if ip := d.inproc[name]; ip != nil {
			v.Series.InProcess = NewSamples(ip.samples)
		}
		if fr := d.fresh[name]; fr != nil {
			v.Series.Fresh = NewSamples(fr.samples)
			if cold := NewSamples(fr.cold); cold != nil {
				v.Series.Cold = &Cold{Samples: *cold, MinFlt: fr.flt, After: res.Protocol.ColdAfter}
				if len(fr.setupNS) == len(fr.cold) {
					v.Series.Cold.SetupNS, v.Series.Cold.SetupMinFlt = fr.setupNS, fr.setupFlt
				}
			}
			if v.Series.Fresh != nil && len(fr.layout.IDs) == len(fr.samples) {
				l := fr.layout
				v.Series.Fresh.Layout = &l
			}
		}
		if ip := d.inproc[name]; ip != nil && v.Series.Cold != nil {
			v.Series.Cold.InProcessColdNS, v.Series.Cold.InProcessMinFlt = ip.coldNS, ip.coldFlt
			if len(ip.warmFlt) > 0 {
				w := meanInt(ip.warmFlt)
				v.Series.Cold.WarmMinFltPerPass = &w
			}
		}
		r.assembleFreq(&v, i)
		v.Checksum = d.sums[name].Judged()
		v.Latency = d.latencyOf(name)
		if c, ok := d.counts[name]; ok {
			v.Counts, _ = CountsOf(c.runs, c.cache, r.res.Protocol.Elements) // countVariant made two runs
		}
		res.Variants = append(res.Variants, v)
	}
	if d.aaIndex > 0 && d.aaIndex < len(d.inter) {
		r.aa(d.slots[d.aaIndex], d.inter[d.aaIndex])
		if d.aaIndex < len(d.pos) && len(d.pos[d.aaIndex]) == len(res.AA.SamplesNS) {
			res.AA.Positions = d.pos[d.aaIndex]
		}
	}
	res.Comparisons = Comparisons(res.Variants, res.Protocol, res.RoundBlock)
	r.assembleBaseline()
	if p := res.Prediction; p != nil {
		if c, ok := res.Ratio(p.A, p.B); ok {
			p.Judge(c)
		}
	}
	res.Findings, res.TextVersion = Findings(res), TextVersion
}

func meanInt(x []int64) float64 {
	var s float64
	for _, v := range x {
		s += float64(v)
	}
	return s / float64(len(x))
}

func (r *runner) checksumError() error {
	for _, v := range r.res.Variants {
		if c := v.Checksum; c != nil && !c.OK {
			return fmt.Errorf("%w: variant %s consumed %.17g over %d passes, expected %.17g (%.17g per pass)",
				ErrChecksum, v.Name, c.Got, c.Passes, c.Want*float64(c.Passes), c.Want)
		}
	}
	return nil
}

func (r *runner) aa(variant string, copySamples []float64) {
	orig := r.res.Variant(variant)
	if orig == nil || orig.Series.Interleaved == nil || len(copySamples) == 0 {
		return
	}
	r.res.AA = AAControl(variant, orig.Series.Interleaved.SamplesNS, copySamples, r.res.Protocol, r.res.RoundBlock)
}
