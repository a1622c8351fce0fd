package evidence

import (
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
)

// withCounts gives variant sink the counts of two callgrind runs: 1 pass
// and 3 passes, 1,000,000 and 1,400,000 instructions (200,000 a pass),
// with simulated misses, and the commentary that goes with them.
func withCounts(t *testing.T, r *protocol.Result) {
	t.Helper()
	runs := []protocol.CountRun{
		{Passes: 1, Events: map[string]int64{"Ir": 1_000_000, "D1mr": 5000, "D1mw": 100, "DLmr": 4000, "DLmw": 10}},
		{Passes: 3, Events: map[string]int64{"Ir": 1_400_000, "D1mr": 7000, "D1mw": 300, "DLmr": 4100, "DLmw": 10}},
	}
	c, err := protocol.CountsOf(runs, []string{"D1 cache: 32768 B, 64 B, 8-way associative", "LL cache: 1048576 B, 64 B, 16-way associative"}, r.Protocol.Elements)
	if err != nil {
		t.Fatal(err)
	}
	r.Variant("sink").Counts = c
	r.Findings = protocol.Findings(r)
}

// verify recomputes the counts from the two stored runs: honest ones pass,
// a doctored figure or run is named.
func TestVerifyCounts(t *testing.T) {
	r := benchtest.Seed000(3)
	withCounts(t, r)
	c := r.Variant("sink").Counts
	if c.InstructionsPerPass != 200_000 || *c.D1MissesPerPass != 1100 || *c.LLMissesPerPass != 50 {
		t.Fatalf("CountsOf: %d instructions, %v and %v misses a pass, want 200000, 1100 and 50", c.InstructionsPerPass, *c.D1MissesPerPass, *c.LLMissesPerPass)
	}
	if ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r))); !ok {
		t.Fatalf("honest counts: Verify printed\n%s", out)
	}
	for _, tc := range []struct {
		name   string
		change func(c *protocol.Counts)
		says   string
	}{
		{"instructions doctored", func(c *protocol.Counts) { c.InstructionsPerPass = 150_000 }, "variant sink counts: instructions_per_pass is 150000, its runs give 200000"},
		{"a run doctored", func(c *protocol.Counts) { c.Runs[1].Events["Ir"] = 1_300_000 }, "instructions_per_pass is 200000, its runs give 150000"},
		{"misses doctored", func(c *protocol.Counts) { *c.LLMissesPerPass = 5 }, "ll_misses_per_pass is 5, its runs give 50"},
		{"per element dropped", func(c *protocol.Counts) { c.PerElement = nil }, "per_element is absent"},
		{"runs dropped", func(c *protocol.Counts) { c.Runs = nil }, "does not match result.ext.schema.json: at '/variants/1/counts/runs'"},
		{"a run dropped", func(c *protocol.Counts) { c.Runs = c.Runs[:1] }, "does not match result.ext.schema.json: at '/variants/1/counts/runs': minItems"},
		{"passes swapped", func(c *protocol.Counts) { c.Runs[0].Passes, c.Runs[1].Passes = 3, 1 }, "runs of 3 and 1 passes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := benchtest.Seed000(3)
			withCounts(t, r)
			tc.change(r.Variant("sink").Counts)
			wantMismatch(t, r, tc.says)
		})
	}
}
