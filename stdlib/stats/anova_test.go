package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// By hand: groups {1,2,3} and {4,5,6}: m = 3.5, SSB = 3*(1.5^2)*2 = 13.5,
// SSW = 2+2 = 4, F = 13.5/(4/4) = 13.5 on 1 and 4 degrees of freedom,
// whose upper tail is 0.02131 (Fisher's table: F(1,4) at 0.05 is 7.71, at
// 0.01 is 21.2).
func TestOneWayByHand(t *testing.T) {
	r, err := OneWay([][]float64{{1, 2, 3}, {4, 5, 6}, nil})
	if err != nil {
		t.Fatal(err)
	}
	if r.DFBetween != 1 || r.DFWithin != 4 || math.Abs(r.F-13.5) > 1e-12 || math.Abs(r.Between-13.5/17.5) > 1e-12 {
		t.Errorf("%+v", r)
	}
	if r.P < 0.01 || r.P > 0.05 || math.Abs(r.P-0.021311641128756) > 1e-6 {
		t.Errorf("p = %v, want 0.0213", r.P)
	}
	if _, err := OneWay([][]float64{{1, 2}}); err == nil {
		t.Error("one group analysed")
	}
	if r, _ := OneWay([][]float64{{1, 1}, {2, 2}}); r.P != 0 || r.Between != 1 {
		t.Errorf("constant groups with different means: %+v", r)
	}
}

// With no group effect, P < 0.05 in about 5% of trials; with a real one it
// is found.
func TestOneWayCalibration(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(shift float64) [][]float64 {
		g := make([][]float64, 4)
		for i := range 40 {
			g[i%4] = append(g[i%4], 0.01*rng.NormFloat64()+shift*float64(i%4))
		}
		return g
	}
	fp, found := 0, 0
	const trials = 3000
	for range trials {
		if r, _ := OneWay(draw(0)); r.P < 0.05 {
			fp++
		}
		if r, _ := OneWay(draw(0.01)); r.P < 0.05 {
			found++
		}
	}
	if rate := float64(fp) / trials; rate > 0.065 || rate < 0.035 {
		t.Errorf("false positives %.4f, want about 0.05", rate)
	}
	if rate := float64(found) / trials; rate < 0.95 {
		t.Errorf("a layout effect of one sd per step found in %.3f", rate)
	}
}
