package stats

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mathext"
)

// MethodSequential names a SeqVerdict: the group-sequential sign test of
// block values (SeqSignTest).
const MethodSequential = "sequential-sign/blocks"

// SeqFirst is the first look of a SeqPlan: no verdict comes from fewer
// blocks. Six blocks all of one sign are the least a two-sided sign test at
// 0.05 can call a difference (2 in 2^6 = 0.031).
const SeqFirst = 6

// seqFirstWeight is the share of alpha the first look may spend: at alpha
// 0.05 it is 0.032, just over the 2^-5 that six blocks of one sign cost, so
// complete separation at the first look is a verdict. The other 0.36 is
// spent over the later looks k = first+1, first+2, ... in shares
// 0.36*(1/sqrt(j) - 1/sqrt(j+1)) with j = k - first, which sum to 0.36 over
// an unbounded number of looks: the plan holds however long a run goes on.
// (Simulated against shares 0.36/(j(j+1)), which spend the rest sooner:
// the same power for blocks that differ 9 times in 10, more when they
// differ 7 times in 10: 0.53 against 0.45 within 60 blocks.)
const seqFirstWeight = 0.64

// seqWeight is the share of alpha spent at look k (k >= SeqFirst).
func seqWeight(k int) float64 {
	if k < SeqFirst {
		return 0
	}
	if k == SeqFirst {
		return seqFirstWeight
	}
	j := float64(k - SeqFirst)
	return (1 - seqFirstWeight) * (1/math.Sqrt(j) - 1/math.Sqrt(j+1))
}

// SeqBoundaries returns, for looks k = 1..n, the critical count c[k-1] of the
// group-sequential two-sided sign test at level alpha: at look k (after k
// blocks), with S of them positive, the test rejects "no difference" when
// min(S, k-S) <= c[k-1]; c is -1 where no count rejects (k < SeqFirst, or
// alpha too small for this k). Step by step:
//
//  1. Under no difference each block's sign is a fair coin, independent of
//     the others (the two builds of a block run in a random order, and
//     blocks are separate processes). P_k(s) is the probability that after
//     k blocks S = s and no earlier look rejected; P_0(0) = 1 and P_k(s) =
//     (P_{k-1}(s) + P_{k-1}(s-1))/2 before look k removes its region.
//  2. The cumulative alpha allowed by look k is alpha * W_k, W_k the sum of
//     the weights of looks up to k (seqWeight). c_k is the largest c with
//     spent_{k-1} + sum of P_k(s) over min(s, k-s) <= c at most alpha*W_k;
//     those states are removed (the paths that crossed) and their
//     probability added to spent_k.
//
// So the probability under no difference of crossing at any look, however
// many looks a run takes and whenever it stops, is at most alpha
// (exactly the sum over the looks taken, which is below alpha * W_k). It
// takes O(n^2) time and O(n) memory.
func SeqBoundaries(alpha float64, n int) []int {
	c := make([]int, n)
	p, q := make([]float64, n+2), make([]float64, n+2)
	p[0] = 1
	spent, allowed := 0.0, 0.0
	for k := 1; k <= n; k++ {
		clear(q[:k+1])
		for s := 0; s < k; s++ {
			if v := p[s]; v != 0 {
				q[s] += v / 2
				q[s+1] += v / 2
			}
		}
		p, q = q, p
		allowed += alpha * seqWeight(k)
		c[k-1] = -1
		for cc := 0; 2*cc < k; cc++ { // the two tails s <= cc and s >= k-cc
			add := p[cc]
			if k-cc != cc {
				add += p[k-cc]
			}
			if spent+add > allowed*(1+1e-12) {
				break
			}
			spent += add
			p[cc], p[k-cc] = 0, 0
			c[k-1] = cc
		}
	}
	return c
}

// The level grid of the sequential p-value of a test at alpha: alpha/k for
// k = 1..seqGridK (every level Holm's method uses for up to 64 series),
// and 12 levels a decade from 1e-12 to 1. Descending.
const seqGridK = 64

func seqGridFor(alpha float64) []float64 {
	var g []float64
	for k := 1; k <= seqGridK; k++ {
		g = append(g, alpha/float64(k))
	}
	for e := -12 * 12; e < 0; e++ {
		g = append(g, math.Pow(10, float64(e)/12))
	}
	slices.Sort(g)
	g = slices.Compact(g)
	slices.Reverse(g)
	return g
}

