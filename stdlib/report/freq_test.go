package report

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
)

// The summary table shows the median clock of a series and its cycles per
// element when the result has them, and no such columns when it has not.
func TestSummaryTableShowsTheClock(t *testing.T) {
	r := benchtest.Seed000(2)
	if strings.Contains(summaryTable(r).text(), "cycles/el") {
		t.Fatal("a result without clocks has a cycles/el column")
	}
	s := r.Variant("sink").Series.Fresh
	s.FreqMHz = make([]float64, len(s.SamplesNS))
	for i := range s.FreqMHz {
		s.FreqMHz[i] = 2000 + float64(i%3)*1000 // median 3000
	}
	c := 2.125
	s.CyclesPerElement = &c
	tb := summaryTable(r)
	if tb.head[len(tb.head)-2] != "clock" || tb.head[len(tb.head)-1] != "cycles/el" {
		t.Fatalf("head %v", tb.head)
	}
	for _, row := range tb.rows {
		want := []string{"-", "-"}
		if row[0] == "sink / fresh" {
			want = []string{"3000 MHz", "2.12"}
		}
		if got := row[len(row)-2:]; got[0] != want[0] || got[1] != want[1] {
			t.Errorf("row %s: clock cells %v, want %v", row[0], got, want)
		}
	}
}

// The counts table shows each variant's counts and simulated misses
// beside its median time, and is left out without counts.
func TestCountsTable(t *testing.T) {
	r := benchtest.Seed000(2)
	if countsTable(r) != nil {
		t.Fatal("a counts table without counts")
	}
	d1, ll, pe := 16390.0, 262149.0, 1.0000038
	r.Variant("sink").Counts = &result.Counts{Tool: "callgrind", InstructionsPerPass: 1048580, PerElement: &pe, D1MissesPerPass: &d1, LLMissesPerPass: &ll}
	tb := countsTable(r)
	if tb == nil || len(tb.rows) != 1 {
		t.Fatalf("table %+v", tb)
	}
	want := []string{"sink", numtext.FormatNS(r.Variant("sink").Series.Interleaved.Summary.Median), "1,048,580", "1", "16,390", "262,149"}
	if strings.Join(tb.rows[0], "|") != strings.Join(want, "|") {
		t.Errorf("row %q, want %q", tb.rows[0], want)
	}
	if txt := Result(r)["text/plain"].(string); !strings.Contains(txt, "LL misses/pass") {
		t.Errorf("the rendered result has no counts table:\n%s", txt)
	}
}
