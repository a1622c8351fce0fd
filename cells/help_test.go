package cells

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/stdlib/display"
)

func TestHelpMagics(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct {
		code string
		says []string
	}{
		{"%help", []string{"%%c NAME", "%%go NAME", "%bench NAME", "%bench keys:", "baseline"}},
		{"%lsmagic", []string{"Cell magics: %%c  %%go  %%gotest", "Line magics: %bench  %help  %lsmagic"}},
		{"%%gotest?", []string{"func BenchmarkXxx(b *testing.B)"}},
		{"%bench?", []string{"%bench NAME [key=value ...]", "reps", "layouts", "counts"}},
		{"%%c?", []string{"%%c NAME [cc flags...]", "-O2"}},
		{"%%go?", []string{"func BenchXxx()"}},
	} {
		rec, _, e := execute(t, s, "Cell[1]", c.code)
		if e != nil {
			t.Errorf("%s: %v", c.code, e.Value)
			continue
		}
		for _, want := range c.says {
			if !strings.Contains(rec.streams.String(), want) {
				t.Errorf("%s does not say %q:\n%s", c.code, want, rec.streams.String())
			}
		}
	}
	// Every key %bench accepts is in its help.
	text, _ := HelpText("%bench")
	for _, k := range protocol.ValidKeys() {
		if !strings.Contains(text, "  "+k+" ") {
			t.Errorf("%%bench? does not list key %s", k)
		}
	}
	if _, _, e := execute(t, s, "Cell[2]", "%nothing?"); e == nil {
		t.Error("help on an unknown magic is not an error")
	}
}

// A console sends a cell line by line: a native cell is incomplete until
// its braces balance and an empty line ends it.
func TestNativeCellIsCompleteLineByLine(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct{ code, want string }{
		{"%%c tiny", "incomplete"},
		{"%%c tiny\n", "incomplete"},
		{"%%c tiny\nBENCH(a) {", "incomplete"},
		{"%%c tiny\nBENCH(a) { }", "incomplete"},
		{"%%c tiny\nBENCH(a) { }\n", "complete"},
		{"%%c tiny\nBENCH(a) { }\nBENCH(b) { }\n\n", "complete"},
		{"%%c tiny\nBENCH(a) { } }\n", "invalid"},
		{"%%go g\nfunc BenchA() {\n", "incomplete"},
		{"%bench tiny", "complete"},
		{"%help", "complete"},
		{"x := 1", "complete"},
	} {
		if got, _ := s.IsComplete(c.code); got != c.want {
			t.Errorf("%q: %s, want %s", c.code, got, c.want)
		}
	}
}

// Inspect of a function the notebook packages give glue cells shows its
// signature and doc comment, from the sources the binary carries.
func TestInspectNotebookPackages(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct {
		code string
		says []string
	}{
		{"bench.Run(", []string{"func Run(", "protocol"}},
		{"stats.Summarize(", []string{"func Summarize(", "Summarize computes the Summary of samples"}},
		{"stats.ComparePaired(", []string{"func ComparePaired(a, b []float64, alpha float64) (Verdict, error)", "Wilcoxon"}},
	} {
		data, found := s.Inspect(c.code, strings.Index(c.code, ".")+2)
		if !found {
			t.Errorf("%s: not found", c.code)
			continue
		}
		text, _ := data[display.MIMEText].(string)
		for _, want := range c.says {
			if !strings.Contains(text, want) {
				t.Errorf("%s: inspect lacks %q:\n%.600s", c.code, want, text)
			}
		}
	}
}

// An index past the end of a series reads as Go's index out of range, not
// as reflect's wording.
func TestIndexPastASeries(t *testing.T) {
	s := newSession(t)
	execute(t, s, "Cell[1]", "s := []float64{1, 2, 3}")
	_, _, e := execute(t, s, "Cell[2]", "s[5]")
	if e == nil || !strings.Contains(e.Value, "index out of range") || strings.Contains(e.Value, "reflect") {
		t.Errorf("%+v", e)
	}
}
