package protocol

import (
	"strings"
	"testing"
)

// floorResult: BENCH_OPS variants at 1000 ticks per us, each with 100,000
// operations of 20 ticks but one worst of worst[i] ticks, and empty
// operations whose worst is floor[i] ticks (0: not recorded).
func floorResult(worst, floor []int64) *Result {
	r := &Result{}
	for i := range worst {
		ticks := make([]uint64, 100000)
		for j := range ticks {
			ticks[j] = 20
		}
		ticks[0] = uint64(worst[i])
		pass, op := int64(3), int64(417)
		l := &Latency{Buckets: histogram(ticks), MaxTicks: worst[i], OverheadTicks: 8, EmptyMaxTicks: floor[i], TicksPerUS: 1000,
			TicksPerUSStart: 1000, TicksPerUSEnd: 1000, OpsPerPass: 10000, Passes: 10, Clock: "rdtsc", CPUFlags: "constant_tsc,nonstop_tsc",
			MaxPass: &pass, MaxOp: &op}
		l.Summarize()
		r.Variants = append(r.Variants, Variant{Name: []string{"push", "push_reserved"}[i], Latency: l})
	}
	return r
}

func latencyText(r *Result) string {
	var s []string
	for _, x := range Sentences(r) {
		if x.Topic == TopicLatency {
			s = append(s, x.Text)
		}
	}
	return strings.Join(s, " | ")
}

// A worst operation that stands alone says where it was, and is put down
// to an interruption only when it is within the empty operations' worst;
// the sentence names no realloc, rehash or page fault, which no run
// measures.
func TestWorstOperationAttribution(t *testing.T) {
	cases := []struct {
		name        string
		worst, flr  int64
		says, never string
	}{
		{"within the floor", 9_000_000, 9_500_000, "an interruption explains it", "does not measure what it was"},
		{"above the floor", 65_900_000, 9_500_000, "this run does not measure what it was", "an interruption explains it"},
		{"no floor recorded", 65_900_000, 0, "does not record the empty operations' worst", "an interruption explains it"},
	}
	for _, c := range cases {
		s := latencyText(floorResult([]int64{c.worst}, []int64{c.flr}))
		if !strings.Contains(s, c.says) || strings.Contains(s, c.never) || !strings.Contains(s, "operation 417 of measured pass 3") {
			t.Errorf("%s: %s", c.name, s)
		}
		for _, cause := range []string{"realloc", "rehash", "page fault"} {
			if strings.Contains(s, cause) {
				t.Errorf("%s: names %q, which the run did not measure: %s", c.name, cause, s)
			}
		}
	}
}

// Two worst operations are divided only when both lie above their
// interruption floors (the 17.6x on a quiet host and 1.1x on a
// busy one divided an event by the noise).
func TestWorstOperationsDividedOnlyAboveTheFloor(t *testing.T) {
	cases := []struct {
		name         string
		worst, floor []int64
		divided      bool
	}{
		{"both above", []int64{50_000_000, 2_000_000}, []int64{1_000_000, 1_000_000}, true},
		{"one within", []int64{65_900_000, 9_000_000}, []int64{9_500_000, 9_500_000}, false},
		{"not recorded", []int64{65_900_000, 2_000_000}, []int64{0, 0}, false},
	}
	for _, c := range cases {
		s := latencyText(floorResult(c.worst, c.floor))
		i := strings.Index(s, "side by side, the worst operation")
		if i < 0 {
			t.Fatalf("%s: no side-by-side sentence: %s", c.name, s)
		}
		side := s[i:]
		side = side[:strings.Index(side, ", and their p99.9")]
		if divided := strings.Contains(side, " times"); divided != c.divided || !c.divided && !strings.Contains(side, "not divided") {
			t.Errorf("%s: %q", c.name, side)
		}
	}
}
