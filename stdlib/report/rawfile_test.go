package report

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/stdlib/display"
)

// Issue 23 item 9: nothing shown claims a result.json that was not
// written; the usual line is as before when it was.
func TestRawFileLine(t *testing.T) {
	r := benchtest.Seed000(1)
	r.RawFile = "results/seed-1"
	for _, s := range []string{HeadlineText(r), HeadlineBundle(r)[display.MIMEHTML].(string), Result(r)[display.MIMEHTML].(string)} {
		if !strings.Contains(s, "raw records and result.json") || !strings.Contains(s, "results/seed-1") {
			t.Errorf("a written result: %q", s)
		}
	}
	r.ResultNotWritten = "disk full: no space left on device writing results/seed-1/result.json (ENOSPC)"
	for _, s := range []string{HeadlineText(r), HeadlineBundle(r)[display.MIMEHTML].(string), Result(r)[display.MIMEHTML].(string)} {
		if strings.Contains(s, "and result.json") || !strings.Contains(s, "result.json was NOT written: disk full") {
			t.Errorf("a result not written: %q", s)
		}
	}
}
