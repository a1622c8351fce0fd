package evidence

import (
	"fmt"

	"github.com/benchbook/benchbook/internal/protocol"
)

// checkLatency recomputes every variant's latency (BENCH_OPS) from its
// stored histogram, tick rate, longest operation and overhead in ticks
// (bench.Latency.Summarize): n, p50_ns, p99_ns, p999_ns, p9999_ns, max_ns,
// overhead_ns; and checks that the histogram holds ops_per_pass times
// passes operations in buckets listed once each, in order.
func checkLatency(r *protocol.Result) []string {
	var problems []string
	for _, v := range r.Variants {
		l := v.Latency
		if l == nil {
			continue
		}
		name := fmt.Sprintf("variant %s latency", v.Name)
		if !(l.TicksPerUS > 0) || !finite(l.TicksPerUS) {
			problems = append(problems, fmt.Sprintf("%s: ticks_per_us is %s, not a rate", name, num(l.TicksPerUS)))
			continue
		}
		for i, b := range l.Buckets {
			if b[0] < 0 || b[0] >= 34*protocol.LatencyHalf || b[1] <= 0 || i > 0 && b[0] <= l.Buckets[i-1][0] {
				problems = append(problems, fmt.Sprintf("%s: bucket %d [%d, %d] is out of range, empty or out of order", name, i, b[0], b[1]))
				break
			}
		}
		again := *l
		again.Summarize()
		if again.N != l.OpsPerPass*l.Passes {
			problems = append(problems, fmt.Sprintf("%s: the buckets hold %d operations, not ops_per_pass %d times passes %d",
				name, again.N, l.OpsPerPass, l.Passes))
		}
		if again.N != l.N {
			problems = append(problems, fmt.Sprintf("%s: n is %d, the buckets hold %d", name, l.N, again.N))
		}
		for _, f := range []struct {
			key         string
			stored, got float64
		}{
			{"p50_ns", l.P50NS, again.P50NS}, {"p99_ns", l.P99NS, again.P99NS}, {"p999_ns", l.P999NS, again.P999NS},
			{"p9999_ns", l.P9999NS, again.P9999NS}, {"max_ns", l.MaxNS, again.MaxNS}, {"overhead_ns", l.OverheadNS, again.OverheadNS},
		} {
			if !agree(f.stored, f.got) {
				problems = append(problems, fmt.Sprintf("%s: %s is %s, the histogram gives %s", name, f.key, num(f.stored), num(f.got)))
			}
		}
	}
	return problems
}
