package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
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

// compareFunc is ComparePaired or CompareUnpaired.
type compareFunc func(a, b []float64, alpha float64) (Verdict, error)

// TestCalibrationMeasure logs the rates of more scenarios than
// TestCalibration asserts (about a minute): run it with
// BENCHBOOK_CALIBRATION=1 go test -run CalibrationMeasure -v.
func TestCalibrationMeasure(t *testing.T) {
	if os.Getenv("BENCHBOOK_CALIBRATION") == "" {
		t.Skip("measurement only: set BENCHBOOK_CALIBRATION=1")
	}
	scen := []struct {
		name  string
		gen   generator
		truth float64
	}{
		{"iid normal 1%", iidLog(1, normal(0.01)), 1},
		{"fresh process", iidLog(1, freshProcess), 1},
		{"t2", iidLog(1, studentT2), 1},
		{"ar1 0.3 each", ar1Each(1, 0.3, 0.01), 1},
		{"ar1 0.5 each", ar1Each(1, 0.5, 0.01), 1},
		{"ar1 0.7 each", ar1Each(1, 0.7, 0.01), 1},
		{"drift", commonDrift(1, 0.9), 1},
		{"power 1%", iidLog(1.05, normal(0.01)), 1 / 1.05},
		{"power 2%", iidLog(1.05, normal(0.02)), 1 / 1.05},
		{"power ar1 1%", ar1Each(1.05, 0.5, 0.01), 1 / 1.05},
		{"power ar1 2%", ar1Each(1.05, 0.5, 0.02), 1 / 1.05},
		{"power drift", commonDrift(1.05, 0.9), 1 / 1.05},
	}
	for _, s := range scen {
		for _, c := range []struct {
			name string
			f    compareFunc
		}{{"paired", ComparePaired}, {"unpaired", CompareUnpaired}} {
			r := simulate(t, 1, 4000, 30, s.gen, c.f, s.truth)
			t.Logf("%-10s %-16s significant %.4f covered %.4f right side %.4f mean ratio %.4f",
				c.name, s.name, r.significant, r.covered, r.rightSide, r.meanRatio)
		}
	}
	// Other sizes, for the scenarios that decide the method.
	for _, n := range []int{10, 100} {
		for _, s := range scen {
			if s.name != "iid normal 1%" && s.name != "ar1 0.5 each" && s.name != "power 2%" && s.name != "power ar1 2%" {
				continue
			}
			for _, c := range []struct {
				name string
				f    compareFunc
			}{{"paired", ComparePaired}, {"unpaired", CompareUnpaired}} {
				r := simulate(t, 1, 4000, n, s.gen, c.f, s.truth)
				t.Logf("n=%-3d %-10s %-16s significant %.4f covered %.4f right side %.4f",
					n, c.name, s.name, r.significant, r.covered, r.rightSide)
			}
		}
	}
}

