package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchbook/benchbook/ipynb"
)

// Issue 23 item 10: benchbook run stopped with SIGTERM writes the notebook
// so far (the cell that ran, the one it stopped marked as such), kills
// what it started (the glue child and a job a shell line left running in
// the background), exits with a failure and leaves no lock file.
func TestRunOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	nb := ipynb.New(ipynb.NewCode("!sleep 301 & echo bg=$!"), ipynb.NewCode("time.Sleep(time.Hour)"))
	if err := ipynb.WriteFile(in, nb); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "run", in, "-o", out)
	cmd.Env = append(os.Environ(), "BENCHBOOK_TEST_AS_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	bg := 0
	for deadline := time.Now().Add(60 * time.Second); bg == 0; time.Sleep(50 * time.Millisecond) {
		if got, err := ipynb.ReadFile(partialPath(out)); err == nil && len(got.Cells[0].Outputs) > 0 {
			_, after, _ := strings.Cut(got.Cells[0].Outputs[0].Text, "bg=")
			bg, _ = strconv.Atoi(strings.TrimSpace(after))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first cell did not run:\n%s", stderr.String())
		}
	}
	if !alive(bg) {
		t.Fatalf("the background job %d does not run", bg)
	}
	time.Sleep(300 * time.Millisecond) // the second cell runs
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err == nil {
			t.Error("a run stopped by SIGTERM exits 0")
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("benchbook run ignores SIGTERM:\n%s", stderr.String())
	}
	got, err := ipynb.ReadFile(out)
	if err != nil {
		t.Fatalf("no notebook after SIGTERM: %v\n%s", err, stderr.String())
	}
	if o := got.Cells[0].Outputs; len(o) == 0 || !strings.Contains(o[0].Text, "bg=") {
		t.Errorf("the first cell's outputs: %+v", o)
	}
	for start := time.Now(); alive(bg) || gluechildren() > 0; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 3*time.Second {
			t.Fatalf("left behind: background job alive %v, %d glue children", alive(bg), gluechildren())
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, ".out.ipynb.lock")); err == nil {
		t.Error("the lock file is left behind")
	}
}

// alive says whether pid runs (not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && i+2 < len(b) && b[i+2] != 'Z' && b[i+2] != 'X'
}

// Issue 23 item 11: a lock file planted as a symbolic link beside the
// output is refused with an error naming it, before anything runs.
func TestRunRefusesAPlantedLock(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	if err := ipynb.WriteFile(in, ipynb.New(ipynb.NewCode("1"))); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.Symlink(victim, filepath.Join(dir, ".out.ipynb.lock")); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"run", in, "-o", out}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), ".out.ipynb.lock is a symbolic link") {
		t.Errorf("a planted lock link: %v", err)
	}
	if _, err := os.Lstat(victim); err == nil {
		t.Error("the link was followed: its target was created")
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the notebook ran")
	}
}
