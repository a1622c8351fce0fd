package plot

import (
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
)

// latencyResult is seed 000's result with a simulated latency on sink:
// 99,990 operations of 40 ticks, 9 of 20,000, one of 4,000,000, at 2000
// ticks per us (20 ns, 10 us, 2 ms), timer overhead 18 ns.
func latencyResult() *result.Result {
	r := benchtest.Seed000(3)
	l := &result.Latency{OpsPerPass: 10000, Passes: 10, TicksPerUS: 2000, MaxTicks: 4000000, OverheadTicks: 36,
		Buckets: [][2]int64{{40, 99990}, {int64(result.LatencyIndex(20000)), 9}, {int64(result.LatencyIndex(4000000)), 1}}}
	l.Summarize()
	r.Variant("sink").Latency = l
	return r
}

// The percentile curve rises from the median to the slowest operation at
// x = n, its x axis is labelled in percentiles, and All draws it only
// for a result with a latency.
func TestLatencyPlot(t *testing.T) {
	r := latencyResult()
	l := r.Variant("sink").Latency
	xys := latencyCurve(l, 0.25)
	if xys[0].X != 1 || xys[0].Y != 20 || xys[len(xys)-1].X != 100000 || xys[len(xys)-1].Y != 2e6 {
		t.Errorf("curve from %v to %v, want (1, 20 ns) to (100000, 2 ms)", xys[0], xys[len(xys)-1])
	}
	for i := 1; i < len(xys); i++ {
		if xys[i].X <= xys[i-1].X || xys[i].Y < xys[i-1].Y {
			t.Fatalf("not rising at %d: %v then %v", i, xys[i-1], xys[i])
		}
	}
	// the 9 ops of 10 us are the top 0.01%: from x = 10^4 on, below 10^4 20 ns
	for _, p := range xys {
		if want := 20.0; p.X < 1e4 && p.Y != want || p.X > 1e4 && p.X < 1e5 && p.Y < 9990 {
			t.Errorf("at x %v: %v ns", p.X, p.Y)
		}
	}
	var labels []string
	for _, tk := range percentileTicks(1e5) {
		labels = append(labels, tk.Label)
	}
	if !slices.Equal(labels, []string{"50%", "90%", "99%", "99.9%", "99.99%", "99.999%"}) {
		t.Errorf("x ticks %v", labels)
	}
	fig, err := Latency(r)
	if err != nil || len(fig.PNG) == 0 {
		t.Fatalf("Latency: %v", err)
	}
	if p := os.Getenv("BENCHBOOK_LATENCY_PNG"); p != "" {
		_ = os.WriteFile(p, fig.PNG, 0o644)
	}
	if n := len(All(r)); n != len(All(benchtest.Seed000(3)))+1 {
		t.Errorf("All draws %d figures with a latency, want one more than without", n)
	}
	if _, err := Latency(benchtest.Seed000(3)); !errors.Is(err, ErrNoData) {
		t.Errorf("Latency without BENCH_OPS: %v, want ErrNoData", err)
	}
}

// Past five decades every other label goes, the ticks stay: at 10^7
// operations the labels are 50%, 90%, 99%, 99.9%, 99.999%, 99.99999%.
func TestPercentileTicksThinOut(t *testing.T) {
	var labels []string
	ticks := percentileTicks(1.05e7)
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if len(ticks) != 8 || !slices.Equal(labels, []string{"50%", "90%", "99%", "99.9%", "99.999%", "99.99999%"}) {
		t.Errorf("%d ticks, labels %v", len(ticks), labels)
	}
}
