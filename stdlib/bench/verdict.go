package bench

import (
	"errors"
	"fmt"
	"math"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// Method is the StatsMethod of the results this version makes: the
// interleaved rounds are taken in blocks (blocks.go), and every comparison
// of them (variant pairs, the A/A control, a baseline's rounds) is the sign
// test of the blocks' median log-ratios: sequential (stats.SeqSignTest)
// when the blocks stopped when their verdicts were known
// (Protocol.Sequential, a before/after), the exact test of a fixed number
// of blocks otherwise (stats.SignTest); a baseline's fresh and cold series
// likewise, pair by pair. The variant pairs of a result are one family, the baseline's
// variants and series another, its headline a third (Holm's method,
// stats.SeqHolm); the A/A control is one test of its own.
//
// MethodRank1 is the method of results made before blocks: Part 1 in one
// process, its rounds compared with stats.ComparePaired (fresh processes
// with stats.CompareUnpaired), a baseline's rounds with
// stats.CompareClustered over the process pairs; Holm over each family.
// verify recomputes those results with it.
const (
	Method      = "blocks/1"
	MethodRank1 = "rank/1"
)

// judge compares a with b, paired by round or as independent processes,
// and fills in the figures every verdict carries. A comparison that cannot
// be computed (a zero median, too few samples) says why in Undefined and is
// never significant.
func judge(a, b []float64, paired bool, alpha float64) (stats.Verdict, Stat) {
	if paired {
		n := min(len(a), len(b))
		a, b = a[:n], b[:n]
	}
	var v stats.Verdict
	var err error
	if paired {
		v, err = stats.ComparePaired(a, b, alpha)
	} else {
		v, err = stats.CompareUnpaired(a, b, alpha)
	}
	return settle(v, err)
}

// judgeClustered compares rounds a and b taken in process pairs, pairOf
// giving the pair of each round.
func judgeClustered(a, b []float64, pairOf []int, alpha float64) (stats.Verdict, Stat) {
	var ca, cb [][]float64
	n := min(len(a), len(b), len(pairOf))
	for i := 0; i < n; i++ {
		for pairOf[i] >= len(ca) {
			ca, cb = append(ca, nil), append(cb, nil)
		}
		ca[pairOf[i]] = append(ca[pairOf[i]], a[i])
		cb[pairOf[i]] = append(cb[pairOf[i]], b[i])
	}
	v, err := stats.CompareClustered(ca, cb, alpha)
	if err == nil && (len(a) != len(b) || len(a) != len(pairOf)) {
		err = fmt.Errorf("%d rounds of the new build, %d of the baseline, %d with a pair: %w", len(a), len(b), len(pairOf), stats.ErrUnpaired)
	}
	return settle(v, err)
}

// settle fills in the figures every verdict carries.
func settle(v stats.Verdict, err error) (stats.Verdict, Stat) {
	st := Stat{Shift: finite(v.Shift), Rho: finite(v.Rho), NEff: finite(v.NEff), Method: v.Method}
	if err != nil {
		st.Undefined = undefinedReason(err)
		v.Significant = false
		if v.P == 0 || math.IsNaN(v.P) {
			v.P = 1
		}
	}
	v.Ratio, v.Low, v.High = finite(v.Ratio), finite(v.Low), finite(v.High)
	return v, st
}

// undefinedReason says in a few words why a verdict could not be computed.
func undefinedReason(err error) string {
	switch {
	case errors.Is(err, stats.ErrNoSamples):
		return "no samples on one side"
	case errors.Is(err, stats.ErrZeroMedian), errors.Is(err, stats.ErrNonPositive):
		return "a sample of zero: faster than the clock resolves"
	case errors.Is(err, stats.ErrTooFew):
		return "too few samples for a verdict at 95% (take more reps or runs)"
	}
	return err.Error()
}

// adjust sets PAdjusted (Holm over the family) and Significant on each
// verdict of one family; undefined verdicts take part with p = 1.
func adjust(ps []float64, set func(i int, padj float64)) {
	adj := stats.Holm(ps)
	for i, pa := range adj {
		set(i, pa)
	}
}

// Comparisons compares every pair of variants in the interleaved series,
// paired by round, the slower one over the faster one, with Holm's
// adjustment over the pairs.
//
// In a result whose rounds were taken in blocks (roundBlock, stats method
// Method), each pair is judged block by block (BlockValues) with the
// sequential sign test, all pairs together by stats.SeqHolm.
func Comparisons(vs []Variant, p Protocol, roundBlock []int) []Comparison {
	if p.StatsMethod == Method {
		return blockComparisons(vs, p, roundBlock)
	}
	out := []Comparison{} // an empty list, never null: the schema wants an array
	for i := 0; i < len(vs); i++ {
		for j := i + 1; j < len(vs); j++ {
			a, b := vs[i], vs[j]
			if a.Series.Interleaved == nil || b.Series.Interleaved == nil {
				continue
			}
			if a.Series.Interleaved.Summary.Median < b.Series.Interleaved.Summary.Median {
				a, b = b, a
			}
			x, y := a.Series.Interleaved.SamplesNS, b.Series.Interleaved.SamplesNS
			if p.StatsMethod == "" {
				out = append(out, legacyCompare(a.Name, b.Name, x, y, p))
				continue
			}
			v, st := judge(x, y, true, p.Alpha)
			out = append(out, Comparison{A: a.Name, B: b.Name, Series: "interleaved", Ratio: v.Ratio, CILow: v.Low,
				CIHigh: v.High, PValue: v.P, Paired: true, Stat: st})
		}
	}
	if p.StatsMethod == "" {
		return out
	}
	ps := make([]float64, len(out))
	for i, c := range out {
		ps[i] = c.PValue
	}
	adjust(ps, func(i int, pa float64) {
		out[i].PAdjusted = pa
		out[i].Significant = out[i].Undefined == "" && pa < p.Alpha
	})
	return out
}

// AAControl compares a variant with its second copy in the same rounds:
// block by block with the sequential sign test at alpha in results of
// Method, by stats.ComparePaired over the rounds before.
func AAControl(variant string, orig, copySamples []float64, p Protocol, roundBlock []int) AA {
	if p.StatsMethod == Method {
		aa := AA{Variant: variant, SamplesNS: copySamples, Ratio: finite(safeRatio(orig, copySamples)),
			Stat: Stat{Method: stats.MethodSequential}}
		x, err := BlockValues(orig, copySamples, roundBlock)
		if err == nil {
			var v stats.SeqVerdict
			if v, err = signTest(p)(x, p.Alpha); err == nil {
				fillSeq(&aa.CILow, &aa.CIHigh, &aa.PValue, &aa.Stat, v)
				return aa
			}
		}
		aa.PValue, aa.Undefined = 1, undefinedReason(err)
		return aa
	}
	if p.StatsMethod == "" {
		return legacyAA(variant, orig, copySamples, p)
	}
	v, st := judge(orig, copySamples, true, p.Alpha)
	return AA{Variant: variant, SamplesNS: copySamples, Ratio: v.Ratio, CILow: v.Low, CIHigh: v.High, PValue: v.P, Stat: st}
}

// finite maps an infinite or undefined figure to 0, since JSON has no
// infinity; a ratio of 0 is read as "undefined".
func finite(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	return x
}

// signTest and signHolm are the tests of blocks a result's protocol calls
// for: sequential when the blocks stopped when their verdicts were known,
// the exact test of a fixed number of blocks otherwise.
func signTest(p Protocol) func([]float64, float64) (stats.SeqVerdict, error) {
	if p.Sequential {
		return stats.SeqSignTest
	}
	return stats.SignTest
}

func signHolm(p Protocol) func([][]float64, float64) ([]stats.SeqVerdict, []float64, error) {
	if p.Sequential {
		return stats.SeqHolm
	}
	return stats.SignHolm
}

// blockComparisons is Comparisons for results of Method.
func blockComparisons(vs []Variant, p Protocol, roundBlock []int) []Comparison {
	out := []Comparison{}
	var values [][]float64
	var judged []int
	for i := 0; i < len(vs); i++ {
		for j := i + 1; j < len(vs); j++ {
			a, b := vs[i], vs[j]
			if a.Series.Interleaved == nil || b.Series.Interleaved == nil {
				continue
			}
			if a.Series.Interleaved.Summary.Median < b.Series.Interleaved.Summary.Median {
				a, b = b, a
			}
			x, y := a.Series.Interleaved.SamplesNS, b.Series.Interleaved.SamplesNS
			c := Comparison{A: a.Name, B: b.Name, Series: "interleaved", Ratio: finite(safeRatio(x, y)), PValue: 1, Paired: true,
				Stat: Stat{Method: stats.MethodSequential}}
			if bv, err := BlockValues(x, y, roundBlock); err != nil {
				c.Undefined = undefinedReason(err)
			} else {
				values, judged = append(values, bv), append(judged, len(out))
			}
			out = append(out, c)
		}
	}
	vsq, padj, err := signHolm(p)(values, p.Alpha)
	for k, i := range judged {
		c := &out[i]
		if err != nil {
			c.Undefined = err.Error()
			continue
		}
		fillSeq(&c.CILow, &c.CIHigh, &c.PValue, &c.Stat, vsq[k])
		c.PAdjusted = padj[k]
		c.Significant = vsq[k].Rejected
	}
	return out
}

// fillSeq puts a sequential verdict's figures into a comparison's fields:
// the interval (exp), the sequential p-value, the typical ratio (exp of the
// median block value) and the blocks it rests on; "undefined" when too few
// blocks were taken for any verdict.
func fillSeq(low, high, p *float64, st *Stat, v stats.SeqVerdict) {
	*low, *high = finite(math.Exp(v.Low)), finite(math.Exp(v.High))
	*p = v.P
	st.Shift, st.NEff = math.Exp(v.Estimate), float64(v.N)
	if v.Critical < 0 && !v.Rejected {
		st.Undefined = fmt.Sprintf("too few samples: %d blocks, and a verdict at this level takes at least %d", v.N, stats.SeqMinBlocks(v.Alpha, 1000))
	}
}
