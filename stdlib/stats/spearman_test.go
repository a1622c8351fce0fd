package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestSpearmanKnown(t *testing.T) {
	// A monotone but far from linear relation ranks perfectly.
	x := []float64{1, 2, 3, 4, 5, 6}
	up := []float64{1, 8, 27, 64, 125, 1e6}
	if r, err := Spearman(x, up); err != nil || math.Abs(r.Rho-1) > 1e-12 || r.P != 0 {
		t.Errorf("monotone up: %+v %v", r, err)
	}
	down := []float64{6, 5, 4, 3, 2, 1}
	if r, err := Spearman(x, down); err != nil || math.Abs(r.Rho+1) > 1e-12 {
		t.Errorf("monotone down: %+v %v", r, err)
	}
	// Worked by hand: ranks of y are 2,1,4,3,5 (no ties), sum d^2 = 4,
	// rho = 1 - 6*4/(5*24) = 0.8.
	r, err := Spearman([]float64{10, 20, 30, 40, 50}, []float64{2.5, 1.5, 9, 7, 11})
	if err != nil || math.Abs(r.Rho-0.8) > 1e-12 {
		t.Errorf("hand example: %+v %v, want rho 0.8", r, err)
	}
	// t = 0.8 sqrt(3/0.36) = 2.309 with 3 df: two-sided p is 0.104.
	if math.Abs(r.P-0.104) > 0.001 {
		t.Errorf("hand example: p %v, want 0.104", r.P)
	}
	// Ties share their mid-rank: y ranks 1.5,1.5,3,4 against 1,2,3,4;
	// deviations from 2.5 give sum dx dy = 4.5, sum dx^2 = 5, sum dy^2 =
	// 4.5, rho = 4.5 / sqrt(22.5).
	r, _ = Spearman([]float64{1, 2, 3, 4}, []float64{5, 5, 6, 7})
	if want := 4.5 / math.Sqrt(22.5); math.Abs(r.Rho-want) > 1e-12 {
		t.Errorf("ties: rho %v, want %v", r.Rho, want)
	}
}

func TestSpearmanErrors(t *testing.T) {
	if _, err := Spearman([]float64{1, 2, 3}, []float64{1, 2, 3}); !errors.Is(err, ErrTooFew) {
		t.Errorf("3 pairs: %v", err)
	}
	if _, err := Spearman([]float64{1, 2, 3, 4}, []float64{1, 2, 3}); err == nil {
		t.Error("lengths differ: no error")
	}
	if _, err := Spearman([]float64{1, 2, 3, 4}, []float64{2, 2, 2, 2}); err == nil {
		t.Error("constant y: no error")
	}
}

// Under independence the p-value falls below 0.05 in about 5% of trials.
func TestSpearmanFalseAlarms(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	const trials = 2000
	hits := 0
	for range trials {
		x, y := make([]float64, 30), make([]float64, 30)
		for i := range x {
			x[i], y[i] = rng.NormFloat64(), rng.ExpFloat64()
		}
		r, err := Spearman(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if r.P < 0.05 {
			hits++
		}
	}
	if rate := float64(hits) / trials; rate < 0.035 || rate > 0.065 {
		t.Errorf("false alarm rate %.3f at alpha 0.05", rate)
	}
}
