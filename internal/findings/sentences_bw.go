package findings

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// BWCeilingBand is how close to the fingerprint's streaming read a
// variant's bytes per ns must be to be called at it (of the stream's
// median), and how far beyond the stream's fastest trial to be called
// over it. A stream whose fastest trial is more than twice the band above
// its median moved while it was measured (seen here under other work:
// trials of 9.3, 24.8, 9.6, 11.0 and 26.4 GB/s): nothing is called at it.
const BWCeilingBand = 0.10

// LastLevelCache is the largest data or unified cache the machine
// description lists for any of its CPUs (as /sys describes them); 0 when
// it lists none. The largest over all CPUs: a working set said to exceed
// it exceeds the cache of whichever CPU ran the benchmark.
func LastLevelCache(d machine.Description) int64 {
	var llc int64
	for _, c := range d.CPUs {
		for _, k := range c.Caches {
			if k.Type != "Instruction" {
				llc = max(llc, machine.CacheBytes(k.Size))
			}
		}
	}
	return llc
}

// BWSentences are the bandwidth ceiling's sentences of one result, as its
// plausibility paragraph writes them: of every live variant whose median
// the clock can time.
func BWSentences(r *result.Result) []Sentence {
	var out []Sentence
	for i := range r.Variants {
		v := &r.Variants[i]
		m, ok := median(v.Series.Interleaved)
		if !ok || v.Dead || v.Hollow || len(clockWhy(r.Conditions.Clock, v, m)) > 0 {
			continue
		}
		out = append(out, bwCeiling(r, v, m)...)
	}
	return out
}

// sweepBW are the bandwidth ceiling's sentences of every point of a sweep,
// in the sweep's commentary (a point's own commentary is not shown): the
// Key is the point's index.
func sweepBW(rs []*result.Result) []Sentence {
	var out []Sentence
	for _, r := range rs {
		if r.Sweep == nil {
			continue
		}
		for _, s := range BWSentences(r) {
			s.Topic, s.Key = TopicSweep, strconv.Itoa(r.Sweep.Index)
			out = append(out, s)
		}
	}
	return out
}

// bwCeiling weighs a sweep point's bytes per ns (its working set over its
// median time per pass) against the streaming read the run's fingerprint
// measured, where both the working set and the stream exceed the
// last-level cache: beyond the stream's fastest trial by more than the
// band, more than memory delivered to one core (a pass does not read all
// of its working set from memory); within the band of its median, at the
// memory bandwidth, when the stream held still (its fastest trial within
// twice the band of its median). Otherwise nothing is said: a pass may do more than
// read its working set once, and under the stream says nothing of why.
// A result without a working set in bytes (no sweep, or one whose bytes
// are unknown), without a stream in its fingerprint (older, or
// fingerprint=off) or without cache sizes is not judged.
func bwCeiling(r *result.Result, v *result.Variant, median float64) []Sentence {
	fp := r.Conditions.Fingerprint
	if r.Sweep == nil || r.Sweep.Bytes == nil || *r.Sweep.Bytes <= 0 || fp == nil || !(median > 0) {
		return nil
	}
	st, llc := fp.Entry(machine.StreamEntry), LastLevelCache(r.Conditions.Machine)
	ws := *r.Sweep.Bytes
	if st == nil || st.Unit != "GB/s" || !(st.Value > 0) || len(st.Trials) == 0 || llc <= 0 || ws <= llc || st.Bytes <= llc {
		return nil
	}
	bw := float64(ws) / median
	fastest := slices.Max(st.Trials)
	head := fmt.Sprintf("%s: %sB, its working set, in %s per pass is %s bytes per ns (GB/s)", v.Name, numtext.FormatBytes(ws), numtext.FormatNS(median), numtext.Sig(bw))
	caches := fmt.Sprintf("the working set and the stream both exceed the %sB last-level cache", numtext.FormatBytes(llc))
	switch {
	case bw > (1+BWCeilingBand)*fastest:
		return said(ClaimBWOver, "", TopicPlausibility, "", v.Name, fmt.Sprintf("%s, %sx the fastest streaming read of this run's fingerprint (%s GB/s through %sB; %s): more than memory delivered to one core, so a pass does not read all of its working set from memory (part of it is not read, or it sits in a cache), unless other work slowed memory while the fingerprint read it",
			head, numtext.FormatRatio(bw/fastest), numtext.Sig(fastest), numtext.FormatBytes(st.Bytes), caches))
	case math.Abs(bw/st.Value-1) <= BWCeilingBand && fastest <= (1+2*BWCeilingBand)*st.Value:
		return said(ClaimBWAt, "", TopicPlausibility, "", v.Name, fmt.Sprintf("%s, within %s of the streaming read of this run's fingerprint (%s GB/s through %sB, the median of its trials; %s): if a pass reads its working set once, it runs at the memory bandwidth this run measured for one core",
			head, numtext.FormatPct(BWCeilingBand), numtext.Sig(st.Value), numtext.FormatBytes(st.Bytes), caches))
	}
	return nil
}
