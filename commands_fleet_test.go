package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/fleet"

	"github.com/benchbook/benchbook/internal/measuretest"
)

func TestParseFleetArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want fleet.Options
		fail string
	}{
		{[]string{"nb.ipynb", "-o", "out"}, fleet.Options{Notebook: "nb.ipynb", Out: "out"}, ""},
		{[]string{"nb.ipynb", "-o", "out", "--nodes", "4", "--partition", "debug", "--time=10", "--run-arg", "--allow-errors"},
			fleet.Options{Notebook: "nb.ipynb", Out: "out", Nodes: 4, Sbatch: []string{"--partition", "debug", "--time=10"}, Run: []string{"--allow-errors"}}, ""},
		{[]string{"-o=out", "nb.ipynb", "--constraint", "epyc", "-C", "xeon", "--shared", "--", "--qos", "high"},
			fleet.Options{Notebook: "nb.ipynb", Out: "out", Constraints: []string{"epyc", "xeon"}, Shared: true, Sbatch: []string{"--qos", "high"}}, ""},
		{[]string{"nb.ipynb"}, fleet.Options{}, "benchbook fleet NOTEBOOK.ipynb -o DIR"},
		{[]string{"nb.ipynb", "-o", "out", "--nodes", "0"}, fleet.Options{}, "--nodes 0"},
		{[]string{"a.ipynb", "b.ipynb", "-o", "out"}, fleet.Options{}, "a second notebook"},
	} {
		got, err := parseFleetArgs(tc.args)
		if tc.fail != "" {
			if err == nil || !strings.Contains(err.Error(), tc.fail) {
				t.Errorf("%q: %v, want an error saying %q", tc.args, err, tc.fail)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v (%v), want %+v", tc.args, got, err, tc.want)
		}
	}
}

func TestFleetWithoutSlurm(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var stdout, stderr bytes.Buffer
	err := run([]string{"fleet", "tests/notebooks/smoke.ipynb", "-o", t.TempDir()}, &stdout, &stderr)
	var code exitCode
	if !errors.As(err, &code) || code != 1 || !strings.Contains(stderr.String(), "Slurm is not here: no sbatch on PATH") ||
		!strings.Contains(stderr.String(), " run ") || !strings.Contains(stderr.String(), "compare --nway") {
		t.Errorf("%v\n%s", err, stderr.String())
	}
}

// fakeSlurmPath puts fleet's stand-ins for sbatch, squeue, sacct and
// scancel first on PATH (make test-fleet runs the real Slurm).
func fakeSlurmPath(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs("fleet/testdata/fakeslurm")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKESLURM", t.TempDir())
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return bin
}

// The whole command on stand-ins for Slurm whose tasks run this test
// binary as benchbook: two notebooks, verified and compared N ways.
func TestFleetCommand(t *testing.T) {
	measuretest.Gate(t)
	fakeSlurmPath(t)
	t.Setenv("BENCHBOOK_TEST_AS_MAIN", "1")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run([]string{"fleet", "tests/notebooks/smoke.ipynb", "-o", out, "--nodes", "2"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	text := strings.Join(strings.Fields(stdout.String()), " ")
	for _, w := range []string{": COMPLETED, wrote " + out, "seed on 2 machines", "same hardware as", "Every input verified first"} {
		if !strings.Contains(text, w) {
			t.Errorf("lacks %q:\n%s", w, stdout.String())
		}
	}
	for _, f := range []string{"compare.json", "compare.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// A task that fails is reported with the end of its log, and the command
// fails.
func TestFleetReportsFailedTasks(t *testing.T) {
	bin := fakeSlurmPath(t)
	t.Setenv("FAKE_FAIL", "1")
	var stdout, stderr bytes.Buffer
	err := run([]string{"fleet", "tests/notebooks/smoke.ipynb", "-o", t.TempDir(), "--nodes", "2", "--benchbook", filepath.Join(bin, "benchbook")}, &stdout, &stderr)
	if err == nil {
		t.Fatalf("a failed task, and no error:\n%s", stdout.String())
	}
	text := stdout.String()
	if !strings.Contains(text, "_1 on fakenode FAILED: benchbook run exited 3, state FAILED; its log") ||
		!strings.Contains(text, "    benchbook: cell 2 failed: checksum mismatch: got 1, want 2") ||
		!strings.Contains(text, "1 executed notebooks came back, too few to compare") {
		t.Errorf("the report:\n%s", text)
	}
}
