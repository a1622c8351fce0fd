package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// bruteCrossing counts, over all 2^n sign sequences, those that cross the
// boundaries c at some look: the exact false-positive probability of the
// plan at n looks, computed without the dynamic programme.
func bruteCrossing(c []int, n int) float64 {
	crossed := 0
	for bits := 0; bits < 1<<n; bits++ {
		pos := 0
		for k := 1; k <= n; k++ {
			if bits>>(k-1)&1 == 1 {
				pos++
			}
			if c[k-1] >= 0 && min(pos, k-pos) <= c[k-1] {
				crossed++
				break
			}
		}
	}
	return float64(crossed) / float64(int(1)<<n)
}

func TestSeqBoundariesExactLevel(t *testing.T) {
	for _, alpha := range []float64{0.05, 0.025, 0.05 / 3, 0.01} {
		c := SeqBoundaries(alpha, 18)
		cum := 0.0
		for n := 1; n <= 18; n++ {
			cum += alpha * seqWeight(n)
			got := bruteCrossing(c, n)
			if got > cum*(1+1e-9) || got > alpha {
				t.Fatalf("alpha %v, %d looks: P(cross) = %v, allowed %v", alpha, n, got, cum)
			}
		}
	}
}

func TestSeqWeightsSumToOne(t *testing.T) {
	sum := 0.0
	for k := 1; k <= 1_000_000; k++ {
		sum += seqWeight(k)
	}
	// The tail beyond 10^6 looks is 0.36/sqrt(10^6) = 0.00036.
	if sum > 1 || sum < 1-0.0004 {
		t.Fatalf("weights sum to %v over 10^6 looks", sum)
	}
}

func TestSeqFirstLookCompleteSeparation(t *testing.T) {
	six := []float64{0.2, 0.21, 0.25, 0.19, 0.3, 0.22}
	v, err := SeqSignTest(six, 0.05)
	if err != nil || !v.Rejected || v.N != 6 || v.Positive != 6 || !(v.Low > 0) {
		t.Fatalf("six blocks of one sign at 0.05: %+v, %v", v, err)
	}
	v, _ = SeqSignTest(six[:5], 0.05)
	if v.Rejected || !math.IsInf(v.Low, -1) {
		t.Fatalf("five blocks: %+v", v)
	}
	neg := make([]float64, 6)
	for i, x := range six {
		neg[i] = -x
	}
	if v, _ := SeqSignTest(neg, 0.05); !v.Rejected || !(v.High < 0) {
		t.Fatalf("six negative blocks: %+v", v)
	}
	// One of the six the other way: the fixed-sample sign test gives
	// p = 14/64; no look may reject.
	mixed := append([]float64{-0.1}, six[1:]...)
	if v, _ := SeqSignTest(mixed, 0.05); v.Rejected {
		t.Fatalf("5 of 6: %+v", v)
	}
	if got := SeqMinBlocks(0.05, 100); got != 6 {
		t.Fatalf("SeqMinBlocks(0.05) = %d", got)
	}
	if got := SeqMinBlocks(0.025, 100); got != 7 {
		t.Fatalf("SeqMinBlocks(0.025) = %d (two series under Holm)", got)
	}
}

// TestSeqBoundariesNested: the raw boundaries are not always nested (the
// reason for seqNested), the nested ones are, and each is at most the raw
// boundary of its level (so it keeps its level).
func TestSeqBoundariesNested(t *testing.T) {
	nestedRaw := true
	prev := SeqBoundaries(0.05, 400)
	for k := 2; k <= 30; k++ {
		c := SeqBoundaries(0.05/float64(k), 400)
		for i := range c {
			nestedRaw = nestedRaw && c[i] <= prev[i]
		}
		prev = c
	}
	if nestedRaw {
		t.Log("the raw boundaries happen to be nested for these levels")
	}
	g, b := seqNested(0.05, 400)
	for i := range g {
		if i > 0 && !(g[i] < g[i-1]) {
			t.Fatalf("grid not descending at %d", i)
		}
		raw := SeqBoundaries(g[i], 400)
		for k := 0; k < 400; k++ {
			if b[i][k] > raw[k] || (i > 0 && b[i][k] > b[i-1][k]) {
				t.Fatalf("level %v look %d: nested %d, raw %d", g[i], k+1, b[i][k], raw[k])
			}
		}
	}
	for k := 1; k <= seqGridK; k++ {
		if !slices.Contains(g, 0.05/float64(k)) {
			t.Fatalf("the grid lacks 0.05/%d", k)
		}
	}
}

