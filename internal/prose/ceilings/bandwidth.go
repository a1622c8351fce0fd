package ceilings

import (
	"math"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose/figures"
	"github.com/benchbook/benchbook/internal/result"
)

// The oracles of a sweep point's bytes per ns against the streaming read
// of the run's fingerprint: its working set (sweep.bytes) over its median
// interleaved time per pass, judged only where the working set and the
// stream both exceed the last-level cache the stored machine description
// lists.

// bwBand restates how near the stream "within" is, and how far beyond its
// fastest trial "more than memory delivered" must be.
const bwBand = 0.10

// llcOf is the largest data or unified cache of any CPU of the stored
// description, read again from /sys's form ("32768K", "32M"); 0 if none.
func llcOf(r *result.Result) int64 {
	var llc int64
	for _, c := range r.Conditions.Machine.CPUs {
		for _, k := range c.Caches {
			if k.Type == "Instruction" {
				continue
			}
			s, mult := strings.TrimSpace(k.Size), int64(1)
			for suf, m := range map[string]int64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30} {
				if strings.HasSuffix(s, suf) {
					s, mult = strings.TrimSuffix(s, suf), m
				}
			}
			if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
				llc = max(llc, n*mult)
			}
		}
	}
	return llc
}

// bwFacts are the numbers of the bandwidth ceiling recomputed: the
// variant's bytes per ns, the stream's fastest trial and median, the
// working set, the stream's bytes and the last-level cache; false when
// the ceiling does not apply.
type bwFacts struct {
	bw, fastest, med, perPass float64
	ws, stream, llc           int64
}

func bwOf(r *result.Result, variant string) (bwFacts, bool) {
	var f bwFacts
	fp := r.Conditions.Fingerprint
	if !figures.Live(r.Variant(variant)) || r.Sweep == nil || r.Sweep.Bytes == nil || fp == nil {
		return f, false
	}
	for _, e := range fp.Entries { // the first of the name, as a fingerprint's Entry reads it
		if e.Name != "stream_read" {
			continue
		}
		if e.Unit == "GB/s" && len(e.Trials) > 0 {
			f.stream, f.med, f.fastest = e.Bytes, figures.Median(e.Trials), math.Inf(-1)
			for _, t := range e.Trials {
				f.fastest = math.Max(f.fastest, t)
			}
		}
		break
	}
	f.ws, f.llc = *r.Sweep.Bytes, llcOf(r)
	f.perPass = figures.Median(figures.Series(r, variant, "interleaved"))
	f.bw = float64(f.ws) / f.perPass
	if !(f.med > 0) || f.llc <= 0 || f.ws <= f.llc || f.stream <= f.llc || !(f.perPass > 0) {
		return f, false
	}
	return f, true
}

// sig3 writes x to three significant digits, trailing zeros dropped.
func sig3(x float64) string {
	d := max(0, 2-int(math.Floor(math.Log10(math.Abs(x)))))
	s := strconv.FormatFloat(x, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// bwSaid: the sentence states the working set, the time per pass, the
// bytes per ns, the stream's figure it is weighed against (of) and its
// bytes, and the last-level cache.
func bwSaid(f bwFacts, s findings.Sentence, of float64) error {
	for _, w := range []string{
		numtext.FormatBytes(f.ws) + "B, its working set, in " + numtext.FormatNS(f.perPass) + " per pass",
		sig3(f.bw) + " bytes per ns",
		"(" + sig3(of) + " GB/s through " + numtext.FormatBytes(f.stream) + "B",
		"the " + numtext.FormatBytes(f.llc) + "B last-level cache",
	} {
		if !strings.Contains(s.Text, w) {
			return fail("%s: does not say %q", s.Variant, w)
		}
	}
	return nil
}

func bwNotApplied(s findings.Sentence) error {
	return fail("%s: the bandwidth ceiling does not apply (no working set in bytes, no stream_read in the fingerprint, no cache sizes, or a working set or stream within the last-level cache)", s.Variant)
}

func BWOver(r *result.Result, s findings.Sentence) error {
	f, ok := bwOf(r, s.Variant)
	if !ok {
		return bwNotApplied(s)
	}
	if !(f.bw > (1+bwBand)*f.fastest) {
		return fail("%s: says more than memory delivered, %.4g bytes per ns against the stream's fastest trial %.4g", s.Variant, f.bw, f.fastest)
	}
	return bwSaid(f, s, f.fastest)
}

func BWAt(r *result.Result, s findings.Sentence) error {
	f, ok := bwOf(r, s.Variant)
	if !ok {
		return bwNotApplied(s)
	}
	if k := f.bw / f.med; k < 1-bwBand || k > 1+bwBand {
		return fail("%s: says at the stream's bandwidth, %.4g bytes per ns is %.3g of its median %.4g", s.Variant, f.bw, k, f.med)
	}
	if f.fastest > (1+2*bwBand)*f.med {
		return fail("%s: says at the stream's bandwidth, but the stream moved while it was measured: its fastest trial %.4g is %.3g of its median %.4g", s.Variant, f.fastest, f.fastest/f.med, f.med)
	}
	return bwSaid(f, s, f.med)
}
