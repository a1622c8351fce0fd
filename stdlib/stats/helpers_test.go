package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// near reports whether got is within a relative 1e-12 of want (or equal).
func near(got, want float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= 1e-12*math.Max(math.Abs(got), math.Abs(want))
}

// checkNear fails the test when got is not near want.
func checkNear(t *testing.T, what string, got, want float64) {
	t.Helper()
	if !near(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// ptr returns a pointer to v.
func ptr(v float64) *float64 { return &v }

// noisy returns n samples around base with a relative spread of about spread,
// a few of them far out, rounded to whole nanoseconds as a clock gives them.
func noisy(rng *rand.Rand, n int, base, spread float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		v := base * (1 + spread*rng.NormFloat64())
		if rng.IntN(30) == 0 {
			v *= 1.3
		}
		x[i] = math.Round(math.Abs(v))
	}
	return x
}
