package machine

import (
	"encoding/binary"
	"os"
	"runtime"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pfns reads the page frame numbers of the pages of mem from
// /proc/self/pagemap (bits 0-54 of each entry; 0 when the kernel hides
// them, without CAP_SYS_ADMIN).
func pfns(t *testing.T, mem []byte) []uint64 {
	t.Helper()
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skipf("pagemap: %v", err)
	}
	defer f.Close()
	page := os.Getpagesize()
	var out []uint64
	for off := 0; off < len(mem); off += page {
		var e [8]byte
		vpn := uintptr(unsafe.Pointer(&mem[off])) / uintptr(page)
		if _, err := f.ReadAt(e[:], int64(vpn)*8); err != nil {
			t.Fatalf("pagemap: %v", err)
		}
		out = append(out, binary.LittleEndian.Uint64(e[:])&(1<<55-1))
	}
	return out
}

// The probe against an oracle it does not use: read a fresh mapping as the
// probe does and ask pagemap whether every page has one frame (the zero
// page) or each its own. Needs the frame numbers (root).
func TestZeroPageAgainstPagemap(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	mem, err := unix.Mmap(-1, 0, zeroPages*os.Getpagesize(), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	_ = unix.Madvise(mem, unix.MADV_NOHUGEPAGE)
	var s byte
	for i := 0; i < len(mem); i += os.Getpagesize() {
		s += mem[i]
	}
	zeroSink = s
	frames := pfns(t, mem)
	if frames[0] == 0 {
		t.Skip("pagemap hides frame numbers (not root)")
	}
	shared := true
	for _, f := range frames {
		shared = shared && f == frames[0]
	}
	z, err := ProbeZeroPage()
	if err != nil {
		t.Fatal(err)
	}
	if z.Mapped != shared {
		t.Errorf("probe says mapped=%t (%+v); pagemap says the %d pages read share one frame: %t", z.Mapped, z, len(frames), shared)
	}
	if z.ReadFaults < zeroPages/2 {
		t.Errorf("reading %d fresh pages faulted %d times", zeroPages, z.ReadFaults)
	}
}
