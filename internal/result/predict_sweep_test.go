package result

import (
	"testing"

	"github.com/benchbook/benchbook/stdlib/stats"
)

func TestPredictVerdict(t *testing.T) {
	for _, c := range []struct {
		op     string
		v      float64
		lo, hi float64
		want   string
	}{{"~", 64, 104, 117, "outside"}, {"~", 110, 104, 117, "inside"}, {">", 100, 104, 117, "held"}, {">", 110, 104, 117, "undecided"},
		{">", 120, 104, 117, "not held"}, {"<", 120, 104, 117, "held"}, {"<", 100, 104, 117, "not held"},
		// An interval of [10.7, 280] holds 64 and says nothing (issue 20);
		// a wide interval can still exclude a value, or hold a bound.
		{"~", 64, 10.7, 280, "uninformative"}, {"~", 64, 483, 2696, "outside"}, {">", 5, 10.7, 280, "held"}, {"~", 64, 20, 80, "inside"}} {
		if got := predictVerdict(c.op, c.v, c.lo, c.hi); got != c.want {
			t.Errorf("%s%g with [%g, %g]: %s, want %s", c.op, c.v, c.lo, c.hi, got, c.want)
		}
	}
	_ = stats.Median
}
