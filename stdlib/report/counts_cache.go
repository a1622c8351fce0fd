package report

import (
	"math"
	"strconv"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// countsTable puts what callgrind counted beside the times, one row per
// variant with counts: the interleaved median, the instructions per pass
// (and per element) and the simulated data misses per pass of the first
// level and the last level; nil when no variant has counts.
func countsTable(r *result.Result) *table {
	t := &table{head: []string{"counts (callgrind)", "median time", "instructions/pass", "per element", "D1 misses/pass", "LL misses/pass"}}
	for _, v := range r.Variants {
		c := v.Counts
		if c == nil {
			continue
		}
		med := "-"
		if s := v.Series.Interleaved; s != nil {
			med = numtext.FormatNS(s.Summary.Median)
		}
		t.add(v.Name, med, numtext.FormatCount(c.InstructionsPerPass), optG(c.PerElement), optG(c.D1MissesPerPass), optG(c.LLMissesPerPass))
	}
	if len(t.rows) == 0 {
		return nil
	}
	return t
}

// optG is a figure with up to 4 significant digits (whole numbers and
// figures from 1000 up to the unit, with thousands separators), or "-".
func optG(x *float64) string {
	if x == nil {
		return "-"
	}
	if *x == math.Trunc(*x) || math.Abs(*x) >= 1000 {
		return numtext.FormatCount(int64(math.Round(*x)))
	}
	return strconv.FormatFloat(*x, 'g', 4, 64)
}
