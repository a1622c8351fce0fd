package stats

import (
	"fmt"
	"math"
	"slices"
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
	p := []float64{1}
	spent, allowed := 0.0, 0.0
	for k := 1; k <= n; k++ {
		q := make([]float64, k+1)
		for s, v := range p {
			q[s] += v / 2
			q[s+1] += v / 2
		}
		p = q
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

// SeqVerdict is the group-sequential sign test of one series of block
// values at one level: where it stands after the blocks seen.
type SeqVerdict struct {
	// Seen is the number of blocks with a non-zero value (the looks taken).
	Seen int
	// N is the look whose figures these are: the one that decided, else the
	// last; Positive is how many of its N blocks were above 0.
	N, Positive int
	// Rejected is set when a look rejected "no difference" (then N is that
	// first look).
	Rejected bool
	// Low and High bound the median block value: the repeated confidence
	// interval of look N (-Inf, +Inf when no count could reject there). It
	// excludes 0 exactly when that look rejected.
	Low, High float64
	// Estimate is the median of the N block values.
	Estimate float64
	// Alpha is the level of the test; Critical the critical count c of
	// look N (-1: no count rejects).
	Alpha    float64
	Critical int
}

// SeqSignTest runs the group-sequential sign test (SeqBoundaries) on the
// block values x, in the order the blocks were taken, at level alpha. A
// value of exactly 0 carries no sign and is left out (Wilcoxon's
// convention); looks count the other blocks. The interval at look k is the
// set of shifts t for which the test of x - t would not reject at that
// look: with y the first k values sorted ascending and c = c_k, the open
// interval (y[c], y[k-1-c]) (0-based), (-Inf, +Inf) when c is -1. It does
// not modify x.
func SeqSignTest(x []float64, alpha float64) (SeqVerdict, error) {
	if !(alpha > 0 && alpha < 1) {
		return SeqVerdict{}, fmt.Errorf("stats: sequential sign test: alpha must be in (0, 1), got %v", alpha)
	}
	y, err := nonZero(x)
	if err != nil {
		return SeqVerdict{}, err
	}
	return seqTest(y, SeqBoundaries(alpha, len(y)), alpha), nil
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

// seqTest is SeqSignTest of the non-zero values y against the boundaries c
// (at least len(y) of them) of level alpha.
func seqTest(y []float64, c []int, alpha float64) SeqVerdict {
	v := SeqVerdict{Seen: len(y), N: len(y), Alpha: alpha, Low: math.Inf(-1), High: math.Inf(1), Critical: -1}
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
// chance of any false "differ" among them is at most alpha: Holm's
// step-down on the sequential sign tests. With R the series not yet
// rejected (at first all m), each is tested at level alpha/|R|; those that
// reject are removed from R, and the step repeats at the larger level,
// until a step rejects none (or R is empty). A series rejected at a step
// gets the verdict of its test at that step's level; the series left get
// theirs at the level of the last step, so an interval excludes 0 exactly
// when its series was rejected.
//
// This is closed testing with Bonferroni's local tests, so exactly Holm,
// when a test that rejects at alpha/k also rejects at every larger level
// alpha/j, j < k. The discrete boundaries of SeqBoundaries do not always
// grow with the level (between alpha/k and alpha/(k-1), k = 2..30, 92 of
// 11,600 looks let the smaller level reject one count more), so SeqHolm uses, at level alpha/k, the
// smaller of that level's critical count and the one it uses at
// alpha/(k-1), look by look: a smaller region at each level, so each test
// keeps its level, and the regions are nested.
func SeqHolm(x [][]float64, alpha float64) ([]SeqVerdict, error) {
	if !(alpha > 0 && alpha < 1) {
		return nil, fmt.Errorf("stats: sequential Holm: alpha must be in (0, 1), got %v", alpha)
	}
	m := len(x)
	ys := make([][]float64, m)
	longest := 0
	for i := range x {
		y, err := nonZero(x[i])
		if err != nil {
			return nil, fmt.Errorf("series %d: %w", i, err)
		}
		ys[i], longest = y, max(longest, len(y))
	}
	bounds := SeqNestedBoundaries(alpha, m, longest)
	out := make([]SeqVerdict, m)
	left := make([]int, m)
	for i := range left {
		left[i] = i
	}
	for len(left) > 0 {
		k := len(left)
		var keep []int
		for _, i := range left {
			out[i] = seqTest(ys[i], bounds[k-1], alpha/float64(k))
			if !out[i].Rejected {
				keep = append(keep, i)
			}
		}
		if len(keep) == len(left) {
			break
		}
		left = keep
	}
	return out, nil
}

// SeqNestedBoundaries returns the boundaries SeqHolm uses for a family of m
// series: b[k-1] at level alpha/k for k = 1..m, each look's critical count
// the smaller of SeqBoundaries(alpha/k) and b[k-2] (so b[k-1] <= b[k-2]
// everywhere), over n looks.
func SeqNestedBoundaries(alpha float64, m, n int) [][]int {
	b := make([][]int, m)
	for k := 1; k <= m; k++ {
		b[k-1] = SeqBoundaries(alpha/float64(k), n)
		if k > 1 {
			for i := range b[k-1] {
				b[k-1][i] = min(b[k-1][i], b[k-2][i])
			}
		}
	}
	return b
}
