package machine

import (
	"math"
	"strings"
	"testing"
)

// counts makes a histogram of deltas: value -> count.
func counts(m map[int]int64) []int64 {
	top := 0
	for v := range m {
		top = max(top, v)
	}
	c := make([]int64, top+1)
	for v, n := range m {
		c[v] = n
	}
	return c
}

func TestClockGrid(t *testing.T) {
	for _, tc := range []struct {
		name string
		hist map[int]int64
		want float64
	}{
		// This session's Intel VM: back-to-back deltas 16-20 ns, every
		// value taken; spaced ones fill a range.
		{"every nanosecond value", map[int]int64{16: 2275, 17: 57436, 18: 102330, 19: 36260, 20: 1590}, 1},
		// The AMD VMs of NOTES.md: a 10.02 ns step read as 10 or 11 (and
		// 20 or 21, ...): runs two values wide, 10 apart.
		{"a 10 ns grid, rounded", map[int]int64{20: 4000, 21: 900, 30: 3000, 31: 800, 40: 2000, 41: 300, 50: 1000}, 10},
		{"a 10 ns grid, one value a step", map[int]int64{30: 5000, 40: 5000, 50: 5000}, 10},
		// A clock coarser than its read: most deltas are 0.
		{"a 1 us tick", map[int]int64{0: 9500, 1000: 480}, 1000},
		{"a 2 ns grid", map[int]int64{16: 100, 18: 100, 20: 100, 22: 100}, 2},
		// Rare values are events, not the clock: a 25 and a 37 seen once
		// in 10000 do not make a grid of 8.
		{"rare values left out", map[int]int64{17: 5000, 18: 4000, 19: 998, 25: 1, 37: 1}, 1},
		{"one value only", map[int]int64{18: 1000}, 1},
		{"nothing", map[int]int64{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := FrequentRanges(counts(tc.hist))
			if got := ClockGrid(rs); got != tc.want {
				t.Errorf("ClockGrid(%s) = %g, want %g", rs, got, tc.want)
			}
		})
	}
}

func TestFrequentRanges(t *testing.T) {
	// 10000 deltas: a value needs 10 (one in FrequentShare) to count.
	rs := FrequentRanges(counts(map[int]int64{20: 4000, 21: 9, 22: 3000, 23: 2991}))
	if got := rs.String(); got != "20,22-23" {
		t.Errorf("FrequentRanges = %q, want 20,22-23 (21 seen 9 times in 10000 is an event)", got)
	}
	many := map[int]int64{}
	for v := 0; v < 4*MaxRanges; v += 2 {
		many[v] = 100
	}
	if rs := FrequentRanges(counts(many)); len(rs) != MaxRanges || rs[MaxRanges-1].Lo != 2*(MaxRanges-1) {
		t.Errorf("%d ranges kept, the last %v; want the first %d", len(rs), rs[len(rs)-1], MaxRanges)
	}
}

func TestRangesRoundTrip(t *testing.T) {
	for _, s := range []string{"", "17", "17-90", "20-21,30-31,40", "0,1000"} {
		rs, err := ParseRanges(s)
		if err != nil {
			t.Fatalf("ParseRanges(%q): %v", s, err)
		}
		if rs.String() != s {
			t.Errorf("ParseRanges(%q).String() = %q", s, rs.String())
		}
	}
	for _, s := range []string{"x", "20-", "5-3", "20,21", "30,20", "-1", "1,,2", "9-9", "09", "+5"} {
		if _, err := ParseRanges(s); err == nil {
			t.Errorf("ParseRanges(%q) accepted it", s)
		} else if !strings.Contains(err.Error(), "clock ranges") {
			t.Errorf("ParseRanges(%q): the error %q does not say what it read", s, err)
		}
	}
}

func TestReadCostIsAMedian(t *testing.T) {
	// 9 blocks of 100 reads at 22 ns, one in which the thread was
	// descheduled for 200 us: the mean read costs 222 ns, the median 22.
	blocks := []float64{2200, 2200, 2200, 202200, 2200, 2200, 2200, 2200, 2200, 2200}
	if got := Median(blocks) / 100; got != 22 {
		t.Errorf("ReadCost = %g, want 22 (the median block)", got)
	}
	mean := 0.0
	for _, b := range blocks {
		mean += b / 100 / float64(len(blocks))
	}
	if math.Abs(mean-222) > 1e-9 {
		t.Fatalf("the example's mean is %g, not 222", mean)
	}
	if Median([]float64{3, 1, 2, 10}) != 2.5 || Median(nil) != 0 {
		t.Error("Median of an even count is the mean of the two middle values; of none, 0")
	}
}

// The probe on this machine: robust properties only (the values depend on
// the machine): a grid of at least a nanosecond, a read cost no more than
// the mean (which includes descheduled time) by more than a rounding.
func TestProbeClock(t *testing.T) {
	p := ProbeClock()
	if p.GridNS < 1 || p.ReadCostNS <= 0 || p.MinStepNS < 1 || p.Reads != probeBlocks*probeBlockReads {
		t.Fatalf("probe %+v", p)
	}
	if len(p.Spaced) == 0 {
		t.Errorf("no spaced ranges: %+v", p)
	}
}

// FuzzClockRanges (its corpus holds "9-9", which parsed to a range that
// writes back as "9": ParseRanges now takes only the form String writes):
// any text a clock record's spaced field may hold either
// fails to parse with a message, or parses to ranges that write back the
// same and give a grid of 0 (none) or at least 1 ns, never more than the
// span of the values.
func FuzzClockRanges(f *testing.F) {
	for _, s := range []string{"", "17", "17-90", "20-21,30-31,40", "0,1000", "5-3", "1,,2", "none"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := ParseRanges(s)
		if err != nil {
			return
		}
		if rs.String() != s {
			t.Fatalf("%q parses and writes back as %q", s, rs.String())
		}
		g := ClockGrid(rs)
		if len(rs) == 0 && g != 0 || len(rs) > 0 && (g < 1 || math.IsNaN(g)) {
			t.Fatalf("ClockGrid(%q) = %g", s, g)
		}
		if len(rs) > 1 && g > float64(rs[len(rs)-1].Hi-rs[0].Lo)+0.5 {
			t.Fatalf("ClockGrid(%q) = %g, beyond the span of the values", s, g)
		}
	})
}
