package stats

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// signs is n block values: pos positive ones, then n-pos negative ones.
func signs(n, pos int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
		if i >= pos {
			x[i] = -1
		}
	}
	return x
}

// TestSignHolmStepDown: Holm's step-down over exact sign tests, worked by
// hand. All n of one sign give P = 2/2^n: 6 give 0.03125, 8 give 0.0078125,
// 5 give 0.0625. Sorted by P, the j-th (from 0) of m is tested at
// alpha/(m-j) until one fails; the rest are judged at the level of the step
// that failed.
func TestSignHolmStepDown(t *testing.T) {
	const a = 0.05
	for _, c := range []struct {
		name     string
		x        [][]float64
		rejected []bool
		level    []float64
	}{
		// Sorted: 0.0078 <= a/2, then 0.03125 <= a/1: both. Taken in the
		// input order instead, 0.03125 > a/2 would stop at once.
		{"the smaller P is tested first", [][]float64{signs(6, 6), signs(8, 8)},
			[]bool{true, true}, []float64{a, a / 2}},
		// 0.0078 <= a/3; 0.03125 > a/2 stops, so the third is judged at
		// a/2 too, not at a/1 (where 0.03125 would pass).
		{"the step stops at the first failure", [][]float64{signs(8, 8), signs(6, 6), signs(6, 6)},
			[]bool{true, false, false}, []float64{a / 3, a / 2, a / 2}},
		// 0.03125 > a/2: nothing is rejected, every series at a/2.
		{"a first failure rejects nothing", [][]float64{signs(5, 5), signs(6, 6)},
			[]bool{false, false}, []float64{a / 2, a / 2}},
		// One series: the test at a itself.
		{"one series", [][]float64{signs(6, 6)}, []bool{true}, []float64{a}},
	} {
		vs, adj, err := SignHolm(c.x, a)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ps := make([]float64, len(c.x))
		for i := range c.x {
			ps[i] = vs[i].P
			if vs[i].Rejected != c.rejected[i] || vs[i].Alpha != c.level[i] {
				t.Errorf("%s: series %d (P %v): rejected %v at level %v, want %v at %v",
					c.name, i, vs[i].P, vs[i].Rejected, vs[i].Alpha, c.rejected[i], c.level[i])
			}
		}
		if want := Holm(ps); !slices.Equal(adj, want) {
			t.Errorf("%s: adjusted p-values %v, Holm gives %v", c.name, adj, want)
		}
	}
}

// TestSeqHolmStepDown holds SeqHolm to Holm's step-down written out again
// here, on families of series drawn with and without a difference: the
// series' sequential p-values (SeqSignTest at alpha) sorted ascending
// (stably), the j-th (from 0) rejected while P <= alpha/(m-j), each
// verdict at the level of its step or of the step that stopped.
func TestSeqHolmStepDown(t *testing.T) {
	const a = 0.05
	r := rand.New(rand.NewPCG(21, 2))
	differ := 0
	for trial := range 400 {
		m := 2 + r.IntN(4)
		x := make([][]float64, m)
		ps := make([]float64, m)
		for i := range x {
			shift := []float64{0, 0.5, 1, 2}[r.IntN(4)]
			for range 6 + r.IntN(30) {
				x[i] = append(x[i], shift+r.NormFloat64())
			}
			v, err := SeqSignTest(x[i], a)
			if err != nil {
				t.Fatal(err)
			}
			ps[i] = v.P
		}
		order := make([]int, m)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(i, j int) int { return cmpFloat(ps[i], ps[j]) })
		step := 0
		for step < m && ps[order[step]] <= a/float64(m-step)*(1+1e-12) {
			step++
		}
		vs, _, err := SeqHolm(x, a)
		if err != nil {
			t.Fatal(err)
		}
		for j, i := range order {
			level := a / float64(m-min(j, step))
			if vs[i].Rejected != (j < step) || vs[i].Alpha != level {
				t.Fatalf("trial %d, series %d of %d (P %v, %d-th smallest, step %d): rejected %v at %v, want %v at %v",
					trial, i, m, ps[i], j, step, vs[i].Rejected, vs[i].Alpha, j < step, level)
			}
			if ps[i] <= a && j >= step {
				differ++ // rejected alone, not in the family: Holm matters here
			}
		}
	}
	if differ < 20 {
		t.Fatalf("only %d series of the 400 families are ones Holm's step-down holds back: the families do not test it", differ)
	}
}
