package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// A generator draws the two series of one simulated comparison of n rounds
// (paired) or n processes a side (unpaired). The true ratio of a to b is
// known: 1 for the null scenarios, 1/1.05 for the power scenarios.
type generator func(rng *rand.Rand, n int, a, b []float64)

const base = 1e6 // a 1 ms loop, in nanoseconds

// iidLog draws each sample as base*scale*exp(noise()).
func iidLog(scaleB float64, noise func(*rand.Rand) float64) generator {
	return func(rng *rand.Rand, n int, a, b []float64) {
		for i := range n {
			a[i] = base * math.Exp(noise(rng))
			b[i] = base * scaleB * math.Exp(noise(rng))
		}
	}
}

// normal is noise of coefficient of variation cv.
func normal(cv float64) func(*rand.Rand) float64 {
	return func(rng *rand.Rand) float64 { return cv * rng.NormFloat64() }
}

// freshProcess is lognormal noise of cv 1% with one sample in 30 landing 8%
// out, like the fresh processes of the seed measurement.
func freshProcess(rng *rand.Rand) float64 {
	v := 0.01 * rng.NormFloat64()
	if rng.IntN(30) == 0 {
		v += math.Log(1.08)
	}
	return v
}

// studentT2 is Student's t with 2 degrees of freedom, scaled by 1%: Z /
// sqrt(V/2) with V chi-squared of 2 degrees of freedom, that is 2 times an
// exponential of mean 1.
func studentT2(rng *rand.Rand) float64 {
	return 0.01 * rng.NormFloat64() / math.Sqrt(rng.ExpFloat64())
}

// ar1 fills e with a stationary AR(1) series of coefficient phi and
// marginal standard deviation sd.
func ar1(rng *rand.Rand, e []float64, phi, sd float64) {
	innov := sd * math.Sqrt(1-phi*phi)
	prev := sd * rng.NormFloat64()
	for i := range e {
		if i > 0 {
			prev = phi*prev + innov*rng.NormFloat64()
		}
		e[i] = prev
	}
}

// ar1Each gives each series its own AR(1) noise (coefficient phi, cv sd):
// for paired rounds the log-ratio is then AR(1) too, the hard case.
func ar1Each(scaleB, phi, sd float64) generator {
	return func(rng *rand.Rand, n int, a, b []float64) {
		ea, eb := make([]float64, n), make([]float64, n)
		ar1(rng, ea, phi, sd)
		ar1(rng, eb, phi, sd)
		for i := range n {
			a[i] = base * math.Exp(ea[i])
			b[i] = base * scaleB * math.Exp(eb[i])
		}
	}
}

// commonDrift is a drift of the machine shared by both series: an AR(1)
// series over the 2n measurements in time order (coefficient phi per
// measurement, cv 3%), plus 1% independent noise per sample. Round i takes
// times 2i and 2i+1, a and b in random order.
func commonDrift(scaleB, phi float64) generator {
	return func(rng *rand.Rand, n int, a, b []float64) {
		g := make([]float64, 2*n)
		ar1(rng, g, phi, 0.03)
		for i := range n {
			ta, tb := 2*i, 2*i+1
			if rng.IntN(2) == 0 {
				ta, tb = tb, ta
			}
			a[i] = base * math.Exp(g[ta]+0.01*rng.NormFloat64())
			b[i] = base * scaleB * math.Exp(g[tb]+0.01*rng.NormFloat64())
		}
	}
}

// rates are what a run of trials measured.
type rates struct {
	significant float64 // share of trials with Significant
	covered     float64 // share of intervals holding the true ratio
	rightSide   float64 // share with Significant and Ratio and Shift on the true side of 1
	meanRatio   float64
}

// simulate runs trials comparisons of n and n samples drawn by gen, with
// compare, and returns the rates against the true ratio.
func simulate(t *testing.T, seed uint64, trials, n int, gen generator,
	compare func(a, b []float64, alpha float64) (Verdict, error), truth float64) rates {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 42))
	a, b := make([]float64, n), make([]float64, n)
	var r rates
	for range trials {
		gen(rng, n, a, b)
		v, err := compare(a, b, 0.05)
		if err != nil && !errors.Is(err, ErrTooFew) {
			t.Fatalf("%v", err)
		}
		if v.Significant {
			r.significant++
		}
		if v.Low <= truth && truth <= v.High {
			r.covered++
		}
		side := func(x float64) bool { return (x < 1) == (truth < 1) && x != 1 }
		if v.Significant && side(v.Ratio) && side(v.Shift) {
			r.rightSide++
		}
		r.meanRatio += v.Ratio
	}
	f := float64(trials)
	r.significant /= f
	r.covered /= f
	r.rightSide /= f
	r.meanRatio /= f
	return r
}

func TestCalibrationMeasure(t *testing.T) {
	scen := []struct {
		name  string
		gen   generator
		truth float64
	}{
		{"iid normal 1%", iidLog(1, normal(0.01)), 1},
		{"fresh process", iidLog(1, freshProcess), 1},
		{"t2", iidLog(1, studentT2), 1},
		{"ar1 0.5 each", ar1Each(1, 0.5, 0.01), 1},
		{"ar1 0.7 each", ar1Each(1, 0.7, 0.01), 1},
		{"ar1 0.3 each", ar1Each(1, 0.3, 0.01), 1},
		{"drift", commonDrift(1, 0.9), 1},
		{"power 1%", iidLog(1.05, normal(0.01)), 1 / 1.05},
		{"power 2%", iidLog(1.05, normal(0.02)), 1 / 1.05},
		{"power ar1 2%", ar1Each(1.05, 0.5, 0.02), 1 / 1.05},
		{"power ar1 1%", ar1Each(1.05, 0.5, 0.01), 1 / 1.05},
	}
	for _, s := range scen {
		for _, c := range []struct {
			name string
			f    func(a, b []float64, alpha float64) (Verdict, error)
		}{{"paired", ComparePaired}, {"unpaired", CompareUnpaired}} {
			r := simulate(t, 1, 4000, 30, s.gen, c.f, s.truth)
			t.Logf("%-10s %-16s sig %.4f cov %.4f right %.4f", c.name, s.name, r.significant, r.covered, r.rightSide)
		}
	}
}
