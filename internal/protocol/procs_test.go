package protocol

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// forker's setup starts a child in a session of its own that holds the
// kernel's stdout and sleeps, and writes the child's pid to $BB_PIDFILE.
const forker = `#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
BENCH_SETUP() {
	pid_t p = fork();
	if (p == 0) {
		setsid();
		sleep(300);
		_exit(0);
	}
	FILE *f = fopen(getenv("BB_PIDFILE"), "a");
	fprintf(f, "%d\n", (int)p);
	fclose(f);
}
static unsigned x = 1;
BENCH(step) { for (int i = 0; i < 1000; i++) x = x * 1103515245u + 12345u; bench_sink(x); }
`

func deadPid(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z'
}

// A kernel whose setup leaves a child holding its output runs to the end
// well within its timeout, and no child of any of its processes is left.
func TestForkingSetupLeavesNothing(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("BB_PIDFILE", pidfile)
	k := buildC(t, "forker", forker)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	r, err := runQuick(t, ctx, k, "timeout=20s")
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if took := time.Since(start); took > 60*time.Second {
		t.Errorf("the run took %v", took)
	}
	if n := len(r.Series("step", "fresh")); n != MinRuns {
		t.Errorf("%d fresh samples", n)
	}
	b, _ := os.ReadFile(pidfile)
	pids := strings.Fields(string(b))
	if len(pids) < MinRuns {
		t.Fatalf("only %d children recorded", len(pids))
	}
	time.Sleep(100 * time.Millisecond)
	for _, p := range pids {
		n, _ := strconv.Atoi(p)
		if !deadPid(n) {
			t.Errorf("child %d of the kernel is still running", n)
		}
	}
}

// A kernel that hangs while a child in another session holds its output
// is killed at its timeout, with the child, and the run says why.
func TestHangingKernelWithChildIsKilledAtTimeout(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("BB_PIDFILE", pidfile)
	k := buildC(t, "hanger", strings.Replace(forker, "\tfclose(f);\n", "\tfclose(f);\n\tsleep(300);\n", 1))
	start := time.Now()
	_, err := runQuick(t, context.Background(), k, "timeout=1s")
	if err == nil || !strings.Contains(err.Error(), "longer than timeout=1s") {
		t.Fatalf("err = %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the run took %v for a timeout of 1s", took)
	}
	b, _ := os.ReadFile(pidfile)
	if len(strings.Fields(string(b))) == 0 {
		t.Fatal("the kernel's setup started no child")
	}
	time.Sleep(100 * time.Millisecond)
	for _, p := range strings.Fields(string(b)) {
		n, _ := strconv.Atoi(p)
		if !deadPid(n) {
			t.Errorf("child %d of the kernel is still running", n)
		}
	}
}
