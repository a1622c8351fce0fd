package harness

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/records"
)

func readRecords(t *testing.T, path string) []records.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rr := records.NewReader(f)
	var recs []records.Record
	for rr.Scan() {
		recs = append(recs, rr.Record())
	}
	if rr.Skipped() != 0 {
		t.Errorf("%d lines were not records", rr.Skipped())
	}
	return recs
}

// Both drivers run the same protocol and write the same records.
func TestDriversWriteTheSameRecords(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		t.Run(lang, func(t *testing.T) {
			k := build(t, seedSpec(t, lang, nil))
			out := filepath.Join(t.TempDir(), "records.txt")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, k.Binary, "run", "-out", out, "-slots", "discarded,sink,checksum,sink",
				"-cold", "sink", "-clock", "-gaps-ms", "20", "-settle-ms", "5", "-warmup", "1", "-rounds", "3", "-calibrate-reads", "100")
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			count := map[string]int{}
			for _, r := range readRecords(t, out) {
				count[r.Kind]++
				switch r.Kind {
				case "cold":
					if f, _ := r.Int("minflt"); f <= 0 {
						t.Errorf("cold pass over a fresh array took %d page faults", f)
					}
				case "checksum":
					got, _ := r.Float("got")
					want, _ := r.Float("want")
					passes, _ := r.Int("passes")
					if want != 917504 || got != want*float64(passes) || passes != 3 {
						t.Errorf("checksum got=%v want=%v passes=%d", got, want, passes)
					}
				case "batch":
					k, _ := r.Int("k")
					if r.Fields["variant"] != "discarded" && k != 1 {
						t.Errorf("%s: a pass of a million adds was batched by %d", r.Fields["variant"], k)
					}
				case "gaps":
					window, _ := r.Int("window_ns")
					total, _ := r.Int("total_ns")
					longest, _ := r.Int("max_ns")
					count, _ := r.Int("count")
					if window < 20e6 || total > window || longest > total || (count == 0) != (total == 0) {
						t.Errorf("gaps record does not add up: %+v", r.Fields)
					}
				case "clock":
					if c, _ := r.Float("read_cost_ns"); c <= 0 {
						t.Errorf("clock read cost %v", c)
					}
				}
			}
			want := map[string]int{"start": 1, "cold": 1, "clock": 1, "gaps": 1, "batch": 4, "sample": 12, "checksum": 1, "done": 1}
			for kind, n := range want {
				if count[kind] != n {
					t.Errorf("%d %s records, want %d (all: %v)", count[kind], kind, n, count)
				}
			}
		})
	}
}

func TestParseRecord(t *testing.T) {
	cases := []struct {
		line string
		ok   bool
		kind string
		key  string
		val  string
	}{
		{"sample round=0 slot=1 k=1 ns=498000 minflt=0", true, "sample", "ns", "498000"},
		{"sample round=2 slot=1 pos=0 k=1 ns=498000 minflt=0", true, "sample", "pos", "0"},
		{"done stopped=1", true, "done", "stopped", "1"},
		{"error msg=unknown variant x y", true, "error", "msg", "unknown variant x y"},
		{"sample round=0 slot=1 k=1 ns=4980", true, "sample", "ns", "4980"},
		{"sample round=0 slot", false, "", "", ""}, // a line cut short by a killed process
		{"hello from the user's printf", false, "", "", ""},
	}
	for _, c := range cases {
		r, ok := records.Parse(c.line)
		if ok != c.ok || (ok && (r.Kind != c.kind || r.Fields[c.key] != c.val)) {
			t.Errorf("%q: got %+v %v", c.line, r, ok)
		}
	}
}
