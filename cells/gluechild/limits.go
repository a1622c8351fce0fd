package gluechild

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// Limits of the child process. Memory is enforced twice: a hard
// RLIMIT_DATA, which the kernel applies to the child's private writable
// mappings (the Go heap and goroutine stacks, not the address space Go
// reserves without using, which is why RLIMIT_AS would be the wrong
// measure for a Go program), so that runaway allocation ends in Go's
// "fatal error: out of memory" in the child; and the Go soft limit
// (debug.SetMemoryLimit) at 90% of it, so that the collector works hard
// before the hard limit is hit by garbage. The stack limit
// (debug.SetMaxStack) turns runaway recursion into "fatal error: stack
// overflow" quickly instead of after a gigabyte of stack copying.
type Limits struct {
	Memory int64 // bytes
	Stack  int64 // bytes per goroutine
}

// Environment variables that set the limits (sizes such as 2GiB, 512MiB or
// a number of bytes).
const (
	EnvMemory = "BENCHBOOK_GLUE_MEMORY"
	EnvStack  = "BENCHBOOK_GLUE_STACK"
)

const (
	maxDefaultMemory = 4 << 30
	defaultStack     = 64 << 20
)

// LimitsFromEnv reads the limits from the environment: by default the
// smaller of 4 GiB and half the machine's memory, and a 64 MiB stack
// (about 100,000 levels of interpreted recursion; a runaway one ends in
// seconds, where Go's default of 1 GiB takes long and scans a huge stack at
// every collection).
func LimitsFromEnv() (Limits, error) {
	l := Limits{Memory: defaultMemory(), Stack: defaultStack}
	for _, v := range []struct {
		env string
		to  *int64
	}{{EnvMemory, &l.Memory}, {EnvStack, &l.Stack}} {
		if s := os.Getenv(v.env); s != "" {
			n, err := ParseSize(s)
			if err != nil {
				return l, fmt.Errorf("%s: %w", v.env, err)
			}
			*v.to = n
		}
	}
	return l, nil
}

// defaultMemory is the smaller of 4 GiB and half the physical memory.
func defaultMemory() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return maxDefaultMemory
	}
	half := int64(si.Totalram) * int64(si.Unit) / 2
	if half > 0 && half < maxDefaultMemory {
		return half
	}
	return maxDefaultMemory
}

// ParseSize reads 4GiB, 512MiB, 64KiB, 1G, 100M or a number of bytes.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size (want e.g. 4GiB, 512MiB)", s)
	}
	return int64(n * float64(mult)), nil
}

// apply sets the limits on the calling process (the child).
func (l Limits) apply() error {
	debug.SetMaxStack(int(l.Stack))
	debug.SetMemoryLimit(l.Memory / 10 * 9)
	lim := syscall.Rlimit{Cur: uint64(l.Memory), Max: uint64(l.Memory)}
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &lim); err != nil {
		return fmt.Errorf("gluechild: RLIMIT_DATA %d: %w", l.Memory, err)
	}
	return nil
}

// formatSize shows a size in GiB or MiB.
func formatSize(n int64) string {
	if n >= 1<<30 {
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', -1, 64) + " GiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', -1, 64) + " MiB"
}
