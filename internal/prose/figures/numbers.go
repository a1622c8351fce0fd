package figures

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/benchbook/benchbook/internal/result"
)

// Median of x recomputed (the mean of the two middle values of an even
// count); NaN for none.
func Median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func MinOf(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return slices.Min(x)
}

// CVPct is the sample standard deviation over the mean, in percent.
func CVPct(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	m, sd := stat.MeanStdDev(x, nil)
	return 100 * sd / math.Abs(m)
}

// Series is a variant's samples of one series ("interleaved", "in_process",
// "fresh", "cold"); nil when missing.
func Series(r *result.Result, variant, name string) []float64 {
	v := r.Variant(variant)
	if v == nil {
		return nil
	}
	switch name {
	case "cold":
		if v.Series.Cold != nil {
			return v.Series.Cold.SamplesNS
		}
		return nil
	}
	if s := v.Get(name); s != nil {
		return s.SamplesNS
	}
	return nil
}

// Near is a relative agreement of two recomputed figures.
func Near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// AARatio is the A/A control's ratio of medians recomputed: the variant's
// interleaved samples over its copy's.
func AARatio(r *result.Result) float64 {
	return Median(Series(r, r.AA.Variant, "interleaved")) / Median(r.AA.SamplesNS)
}

// AAReach is how far from 1 identical code read in this run: the A/A
// control's recomputed ratio of medians and its interval's ends.
func AAReach(r *result.Result) float64 {
	return math.Max(math.Abs(AARatio(r)-1), math.Max(r.AA.CIHigh-1, 1-r.AA.CILow))
}

func Bounded(lo, hi float64) bool { return lo > 0 && hi > 0 && hi >= lo }

// grid is the clock's granularity recomputed from the runs of values its
// spaced deltas took ("29-105" or "20,30,40-41"): 1 ns when a run spans
// three values or more, else the spacing of the runs' centres; 0 when
// unknown.
func grid(spaced string) float64 {
	spaced = strings.TrimPrefix(spaced, "none")
	if spaced == "" {
		return 0
	}
	var mids []float64
	for _, part := range strings.Split(spaced, ",") {
		lo, hi, found := strings.Cut(part, "-")
		a, err := strconv.ParseFloat(lo, 64)
		if err != nil {
			return 0
		}
		b := a
		if found {
			if b, err = strconv.ParseFloat(hi, 64); err != nil {
				return 0
			}
		}
		if b-a >= 2 {
			return 1
		}
		mids = append(mids, (a+b)/2)
	}
	if len(mids) < 2 {
		return 1
	}
	slices.Sort(mids)
	step := math.Inf(1)
	for i := 1; i < len(mids); i++ {
		step = math.Min(step, mids[i]-mids[i-1])
	}
	if step < 1 {
		return 1
	}
	span := mids[len(mids)-1] - mids[0]
	return math.Round(span/math.Round(span/step)*2) / 2
}

// ClockStep is the clock's granularity the sentences may call its
// smallest step: the grid where the result records the spaced deltas,
// else (results before harness version 6) what the result stored.
func ClockStep(c result.Clock) float64 {
	if g := grid(c.Spaced); g > 0 {
		return g
	}
	return c.ResolutionNS
}

// PairShare is the share of pairs of samples whose relative difference
// (larger - smaller) / smaller exceeds pct percent, by enumeration.
func PairShare(x []float64, pct float64) float64 {
	n, over := 0, 0
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			lo, hi := math.Min(x[i], x[j]), math.Max(x[i], x[j])
			if lo <= 0 {
				continue
			}
			n++
			if (hi-lo)/lo > pct/100 {
				over++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(over) / float64(n)
}

// LagOne is the lag-1 autocorrelation of x.
func LagOne(x []float64) float64 {
	if len(x) < 3 {
		return 0
	}
	return stat.Correlation(x[:len(x)-1], x[1:], nil)
}

// LagOneP is the one-sided permutation p-value of x's lag-1
// autocorrelation: the share of orders of x (n random ones, seeded) whose
// lag-1 autocorrelation is at least x's own; (count+1)/(n+1).
func LagOneP(x []float64, n int) float64 {
	obs := LagOne(x)
	rng := rand.New(rand.NewPCG(1, 2))
	y := slices.Clone(x)
	hit := 0
	for range n {
		rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
		if LagOne(y) >= obs {
			hit++
		}
	}
	return float64(hit+1) / float64(n+1)
}

// LogRatios are the per-round log-ratios of a over b in the interleaved
// series (a's samples against b's, round by round).
func LogRatios(a, b []float64) []float64 {
	n := min(len(a), len(b))
	out := make([]float64, 0, n)
	for i := range n {
		if a[i] > 0 && b[i] > 0 {
			out = append(out, math.Log(a[i]/b[i]))
		}
	}
	return out
}

// mhz is the clock the run saw, recomputed: the largest cpufreq reading,
// else the larger estimate from the adds chain.
func mhz(r *result.Result) float64 {
	best := 0.0
	for _, m := range []map[string]float64{r.Conditions.Before.FreqKHz, r.Conditions.After.FreqKHz} {
		for _, k := range m {
			best = math.Max(best, k/1000)
		}
	}
	if best > 0 {
		return best
	}
	return math.Max(r.Conditions.Before.FreqEstimateMHz, r.Conditions.After.FreqEstimateMHz)
}

func Live(v *result.Variant) bool { return v != nil && !v.Dead && !v.Hollow }
