package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/stdlib/bench"
)

func TestRecoverCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"recover"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "RESULTS_FOLDER") {
		t.Errorf("no folder: %v", err)
	}
	if err := run([]string{"recover", t.TempDir()}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "run.json") {
		t.Errorf("an empty folder: %v", err)
	}
	r := &bench.Result{Kernel: bench.Kernel{Name: "seed"}, RawFile: "/r/seed-1",
		Variants: []bench.Variant{{Name: "sink", Series: bench.Series{Interleaved: bench.NewSamples([]float64{1, 2, 3})}}, {Name: "none"}}}
	want := "recovered seed (partial): sink: interleaved n=3; none: no samples; written to /r/seed-1/result.json"
	if got := recoverSummary(r); got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
}

// Two runs that would write the same executed notebook: the second is
// refused while the first holds the output.
func TestRunOutputIsLocked(t *testing.T) {
	out := t.TempDir() + "/nb.executed.ipynb"
	unlock, err := lockOutput(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockOutput(out); err == nil || !strings.Contains(err.Error(), "another benchbook run is writing") {
		t.Errorf("second lock: %v", err)
	}
	unlock()
	again, err := lockOutput(out)
	if err != nil {
		t.Errorf("after the first run: %v", err)
	} else {
		again()
	}
}