// seqGrids holds, per alpha, the grid and the nested boundaries of every
// grid level for the first looks computed so far (a look's boundary does
// not depend on later ones).
var seqGrids struct {
	sync.Mutex
	m map[float64]*seqGrid
}

type seqGrid struct {
	levels []float64
	n      int
	b      [][]int // b[g][k-1]: grid level g, look k
}

// seqNested returns the grid of alpha and its nested boundaries for at
// least n looks: at the largest level those of SeqBoundaries; at each
// smaller level, look by look, the smaller of its own critical count and
// the one of the level above. A region at each level is then within the
// one SeqBoundaries allows (so the test keeps its level) and within the
// region of every larger level: a test that rejects at a level rejects at
// every larger one. The raw boundaries are not nested by themselves
// (discreteness: between 0.05/k and 0.05/(k-1), k = 2..30, 92 of 11,600
// looks let the smaller level reject one count more;
// TestSeqBoundariesNested).
func seqNested(alpha float64, n int) ([]float64, [][]int) {
	seqGrids.Lock()
	defer seqGrids.Unlock()
	if seqGrids.m == nil {
		seqGrids.m = map[float64]*seqGrid{}
	}
	gr := seqGrids.m[alpha]
	if gr == nil {
		gr = &seqGrid{levels: seqGridFor(alpha)}
		seqGrids.m[alpha] = gr
	}
	if n > gr.n {
		m := max(n, 2*gr.n, 64)
		b := make([][]int, len(gr.levels))
		for i, a := range gr.levels {
			b[i] = SeqBoundaries(a, m)
			if i > 0 {
				for k := range b[i] {
					b[i][k] = min(b[i][k], b[i-1][k])
				}
			}
		}
		gr.n, gr.b = m, b
	}
	return gr.levels, gr.b
}

// SeqVerdict is the group-sequential sign test of one series of block
// values at one level: where it stands after the blocks seen.
type SeqVerdict struct {
	// Seen is the number of blocks with a non-zero value (the looks taken).
	Seen int
	// N is the look whose figures these are: the one that decided, else the
	// last; Positive is how many of its N blocks were above 0.
	N, Positive int
	// Rejected is set when a look rejected "no difference" at Alpha (then
	// N is that first look).
	Rejected bool
	// Low and High bound the median block value: the repeated confidence
	// interval of look N at Alpha (-Inf, +Inf when no count could reject
	// there). It excludes 0 exactly when that look rejected.
	Low, High float64
	// Estimate is the median of the N block values.
	Estimate float64
	// Alpha is the level the verdict is at; Critical the critical count c
	// of look N (-1: no count rejects).
	Alpha    float64
	Critical int
	// P is the sequential p-value of all the blocks seen: the smallest
	// level of the grid at which some look so far rejected (1 if none).
	// P <= a exactly when the test at level a rejects, for a level a of the
	// grid, whenever the run stops: P(P <= a) <= a under no difference.
	P float64
}

// SeqSignTest runs the group-sequential sign test on the block values x,
// in the order the blocks were taken, at level alpha. Step by step:
//
//  1. Zeros are left out (a value of exactly 0 carries no sign: Wilcoxon's
//     convention); y is the rest, in order, and look k is after y[k-1].
//  2. The boundaries are SeqBoundaries' at every level of a grid (alpha/k
//     for k = 1..64, the levels of Holm's method at alpha, and 12 levels a
//     decade from 1e-12 to 1), nested (seqNested). The test is at level
//     alpha, a level of its own grid.
//  3. It rejects at the first look k with min(S_k, k - S_k) <= c_k, S_k the
//     positive values among y[:k]. The verdict's figures are of that look,
//     else of the last.
//  4. The interval at look k is the set of shifts t for which the test of
//     y[:k] - t would not reject at that look: with z = y[:k] sorted
//     ascending and c = c_k, the open interval (z[c], z[k-1-c]) (0-based),
//     (-Inf, +Inf) when c is -1. Estimate is the median of z.
//  5. P is the smallest grid level at which some look up to the last
//     rejected, 1 if none.
//
// It takes O(n log n) time after the boundaries (computed once per process
// for the looks needed, and kept), and does not modify x.
func SeqSignTest(x []float64, alpha float64) (SeqVerdict, error) {
	if !(alpha > 0 && alpha < 1) {
		return SeqVerdict{}, fmt.Errorf("stats: sequential sign test: alpha must be in (0, 1), got %v", alpha)
	}
	y, err := nonZero(x)
	if err != nil {
		return SeqVerdict{}, err
	}
	return seqAt(y, alpha, alpha), nil
}

