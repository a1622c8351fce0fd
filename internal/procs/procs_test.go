package procs_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/procs"
	"github.com/benchbook/benchbook/internal/procs/procstest"
)

// A descendant that holds the output pipe, in another session, does not
// hold up the wait, and is killed when the process exits.
func TestProcWaitDoesNotWaitForDescendants(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command("sh", "-c", `setsid sleep 300 & echo $! > `+pidfile+`; echo hello`)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := procs.RunProc(context.Background(), cmd); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > procs.DrainDelay+500*time.Millisecond {
		t.Errorf("the wait took %v", took)
	}
	if !strings.Contains(out.String(), "hello") {
		t.Errorf("output %q", out.String())
	}
	pids := procstest.PidsIn(t, pidfile)
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	procstest.WaitGone(t, procstest.LivePids(pids))
}

// helperOwner is a benchbook stand-in, run by TestKilledOwner as a process
// of its own: it starts a kernel-like process whose child leaves its
// session, writes both pids to $BB_HELPER_PIDS and waits to be killed.
func TestHelperOwner(t *testing.T) {
	pidfile := os.Getenv("BB_HELPER_PIDS")
	if pidfile == "" {
		t.Skip("run by TestKilledOwner")
	}
	cmd := exec.Command("sh", "-c", "setsid sleep 300 & echo $! >> "+pidfile+"; exec sleep 300")
	p, err := procs.StartProc(cmd)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(pidfile+".direct", []byte(fmt.Sprint(p.Pid())), 0o600)
	time.Sleep(time.Minute)
}

// When benchbook is killed with SIGKILL, the process it started dies with
// it (Pdeathsig), and what that process left behind is killed by the next
// benchbook's procs.KillOrphans.
func TestKilledOwner(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	os.WriteFile(pidfile, nil, 0o600)
	helper := exec.Command(os.Args[0], "-test.run=^TestHelperOwner$")
	helper.Env = append(os.Environ(), "BB_HELPER_PIDS="+pidfile)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(procstest.PidsIn(t, pidfile)) < 1 || len(procstest.PidsIn(t, pidfile+".direct")) < 1; {
		if time.Now().After(deadline) {
			helper.Process.Kill()
			t.Fatal("the helper did not start its process")
		}
		time.Sleep(20 * time.Millisecond)
	}
	pids := append(procstest.PidsIn(t, pidfile), procstest.PidsIn(t, pidfile+".direct")...) // the setsid child, then the direct child
	helper.Process.Signal(syscall.SIGKILL)
	helper.Wait()
	procstest.WaitGone(t, procstest.LivePids(pids[1:]))
	if !procstest.Alive(pids[0]) {
		t.Fatal("the child in its own session died without procs.KillOrphans: the test shows nothing")
	}
	killed := procs.KillOrphans()
	if !slices.Contains(killed, pids[0]) {
		t.Errorf("procs.KillOrphans killed %v, not the orphan %d", killed, pids[0])
	}
	procstest.WaitGone(t, procstest.LivePids(pids[:1]))
	// A live owner's processes are not orphans.
	p, err := procs.StartProc(exec.Command("sleep", "300"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if slices.Contains(procs.KillOrphans(), p.Pid()) {
		t.Error("procs.KillOrphans killed a process of this live process")
	}
}

// A process started with procs.StartCmd keeps its Pdeathsig for the life of
// this process, even when the goroutine that asked for it locked its OS
// thread and ended (which ends the thread); a plain cmd.Start from such a
// goroutine dies with the thread: the failure procs.StartCmd prevents, shown on
// the same setup. Three rounds, as the first goroutine may run on the main
// thread, which the runtime never ends.
func TestStartCmdOutlivesTheCallersThread(t *testing.T) {
	start := func(useSpawner bool) *exec.Cmd {
		ch := make(chan *exec.Cmd, 1)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
			cmd := exec.Command("sleep", "300")
			cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
			var err error
			if useSpawner {
				err = procs.StartCmd(cmd)
			} else {
				err = cmd.Start()
			}
			if err != nil {
				t.Error(err)
			}
			ch <- cmd
		}()
		cmd := <-ch
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(300 * time.Millisecond):
		}
		return cmd
	}
	plainDied := 0
	for round := 1; round <= 3; round++ {
		cmd := start(true)
		if cmd.ProcessState != nil {
			t.Fatalf("round %d: started by procs.StartCmd, it died with the caller's thread: %v", round, cmd.ProcessState)
		}
		_ = cmd.Process.Kill()
		if plain := start(false); plain.ProcessState != nil {
			plainDied++
		} else {
			_ = plain.Process.Kill()
		}
	}
	if plainDied == 0 {
		t.Error("a plain cmd.Start from a locked goroutine that ended never died: the test shows nothing")
	}
}
