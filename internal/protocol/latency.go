package protocol

import (
	"fmt"

	"github.com/benchbook/benchbook/internal/records"
)

// latencyAnalysis is Latency.Analysis.
const latencyAnalysis = "the dead-code check of the timed function is not applicable: the counter reads and the histogram around each operation are work the compiler must keep, so the region is never empty even when an operation was deleted; read the operation in the assembly"

// latencyCollect gathers one process's BENCH_OPS records.
type latencyCollect struct {
	buckets map[int64]int64
	start   records.Ticks
	end     records.Ticks
	have    map[string]*Latency // per variant, once its latency record came
}

// collectLatency adds one record of an in-process series' process of
// variant v (run.go's collectInProcess).
func (d *collected) collectLatency(rec records.Record) {
	if d.latency == nil {
		d.latency = &latencyCollect{buckets: map[int64]int64{}, have: map[string]*Latency{}}
	}
	c := d.latency
	switch t := rec.Value.(type) {
	case records.Ticks:
		if t.When == "start" {
			c.start = t
		} else {
			c.end = t
		}
	case records.LatencyBuckets:
		for _, b := range t.Pairs() { // records.Reader checked the list
			c.buckets[b[0]] += b[1]
		}
	case records.Latency:
		c.add(t)
	}
}

func (c *latencyCollect) add(rec records.Latency) {
	v := rec.Variant
	l := &Latency{Series: "in_process", Analysis: latencyAnalysis, Clock: c.start.Source, CPUFlags: c.start.CPUFlags,
		TicksPerUS: rec.TicksPerUS, TicksPerUSStart: c.start.TicksPerUS, TicksPerUSEnd: c.end.TicksPerUS,
		OpsPerPass: rec.Ops, Passes: rec.Passes, MaxTicks: rec.MaxTicks, OverheadTicks: rec.OverheadTicks, EmptyMaxTicks: rec.EmptyMaxTicks}
	l.MaxPass, l.MaxOp, l.MaxAtNS = &rec.MaxPass, &rec.MaxOp, &rec.MaxAtNS
	if rec.MaxRunDelayNS >= 0 { // -1: the driver could not read it
		l.MaxRunDelayNS = &rec.MaxRunDelayNS
	}
	if rec.MaxNivcsw >= 0 {
		l.MaxInvoluntary = &rec.MaxNivcsw
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