// seqAt is the test of the non-zero values y at level (a level of the grid
// of alpha, or the largest one below it), with the sequential p-value on
// that grid.
func seqAt(y []float64, alpha, level float64) SeqVerdict {
	g, b := seqNested(alpha, len(y))
	at := len(g) - 1
	for i, a := range g { // descending: the first at or below level
		if a <= level*(1+1e-12) {
			at = i
			break
		}
	}
	v := seqTest(y, b[at], g[at])
	// Nested boundaries: rejection at a level implies it at every larger
	// one, so the smallest rejecting level is found by bisection.
	lo, hi := 0, len(g) // g descending: levels g[lo:] ... find the last index that crosses
	if crosses(y, b[0]) {
		for lo+1 < hi {
			mid := (lo + hi) / 2
			if crosses(y, b[mid]) {
				lo = mid
			} else {
				hi = mid
			}
		}
		v.P = g[lo]
	}
	return v
}

// crosses says whether some look of y crosses the boundaries c.
func crosses(y []float64, c []int) bool {
	pos := 0
	for k := 1; k <= len(y); k++ {
		if y[k-1] > 0 {
			pos++
		}
		if c[k-1] >= 0 && min(pos, k-pos) <= c[k-1] {
			return true
		}
	}
	return false
}

// nonZero is x without its zeros; NaN and infinities are an error.
func nonZero(x []float64) ([]float64, error) {
	var y []float64
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("stats: sequential sign test: block value %v: %w", v, ErrNonPositive)
		}
		if v != 0 {
			y = append(y, v)
		}
	}
	return y, nil
}

// seqTest is the test of the non-zero values y against the boundaries c
// (at least len(y) of them) of level alpha.
func seqTest(y []float64, c []int, alpha float64) SeqVerdict {
	v := SeqVerdict{Seen: len(y), N: len(y), Alpha: alpha, Low: math.Inf(-1), High: math.Inf(1), Critical: -1, P: 1}
	pos := 0
	for k := 1; k <= len(y); k++ {
		if y[k-1] > 0 {
			pos++
		}
		if c[k-1] >= 0 && min(pos, k-pos) <= c[k-1] {
			v.Rejected, v.N = true, k
			break
		}
	}
	if v.N == 0 {
		return v
	}
	v.Positive = countPositive(y[:v.N])
	sorted := slices.Clone(y[:v.N])
	slices.Sort(sorted)
	v.Estimate = medianSorted(sorted)
	if cc := c[v.N-1]; cc >= 0 {
		v.Critical = cc
		v.Low, v.High = sorted[cc], sorted[v.N-1-cc]
	}
	return v
}

func countPositive(x []float64) int {
	n := 0
	for _, v := range x {
		if v > 0 {
			n++
		}
	}
	return n
}

// SeqMinBlocks is the fewest blocks with which the sequential sign test at
// level alpha can reject at all (all of one sign); 0 if it cannot within
// limit blocks.
func SeqMinBlocks(alpha float64, limit int) int {
	for k, c := range SeqBoundaries(alpha, limit) {
		if c >= 0 {
			return k + 1
		}
	}
	return 0
}

// SeqHolm judges the block series x[0], x[1], ... together, so that the
// chance of any false "differ" among them is at most alpha however the run
// stops: Holm's method on the sequential p-values. Sorted ascending, the
// j-th smallest P (1-based) is compared with alpha/(m-j+1), and every
// series up to the first that exceeds its level is rejected (the step-down;
// P <= level, the grid holding every alpha/k, k <= 64). A rejected series
// gets its verdict at the level of its step; the others at the level of the
// step that stopped, so each interval excludes 0 exactly when its series
// was rejected. PAdjusted are Holm's adjusted p-values (Holm), for display.
func SeqHolm(x [][]float64, alpha float64) (vs []SeqVerdict, pAdjusted []float64, err error) {
	return holmOn(x, alpha, func(y []float64, level float64) SeqVerdict { return seqAt(y, alpha, level) })
}