// TestCalibration checks the verdicts against the truth of simulated data,
// n = 30 rounds (paired) or 30 processes a side (unpaired), alpha 0.05,
// 4000 trials a scenario, fixed seeds. With no true difference the share of
// Significant verdicts must be at most 0.06 (nominal 0.05; the standard
// error of a rate of 0.05 over 4000 trials is 0.0034, so 0.06 is three of
// them above) and the share of intervals holding the true ratio at least
// 0.93. With a true 5% difference (b drawn 1.05 times slower) the share of
// Significant verdicts with Ratio and Shift both below 1 must reach the
// given power, and the intervals must still hold the true ratio 1/1.05.
//
// Measured rates (significant / covered / right side), seed 1:
//
//	paired    iid normal 1%      0.0208 / 0.9792
//	paired    fresh process      0.0222 / 0.9778
//	paired    Student t, 2 df    0.0215 / 0.9785
//	paired    AR(1) 0.3 each     0.0437 / 0.9563   (not asserted)
//	paired    AR(1) 0.5 each     0.0540 / 0.9460
//	paired    AR(1) 0.7 each     0.0585 / 0.9415   (not asserted)
//	paired    common drift       0.0248 / 0.9752
//	unpaired  iid normal 1%      0.0283 / 0.9718
//	unpaired  fresh process      0.0260 / 0.9740
//	unpaired  Student t, 2 df    0.0265 / 0.9735
//	unpaired  AR(1) 0.5 each     0.0423 / 0.9577
//	unpaired  AR(1) 0.7 each     0.0478 / 0.9523   (not asserted)
//	paired    5%, iid 1% / 2%    power 0.9995 / 0.9990
//	paired    5%, AR(1) 0.5 1%   power 0.8000, covered 0.9483
//	paired    5%, AR(1) 0.5 2%   power 0.7715, covered 0.9493
//	paired    5%, common drift   power 1.0000
//	unpaired  5%, iid 1% / 2%    power 1.0000 / 1.0000
//	unpaired  5%, AR(1) 0.5 1%   power 0.9815
//	unpaired  5%, AR(1) 0.5 2%   power 0.9543, covered 0.9603
//	unpaired  5%, common drift   power 0.5665 (the wrong design for drift)
//
// Other sizes (TestCalibrationMeasure, not asserted): at n = 10 the method
// is conservative (false positives paired/unpaired: iid 0.0030/0.0112,
// AR(1) 0.5 0.0163/0.0355; power for 5% at cv 2% 0.49/0.81, with AR(1) 0.5
// 0.20/0.33); at n = 100 it is near nominal (iid 0.0410/0.0395, AR(1) 0.5
// 0.0442/0.0483; power 1.0 in all four power scenarios).
//
// How the method got there. The first version took the normal reference
// distribution with the plug-in inflation factor. Its bias correction of r1
// works (paired AR(1) 0.5: mean r1 0.392, corrected 0.478, against the
// 0.483 lag-1 correlation of the signed ranks), but the estimate is noisy
// (sd 0.19 at n = 30), and an underestimated VIF makes the test liberal:
// false positives 0.0762 for paired AR(1) 0.5 (0.0870 at 0.7, 0.0617 at
// 0.3), 0.0560 unpaired, with iid data at 0.0365. The fix is the standard
// one for a standardised statistic with an estimated variance: Student's t
// with Satterthwaite degrees of freedom nu = n(1-rho^2)/2 from Bartlett's
// variance of r1 (ComparePaired step 5), which gives the rates above. A
// variant that also propagated the (1+4/n)^2 scaling of the bias
// correction into the variance was measured and rejected: it is barely
// different at n = 30 (0.0473 paired AR(1) 0.5) but leaves paired n = 10
// unable to reach 0.05 at all (power 0 for a 5% difference at cv 2%,
// against 0.49 with the chosen nu).
func TestCalibration(t *testing.T) {
	const trials, n = 4000, 30
	tests := []struct {
		name    string
		compare compareFunc
		gen     generator
		truth   float64 // the true ratio a/b
		power   float64 // for truth != 1: the least share of right-side significant verdicts
	}{
		{"paired/iid normal 1%", ComparePaired, iidLog(1, normal(0.01)), 1, 0},
		{"paired/fresh process", ComparePaired, iidLog(1, freshProcess), 1, 0},
		{"paired/Student t 2df", ComparePaired, iidLog(1, studentT2), 1, 0},
		{"paired/AR(1) 0.5 each", ComparePaired, ar1Each(1, 0.5, 0.01), 1, 0},
		{"paired/common drift", ComparePaired, commonDrift(1, 0.9), 1, 0},
		{"unpaired/iid normal 1%", CompareUnpaired, iidLog(1, normal(0.01)), 1, 0},
		{"unpaired/fresh process", CompareUnpaired, iidLog(1, freshProcess), 1, 0},
		{"unpaired/Student t 2df", CompareUnpaired, iidLog(1, studentT2), 1, 0},
		{"unpaired/AR(1) 0.5 each", CompareUnpaired, ar1Each(1, 0.5, 0.01), 1, 0},

		{"paired/5% iid 1%", ComparePaired, iidLog(1.05, normal(0.01)), 1 / 1.05, 0.99},
		{"paired/5% iid 2%", ComparePaired, iidLog(1.05, normal(0.02)), 1 / 1.05, 0.99},
		{"paired/5% AR(1) 0.5 2%", ComparePaired, ar1Each(1.05, 0.5, 0.02), 1 / 1.05, 0.70},
		{"paired/5% common drift", ComparePaired, commonDrift(1.05, 0.9), 1 / 1.05, 0.99},
		{"unpaired/5% iid 1%", CompareUnpaired, iidLog(1.05, normal(0.01)), 1 / 1.05, 0.99},
		{"unpaired/5% iid 2%", CompareUnpaired, iidLog(1.05, normal(0.02)), 1 / 1.05, 0.99},
		{"unpaired/5% AR(1) 0.5 2%", CompareUnpaired, ar1Each(1.05, 0.5, 0.02), 1 / 1.05, 0.90},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := simulate(t, 1, trials, n, tc.gen, tc.compare, tc.truth)
			t.Logf("significant %.4f covered %.4f right side %.4f", r.significant, r.covered, r.rightSide)
			if r.covered < 0.93 {
				t.Errorf("the interval held the true ratio %.4f in %.4f of trials, want at least 0.93", tc.truth, r.covered)
			}
			if tc.truth == 1 && r.significant > 0.06 {
				t.Errorf("false positives in %.4f of trials, want at most 0.06", r.significant)
			}
			if tc.truth != 1 && r.rightSide < tc.power {
				t.Errorf("the 5%% difference found on the right side in %.4f of trials, want at least %.2f", r.rightSide, tc.power)
			}
		})
	}
}
