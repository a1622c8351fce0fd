package procs

import (
	"os/exec"
	"testing"
)

// The scan after each process benchbook runs: every process's environ
// read (go test -bench ScanTagged ./internal/procs).
func BenchmarkScanTagged(b *testing.B) {
	p, err := StartProc(exec.Command("true"))
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		b.Fatal(err)
	}
	want := []byte("\x00" + ProcEnv + "=" + p.tag + "\x00")
	for b.Loop() {
		scanTagged(want, func(int) {})
	}
}
