package report_test

import (
	"fmt"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/stdlib/report"
)

// The first lines of a %bench's output: one headline per variant, written
// from the result's own numbers. Seed 000's kernel, simulated (benchtest):
// a dead variant that times the clock (21 ns, one clock read), sink at
// 498 µs a pass over 2^20 elements (0.475 ns each), and checksum 0.1%
// slower than sink, inside resolve=2%'s band: no difference.
func ExampleHeadlineText() {
	r := benchtest.Seed000(1)
	fmt.Println(report.HeadlineText(r))
	// Output:
	// discarded: DEAD: it times the clock (20.9 ns a pass); the compiler removed the work
	// sink: 498 µs a pass, 0.475 ns an element (median of 30 rounds in 10 processes, 10.0 s)
	// checksum: no difference from sink: [0.992, 1.009] lies within ±1% (497 µs a pass, 30 rounds in 10 processes, 10.0 s)
}
