package glue

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Requirement 7: "!" lines run in /bin/sh, in order with the Go lines.

func TestShellLinesRunInOrderWithGo(t *testing.T) {
	s := newSession(t, Options{})
	_, pub := mustRun(t, s, "Cell [1]", "fmt.Println(\"a\")\n!echo b\nfmt.Println(\"c\")\n  !echo d >&2")
	if got := pub.text("stdout"); got != "a\nb\nc\n" {
		t.Errorf("stdout = %q, want a b c in order", got)
	}
	if got := pub.text("stderr"); got != "d\n" {
		t.Errorf("stderr = %q, want d", got)
	}
}

func TestShellExitStatusIsReportedNotFailed(t *testing.T) {
	s := newSession(t, Options{})
	res, pub := mustRun(t, s, "Cell [1]", "!exit 3\n1 + 1")
	if plain(res) != "2" {
		t.Errorf("the cell went on after the failed command: result %v", res)
	}
	if got := pub.text("stderr"); !strings.Contains(got, "exit status 3") {
		t.Errorf("stderr = %q, want the exit status", got)
	}
}

func TestShellDirAndEnv(t *testing.T) {
	dir := t.TempDir()
	s := newSession(t, Options{Dir: dir, Env: []string{"GLUE_TEST_VAR=from-options", "PATH=" + os.Getenv("PATH")}})
	res, pub := mustRun(t, s, "Cell [1]", "!pwd; echo $GLUE_TEST_VAR\nos.Getenv(\"GLUE_TEST_VAR\")")
	real, _ := filepath.EvalSymlinks(dir)
	if out := pub.text("stdout"); !strings.Contains(out, real) || !strings.Contains(out, "from-options") {
		t.Errorf("shell output %q lacks the directory %s or the variable", out, real)
	}
	if plain(res) != `"from-options"` {
		t.Errorf("os.Getenv in a cell = %v, want the Options.Env value", res)
	}
}

func TestBangInsideAGoExpressionIsGo(t *testing.T) {
	s := newSession(t, Options{})
	res, _ := mustRun(t, s, "Cell [1]", "ok := false\nx := 1 > 0 &&\n\t!ok\nx")
	if plain(res) != "true" {
		t.Errorf("result %v, want true: the !ok line belongs to the expression", res)
	}
}

func TestCancelKillsTheShellProcessGroup(t *testing.T) {
	s := newSession(t, Options{})
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for i := 0; i < 100; i++ {
			if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	_, e, pub := runCtx(t, ctx, s, "Cell [1]", "!sleep 30 & echo $! > "+pidFile+"; wait; echo never")
	if e == nil || e.Name != ErrInterrupted {
		t.Fatalf("got %v, want an interrupt", e)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Eval took %v", d)
	}
	if strings.Contains(pub.text("stdout"), "never") {
		t.Error("the shell went on after the cancel")
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(2 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the background sleep %d survived the cancel", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	mustRun(t, s, "Cell [2]", "1")
}

// alive reports whether a process exists and is not a zombie (a killed
// process stays a zombie until it is reaped, which in a container may take
// a while).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}
