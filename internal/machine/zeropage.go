package machine

import (
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// zeroPages is how many pages the zero-page probe reads and writes.
const zeroPages = 64

// zeroSink keeps the probe's reads.
var zeroSink byte

// ProbeZeroPage maps zeroPages fresh anonymous pages (4 KiB: no huge
// page, which would map the huge zero page instead), reads one byte of
// each, then writes one byte of each, and counts the minor page faults of
// the calling thread during each (getrusage RUSAGE_THREAD, on a locked OS
// thread). Mapped is true when the writes faulted again for at least half
// the pages: the reads had mapped the shared zero page. About 0.1-1 ms.
func ProbeZeroPage() (*ZeroPage, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	size := zeroPages * os.Getpagesize()
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, fmt.Errorf("zero page probe: %w", err)
	}
	defer unix.Munmap(mem)
	_ = unix.Madvise(mem, unix.MADV_NOHUGEPAGE)
	page := os.Getpagesize()
	f0, err := threadMinflt()
	if err != nil {
		return nil, err
	}
	var s byte
	for i := 0; i < size; i += page {
		s += mem[i]
	}
	f1, _ := threadMinflt()
	for i := 0; i < size; i += page {
		mem[i] = 1
	}
	f2, _ := threadMinflt()
	zeroSink = s
	z := &ZeroPage{Pages: zeroPages, ReadFaults: f1 - f0, WriteFaults: f2 - f1}
	z.Mapped = z.WriteFaults >= zeroPages/2
	return z, nil
}

// threadMinflt is the calling thread's minor page faults so far.
func threadMinflt() (int64, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0, fmt.Errorf("zero page probe: getrusage: %w", err)
	}
	return ru.Minflt, nil
}
