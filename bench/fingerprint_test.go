package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/protocol"
)

// The fingerprint's cost to a %bench (issue 22: at most 0.3 s): a quick
// %bench of seed 000's kernel with the fingerprint and with
// fingerprint=off, taking turns, side by side in one run. Reports the
// median time each adds and their difference.
func BenchmarkFingerprintAdded(b *testing.B) {
	k, err := harness.Build(context.Background(), harness.Spec{Name: "seed", Lang: "c", Code: seedC(b), Line: 2, Label: "Cell[1]",
		CacheDir: filepath.Join(b.TempDir(), "c")})
	if err != nil {
		b.Fatal(err)
	}
	runOnce := func(extra ...string) time.Duration {
		opt, err := protocol.ParseOptions(append([]string{"quick", "variants=sink"}, extra...))
		if err != nil {
			b.Fatal(err)
		}
		opt.ResultsDir = b.TempDir()
		t0 := time.Now()
		if _, err := protocol.Run(context.Background(), k, opt); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var on, off, alone []float64
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			on = append(on, runOnce().Seconds())
			off = append(off, runOnce("fingerprint=off").Seconds())
		} else {
			off = append(off, runOnce("fingerprint=off").Seconds())
			on = append(on, runOnce().Seconds())
		}
		f := machine.MeasureFingerprint(machine.FingerprintOptions{CPU: -1})
		alone = append(alone, f.MS/1000)
	}
	b.ReportMetric(machine.Median(on), "s/bench-with")
	b.ReportMetric(machine.Median(off), "s/bench-off")
	b.ReportMetric(machine.Median(on)-machine.Median(off), "s-added")
	b.ReportMetric(machine.Median(alone), "s-fingerprint-alone")
	slices.Sort(alone)
	b.ReportMetric(alone[len(alone)-1], "s-fingerprint-worst")
}

// TestFingerprintRepeatability reads the fingerprints bench/fingerprint.sh
// measured (BENCHBOOK_FINGERPRINTS: a folder of JSON files, one
// `benchbook fingerprint --json` each, in the order taken) and prints, per
// entry, the range of its values and the largest distance between two
// runs in units of the noise the two state (1 or less: the same within
// the stated noise), then how many of the pairs of runs DiffFingerprints
// calls the same hardware. It fails if any pair is called different: the
// target is that consecutive runs on one VM read the same.
func TestFingerprintRepeatability(t *testing.T) {
	dir := os.Getenv("BENCHBOOK_FINGERPRINTS")
	if dir == "" {
		t.Skip("run bench/fingerprint.sh")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	slices.Sort(files)
	var fs []*machine.Fingerprint
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fp machine.Fingerprint
		if err := json.Unmarshal(b, &fp); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fs = append(fs, &fp)
	}
	if len(fs) < 2 {
		t.Fatalf("%d fingerprints in %s", len(fs), dir)
	}
	var ms []float64
	for _, f := range fs {
		ms = append(ms, f.MS)
	}
	fmt.Printf("%d fingerprints; each took %.0f-%.0f ms (median %.0f)\n", len(fs), slices.Min(ms), slices.Max(ms), machine.Median(ms))
	fmt.Printf("%-11s %10s %10s %10s %9s  %s\n", "entry", "min", "median", "max", "noise", "worst pair / (noise + noise)")
	for _, e := range fs[0].Entries {
		var vals, noises []float64
		worst := 0.0
		for i, a := range fs {
			ea := a.Entry(e.Name)
			vals, noises = append(vals, ea.Value), append(noises, ea.Noise)
			for _, b := range fs[i+1:] {
				eb := b.Entry(e.Name)
				worst = math.Max(worst, math.Abs(ea.Value-eb.Value)/(ea.Noise+eb.Noise))
			}
		}
		role := ""
		switch {
		case e.Shared():
			role = "  (shared caches and memory: said, not counted)"
		case !e.Identity():
			role = "  (the clock: not compared)"
		}
		fmt.Printf("%-11s %10.4g %10.4g %10.4g %9.3g  %.2f%s\n", e.Name, slices.Min(vals), machine.Median(vals), slices.Max(vals), machine.Median(noises), worst, role)
	}
	same, pairs := 0, 0
	var different []string
	for i, a := range fs {
		for j := i + 1; j < len(fs); j++ {
			pairs++
			d := machine.DiffFingerprints(a, fs[j])
			if d.Verdict == machine.HardwareSame {
				same++
				continue
			}
			var names []string
			for _, e := range d.Differing() {
				names = append(names, e.Name)
			}
			different = append(different, fmt.Sprintf("runs %d and %d: %s", i+1, j+1, strings.Join(names, ", ")))
		}
	}
	fmt.Printf("same hardware in %d of %d pairs of runs\n", same, pairs)
	for _, d := range different {
		fmt.Println("  different: " + d)
	}
	if same != pairs {
		t.Errorf("%d of %d pairs of consecutive runs on one machine read as different hardware", pairs-same, pairs)
	}
}
