package protocol

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// Runs started at the same moment get folders of their own, private to
// the user.
func TestRawDirsDoNotCollide(t *testing.T) {
	base := t.TempDir()
	const n = 20
	dirs := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			d, err := rawDir(base, "k")
			if err != nil {
				t.Error(err)
			}
			dirs[i] = d
		}()
	}
	close(start)
	wg.Wait()
	slices.Sort(dirs)
	if len(slices.Compact(slices.Clone(dirs))) != n {
		t.Fatalf("folders shared: %v", dirs)
	}
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v", d, fi.Mode(), err)
		}
	}
}

// Two whole runs started at once each get their samples, in two folders;
// the folder is named before anything runs, and what holds samples is 0600.
func TestTwoRunsAtOnce(t *testing.T) {
	measuretest.Gate(t)
	k := buildC(t, "twice", "static unsigned x = 1;\nBENCH(step) { for (int i = 0; i < 1000; i++) x = x * 1103515245u + 12345u; bench_sink(x); }\n")
	base := t.TempDir()
	var wg sync.WaitGroup
	results := make([]*Result, 2)
	first := make([]string, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opt, _ := ParseOptions([]string{"quick"})
			opt.ResultsDir = base
			opt.Progress = func(p Progress) {
				if first[i] == "" {
					first[i] = p.Phase
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), measuretest.Scale(2*time.Minute))
			defer cancel()
			r, err := Run(ctx, k, opt)
			if err != nil {
				t.Error(err)
			}
			results[i] = r
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if results[0].RawFile == results[1].RawFile {
		t.Fatalf("both runs wrote to %s", results[0].RawFile)
	}
	for i, r := range results {
		if n := len(r.Series("step", "interleaved")); n != r.Protocol.Reps {
			t.Errorf("run %d: n=%d for reps=%d", i, n, r.Protocol.Reps)
		}
		if !strings.Contains(first[i], r.RawFile) {
			t.Errorf("run %d: its first progress %q does not name its folder %s", i, first[i], r.RawFile)
		}
		fi, _ := os.Stat(r.RawFile)
		if fi.Mode().Perm() != 0o700 {
			t.Errorf("folder mode %v", fi.Mode())
		}
		files, _ := os.ReadDir(r.RawFile)
		for _, f := range files {
			info, _ := f.Info()
			if info.Mode().Perm() != 0o600 {
				t.Errorf("%s: mode %v", f.Name(), info.Mode())
			}
		}
	}
}

// Recover rebuilds a killed run's result from its folder: the samples of
// the record files, the result partial.
func TestRecover(t *testing.T) {
	k := seedKernel(t, "c")
	full := quickRun(t, k, "fresh=sink")
	dir := full.RawFile
	if _, err := Recover(dir); err == nil || !strings.Contains(err.Error(), "has its result.json") {
		t.Errorf("a finished run: %v", err)
	}
	// As if the kernel had been killed during its fresh processes: no
	// result, and the last three fresh processes never ran.
	os.Remove(filepath.Join(dir, ResultFile))
	fresh, _ := filepath.Glob(filepath.Join(dir, "p*-fresh-l0-sink-*.txt"))
	slices.Sort(fresh)
	for _, f := range fresh[len(fresh)-3:] {
		os.Remove(f)
	}
	r, err := Recover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || r.RawFile != dir {
		t.Errorf("partial=%v raw=%s", r.Partial, r.RawFile)
	}
	for _, v := range full.Variants {
		for _, s := range []string{"interleaved", "in_process"} {
			if !slices.Equal(full.Series(v.Name, s), r.Series(v.Name, s)) {
				t.Errorf("%s %s: recovered %v, measured %v", v.Name, s, r.Series(v.Name, s), full.Series(v.Name, s))
			}
		}
		if v.Batch != r.Variant(v.Name).Batch {
			t.Errorf("%s: batch %d, measured %d", v.Name, r.Variant(v.Name).Batch, v.Batch)
		}
	}
	want := full.Series("sink", "fresh")
	if got := r.Series("sink", "fresh"); !slices.Equal(got, want[:len(want)-3]) {
		t.Errorf("fresh: recovered %v, want %v", got, want[:len(want)-3])
	}
	if !slices.Equal(full.AA.SamplesNS, r.AA.SamplesNS) {
		t.Errorf("A/A copy not recovered")
	}
	checkResult(t, r)
	if fi, err := os.Stat(filepath.Join(dir, ResultFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("result.json: %v %v", fi, err)
	}
}
