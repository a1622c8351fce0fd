package report

import (
	"fmt"
	"strconv"

	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// freqHead is the summary table's extra columns for the clock during the
// run: the median clock of a series' samples (each its process's own
// estimate) and, with elements=, the median cycles per element at those
// clocks. None when no series of the result carries clocks (older results).
func freqHead(r *result.Result) []string {
	clocks, cycles := false, false
	for _, v := range r.Variants {
		for _, name := range result.SeriesNames {
			if s := v.Get(name); s != nil {
				clocks = clocks || len(s.FreqMHz) > 0
				cycles = cycles || s.CyclesPerElement != nil
			}
		}
	}
	var head []string
	if clocks {
		head = append(head, "clock")
	}
	if cycles {
		head = append(head, "cycles/el")
	}
	return head
}

// freqCells are the cells of freqHead's columns for series s.
func freqCells(head []string, s *result.Samples) []string {
	var out []string
	for _, h := range head {
		cell := "-"
		switch {
		case h == "clock" && len(s.FreqMHz) > 0:
			cell = fmt.Sprintf("%.0f MHz", stats.Median(s.FreqMHz))
		case h == "cycles/el" && s.CyclesPerElement != nil:
			cell = strconv.FormatFloat(*s.CyclesPerElement, 'g', 3, 64)
		}
		out = append(out, cell)
	}
	return out
}
