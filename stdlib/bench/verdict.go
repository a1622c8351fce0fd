package bench

import (
	"errors"
	"fmt"
	"math"

	"github.com/benchbook/benchbook/internal/result"
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
// Results of the methods before it (rank/1: Part 1 in one process, rank
// tests with an autocorrelation inflation; none: a bootstrap) are not
// judged by this benchbook: CheckMethod refuses them, and verify says so.
const Method = "blocks/1"

// ErrMethod is a result whose stats method this benchbook does not judge.
var ErrMethod = errors.New("stats method not judged by this benchbook")

// CheckMethod refuses a result whose comparisons were made by another
// stats method than Method.
func CheckMethod(p Protocol) error {
	if p.StatsMethod == Method {
		return nil
	}
	m := p.StatsMethod
	if m == "" {
		m = "none (a bootstrap, before stats methods)"
	}
	return fmt.Errorf("%w: stats_method is %s, and this benchbook judges only %s: its comparisons, A/A control and baseline cannot be recomputed (verify it with the benchbook that wrote it)", ErrMethod, m, Method)
}

// settle fills in the figures every verdict carries.
func settle(v stats.Verdict, err error) (stats.Verdict, Stat) {
	st := Stat{Shift: result.Finite(v.Shift), Rho: result.Finite(v.Rho), NEff: result.Finite(v.NEff), Method: v.Method}
	if err != nil {
		st.Undefined = undefinedReason(err)
		v.Significant = false
		if v.P == 0 || math.IsNaN(v.P) {
			v.P = 1
		}
	}
	v.Ratio, v.Low, v.High = result.Finite(v.Ratio), result.Finite(v.Low), result.Finite(v.High)
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
// the slower one over the faster one: block by block (BlockValues,
// roundBlock) with the sign test, all pairs one family for Holm's method
// (stats.SeqHolm). A result of another stats method gets none
// (CheckMethod).
func Comparisons(vs []Variant, p Protocol, roundBlock []int) []Comparison {
	if p.StatsMethod != Method {
		return []Comparison{} // CheckMethod says why; an empty list, never null
	}
	return blockComparisons(vs, p, roundBlock)
}

// AAControl compares a variant with its second copy in the same rounds,
// block by block with the sign test at alpha; a result of another stats
// method gets an undefined control (CheckMethod).
func AAControl(variant string, orig, copySamples []float64, p Protocol, roundBlock []int) AA {
	if p.StatsMethod == Method {
		aa := AA{Variant: variant, SamplesNS: copySamples, Ratio: result.Finite(safeRatio(orig, copySamples)),
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
	aa := AA{Variant: variant, SamplesNS: copySamples, Ratio: result.Finite(safeRatio(orig, copySamples))}
	aa.PValue, aa.Undefined = 1, CheckMethod(p).Error()
	return aa
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
			c := Comparison{A: a.Name, B: b.Name, Series: "interleaved", Ratio: result.Finite(safeRatio(x, y)), PValue: 1, Paired: true,
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
	*low, *high = result.Finite(math.Exp(v.Low)), result.Finite(math.Exp(v.High))
	*p = v.P
	st.Shift, st.NEff = math.Exp(v.Estimate), float64(v.N)
	if v.Critical < 0 && !v.Rejected {
		st.Undefined = fmt.Sprintf("too few samples: %d blocks, and a verdict at this level takes at least %d", v.N, stats.SeqMinBlocks(v.Alpha, 1000))
	}
}
