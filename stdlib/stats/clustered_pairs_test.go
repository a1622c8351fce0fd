package stats

import (
	"math"
	"testing"
)

// TestCompareClusteredPairsByRound: each round's a is divided by the same
// round's b. Here round i of pair j has a = f_j * b, with b growing from
// round to round (so a divided by any other round's b is another number)
// and f_j the pair's factor: every round of pair j gives ln f_j, the pair's
// shift is ln f_j, and Shift is exp of their mean, the interval symmetric
// about it in logarithms.
func TestCompareClusteredPairsByRound(t *testing.T) {
	f := []float64{1.10, 1.12, 1.08, 1.11, 1.09}
	a, b := make([][]float64, len(f)), make([][]float64, len(f))
	mean := 0.0
	for j, fj := range f {
		for i := range 9 {
			bi := 1000 + 370*float64(i) + 11*float64(j)
			a[j], b[j] = append(a[j], fj*bi), append(b[j], bi)
		}
		mean += math.Log(fj) / float64(len(f))
	}
	v, err := CompareClustered(a, b, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Exp(mean); math.Abs(v.Shift-want) > 1e-12*want {
		t.Errorf("Shift %v, want exp(mean ln f_j) = %v", v.Shift, want)
	}
	if lo, hi := math.Log(v.Shift)-math.Log(v.Low), math.Log(v.High)-math.Log(v.Shift); !(lo > 0) || math.Abs(lo-hi) > 1e-9 {
		t.Errorf("interval [%v, %v] about %v: %v below and %v above in logarithms, want equal and positive", v.Low, v.High, v.Shift, lo, hi)
	}
	if !v.Significant || v.NEff != float64(len(f)) || v.N != 9*len(f) || v.Method != MethodClustered {
		t.Errorf("%+v: want significant, n_eff %d, %d rounds, method %s", v, len(f), 9*len(f), MethodClustered)
	}
}
