package protocol

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/harness"
)

// latencyAnalysis is Latency.Analysis.
const latencyAnalysis = "the dead-code check of the timed function is not applicable: the counter reads and the histogram around each operation are work the compiler must keep, so the region is never empty even when an operation was deleted; read the operation in the assembly"

// latencyCollect gathers one process's BENCH_OPS records.
type latencyCollect struct {
	buckets map[int64]int64
	start   harness.Record
	end     harness.Record
	have    map[string]*Latency // per variant, once its latency record came
}

// collectLatency adds one record of an in-process series' process of
// variant v (run.go's collectInProcess).
func (d *collected) collectLatency(rec harness.Record) {
	if d.latency == nil {
		d.latency = &latencyCollect{buckets: map[int64]int64{}, have: map[string]*Latency{}}
	}
	c := d.latency
	switch rec.Kind {
	case "ticks":
		if rec.Fields["when"] == "start" {
			c.start = rec
		} else {
			c.end = rec
		}
	case "latency_buckets":
		for _, item := range strings.Split(rec.Fields["buckets"], ",") {
			i, n, _ := strings.Cut(item, ":")
			ii, e1 := strconv.ParseInt(i, 10, 64)
			nn, e2 := strconv.ParseInt(n, 10, 64)
			if e1 == nil && e2 == nil {
				c.buckets[ii] += nn
			}
		}
	case "latency":
		c.add(rec)
	}
}

func (c *latencyCollect) add(rec harness.Record) {
	v := rec.Fields["variant"]
	l := &Latency{Series: "in_process", Analysis: latencyAnalysis, Clock: c.start.Fields["source"], CPUFlags: c.start.Fields["cpu_flags"]}
	l.TicksPerUS, _ = rec.Float("ticks_per_us")
	l.TicksPerUSStart, _ = c.start.Float("ticks_per_us")
	l.TicksPerUSEnd, _ = c.end.Float("ticks_per_us")
	l.OpsPerPass, _ = rec.Int("ops")
	l.Passes, _ = rec.Int("passes")
	l.MaxTicks, _ = rec.Int("max_ticks")
	l.OverheadTicks, _ = rec.Int("overhead_ticks")
	l.EmptyMaxTicks, _ = rec.Int("empty_max_ticks")
	for key, into := range map[string]**int64{"max_pass": &l.MaxPass, "max_op": &l.MaxOp, "max_at_ns": &l.MaxAtNS} {
		if v, err := rec.Int(key); err == nil {
			*into = &v
		}
	}
	for key, into := range map[string]**int64{"max_run_delay_ns": &l.MaxRunDelayNS, "max_nivcsw": &l.MaxInvoluntary} {
		if v, err := rec.Int(key); err == nil && v >= 0 { // -1: the driver could not read it
			*into = &v
		}
	}
	for i := int64(0); i < 34*LatencyHalf; i++ {
		if n := c.buckets[i]; n > 0 {
			l.Buckets = append(l.Buckets, [2]int64{i, n})
		}
	}
	c.buckets = map[int64]int64{}
	if l.TicksPerUS > 0 {
		l.Summarize()
	}
	if prev := c.have[v]; prev != nil { // a second slot of the variant: not written by bench.Run
		return
	}
	c.have[v] = l
}

// latencyOf is variant v's Latency, or nil.
func (d *collected) latencyOf(v string) *Latency {
	if d.latency == nil {
		return nil
	}
	return d.latency.have[v]
}

// latencyLine is one line of the summary: p50 ... max and the overhead.
func latencyLine(l *Latency) string {
	return fmt.Sprintf("p50 %s, p99 %s, p99.9 %s, p99.99 %s, max %s over %d operations; timer overhead %s",
		FormatNS(l.P50NS), FormatNS(l.P99NS), FormatNS(l.P999NS), FormatNS(l.P9999NS), FormatNS(l.MaxNS), l.N, FormatNS(l.OverheadNS))
}
