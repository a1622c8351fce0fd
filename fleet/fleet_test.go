package fleet

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeSlurm puts testdata/fakeslurm first on PATH: sbatch, squeue, sacct
// and scancel stand-ins that run the array's tasks here (make test-fleet
// runs the real Slurm). It returns the folder of their state and options
// whose tasks run the fake benchbook.
func fakeSlurm(t *testing.T) (string, Options) {
	t.Helper()
	bin, err := filepath.Abs("testdata/fakeslurm")
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	t.Setenv("FAKESLURM", state)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir := t.TempDir()
	nb := filepath.Join(dir, "inv.ipynb")
	if err := os.WriteFile(nb, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	return state, Options{Notebook: nb, Out: filepath.Join(dir, "out"), Benchbook: filepath.Join(bin, "benchbook"), Poll: 50 * time.Millisecond}
}

func TestRunOnFakeSlurm(t *testing.T) {
	state, opt := fakeSlurm(t)
	t.Setenv("FAKE_FAIL", "1")
	var progress bytes.Buffer
	opt.Nodes, opt.Progress = 3, &progress
	opt.Sbatch = []string{"--partition=debug", "--time=5"}
	if err := os.MkdirAll(filepath.Join(opt.Out, ".fleet", "claims", "stale"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tasks, err := Run(ctx, opt)
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	if len(tasks) != 3 {
		t.Fatalf("%d tasks", len(tasks))
	}
	host, _ := os.Hostname()
	host = strings.SplitN(host, ".", 2)[0]
	// Three tasks on one host: the first takes the host's name, the others
	// their own; the second failed and says why in its log.
	want := []struct {
		ok       bool
		notebook string
		exit     int
		state    string
	}{{true, host + ".ipynb", 0, "COMPLETED"}, {false, "", 3, "FAILED"}, {true, host + "-" + tasks[0].JobID + "_2.ipynb", 0, "COMPLETED"}}
	for i, w := range want {
		tk := tasks[i]
		if tk.OK() != w.ok || tk.ExitCode != w.exit || tk.State != w.state || (w.notebook != "" && filepath.Base(tk.Notebook) != w.notebook) {
			t.Errorf("task %d: %+v, want %+v", i, tk, w)
		}
		if tk.Node != "fakenode" {
			t.Errorf("task %d ran on %q, want the node squeue named", i, tk.Node)
		}
	}
	if tail := LogTail(tasks[1], 5); !strings.Contains(tail, "checksum mismatch: got 1, want 2") {
		t.Errorf("the failed task's log: %q", tail)
	}
	for _, w := range []string{"task " + tasks[0].JobID + "_0: RUNNING on fakenode", "_2: COMPLETED", "fleet: sbatch --parsable"} {
		if !strings.Contains(progress.String(), w) {
			t.Errorf("progress lacks %q:\n%s", w, progress.String())
		}
	}
	args, _ := os.ReadFile(filepath.Join(state, "sbatch.args"))
	if a := string(args); !strings.Contains(a, "--array=0-2 --nodes=1 --ntasks=1") || !strings.Contains(a, "--exclusive --partition=debug --time=5 ") ||
		!strings.Contains(a, "task.sh "+opt.Benchbook) {
		t.Errorf("sbatch was given: %s", a)
	}
}

// One array per constraint, each with it; --shared leaves --exclusive out.
func TestConstraintsAndShared(t *testing.T) {
	state, opt := fakeSlurm(t)
	opt.Constraints, opt.Shared = []string{"epyc", "xeon"}, true
	tasks, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 2 || tasks[0].Constraint != "epyc" || tasks[1].Constraint != "xeon" || tasks[0].JobID == tasks[1].JobID {
		t.Errorf("tasks %+v: want one per constraint, in two arrays", tasks)
	}
	args, _ := os.ReadFile(filepath.Join(state, "sbatch.args"))
	lines := strings.Split(strings.TrimSpace(string(args)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "--array=0-0") || !strings.Contains(lines[0], "--constraint=epyc") ||
		!strings.Contains(lines[1], "--constraint=xeon") || strings.Contains(string(args), "--exclusive") {
		t.Errorf("sbatch calls:\n%s", args)
	}
}

// Interrupted while tasks wait: the jobs are cancelled.
func TestInterruptCancels(t *testing.T) {
	state, opt := fakeSlurm(t)
	t.Setenv("FAKE_SLEEP", "2")
	opt.Nodes = 2
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err := Run(ctx, opt)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run: %v, want the context's error", err)
	}
	if b, err := os.ReadFile(filepath.Join(state, "scancel.args")); err != nil || strings.TrimSpace(string(b)) == "" {
		t.Errorf("scancel was not called: %v", err)
	}
	// The stand-in's runner ends its task and skips the cancelled one:
	// wait for it, so that nothing of this test outlives it.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(filepath.Join(state, "100_1.state")); strings.TrimSpace(string(b)) == "CANCELLED" {
			return
		}
	}
	t.Error("the cancelled task was not skipped")
}

func TestWithoutSlurm(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, opt := fakeSlurm(t)
	t.Setenv("PATH", t.TempDir())
	if _, err := Run(context.Background(), opt); !errors.Is(err, ErrNoSlurm) {
		t.Errorf("Run without sbatch: %v", err)
	}
	plain := PlainCommands(Options{Notebook: "my notebook.ipynb", Out: "/tmp/o", Benchbook: "/usr/bin/benchbook"})
	for _, w := range []string{"/usr/bin/benchbook run '", "my notebook.ipynb' -o /tmp/o/$(hostname -s).ipynb", "/usr/bin/benchbook compare --nway /tmp/o/*.ipynb"} {
		if !strings.Contains(plain, w) {
			t.Errorf("plain commands lack %q:\n%s", w, plain)
		}
	}
}

func TestPrepareChecks(t *testing.T) {
	for _, o := range []Options{{}, {Notebook: "nonexistent.ipynb", Out: "o"}} {
		if _, err := prepare(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	_, opt := fakeSlurm(t)
	opt.Nodes = -1
	if _, err := prepare(opt); err == nil {
		t.Error("--nodes -1 accepted")
	}
	opt.Nodes = 0
	if o, _ := prepare(opt); o.Nodes != 2 || !filepath.IsAbs(o.Out) {
		t.Errorf("defaults: %+v", o)
	}
}