// TestSeqPValue: under no difference, with the run stopped at a budget
// drawn per trial, P(p <= a) <= a; and p <= alpha exactly when the test at
// alpha rejects.
func TestSeqPValue(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const trials = 4000
	under := map[float64]int{0.05: 0, 0.01: 0, 0.2: 0}
	for range trials {
		n := 6 + r.IntN(100)
		x := make([]float64, n)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		v, _ := SeqSignTest(x, 0.05)
		if v.Rejected != (v.P <= 0.05) {
			t.Fatalf("rejected %v with p %v", v.Rejected, v.P)
		}
		for a := range under {
			if v.P <= a {
				under[a]++
			}
		}
	}
	for a, n := range under {
		if rate := float64(n) / trials; rate > a+3*math.Sqrt(a*(1-a)/trials) {
			t.Errorf("P(p <= %v) = %.4f", a, rate)
		}
	}
}

func TestSeqIntervalInverts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		n := 1 + r.IntN(60)
		shift := (r.Float64() - 0.5) * 0.2
		x := make([]float64, n)
		for i := range x {
			x[i] = shift + r.NormFloat64()*0.05
		}
		v, err := SeqSignTest(x, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if v.Rejected != (v.Low > 0 || v.High < 0) {
			t.Fatalf("trial %d: rejected %v but interval (%v, %v)", trial, v.Rejected, v.Low, v.High)
		}
		if v.Critical < 0 {
			continue
		}
		// Shifts inside the interval are not rejected at look N, shifts
		// just outside are.
		signsRejected := func(t0 float64) bool {
			pos, neg := 0, 0
			for _, y := range x[:v.N] {
				if y > t0 {
					pos++
				} else if y < t0 {
					neg++
				}
			}
			return min(pos, neg) <= v.Critical
		}
		if mid := (v.Low + v.High) / 2; signsRejected(mid) {
			t.Fatalf("trial %d: the midpoint %v of (%v, %v) is rejected", trial, mid, v.Low, v.High)
		}
		if !signsRejected(v.High+1e-9) || !signsRejected(v.Low-1e-9) {
			t.Fatalf("trial %d: a shift outside (%v, %v) is not rejected", trial, v.Low, v.High)
		}
	}
}

func TestSeqSignTestEdges(t *testing.T) {
	if _, err := SeqSignTest([]float64{1}, 0); err == nil {
		t.Fatal("alpha 0 accepted")
	}
	if _, err := SeqSignTest([]float64{math.NaN()}, 0.05); err == nil {
		t.Fatal("NaN accepted")
	}
	v, err := SeqSignTest([]float64{0, 0, 0}, 0.05)
	if err != nil || v.Seen != 0 || v.Rejected {
		t.Fatalf("all zero: %+v %v", v, err)
	}
	// Zeros are left out: six signs among ten blocks.
	x := []float64{0, 1, 0, 1, 1, 0, 1, 1, 0, 1}
	if v, _ := SeqSignTest(x, 0.05); !v.Rejected || v.Seen != 6 {
		t.Fatalf("zeros left out: %+v", v)
	}
}

// TestSeqHolmCalibration simulates families of block series with no true
// difference, measured until every series is decided or the budget of
// blocks (drawn per trial, as a time budget would) is spent, and checks the
// family-wise false-positive rate; then the same with a true difference.
// The seed is drawn per run and logged.
func TestSeqHolmCalibration(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 11))
	noise := map[string]func() float64{
		"normal":      func() float64 { return r.NormFloat64() * 0.02 },
		"heavy (t2)":  func() float64 { return 0.02 * r.NormFloat64() / math.Sqrt((sq(r.NormFloat64())+sq(r.NormFloat64()))/2) },
		"one in 10x5": func() float64 { return outlier(r, 0.02) },
	}
	const trials = 3000
	// 3 standard errors of a binomial proportion at 0.05: the tolerance.
	tol := 3 * math.Sqrt(0.05*0.95/trials)
	for name, e := range noise {
		for _, m := range []int{1, 2, 3} {
			fp := 0
			for range trials {
				budget := 6 + r.IntN(80)
				if anyRejected(simulateFamily(m, budget, 0, e)) {
					fp++
				}
			}
			rate := float64(fp) / trials
			if rate > 0.05+tol {
				t.Errorf("%s, %d series: family-wise false positives %.3f > 0.05 + %.3f", name, m, rate, tol)
			}
			t.Logf("%s, %d series: false positives %.3f", name, m, rate)
		}
	}
	// Power: a 1.10 shift (log 0.095) in every series under the normal
	// noise of 2% per block is found within 12 blocks nearly always.
	found := 0
	for range 1000 {
		vs := simulateFamily(2, 12, math.Log(1.10), noise["normal"])
		if vs[0].Rejected && vs[0].Low > 0 && vs[1].Rejected {
			found++
		}
	}
	if found < 980 {
		t.Errorf("a 10%% shift at 2%% block noise: found in %d of 1000 within 12 blocks", found)
	}
}

