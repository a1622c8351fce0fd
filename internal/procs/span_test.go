package procs

import (
	"os/exec"
	"testing"
)

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
