package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive says whether pid runs (a zombie does not).
func alive(pid int) bool { return !zombie(pid) }

// mentioning lists the live processes whose command line mentions s.
func mentioning(s string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(s)) && alive(pid) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// waitGone waits a little for the processes to be gone, as a kill is
// delivered asynchronously, and fails with those still there.
func waitGone(t *testing.T, list func() []string) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for {
		left := list()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func pidsIn(t *testing.T, file string) []int {
	t.Helper()
	b, _ := os.ReadFile(file)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pid file: %q", f)
		}
		pids = append(pids, n)
	}
	return pids
}

func livePids(pids []int) func() []string {
	return func() []string {
		var left []string
		for _, p := range pids {
			if alive(p) {
				left = append(left, fmt.Sprint(p))
			}
		}
		return left
	}
}

// A descendant that holds the output pipe, in another session, does not
// hold up the wait, and is killed when the process exits.
func TestProcWaitDoesNotWaitForDescendants(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command("sh", "-c", `setsid sleep 300 & echo $! > `+pidfile+`; echo hello`)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := RunProc(context.Background(), cmd); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > DrainDelay+500*time.Millisecond {
		t.Errorf("the wait took %v", took)
	}
	if !strings.Contains(out.String(), "hello") {
		t.Errorf("output %q", out.String())
	}
	pids := pidsIn(t, pidfile)
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	waitGone(t, livePids(pids))
}

// fakeCC is a C compiler that answers --version and otherwise starts a
// sleeping child in the group, one in a session of its own, and sleeps.
func fakeCC(t *testing.T, dir, pidfile string) string {
	t.Helper()
	script := filepath.Join(dir, "fakecc")
	body := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo fakecc 1; exit 0; fi\n" +
		"sleep 300 & echo $! >> " + pidfile + "\nsetsid sleep 300 & echo $! >> " + pidfile +
		"\necho $$ >> " + pidfile + "\nsleep 300\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return script
}

// An interrupted build answers within 2 s and leaves no compiler process
// (the compiler's children included) and no temporary folder.
func TestInterruptedBuildLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("CC", fakeCC(t, t.TempDir(), pidfile))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Build(ctx, Spec{Name: "slow", Lang: "c", Code: "BENCH(a) {}\n", Line: 2, Label: "Cell[1]", CacheDir: t.TempDir()})
		done <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); len(pidsIn(t, pidfile)) < 3; {
		if time.Now().After(deadline) {
			t.Fatal("the fake compiler never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Build did not return after the interrupt")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the interrupt took %v", took)
	}
	waitGone(t, livePids(pidsIn(t, pidfile)))
	checkEmpty(t, tmp)
}

func checkEmpty(t *testing.T, dir string) {
	t.Helper()
	left, _ := os.ReadDir(dir)
	for _, e := range left {
		t.Errorf("left in the temporary folder: %s", e.Name())
	}
}

// The same with the real compilers: cc (with cc1 and as) on a large
// generated source, and go build with its compile processes.
func TestInterruptedRealBuildLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles")
	}
	var big strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&big, "double f%d(double *a, int n) { double s = 0; for (int i = 0; i < n; i++) s += a[i] * %d.5 + s / (i + 1); return s; }\n", i, i)
	}
	big.WriteString("BENCH(a) {}\n")
	for _, c := range []struct{ lang, code string }{{"c", big.String()}, {"go", "func BenchA() {}\n"}} {
		t.Run(c.lang, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			t.Setenv("GOCACHE", t.TempDir()) // a cold go build takes seconds
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := Build(ctx, Spec{Name: "slow", Lang: c.lang, Code: c.code, Line: 2, Label: "Cell[1]", CacheDir: t.TempDir()})
				done <- err
			}()
			// Wait until a compiler runs in the build folder.
			for deadline := time.Now().Add(20 * time.Second); len(mentioning(tmp)) == 0; {
				if time.Now().After(deadline) {
					t.Fatal("no compiler process seen")
				}
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond)
			start := time.Now()
			cancel()
			select {
			case err := <-done:
				if err == nil {
					t.Skip("the build finished before the interrupt")
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Build did not return after the interrupt")
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("the interrupt took %v", took)
			}
			waitGone(t, func() []string { return mentioning(tmp) })
			checkEmpty(t, tmp)
		})
	}
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
	p, err := StartProc(cmd)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(pidfile+".direct", []byte(fmt.Sprint(p.Pid())), 0o600)
	time.Sleep(time.Minute)
}

