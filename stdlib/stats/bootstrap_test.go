package stats

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"sort"
	"testing"
)

// documentedInterval recomputes a bootstrap interval from the steps written on
// RatioOfMedians, as someone re-checking a stored result would, sharing no
// code with the package: if the doc and the code part, this test says so.
func documentedInterval(a, b []float64, seed uint64, resamples int, paired bool, conf float64) (low, high float64) {
	pcg := rand.NewPCG(seed, 0)
	index := func(n int) int {
		hi, _ := bits.Mul64(pcg.Uint64(), uint64(n))
		return int(hi)
	}
	median := func(x []float64) float64 {
		s := append([]float64(nil), x...)
		sort.Float64s(s)
		if len(s)%2 == 1 {
			return s[len(s)/2]
		}
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	ratios := make([]float64, resamples)
	for r := range ratios {
		ra, rb := make([]float64, len(a)), make([]float64, len(b))
		if paired {
			for i := range ra {
				k := index(len(a))
				ra[i], rb[i] = a[k], b[k]
			}
		} else {
			for i := range ra {
				ra[i] = a[index(len(a))]
			}
			for i := range rb {
				rb[i] = b[index(len(b))]
			}
		}
		ratios[r] = median(ra) / median(rb)
		if median(rb) == 0 {
			ratios[r] = math.Inf(1)
		}
	}
	sort.Float64s(ratios)
	t := int(math.Round(float64(resamples) * (1 - conf) / 2))
	t = min(t, (resamples-1)/2)
	return ratios[t], ratios[resamples-1-t]
}

func TestRatioOfMediansFollowsItsDoc(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := noisy(rng, 30, 1100, 0.03), noisy(rng, 30, 1000, 0.03)
	for _, tc := range []struct {
		name string
		opt  Bootstrap
	}{
		{"paired defaults", Bootstrap{Seed: 1, Paired: true}},
		{"unpaired defaults", Bootstrap{Seed: 1}},
		{"odd resamples, 90%", Bootstrap{Seed: 99, Resamples: 333, Confidence: 0.9}},
		{"one resample", Bootstrap{Seed: 5, Resamples: 1, Paired: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RatioOfMedians(a, b, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			r, c := tc.opt.Resamples, tc.opt.Confidence
			if r == 0 {
				r = 2000
			}
			if c == 0 {
				c = 0.95
			}
			low, high := documentedInterval(a, b, tc.opt.Seed, r, tc.opt.Paired, c)
			if got.Low != low || got.High != high {
				t.Errorf("interval [%v, %v], the documented steps give [%v, %v]", got.Low, got.High, low, high)
			}
			if want := Median(a) / Median(b); got.Ratio != want {
				t.Errorf("ratio %v, want Median(a)/Median(b) = %v", got.Ratio, want)
			}
		})
	}
}

func TestRatioOfMediansDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a, b := noisy(rng, 30, 1000, 0.05), noisy(rng, 30, 1000, 0.05)
	for _, paired := range []bool{true, false} {
		first, err1 := RatioOfMedians(a, b, Bootstrap{Seed: 42, Paired: paired})
		again, err2 := RatioOfMedians(a, b, Bootstrap{Seed: 42, Paired: paired})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if first != again {
			t.Errorf("paired=%v: seed 42 gave %+v, then %+v", paired, first, again)
		}
		differs := false
		for seed := uint64(43); seed < 48; seed++ {
			other, _ := RatioOfMedians(a, b, Bootstrap{Seed: seed, Paired: paired})
			differs = differs || other.Low != first.Low || other.High != first.High
		}
		if !differs {
			t.Errorf("paired=%v: seeds 43..47 all gave the interval of seed 42: is the seed used?", paired)
		}
	}
}

func TestRatioOfMediansContainsRatio(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := range 20 {
		a, b := noisy(rng, 30, 1000*(1+rng.Float64()), 0.05), noisy(rng, 30, 1000, 0.05)
		for _, paired := range []bool{true, false} {
			iv, err := RatioOfMedians(a, b, Bootstrap{Seed: uint64(trial), Paired: paired})
			if err != nil {
				t.Fatal(err)
			}
			if !(iv.Low <= iv.Ratio && iv.Ratio <= iv.High) || iv.Low == iv.High {
				t.Errorf("trial %d paired=%v: %+v does not contain its ratio or is degenerate", trial, paired, iv)
			}
		}
	}
}

func TestRatioOfMediansHandReasoned(t *testing.T) {
	b := []float64{10, 11, 12, 13, 17, 20, 31}
	double := make([]float64, len(b))
	for i, v := range b {
		double[i] = 2 * v
	}
	inf := math.Inf(1)
	tests := []struct {
		name   string
		reason string
		a, b   []float64
		opt    Bootstrap
		want   Interval
	}{
		{"a = 2b paired", "every resampled round keeps a* = 2b*, and doubling is exact in floating point, so every ratio is exactly 2",
			double, b, Bootstrap{Seed: 1, Paired: true}, Interval{2, 2, 2}},
		{"single samples", "a resample of one sample is that sample: every ratio is 6/3",
			[]float64{6}, []float64{3}, Bootstrap{Seed: 1}, Interval{2, 2, 2}},
		{"two values of b", "a* median is always 3; b* median is 1 or 2, and 2 (3 or more 2s in 5 draws at 0.4) " +
			"has probability 0.317, so both 3/1 and 3/2 hold far more than the 2.5% cut from each end",
			[]float64{3, 3, 3, 3, 3}, []float64{1, 1, 1, 2, 2}, Bootstrap{Seed: 1}, Interval{3, 1.5, 3}},
		{"zero median in resamples", "b = 0 1 1: b* has median 0 when 2 or 3 of 3 draws are 0 (7/27 = 26%), " +
			"so the top 2.5% of ratios are +Inf; the rest are 1/1",
			[]float64{1, 1, 1}, []float64{0, 1, 1}, Bootstrap{Seed: 1}, Interval{1, 1, inf}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(5) {
				tc.opt.Seed = seed
				got, err := RatioOfMedians(tc.a, tc.b, tc.opt)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Errorf("seed %d: %+v, want %+v: %s", seed, got, tc.want, tc.reason)
				}
			}
		})
	}
}