// SignHolm is SeqHolm with the fixed-sample sign test (SignTest): for
// blocks whose number was fixed before the run (no look decided when to
// stop), which the exact binomial test judges with more power and in
// O(n log n).
func SignHolm(x [][]float64, alpha float64) (vs []SeqVerdict, pAdjusted []float64, err error) {
	return holmOn(x, alpha, signAt)
}

// holmOn is Holm's step-down over the tests at(y, level) of the non-zero
// values of each series; at(y, alpha).P is the p-value Holm sorts by.
func holmOn(x [][]float64, alpha float64, at func(y []float64, level float64) SeqVerdict) (vs []SeqVerdict, pAdjusted []float64, err error) {
	if !(alpha > 0 && alpha < 1) {
		return nil, nil, fmt.Errorf("stats: Holm: alpha must be in (0, 1), got %v", alpha)
	}
	m := len(x)
	vs = make([]SeqVerdict, m)
	ys := make([][]float64, m)
	ps := make([]float64, m)
	for i := range x {
		if ys[i], err = nonZero(x[i]); err != nil {
			return nil, nil, fmt.Errorf("series %d: %w", i, err)
		}
		ps[i] = at(ys[i], alpha).P
	}
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmpFloat(ps[i], ps[j]) })
	step := 0
	for step < m && ps[order[step]] <= alpha/float64(m-step)*(1+1e-12) {
		step++
	}
	for j, i := range order {
		vs[i] = at(ys[i], alpha/float64(m-min(j, step)))
	}
	return vs, Holm(ps), nil
}

// SignTest is the exact two-sided sign test of the block values x at level
// alpha, for a number of blocks fixed before the run: with y the non-zero
// values (n of them, S positive), P = min(1, 2 P(B <= min(S, n-S))) for B
// binomial(n, 1/2) (gonum's regularized incomplete beta: P(B <= k) =
// I_{1/2}(n-k, k+1)), and it rejects when P <= alpha. Its critical count c
// is the largest with 2 P(B <= c) <= alpha (-1: none), and its interval
// the order statistics (y[c], y[n-1-c]) of the sorted values, as
// SeqSignTest's; Seen and N are n. O(n log n).
func SignTest(x []float64, alpha float64) (SeqVerdict, error) {
	if !(alpha > 0 && alpha < 1) {
		return SeqVerdict{}, fmt.Errorf("stats: sign test: alpha must be in (0, 1), got %v", alpha)
	}
	y, err := nonZero(x)
	if err != nil {
		return SeqVerdict{}, err
	}
	return signAt(y, alpha), nil
}

// binomTail is 2 P(B <= k) for B binomial(n, 1/2), capped at 1.
func binomTail(n, k int) float64 {
	if k < 0 {
		return 0
	}
	if 2*k+1 >= n+1 && k >= n-k {
		return 1
	}
	return min(1, 2*mathext.RegIncBeta(float64(n-k), float64(k+1), 0.5))
}

// signAt is the fixed-sample sign test of the non-zero values y at level.
func signAt(y []float64, level float64) SeqVerdict {
	n := len(y)
	v := SeqVerdict{Seen: n, N: n, Alpha: level, Low: math.Inf(-1), High: math.Inf(1), Critical: -1, P: 1}
	if n == 0 {
		return v
	}
	v.Positive = countPositive(y)
	v.P = binomTail(n, min(v.Positive, n-v.Positive))
	v.Rejected = v.P <= level*(1+1e-12)
	lo, hi := -1, (n-1)/2
	for lo < hi { // the largest c with binomTail(n, c) <= level
		mid := (lo + hi + 1) / 2
		if binomTail(n, mid) <= level*(1+1e-12) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	sorted := slices.Clone(y)
	slices.Sort(sorted)
	v.Estimate = medianSorted(sorted)
	if v.Critical = lo; lo >= 0 {
		v.Low, v.High = sorted[lo], sorted[n-1-lo]
	}
	return v
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