// When benchbook is killed with SIGKILL, the process it started dies with
// it (Pdeathsig), and what that process left behind is killed by the next
// benchbook's KillOrphans.
func TestKilledOwner(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	os.WriteFile(pidfile, nil, 0o600)
	helper := exec.Command(os.Args[0], "-test.run=^TestHelperOwner$")
	helper.Env = append(os.Environ(), "BB_HELPER_PIDS="+pidfile)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(pidsIn(t, pidfile)) < 1 || len(pidsIn(t, pidfile+".direct")) < 1; {
		if time.Now().After(deadline) {
			helper.Process.Kill()
			t.Fatal("the helper did not start its process")
		}
		time.Sleep(20 * time.Millisecond)
	}
	pids := append(pidsIn(t, pidfile), pidsIn(t, pidfile+".direct")...) // the setsid child, then the direct child
	helper.Process.Signal(syscall.SIGKILL)
	helper.Wait()
	waitGone(t, livePids(pids[1:]))
	if !alive(pids[0]) {
		t.Fatal("the child in its own session died without KillOrphans: the test shows nothing")
	}
	killed := KillOrphans()
	if !slices.Contains(killed, pids[0]) {
		t.Errorf("KillOrphans killed %v, not the orphan %d", killed, pids[0])
	}
	waitGone(t, livePids(pids[:1]))
	// A live owner's processes are not orphans.
	p, err := StartProc(exec.Command("sleep", "300"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if slices.Contains(KillOrphans(), p.Pid()) {
		t.Error("KillOrphans killed a process of this live process")
	}
}

// The span of pids a process's descendants can hold (pidSpan): from its
// own pid to the last one handed out, round past pid_max when the
// allocation wrapped, and every pid when it cannot tell.
func TestSpanTest(t *testing.T) {
	for _, tc := range []struct {
		name                string
		first, last, pidMax int
		forks0, forks       uint64
		in, out             []int // nil test: both empty
	}{
		{"in order", 1000, 1010, 32768, 50, 60, []int{1000, 1005, 1010}, []int{999, 1011, 5, 32000}},
		{"wrapped past pid_max", 32700, 310, 32768, 50, 500, []int{32700, 32767, 300, 310}, []int{311, 1000, 32699}},
		{"too many forks to tell", 1000, 1010, 32768, 50, 50 + 16384, nil, nil},
		{"no count before the start", 1000, 1010, 32768, 0, 60, nil, nil},
		{"a count that went back", 1000, 1010, 32768, 60, 50, nil, nil},
		{"no last pid", 1000, 0, 32768, 50, 60, nil, nil},
		{"not started", 0, 1010, 32768, 50, 60, nil, nil},
	} {
		f := spanTest(tc.first, tc.forks0, tc.forks, tc.last, tc.pidMax)
		if (f == nil) != (tc.in == nil) {
			t.Errorf("%s: test %v, want nil %v", tc.name, f != nil, tc.in == nil)
			continue
		}
		for _, p := range tc.in {
			if !f(p) {
				t.Errorf("%s: pid %d is out of the span", tc.name, p)
			}
		}
		for _, p := range tc.out {
			if f(p) {
				t.Errorf("%s: pid %d is in the span", tc.name, p)
			}
		}
	}
	// What this machine reads: a count, a last pid, a pid_max.
	if forksSinceBoot() == 0 || lastPid() <= 0 || readInt("/proc/sys/kernel/pid_max") <= 0 {
		t.Errorf("/proc: forks %d, last pid %d, pid_max %d", forksSinceBoot(), lastPid(), readInt("/proc/sys/kernel/pid_max"))
	}
}

// The scan after each process benchbook runs, over every process of the
// machine against over the span of its pids (go test -bench ScanTagged
// ./internal/harness: the two side by side in one run).
func BenchmarkScanTagged(b *testing.B) {
	cmd := exec.Command("true")
	p, err := StartProc(cmd)
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		b.Fatal(err)
	}
	want := []byte("\x00" + ProcEnv + "=" + p.tag + "\x00")
	b.Run("every-pid", func(b *testing.B) {
		for b.Loop() {
			scanTagged(want, nil, func(int) {})
		}
	})
	b.Run("span", func(b *testing.B) {
		for b.Loop() {
			scanTagged(want, p.span.keep, func(int) {})
		}
	})
}
