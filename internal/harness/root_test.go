package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/procs"
	"github.com/benchbook/benchbook/internal/procs/procstest"
)

// helperRoot is a benchbook stand-in run by the tests below as a process
// of its own ($BB_ROOT_HELPER names what it does, in $BB_ROOT_DIR).
func TestHelperRoot(t *testing.T) {
	mode, dir := os.Getenv("BB_ROOT_HELPER"), os.Getenv("BB_ROOT_DIR")
	if mode == "" {
		t.Skip("run by the root tests")
	}
	mark := func(name, text string) { _ = os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600) }
	if mode == "parent" {
		ctx, stop := procs.ParentWatch(context.Background(), 20*time.Millisecond)
		defer stop()
		mark("watching", "")
		<-ctx.Done()
		mark("cause", context.Cause(ctx).Error())
		return
	}
	root, err := procs.BecomeRoot()
	if err != nil {
		t.Fatal(err)
	}
	mark("root", root.ID())
	// A shell line that leaves jobs running, one in a session of its own.
	sh := exec.Command("sh", "-c", "sleep 300 & echo $! > "+filepath.Join(dir, "bg")+"; setsid sleep 300 & echo $! >> "+filepath.Join(dir, "bg"))
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := procs.StartCmd(sh); err != nil {
		t.Fatal(err)
	}
	_ = sh.Wait()
	unlock, err := procs.LockFile(filepath.Join(dir, ".out.lock"))
	if err != nil {
		t.Fatal(err)
	}
	switch mode {
	case "stop":
		unlock()
		root.Stop()
		mark("stopped", "")
		time.Sleep(time.Minute)
	case "build":
		mark("building", "")
		_, err := Build(context.Background(), Spec{Name: "big", Lang: "c", Code: bigC(), Line: 2, Label: "Cell[1]", CacheDir: filepath.Join(dir, "cache")})
		mark("built", fmt.Sprint(err))
		time.Sleep(time.Minute)
	}
}

// bigC is a cell that cc1 takes seconds to compile.
func bigC() string {
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "double f%d(double *a, int n) { double s = 0; for (int i = 0; i < n; i++) s += a[i] * %d.5 + s / (i + 1); return s; }\n", i, i)
	}
	b.WriteString("BENCH(a) {}\n")
	return b.String()
}

// startHelper runs TestHelperRoot in mode with a folder of its own.
func startHelper(t *testing.T, mode string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRoot$", "-test.timeout=2m")
	cmd.Env = append(append(os.Environ(), "BB_ROOT_HELPER="+mode, "BB_ROOT_DIR="+dir), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, dir
}

// waitFile waits for the helper to write name in dir.
func waitFile(t *testing.T, dir, name string, limit time.Duration) string {
	t.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the helper did not write %s in %s", name, limit)
		}
	}
}

// Issue 23 item 10: a benchbook killed with SIGKILL in the middle of a
// real build leaves nothing: not the cc1 that compiles (which outlived it
// for 10-18 s), not the build folder, not the jobs a shell line left in
// the background (one in a session of its own), not its lock file; its
// guard does that and exits.
func TestSIGKILLMidBuildLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles")
	}
	tmp := t.TempDir()
	helper, dir := startHelper(t, "build", "TMPDIR="+tmp)
	id := waitFile(t, dir, "root", 10*time.Second)
	waitFile(t, dir, "building", 10*time.Second)
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(strings.Join(procstest.Mentioning(tmp), "\n"), "cc1"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("cc1 never ran")
		}
	}
	if len(procstest.GuardsOf(id)()) != 1 {
		t.Fatal("no guard runs")
	}
	bg := procstest.PidsIn(t, filepath.Join(dir, "bg"))
	if len(bg) != 2 || !procstest.Alive(bg[0]) || !procstest.Alive(bg[1]) {
		t.Fatalf("the background jobs %v do not run", bg)
	}
	if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	if _, err := os.Stat(filepath.Join(dir, "built")); err == nil {
		t.Fatal("the build finished before the kill: the test shows nothing")
	}
	procstest.WaitGoneWithin(t, 3*time.Second, func() []string { return procstest.Mentioning(tmp) })
	procstest.WaitGoneWithin(t, 3*time.Second, procstest.Carrying(id))
	procstest.WaitGoneWithin(t, 3*time.Second, procstest.LivePids(bg))
	procstest.WaitGoneWithin(t, 3*time.Second, procstest.GuardsOf(id))
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		if strings.HasPrefix(e.Name(), "benchbook-build-") {
			t.Errorf("the build folder %s is left behind", e.Name())
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, ".out.lock")); err == nil {
		t.Error("the lock file is left behind")
	}
}

// On shutdown (procs.Root.Stop) the jobs a shell line left running are killed,
// the guard exits and the lock file is gone.
func TestRootStopKillsLeftovers(t *testing.T) {
	_, dir := startHelper(t, "stop")
	id := waitFile(t, dir, "root", 10*time.Second)
	waitFile(t, dir, "stopped", 10*time.Second)
	bg := procstest.PidsIn(t, filepath.Join(dir, "bg"))
	if len(bg) != 2 {
		t.Fatalf("background jobs %v", bg)
	}
	procstest.WaitGoneWithin(t, time.Second, procstest.LivePids(bg))
	procstest.WaitGoneWithin(t, 2*time.Second, procstest.GuardsOf(id))
	if _, err := os.Lstat(filepath.Join(dir, ".out.lock")); err == nil {
		t.Error("the lock file is left behind")
	}
}

// A process that jupyter_client started (JPY_PARENT_PID) sees its parent
// go: ParentWatch's context ends when the parent is killed.
func TestParentWatch(t *testing.T) {
	dir := t.TempDir()
	parent := exec.Command("sh", "-c", `"$0" -test.run='^TestHelperRoot$' & wait`, os.Args[0])
	parent.Env = append(os.Environ(), "BB_ROOT_HELPER=parent", "BB_ROOT_DIR="+dir, "JPY_PARENT_PID=1234")
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	waitFile(t, dir, "watching", 10*time.Second)
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	if cause := waitFile(t, dir, "cause", 2*time.Second); !strings.Contains(cause, "parent process") {
		t.Errorf("cause %q", cause)
	}
}
