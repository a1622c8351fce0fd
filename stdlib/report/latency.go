package report

import (
	"github.com/benchbook/benchbook/internal/protocol"
)

// latencyTable is every BENCH_OPS variant's percentiles side by side (the
// latency entry of the result), or nil when no variant has one.
func latencyTable(r *protocol.Result) *table {
	t := &table{head: []string{"worst operation", "operations", "median", "p99", "p99.9", "p99.99", "worst", "worst/median", "timer overhead"}}
	for _, v := range r.Variants {
		l := v.Latency
		if l == nil || l.N == 0 {
			continue
		}
		ratio := "-"
		if l.P50NS > 0 {
			ratio = protocol.FormatBigRatio(l.MaxNS/l.P50NS) + "x"
		}
		t.add(v.Name, protocol.FormatCount(l.N), protocol.FormatNS(l.P50NS), protocol.FormatNS(l.P99NS), protocol.FormatNS(l.P999NS),
			protocol.FormatNS(l.P9999NS), protocol.FormatNS(l.MaxNS), ratio, protocol.FormatNS(l.OverheadNS))
	}
	if len(t.rows) == 0 {
		return nil
	}
	return t
}
