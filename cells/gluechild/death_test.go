package gluechild

import (
	"os/exec"
	"strings"
	"testing"
)

// The cause of a child's death is read from what the Go runtime wrote on
// its stderr, else from its exit status.
func TestCause(t *testing.T) {
	lim := Limits{Memory: 1 << 30, Stack: 64 << 20}
	cases := []struct {
		name  string
		lines []string
		want  []string
	}{
		{"stack overflow", []string{"runtime: goroutine stack exceeds 67108864-byte limit", "fatal error: stack overflow"},
			[]string{"stack overflow", "64 MiB"}},
		{"map writes", []string{"fatal error: concurrent map writes"}, []string{"concurrent map writes"}},
		{"heap past the limit", []string{"runtime: out of memory: cannot allocate 67108864-byte block", "fatal error: out of memory"},
			[]string{"out of memory", "1 GiB", EnvMemory}},
		{"a thread without a stack", []string{"runtime/cgo: pthread_create failed: Resource temporarily unavailable", "SIGABRT: abort"},
			[]string{"out of memory", "pthread_create", EnvMemory}},
		{"the race detector's memory", []string{"==8744==ERROR: ThreadSanitizer failed to allocate 0x8000000 (134217728) bytes at address 218008000000 (errno: 12)"},
			[]string{"out of memory", "ThreadSanitizer", EnvMemory}},
		{"a panic the interpreter did not guard", []string{"panic: boom [recovered, repanicked]"},
			[]string{"panic: boom (", "time.AfterFunc"}},
	}
	for _, c := range cases {
		got := cause(c.lines, nil, lim)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: cause %q does not say %q", c.name, got, w)
			}
		}
		if strings.Contains(got, "recovered") {
			t.Errorf("%s: %q", c.name, got)
		}
	}
}

// Without a word on stderr, the cause is the signal or the exit status.
func TestCauseFromExitStatus(t *testing.T) {
	cmd := exec.Command("sh", "-c", "kill -9 $$")
	_ = cmd.Run()
	if got := cause(nil, cmd.ProcessState, Limits{}); got != "killed by signal 9 (killed)" {
		t.Errorf("cause %q", got)
	}
	cmd = exec.Command("sh", "-c", "exit 3")
	_ = cmd.Run()
	if got := cause(nil, cmd.ProcessState, Limits{}); got != "the process exited with status 3" {
		t.Errorf("cause %q", got)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"4GiB": 4 << 30, "512MiB": 512 << 20, "64 KiB": 64 << 10, "1G": 1 << 30,
		"100M": 100 << 20, "1000": 1000, "1.5GiB": 3 << 29} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "lots", "-1G", "0"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
}
