// Package heapdump lets a running benchbook process (the kernel, a glue
// child) be asked what it holds: with BENCHBOOK_HEAP_DIR set, SIGUSR2 makes
// it collect garbage and write, into that folder, its live heap as a pprof
// profile (heap-PID-N.pprof, for go tool pprof) and the runtime's memory
// figures after that collection (heap-PID-N.json). bench/soak.py reads the
// figures to tell state that grows from memory the collector has not given
// back yet; a user chasing a kernel's memory reads the profile.
package heapdump

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"syscall"

	"github.com/benchbook/benchbook/internal/atomicfile"
)

// Env names the folder; without it nothing is installed.
const Env = "BENCHBOOK_HEAP_DIR"

// Figures is what heap-PID-N.json holds, in bytes, after a collection.
type Figures struct {
	PID        int    `json:"pid"`
	N          int    `json:"n"`
	HeapAlloc  uint64 `json:"heap_alloc"` // live heap objects
	HeapSys    uint64 `json:"heap_sys"`
	StackInuse uint64 `json:"stack_inuse"`
	Goroutines int    `json:"goroutines"`
}

// Install starts the handler when Env names a folder.
func Install() {
	dir := os.Getenv(Env)
	if dir == "" {
		return
	}
	// One sample every 4 KiB allocated, not 512 KiB: growth of a few
	// hundred bytes a cell shows in a profile after a thousand cells.
	runtime.MemProfileRate = 4096
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR2)
	go func() {
		for n := 0; ; n++ {
			<-c
			if err := Write(dir, n); err != nil {
				fmt.Fprintf(os.Stderr, "benchbook: heap dump: %v\n", err)
			}
		}
	}()
}

// Write collects garbage and writes the profile and figures numbered n.
func Write(dir string, n int) error {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := filepath.Join(dir, fmt.Sprintf("heap-%d-%d", os.Getpid(), n))
	f, err := os.Create(base + ".pprof")
	if err != nil {
		return err
	}
	err = pprof.Lookup("heap").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	b, err := json.Marshal(Figures{PID: os.Getpid(), N: n, HeapAlloc: m.HeapAlloc, HeapSys: m.HeapSys,
		StackInuse: m.StackInuse, Goroutines: runtime.NumGoroutine()})
	if err != nil {
		return err
	}
	// The JSON last, whole: a reader that sees it sees the profile too.
	return atomicfile.WriteFile(base+".json", b, 0o644)
}
