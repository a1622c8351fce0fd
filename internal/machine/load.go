package machine

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	driver "github.com/benchbook/benchbook/internal/harness/go/bench"
)

// LoadInfo says where the threads of StartLoad run.
type LoadInfo struct {
	// CPUs is the CPU each thread is pinned to, in thread order; nil when
	// the threads are not pinned.
	CPUs []int `json:"cpus"`
	// TIDs are the Linux thread ids of the threads, in the same order.
	TIDs []int `json:"tids"`
	// Note explains a choice, such as leaving the threads unpinned.
	Note string `json:"note,omitempty"`
}

// loadChunk is the number of chain iterations a load thread runs between
// two looks at its stop signal: 64k adds, some tens of microseconds.
const loadChunk = 1024

// StartLoad starts k busy threads that load the machine on purpose: each is
// a goroutine locked to its own OS thread, pinned to one of the CPUs that
// are online, allowed to this process and not in avoid (round robin when k
// is larger than their number), spinning on a chain of dependent integer
// additions. If avoid leaves no CPU, the threads run unpinned and
// info.Note says so. stop ends the threads and returns once every one has
// exited; it may be called more than once. k = 0 starts nothing.
func StartLoad(k int, avoid []int) (stop func(), info LoadInfo, err error) {
	return StartLoadKind(LoadALU, 0, k, avoid)
}

// The kinds of load StartLoadKind starts.
const (
	// LoadALU spins on a chain of dependent integer additions: it takes a
	// CPU and nothing of the memory system.
	LoadALU = "alu"
	// LoadMemory streams writes over a buffer of its own, one byte in every
	// 64 (each cache line read for ownership, written back when evicted),
	// twice the last-level cache (LoadMemoryBytes): it takes the shared
	// cache and the memory bandwidth.
	LoadMemory = "memory"
)

// MaxLoadMemoryBytes bounds a memory load thread's buffer.
const MaxLoadMemoryBytes = 512 << 20

// LoadMemoryBytes is the buffer of a memory load thread: twice the largest
// cache /sys lists for CPU 0, else 64 MiB, at most MaxLoadMemoryBytes.
func LoadMemoryBytes() int64 {
	var largest int64
	for _, c := range readCaches(os.DirFS("/"), "sys/devices/system/cpu/cpu0/cache") {
		largest = max(largest, CacheBytes(c.Size))
	}
	if largest == 0 {
		return 64 << 20
	}
	return min(2*largest, MaxLoadMemoryBytes)
}

// CacheBytes reads a /sys cache size: "48K", "2048K", "260M" (spaces
// around it ignored); 0 if it is not one. The one reader of the form:
// the load's buffer, a sweep's cache marks and the counts' cache model
// use it.
func CacheBytes(s string) int64 {
	s = strings.TrimSpace(s)
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n * mult
}

