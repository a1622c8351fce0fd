package cells

import (
	"strings"
	"testing"
)

// pad= and pages= in a %bench cell: a kernel that does not use BENCH_PAD,
// a Go kernel, a bad value and a control beside layouts= each fail the
// cell naming the option and why; the session goes on.
func TestControlCellErrors(t *testing.T) {
	s := newSession(t)
	if _, _, e := execute(t, s, "Cell[1]", "%%c flat\nstatic int m[64][64];\nBENCH_SETUP() { m[1][1] = 1; }\nBENCH(cols) { long s = 0; for (int j = 0; j < 64; j++) for (int i = 0; i < 64; i++) s += m[i][j]; bench_sink(s); }"); e != nil {
		t.Fatal(e)
	}
	if _, _, e := execute(t, s, "Cell[2]", "%%go gk\nfunc BenchNothing() {}"); e != nil {
		t.Fatal(e)
	}
	cases := []struct{ code, says string }{
		{"%bench flat pad=64", "pad=64: the build with -DBENCH_PAD=64 is byte for byte the build without: flat does not use BENCH_PAD"},
		{"%bench gk pad=64", "pad=64: gk is a go kernel; BENCH_PAD is a macro of %%c kernels"},
		{"%bench flat pad=nope", "pad=nope: want the bytes each row is padded by"},
		{"%bench flat pages=giant", "pages=giant: want pages=huge"},
		{"%bench flat pages=huge layouts=2", "do not combine with layouts="},
	}
	for i, c := range cases {
		_, _, e := execute(t, s, "Cell["+string(rune('3'+i))+"]", c.code)
		if e == nil || !strings.Contains(strings.Join(e.Traceback, "\n")+e.Value, c.says) {
			t.Errorf("%s: %+v, want an error saying %q", c.code, e, c.says)
		}
	}
	if _, res, e := execute(t, s, "Cell[9]", "1 + 1"); e != nil || res["text/plain"] != "2" {
		t.Fatalf("the session after the errors: %v %v", res, e)
	}
}
