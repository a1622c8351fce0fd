package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// ErrChecksum is returned when a variant's consumed result does not match.
var ErrChecksum = errors.New("checksum mismatch")

// checksumTolerance is the relative difference a checksum may have: the
// totals are sums of float64 and the expected value is exact in the seed.
const checksumTolerance = 1e-9

// NewSamples summarises samples into a series, with the digest of their
// order.
func NewSamples(ns []float64) *Samples {
	if len(ns) == 0 {
		return nil
	}
	return &Samples{SamplesNS: ns, Summary: stats.Summarize(ns), SHA256: SamplesDigest(ns)}
}

// SamplesDigest binds samples to the order they were taken in: the hex
// SHA-256 of each sample's shortest decimal form (strconv.FormatFloat
// with 'g' and -1), each followed by a newline. A summary cannot see two
// samples swapped; the digest can, so verify catches a series reordered by
// hand.
func SamplesDigest(ns []float64) string {
	h := sha256.New()
	for _, x := range ns {
		h.Write(strconv.AppendFloat(nil, x, 'g', -1, 64))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

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
		v.Checksum = d.sums[name].judged()
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

func (c *Checksum) judged() *Checksum {
	if c == nil {
		return nil
	}
	out := *c
	out.OK = ChecksumOK(c.Got, c.Want, c.Passes)
	return &out
}

// ChecksumOK says whether a total got over passes passes is want per pass:
// |got/passes - want| <= 1e-9 × max(|want|, 1/passes), the same test as
// |got - want×passes| <= 1e-9 × max(|want×passes|, 1) divided by passes, in
// a form that cannot overflow. Non-finite figures are never ok.
func ChecksumOK(got, want float64, passes int) bool {
	if math.IsNaN(want) || math.IsInf(want, 0) || passes < 0 {
		return false
	}
	if passes == 0 {
		return math.Abs(got) <= checksumTolerance
	}
	p := float64(passes)
	per := got / p
	if math.IsNaN(per) || math.IsInf(per, 0) {
		return false
	}
	return math.Abs(per-want) <= checksumTolerance*math.Max(math.Abs(want), 1/p)
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

// MedianMinFlt is the median of the cold passes' minor page faults.
func (c *Cold) MedianMinFlt() float64 {
	f := make([]float64, len(c.MinFlt))
	for i, v := range c.MinFlt {
		f[i] = float64(v)
	}
	return stats.Median(f)
}
