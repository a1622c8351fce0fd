package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/procs/procstest"
)

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
	for deadline := time.Now().Add(10 * time.Second); len(procstest.PidsIn(t, pidfile)) < 3; {
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
	procstest.WaitGone(t, procstest.LivePids(procstest.PidsIn(t, pidfile)))
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
			for deadline := time.Now().Add(20 * time.Second); len(procstest.Mentioning(tmp)) == 0; {
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
			procstest.WaitGone(t, func() []string { return procstest.Mentioning(tmp) })
			checkEmpty(t, tmp)
		})
	}
}
