// Package procstest holds what the tests of process accounting share
// (internal/procs and the builds of internal/harness): which processes
// still run, and waiting for them to be gone.
package procstest

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/procs"
)

// Alive says whether pid runs (a zombie, or a pid that is gone, does not).
func Alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z' && b[i+2] != 'X'
}

// Mentioning lists the live processes whose command line mentions s, with
// their command lines.
func Mentioning(s string) []string {
	return where("cmdline", func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
		func(pid string, b []byte) string { return pid + ": " + strings.ReplaceAll(string(b), "\x00", " ") })()
}

// WaitGone waits a second for the processes list names to be gone (a kill
// is delivered asynchronously), and fails with those still there.
func WaitGone(t *testing.T, list func() []string) {
	t.Helper()
	WaitGoneWithin(t, time.Second, list)
}

// WaitGoneWithin is WaitGone with a limit of its own.
func WaitGoneWithin(t *testing.T, limit time.Duration, list func() []string) {
	t.Helper()
	deadline := time.Now().Add(limit)
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

// PidsIn reads the pids a helper wrote to file, one a word.
func PidsIn(t *testing.T, file string) []int {
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

// LivePids lists those of pids that still run.
func LivePids(pids []int) func() []string {
	return func() []string {
		var left []string
		for _, p := range pids {
			if Alive(p) {
				left = append(left, fmt.Sprint(p))
			}
		}
		return left
	}
}

// Carrying lists the live processes that carry root id (procs.Carrying),
// with their command lines.
func Carrying(id string) func() []string {
	return func() []string {
		var out []string
		for _, pid := range procs.Carrying(id) {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			out = append(out, fmt.Sprintf("%d: %s", pid, strings.ReplaceAll(string(b), "\x00", " ")))
		}
		return out
	}
}

// GuardsOf lists the live guard processes of root id.
func GuardsOf(id string) func() []string {
	return where("environ", func(env []byte) bool {
		return bytes.Contains(append([]byte{0}, env...), []byte("\x00"+procs.GuardEnv+"="+id+"\x00"))
	}, func(pid string, _ []byte) string { return pid })
}

// where lists, with show, the live processes but this one whose /proc file
// (cmdline, environ) match says yes to.
func where(file string, match func([]byte) bool, show func(pid string, b []byte) string) func() []string {
	return func() []string {
		var out []string
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			b, err := os.ReadFile("/proc/" + e.Name() + "/" + file)
			if err == nil && match(b) && Alive(pid) {
				out = append(out, show(e.Name(), b))
			}
		}
		return out
	}
}