// StartLoadKind is StartLoad with the kind of work each thread does
// (LoadALU or LoadMemory, the latter over bytes bytes each).
func StartLoadKind(kind string, bytes int64, k int, avoid []int) (stop func(), info LoadInfo, err error) {
	if kind != LoadALU && kind != LoadMemory {
		return nil, LoadInfo{}, fmt.Errorf("load: kind %q, want %s or %s", kind, LoadALU, LoadMemory)
	}
	if kind == LoadMemory && bytes < 64 {
		return nil, LoadInfo{}, fmt.Errorf("load: a memory load of %d bytes, want at least 64", bytes)
	}
	if k < 0 {
		return nil, LoadInfo{}, fmt.Errorf("load: %d threads asked, want 0 or more", k)
	}
	cpus, err := loadCPUs(avoid)
	if err != nil {
		return nil, LoadInfo{}, err
	}
	if len(cpus) == 0 && k > 0 {
		info.Note = fmt.Sprintf("no CPU this process may use is outside avoid (%s): the %d load threads are not pinned",
			FormatCPUList(avoid), k)
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	ready := make(chan loadStart)
	for i := range k {
		cpu := -1
		if len(cpus) > 0 {
			cpu = cpus[i%len(cpus)]
			info.CPUs = append(info.CPUs, cpu)
		}
		wg.Add(1)
		go spin(i, cpu, kind, bytes, quit, ready, &wg)
	}
	var errs []error
	info.TIDs = make([]int, k)
	for range k {
		s := <-ready
		info.TIDs[s.index] = s.tid
		if s.err != nil {
			errs = append(errs, s.err)
		}
	}
	stop = sync.OnceFunc(func() { close(quit); wg.Wait() })
	if len(errs) > 0 {
		stop()
		return nil, LoadInfo{}, fmt.Errorf("load: %w", errs[0])
	}
	return stop, info, nil
}

// loadStart is what a load thread reports once it runs, or fails to pin.
type loadStart struct {
	index, tid int
	err        error
}

// loadCPUs returns the CPUs a load thread may be pinned to: online, in
// this thread's affinity mask, and not in avoid.
func loadCPUs(avoid []int) ([]int, error) {
	online, err := OnlineCPUs()
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	var mask unix.CPUSet
	if err := unix.SchedGetaffinity(0, &mask); err != nil {
		return nil, fmt.Errorf("load: CPU affinity of this thread: %w", err)
	}
	var cpus []int
	for _, c := range online {
		if mask.IsSet(c) && !slices.Contains(avoid, c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// spin is load thread number index: it locks its goroutine to an OS thread, pins
// the thread to cpu (unless cpu < 0), reports on ready, and runs the add
// chain until quit is closed. It never unlocks the thread, so the runtime
// ends the thread with the goroutine and its affinity is never handed to
// other goroutines. The one exception is the process's main thread, which
// the runtime parks for good instead of ending it: for that case spin puts
// the thread's affinity back before it returns.
func spin(index, cpu int, kind string, bytes int64, quit <-chan struct{}, ready chan<- loadStart, wg *sync.WaitGroup) {
	defer wg.Done()
	runtime.LockOSThread()
	s := loadStart{index: index, tid: unix.Gettid()}
	if cpu >= 0 {
		var old, set unix.CPUSet
		set.Set(cpu)
		if s.err = unix.SchedGetaffinity(0, &old); s.err == nil {
			s.err = unix.SchedSetaffinity(0, &set)
		}
		if s.err != nil {
			s.err = fmt.Errorf("pin thread %d to CPU %d: %w", s.tid, cpu, s.err)
		} else {
			defer unix.SchedSetaffinity(0, &old)
		}
	}
	var buf []byte
	if s.err == nil && kind == LoadMemory {
		buf = make([]byte, bytes)
		stream(buf, 0, len(buf)) // every page mapped before the run starts
	}
	ready <- s
	if s.err != nil {
		return
	}
	for off := 0; ; {
		select {
		case <-quit:
			return
		default:
			if buf == nil {
				driver.FreqChain(loadChunk, 1)
				continue
			}
			end := min(off+loadStreamChunk, len(buf))
			stream(buf, off, end)
			if off = end; off == len(buf) {
				off = 0
			}
		}
	}
}

// loadStreamChunk is how many bytes a memory load thread streams over
// between two looks at its stop signal: 1 MiB, some tens of microseconds.
const loadStreamChunk = 1 << 20

// stream writes one byte in every 64 of buf[from:to].
func stream(buf []byte, from, to int) {
	for i := from; i < to; i += 64 {
		buf[i]++
	}
}

// FirstAllowedCPU is the lowest-numbered CPU that is online and in this
// thread's affinity mask: where a benchmark goes when load threads take the
// others.
func FirstAllowedCPU() (int, error) {
	cpus, err := loadCPUs(nil)
	if err != nil {
		return -1, err
	}
	if len(cpus) == 0 {
		return -1, fmt.Errorf("no online CPU is in this process's affinity mask")
	}
	return cpus[0], nil
}
