package bench

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The Go driver's histogram buckets values and finds percentiles exactly
// as the C driver's (../../c/latency.c through
// ../../testdata/latency_hist.c), on values across every range.
func TestLatencyHistogramSameAsC(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	bin := filepath.Join(t.TempDir(), "hist")
	if out, err := exec.Command("cc", "-std=c11", "-O2", "-I", "../../c", "-o", bin, "../../testdata/latency_hist.c").CombinedOutput(); err != nil {
		t.Fatalf("cc: %v: %s", err, out)
	}
	var vals []uint64
	for v := uint64(1); v < 1<<46; v = v*5/4 + 1 {
		vals = append(vals, v-1, v, v+1)
	}
	var in bytes.Buffer
	h := make([]uint64, latBuckets)
	o := Op{hist: h}
	for _, v := range vals {
		fmt.Fprintln(&in, v)
		o.add(v)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(vals)+5 {
		t.Fatalf("%d lines for %d values", len(lines), len(vals))
	}
	for i, v := range vals {
		want := fmt.Sprintf("%d %d", latIndex(v), latLowest(latIndex(v)))
		if lines[i] != want {
			t.Fatalf("value %d: C %q, Go %q", v, lines[i], want)
		}
	}
	for _, line := range lines[len(vals):] {
		f := strings.Fields(line)
		q, _ := strconv.ParseFloat(f[1], 64)
		if got := strconv.FormatUint(latPercentile(h, q), 10); got != f[2] {
			t.Errorf("q %s: C %s, Go %s", f[1], f[2], got)
		}
	}
	if o.max != vals[len(vals)-1] {
		t.Errorf("max %d, want %d", o.max, vals[len(vals)-1])
	}
}
