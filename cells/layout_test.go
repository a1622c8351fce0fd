package cells

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// layouts=2 builds the kernel twice with different code alignment, spreads
// the fresh processes over both and says how much of the spread lies
// between them.
func TestLayoutsSpreadTheFreshProcesses(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	execute(t, s, "Cell[1]", chainKernel("k", 4))
	rec, r := benchResult(t, s, "Cell[2]", "%bench k layouts=2 runs=12")
	if r.Protocol.Layouts != 2 {
		t.Fatalf("protocol.layouts = %d", r.Protocol.Layouts)
	}
	l := r.Variant("sum").Series.Fresh.Layout
	seen := map[int]int{}
	for _, id := range l.IDs {
		seen[id]++
	}
	if seen[0] != 6 || seen[1] != 6 {
		t.Errorf("fresh processes per layout: %v, want 6 and 6", seen)
	}
	var layout string
	for _, f := range r.Findings {
		if f.Kind == protocol.KindLayout {
			layout = f.Text
		}
	}
	if !strings.Contains(layout, "between the 2 code layouts") || !strings.Contains(layout, "layout 1 ") {
		t.Errorf("layout finding: %q", layout)
	}
	if h := headlineOf(t, rec); !strings.Contains(h, "layouts=2: the fresh processes took 2 builds") {
		t.Errorf("the headline does not say the layouts were built: %q", h)
	}
	if _, _, e := execute(t, s, "Cell[3]", "%%go g\nfunc BenchA() {}\n"); e != nil {
		t.Fatal(e)
	}
	if _, _, e := execute(t, s, "Cell[4]", "%bench g layouts=2"); e == nil || !strings.Contains(e.Value+strings.Join(e.Traceback, ""), "only") {
		t.Errorf("layouts= on a Go kernel: %+v", e)
	}
}