func TestRatioOfMediansUnpairedDoubleIsNotDegenerate(t *testing.T) {
	// Unpaired, a* and b* are drawn independently, so a = 2b no longer
	// pins every resample to 2: the interval must widen around 2.
	b := []float64{10, 11, 12, 13, 17, 20, 31}
	a := make([]float64, len(b))
	for i, v := range b {
		a[i] = 2 * v
	}
	iv, err := RatioOfMedians(a, b, Bootstrap{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !(iv.Ratio == 2 && iv.Low < 2 && iv.High > 2) {
		t.Errorf("unpaired a = 2b gave %+v, want ratio 2 strictly inside the interval", iv)
	}
}

func TestRatioOfMediansErrors(t *testing.T) {
	x := []float64{1, 2, 3}
	tests := []struct {
		name    string
		reason  string
		a, b    []float64
		opt     Bootstrap
		wantErr error // nil: any error
	}{
		{"empty a", "no median of nothing", nil, x, Bootstrap{}, ErrNoSamples},
		{"empty b", "no median of nothing", x, []float64{}, Bootstrap{}, ErrNoSamples},
		{"paired lengths", "pairing needs one sample of each per round", x, []float64{1, 2}, Bootstrap{Paired: true}, ErrUnpaired},
		{"negative resamples", "cannot draw -1 resamples", x, x, Bootstrap{Resamples: -1}, nil},
		{"confidence 1", "a 100% interval is not a percentile interval", x, x, Bootstrap{Confidence: 1}, nil},
		{"confidence NaN", "NaN is no confidence", x, x, Bootstrap{Confidence: math.NaN()}, nil},
		{"zero median", "b's median is 0: the ratio is +Inf and must say so", x, []float64{0, 0, 5}, Bootstrap{}, ErrZeroMedian},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RatioOfMedians(tc.a, tc.b, tc.opt)
			if err == nil || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
				t.Errorf("err = %v, want %v: %s", err, tc.wantErr, tc.reason)
			}
		})
	}
	iv, _ := RatioOfMedians(x, []float64{0, 0, 5}, Bootstrap{})
	if !math.IsInf(iv.Ratio, 1) || !math.IsInf(iv.Low, 1) || !math.IsInf(iv.High, 1) {
		t.Errorf("zero median in b gave %+v, want +Inf throughout", iv)
	}
	iv, _ = RatioOfMedians([]float64{0}, []float64{0}, Bootstrap{})
	if math.IsNaN(iv.Ratio) {
		t.Errorf("0/0 gave NaN, want +Inf with ErrZeroMedian")
	}
}

func TestRatioOfMediansDefaults(t *testing.T) {
	a, b := []float64{5, 7, 6, 9, 8}, []float64{4, 6, 5, 5, 7}
	zero, _ := RatioOfMedians(a, b, Bootstrap{Seed: 3})
	explicit, _ := RatioOfMedians(a, b, Bootstrap{Seed: 3, Resamples: 2000, Confidence: 0.95})
	other, _ := RatioOfMedians(a, b, Bootstrap{Seed: 3, Resamples: 200, Confidence: 0.5})
	if zero != explicit {
		t.Errorf("zero options gave %+v, 2000 resamples at 0.95 gave %+v", zero, explicit)
	}
	if other == explicit {
		t.Errorf("200 resamples at 0.5 gave the same interval as the defaults: options ignored?")
	}
}

// TestRatioOfMediansCoverage draws both series from one distribution (true
// ratio of medians 1) many times: a 95% interval should hold 1 in most trials
// and still be narrow. Loose bounds, fixed seeds: a property, not a number.
func TestRatioOfMediansCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 12))
	const trials = 200
	held, wide := 0, 0
	for trial := range trials {
		a, b := make([]float64, 30), make([]float64, 30)
		for i := range a {
			a[i] = 1000 * (1 + 0.05*rng.NormFloat64())
			b[i] = 1000 * (1 + 0.05*rng.NormFloat64())
		}
		iv, err := RatioOfMedians(a, b, Bootstrap{Seed: uint64(trial), Resamples: 500})
		if err != nil {
			t.Fatal(err)
		}
		if !iv.Excludes(1) {
			held++
		}
		if iv.High-iv.Low > 0.15 {
			wide++
		}
	}
	if held < trials*85/100 {
		t.Errorf("the 95%% interval held the true ratio in %d of %d trials", held, trials)
	}
	if wide > 0 {
		t.Errorf("%d of %d intervals were wider than 0.15 for 5%% noise and n=30", wide, trials)
	}
}
