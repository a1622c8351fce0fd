package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// sample draws n values: with ties (few distinct values) or without, some
// negative, some zero when zeros is set.
func sample(rng *rand.Rand, n int, ties, zeros bool) []float64 {
	x := make([]float64, n)
	for i := range x {
		switch {
		case ties:
			x[i] = float64(rng.IntN(7)-2) * 0.1 // -0.2 .. 0.4, many equal
		default:
			x[i] = rng.NormFloat64()
		}
		if zeros && rng.IntN(5) == 0 {
			x[i] = 0
		}
	}
	return x
}

// bruteWalsh and bruteDiffs materialise and sort the sets, with the same
// expressions as ComparePaired and CompareUnpaired had.
func bruteWalsh(d []float64) []float64 {
	var w []float64
	for i := range d {
		for j := i; j < len(d); j++ {
			w = append(w, (d[i]+d[j])/2)
		}
	}
	slices.Sort(w)
	return w
}

func bruteDiffs(x, y []float64) []float64 {
	var out []float64
	for _, a := range x {
		for _, b := range y {
			out = append(out, a-b)
		}
	}
	slices.Sort(out)
	return out
}

// brutePairDifference is bench.PairDifference as it was: every pair.
func brutePairDifference(x []float64, q float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	var diffs []float64
	for i := 0; i < len(s); i++ {
		for j := i + 1; j < len(s); j++ {
			if s[i] > 0 {
				diffs = append(diffs, (s[j]-s[i])/s[i])
			}
		}
	}
	if len(diffs) == 0 {
		return 0
	}
	slices.Sort(diffs)
	idx := int(math.Ceil(q*float64(len(diffs)))) - 1
	return diffs[max(idx, 0)]
}

// Every order statistic the selection gives is the one a sort of the
// materialised set puts there, bit for bit: Walsh averages and differences
// on random inputs with and without ties, every k for small sets and
// random k (the ends and the middles included) for larger ones.
func TestSelectionAgainstSorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(name string, got orderStats, want []float64) {
		t.Helper()
		if got.Len() != len(want) {
			t.Fatalf("%s: %d values, want %d", name, got.Len(), len(want))
		}
		ks := []int{0, len(want) - 1, len(want) / 2, (len(want) - 1) / 2}
		if len(want) <= 400 {
			ks = ks[:0]
			for k := range want {
				ks = append(ks, k)
			}
		}
		for range 20 {
			ks = append(ks, rng.IntN(len(want)))
		}
		for _, k := range ks {
			if v := got.Kth(k); math.Float64bits(v) != math.Float64bits(want[k]) {
				t.Fatalf("%s: k=%d gives %v, the sorted set %v", name, k, v, want[k])
			}
		}
		if m, w := medianOf(got), medianSorted(want); math.Float64bits(m) != math.Float64bits(w) {
			t.Fatalf("%s: median %v, the sorted set %v", name, m, w)
		}
	}
	for _, n := range []int{1, 2, 3, 5, 17, 60, 301} {
		for _, ties := range []bool{false, true} {
			d := sample(rng, n, ties, false)
			check("walsh", walshAverages(d), bruteWalsh(d))
			y := sample(rng, n/2+1, ties, false)
			check("diffs", differences(d, y), bruteDiffs(d, y))
			check("diffs swapped", differences(y, d), bruteDiffs(y, d))
		}
	}
	// All equal: every statistic is that value.
	same := []float64{0.25, 0.25, 0.25, 0.25}
	check("walsh of equal values", walshAverages(same), bruteWalsh(same))
}

// PairDifferenceQuantile is the old all-pairs quantile, bit for bit,
// with ties, zeros and negative samples (rows of a non-positive smaller
// sample left out), at the quantiles used and at the ends.
func TestPairDifferenceQuantileAgainstAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 3, 10, 57, 250} {
		for _, ties := range []bool{false, true} {
			for _, zeros := range []bool{false, true} {
				x := sample(rng, n, ties, zeros)
				if !ties {
					for i := range x {
						x[i] = math.Abs(x[i]) * 100 // nanoseconds-like, positive but the zeros
					}
				}
				for _, q := range []float64{0, 0.001, 0.5, 0.95, 0.999, 1} {
					got, want := PairDifferenceQuantile(x, q), brutePairDifference(x, q)
					if math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("n=%d ties=%v zeros=%v q=%v: %v, all pairs give %v (x=%v)", n, ties, zeros, q, got, want, x)
					}
				}
			}
		}
	}
}

// The selection holds O(n) memory: 20,000 rounds (2*10^8 Walsh averages,
// 1.6 GB if stored) allocate a few MB. A count of bytes, not a time.
func TestSelectionMemoryIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("20,000 samples")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 20000
	a, b := make([]float64, n), make([]float64, n)
	for i := range a {
		a[i], b[i] = 100+rng.NormFloat64(), 101+rng.NormFloat64()
	}
	for _, c := range []struct {
		name    string
		compare func(a, b []float64, alpha float64) (Verdict, error)
	}{{"paired", ComparePaired}, {"unpaired", CompareUnpaired}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		v, err := c.compare(a, b, 0.05)
		runtime.ReadMemStats(&after)
		if err != nil || !(v.Low < v.Shift && v.Shift < v.High) {
			t.Fatalf("%s: %+v %v", c.name, v, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("%s of %d samples allocated %d MB, want O(n)", c.name, n, alloc>>20)
		}
	}
}

// The 95% quantile of the relative differences of all pairs of passes:
// 3 of the 10 pairs of 100, 101, 102, 110, 150 differ by at most 2%.
func ExamplePairDifferenceQuantile() {
	passes := []float64{150, 100, 102, 101, 110}
	fmt.Printf("%.3f %.3f\n", PairDifferenceQuantile(passes, 0.3), PairDifferenceQuantile(passes, 0.95))
	// Output: 0.020 0.500
}
