package machine

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	driver "github.com/benchbook/benchbook/internal/harness/go/bench"
)

// The clock, measured right (issue 20): the smallest delta between two
// back-to-back reads is what one read costs, not how finely the clock
// ticks. On the Firecracker VMs of this project the deltas sit on a grid
// of about 10 ns (rdtsc there moves in steps of 21 ticks at 2096 MHz)
// while the smallest delta is 20-31 ns; on others every nanosecond value
// from 16 to 20 occurs. The granularity is read from the values the
// deltas take, the read cost is a median, and the two are kept apart.
//
// To see the grid the deltas must take many values: back to back they
// may take two or three (17, 18, 19 ns on one VM here, which alone cannot
// tell a 1 ns clock from an 18 ns one). So the grid is read from spaced
// pairs: two reads with a varying amount of work between them (0 to 127
// dependent steps), whose deltas cover a range some 60 ns wide. A clock
// that resolves a nanosecond fills every value of that range; a clock on
// a grid of g ns fills only values near multiples of g.

// Range is a run of adjacent nanosecond values, Lo to Hi inclusive, that
// frequent deltas took.
type Range struct {
	Lo, Hi int64
}

// Ranges are the runs of values the frequent deltas of a clock took,
// ascending and apart (a gap of at least one value between two).
type Ranges []Range

// FrequentShare: a value taken by fewer than one delta in FrequentShare
// (and by fewer than 2) is an event (an interrupt, a migration), not the
// clock. MaxRanges bounds a record: a clock with more runs than that is
// cut to the first MaxRanges. Both are the drivers' (records.md, clock).
const (
	FrequentShare = 1000
	MaxRanges     = driver.ClockMaxRanges
)

// FrequentRanges are the runs of the values that at least one delta in
// FrequentShare (and at least 2) took; count[v] is how many deltas were v
// ns, for v from 0. It is the Go driver's rule (driver.FrequentRanges),
// read back.
func FrequentRanges(count []int64) Ranges {
	rs, err := ParseRanges(strings.TrimPrefix(driver.FrequentRanges(count), "none"))
	if err != nil {
		panic("machine: the driver's ranges do not parse: " + err.Error()) // a bug in one of the two
	}
	return rs
}

// String is the ranges as "lo-hi,lo-hi" (a single value as "v"), the form
// of the driver's clock record.
func (rs Ranges) String() string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		if r.Lo == r.Hi {
			parts[i] = strconv.FormatInt(r.Lo, 10)
		} else {
			parts[i] = fmt.Sprintf("%d-%d", r.Lo, r.Hi)
		}
	}
	return strings.Join(parts, ",")
}

// ParseRanges parses String's form (and only it: a form String does not
// write, as "9-9" or "09", is refused); "" is no ranges.
func ParseRanges(s string) (Ranges, error) {
	var rs Ranges
	if s == "" {
		return rs, nil
	}
	for _, p := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(p, "-")
		if !isRange {
			hi = lo
		}
		l, err1 := strconv.ParseInt(lo, 10, 64)
		h, err2 := strconv.ParseInt(hi, 10, 64)
		// Only the form the drivers write: "v" for one value, "lo-hi" with
		// lo < hi, numbers without signs or leading zeros.
		canonical := strconv.FormatInt(l, 10) == lo && strconv.FormatInt(h, 10) == hi && (!isRange || h > l)
		if err1 != nil || err2 != nil || l < 0 || h < l || !canonical {
			return nil, fmt.Errorf("clock ranges: %q is not v or lo-hi with 0 <= lo < hi", p)
		}
		if k := len(rs); k > 0 && l <= rs[k-1].Hi+1 {
			return nil, fmt.Errorf("clock ranges: %q does not start after %d and a gap", p, rs[k-1].Hi)
		}
		rs = append(rs, Range{l, h})
	}
	return rs, nil
}

// ClockGrid is the granularity of a clock in ns, from the runs of values
// its frequent spaced deltas took. A clock on a grid of g ns fills runs
// one or two values wide (the conversion to whole nanoseconds makes a
// step of 10.02 ns read 10 or 11) near multiples of g, with empty values
// between. The smallest distance between the middles of two neighbouring
// runs is the grid to within half a nanosecond (the middle of a run of
// one value is that value, of two values between them); the span from the
// first run to the last, divided by the number of such steps it holds,
// is it more closely. A run three or more values wide, or a single run,
// is a clock that resolves a nanosecond as far as its deltas tell: 1. The
// result is rounded to 0.5 ns; 0 when there are no ranges.
func ClockGrid(rs Ranges) float64 {
	if len(rs) == 0 {
		return 0
	}
	mid := func(r Range) float64 { return float64(r.Lo+r.Hi) / 2 }
	step := 0.0
	for i, r := range rs {
		if r.Hi-r.Lo >= 2 {
			return 1
		}
		if d := mid(r) - mid(rs[max(i-1, 0)]); i > 0 && (step == 0 || d < step) {
			step = d
		}
	}
	if step < 1 {
		return 1
	}
	span := mid(rs[len(rs)-1]) - mid(rs[0])
	grid := span / math.Round(span/step)
	return math.Round(grid*2) / 2
}

// Median is the middle of xs (the mean of the two middle values of an even
// count); 0 for none. xs is not changed.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
