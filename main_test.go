package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/cells"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
)

// TestMain lets this test binary be the glue child process of the
// sessions that benchbook run makes.
// With BENCHBOOK_TEST_AS_MAIN=1 it is benchbook itself, for tests that
// need the command in a process of its own.
func TestMain(m *testing.M) {
	cells.ServeGlueChildIfAsked()
	if os.Getenv("BENCHBOOK_TEST_AS_MAIN") == "1" {
		if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// benchbook run writes the executed notebook with every output so far when
// a glue cell dies of a fatal error, with --allow-errors or not; the exit
// status says a cell failed, and with --allow-errors the later cells ran
// with the session replayed.
func TestRunWritesTheNotebookWhenACellDies(t *testing.T) {
	for _, allow := range []bool{false, true} {
		dir := t.TempDir()
		in, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
		nb := ipynb.New(ipynb.NewCode("var base = 20\nfmt.Println(\"first ran\")"),
			ipynb.NewCode("m := map[int]int{}\nfor g := 0; g < 4; g++ {\n\tgo func() {\n\t\tfor i := 0; ; i++ {\n\t\t\tm[i%64] = i\n\t\t}\n\t}()\n}\ntime.Sleep(20 * time.Second)"),
			ipynb.NewCode("base + 1"))
		if err := ipynb.WriteFile(in, nb); err != nil {
			t.Fatal(err)
		}
		args := []string{"run", in, "-o", out}
		if allow {
			args = append(args, "--allow-errors")
		}
		var stdout, stderr bytes.Buffer
		err := run(args, &stdout, &stderr)
		var ce *ipynb.CellError
		if !allow && !errors.As(err, &ce) {
			t.Fatalf("without --allow-errors: %v, want a cell error\n%s", err, stderr.String())
		}
		if allow && err != nil {
			t.Fatalf("with --allow-errors: %v\n%s", err, stderr.String())
		}
		got, rerr := ipynb.ReadFile(out)
		if rerr != nil {
			t.Fatalf("allow-errors %v: the notebook was not written: %v", allow, rerr)
		}
		if o := got.Cells[0].Outputs; len(o) != 1 || !strings.Contains(o[0].Text, "first ran") {
			t.Errorf("allow-errors %v: the first cell's output is lost", allow)
		}
		if o := got.Cells[1].Outputs; len(o) != 1 || o[0].EName != "FatalError" || !strings.Contains(o[0].EValue, "concurrent map writes") {
			t.Errorf("allow-errors %v: the dead cell's output: %+v", allow, o)
		}
		if allow {
			if o := got.Cells[2].Outputs; len(o) != 1 || o[0].Data["text/plain"] != "21" {
				t.Errorf("the cell after the crash: %+v", o)
			}
		}
	}
}

// When the benchbook run process itself dies mid-run (killed here, during
// the second cell), the partial file beside the output already holds the
// first cell's outputs, and the output itself is untouched.
func TestRunKilledMidwayKeepsTheCellsThatRan(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	nb := ipynb.New(ipynb.NewCode("fmt.Println(\"first ran\")"), ipynb.NewCode("time.Sleep(time.Hour)"))
	if err := ipynb.WriteFile(in, nb); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "run", in, "-o", out)
	cmd.Env = append(os.Environ(), "BENCHBOOK_TEST_AS_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if got, err := ipynb.ReadFile(partialPath(out)); err == nil && len(got.Cells[0].Outputs) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := gluechildren(); n != 1 {
		t.Errorf("%d glue children while the run runs, want 1", n)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output of a run that was killed exists: %v", err)
	}
	got, err := ipynb.ReadFile(partialPath(out))
	if err != nil {
		t.Fatalf("no notebook so far after the run was killed: %v", err)
	}
	if o := got.Cells[0].Outputs; len(o) != 1 || !strings.Contains(o[0].Text, "first ran") {
		t.Errorf("the first cell's outputs: %+v", o)
	}
	if got.Cells[1].ExecutionCount != nil {
		t.Errorf("the cell that was running has a count")
	}
	for start := time.Now(); gluechildren() > 0; time.Sleep(50 * time.Millisecond) {
		if time.Since(start) > 5*time.Second {
			t.Fatal("the glue child outlived the run")
		}
	}
}

// gluechildren counts the processes running this test binary as a glue
// child.
func gluechildren() int {
	n := 0
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && string(b) == os.Args[0]+"\x00glue-child\x00" {
			n++
		}
	}
	return n
}

// A cell that reads the file the run writes (a rerun compared with the copy
// it replaces) reads the previous copy to the end of the run, and the
// partial file is gone once the run has written the output.
func TestRunLeavesTheOutputUntilTheEnd(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	if err := os.WriteFile(out, []byte("the previous copy"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := "import \"os\"\nb, _ := os.ReadFile(" + strconv.Quote(out) + ")\nfmt.Println(string(b))"
	nb := ipynb.New(ipynb.NewCode("fmt.Println(\"first ran\")"), ipynb.NewCode(read))
	if err := ipynb.WriteFile(in, nb); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"run", in, "-o", out}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	got, err := ipynb.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if o := got.Cells[1].Outputs; len(o) != 1 || strings.TrimSpace(o[0].Text) != "the previous copy" {
		t.Errorf("the second cell read %+v, want the previous copy", o)
	}
	if _, err := os.Stat(partialPath(out)); !os.IsNotExist(err) {
		t.Errorf("the partial file is left after a run that ended: %v", err)
	}
}

func TestRecoverCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"recover"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "RESULTS_FOLDER") {
		t.Errorf("no folder: %v", err)
	}
	if err := run([]string{"recover", t.TempDir()}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "run.json") {
		t.Errorf("an empty folder: %v", err)
	}
	r := &protocol.Result{Kernel: protocol.Kernel{Name: "seed"}, RawFile: "/r/seed-1",
		Variants: []protocol.Variant{{Name: "sink", Series: protocol.Series{Interleaved: protocol.NewSamples([]float64{1, 2, 3})}}, {Name: "none"}}}
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