func sq(x float64) float64 { return x * x }

func outlier(r *rand.Rand, sd float64) float64 {
	if r.IntN(10) == 0 {
		return r.NormFloat64() * sd * 5
	}
	return r.NormFloat64() * sd
}

func anyRejected(vs []SeqVerdict) bool {
	for _, v := range vs {
		if v.Rejected {
			return true
		}
	}
	return false
}

// simulateFamily measures m series block by block, judging after every
// block, and stops when every series is rejected or at budget blocks.
func simulateFamily(m, budget int, shift float64, e func() float64) []SeqVerdict {
	x := make([][]float64, m)
	var vs []SeqVerdict
	for b := 0; b < budget; b++ {
		for i := range x {
			x[i] = append(x[i], shift+e())
		}
		vs, _, _ = SeqHolm(x, 0.05)
		all := true
		for _, v := range vs {
			all = all && v.Rejected
		}
		if all {
			break
		}
	}
	return vs
}

// TestSignTestExact checks the fixed-sample sign test against binomial
// probabilities summed from the binomial coefficients, and its interval
// against its test: 0 outside the interval exactly when it rejects.
func TestSignTestExact(t *testing.T) {
	choose := func(n, k int) float64 {
		r := 1.0
		for i := 1; i <= k; i++ {
			r = r * float64(n-k+i) / float64(i)
		}
		return r
	}
	for n := 1; n <= 40; n++ {
		for k := 0; k <= n/2; k++ {
			sum := 0.0
			for i := 0; i <= k; i++ {
				sum += choose(n, i)
			}
			want := math.Min(1, 2*sum/math.Pow(2, float64(n)))
			if got := binomTail(n, k); math.Abs(got-want) > 1e-12*math.Max(want, 1e-300)+1e-15 {
				t.Fatalf("n=%d k=%d: %v, want %v", n, k, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	for trial := range 300 {
		n := 1 + r.IntN(80)
		x := make([]float64, n)
		shift := (r.Float64() - 0.5) * 0.1
		for i := range x {
			x[i] = shift + 0.05*r.NormFloat64()
		}
		v, err := SignTest(x, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if v.Rejected != (v.Low > 0 || v.High < 0) || v.Rejected != (v.P <= 0.05) {
			t.Fatalf("trial %d: rejected %v, p %v, interval (%v, %v)", trial, v.Rejected, v.P, v.Low, v.High)
		}
	}
	// Six of one sign: 2/64 = 0.03125, a verdict at 0.05; five are not.
	if v, _ := SignTest([]float64{1, 2, 3, 4, 5, 6}, 0.05); !v.Rejected || math.Abs(v.P-0.03125) > 1e-12 {
		t.Fatalf("six positive: %+v", v)
	}
	if v, _ := SignTest([]float64{1, 2, 3, 4, 5}, 0.05); v.Rejected {
		t.Fatalf("five positive: %+v", v)
	}
}

// TestSignHolmCalibration: three series of no difference, 30 blocks each,
// fixed in advance: family-wise false positives at most 0.05.
func TestSignHolmCalibration(t *testing.T) {
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
	const trials = 3000
	fp := 0
	for range trials {
		x := make([][]float64, 3)
		for i := range x {
			for range 30 {
				x[i] = append(x[i], outlier(r, 0.02))
			}
		}
		vs, _, _ := SignHolm(x, 0.05)
		if anyRejected(vs) {
			fp++
		}
	}
	if rate := float64(fp) / trials; rate > 0.05+3*math.Sqrt(0.05*0.95/trials) {
		t.Errorf("family-wise false positives %.4f", rate)
	}
}

// BenchmarkSeqBoundaries2000 is the cost of the boundaries a before/after
// of MaxPairs (2000) blocks needs at one level.
func BenchmarkSeqBoundaries2000(b *testing.B) {
	for b.Loop() {
		SeqBoundaries(0.05, 2000)
	}
}
