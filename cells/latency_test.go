package cells

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/stdlib/display"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// A BENCH_OPS kernel through the cells: %bench shows the latency plot
// beside the usual five, the result carries latency, and the commentary
// names the worst operation. A misused BENCH_OP_BEGIN is an error naming
// its cell line, and the session goes on.
func TestBenchOpsCell(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	_, _, e := execute(t, s, "Cell[1]", "%%c ops\nstatic volatile unsigned long x;\n"+
		"BENCH_OPS(tiny, 1000) { for (int i = 0; i < 1000; i++) { BENCH_OP_BEGIN; x++; BENCH_OP_END; } }\n"+
		"BENCH(plain) { x++; }")
	if e != nil {
		t.Fatal(e)
	}
	rec, _, e := execute(t, s, "Cell[2]", "%bench ops quick")
	if e != nil {
		t.Fatal(e)
	}
	pngs := 0
	var latency, commentary bool
	for _, b := range rec.displays {
		if _, ok := b.Data[display.MIMEPNG]; ok {
			pngs++
		}
		if res, ok := b.Data[display.MIMEResult]; ok {
			j, _ := json.Marshal(res)
			latency = strings.Contains(string(j), `"latency":{"n":10000,`)
		}
		for _, v := range b.Data {
			if text, ok := v.(string); ok && strings.Contains(strings.ToLower(text), "the slowest of 10,000 operations of tiny took") {
				commentary = true
			}
		}
	}
	if pngs != 6 || !latency || !commentary {
		t.Errorf("%d plots (want 6), latency of 10,000 operations in the result %v, worst operation in the commentary %v", pngs, latency, commentary)
	}
	_, _, e = execute(t, s, "Cell[3]", "%%c bad\nstatic volatile int x;\nBENCH_OPS(v, 2) {\n  BENCH_OP_BEGIN; x++;\n  BENCH_OP_BEGIN; x++; BENCH_OP_END;\n}")
	if e != nil {
		t.Fatal(e)
	}
	_, _, e = execute(t, s, "Cell[4]", "%bench bad quick")
	if e == nil || !strings.Contains(e.Error(), "BENCH_OP_BEGIN again before BENCH_OP_END (line 5") {
		t.Errorf("misused BENCH_OP_BEGIN: %v", e)
	}
	_, res, e := execute(t, s, "Cell[5]", "1 + 1")
	if e != nil || res[display.MIMEText] != "2" {
		t.Errorf("the session after the error: %v %v", res, e)
	}
}
