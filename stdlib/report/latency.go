package report

import (
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// latencyTable is every BENCH_OPS variant's percentiles side by side (the
// latency entry of the result), or nil when no variant has one.
func latencyTable(r *result.Result) *table {
	t := &table{head: []string{"worst operation", "operations", "median", "p99", "p99.9", "p99.99", "worst", "worst/median", "timer overhead"}}
	for _, v := range r.Variants {
		l := v.Latency
		if l == nil || l.N == 0 {
			continue
		}
		ratio := "-"
		if l.P50NS > 0 {
			ratio = numtext.FormatBigRatio(l.MaxNS/l.P50NS) + "x"
		}
		t.add(v.Name, numtext.FormatCount(l.N), numtext.FormatNS(l.P50NS), numtext.FormatNS(l.P99NS), numtext.FormatNS(l.P999NS),
			numtext.FormatNS(l.P9999NS), numtext.FormatNS(l.MaxNS), ratio, numtext.FormatNS(l.OverheadNS))
	}
	if len(t.rows) == 0 {
		return nil
	}
	return t
}
