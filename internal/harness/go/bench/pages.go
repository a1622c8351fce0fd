package bench

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Pages (-pages 4k|huge, records.md): the page size of the kernel's static
// and setup memory, the control of a TLB effect. Every private writable
// anonymous mapping (the .bss past the file, the Go heap; not the stack)
// is advised MADV_HUGEPAGE (its 2 MiB-aligned interior) or MADV_NOHUGEPAGE
// (all of it), before the cold pass and again after setup; with huge,
// after setup, MADV_COLLAPSE makes THPs of what setup wrote.
const (
	madvHugepage   = 14
	madvNoHugepage = 15
	madvCollapse   = 25
	hugeBytes      = 2 << 20
)

// pages is the -pages option's state: mode 0 (not asked), 1 (4k), 2 (huge).
type pages struct {
	mode     int
	advised  int64
	collapse int // -1 not tried, 0 all collapsed, else the first errno
}

func (p *pages) set(v string) error {
	p.collapse = -1
	switch v {
	case "4k":
		p.mode = 1
	case "huge":
		p.mode = 2
	default:
		return fmt.Errorf("-pages: want 4k or huge, not %q", v)
	}
	return nil
}

// advise walks /proc/self/maps and advises every private writable
// anonymous mapping; with collapse it also asks for MADV_COLLAPSE.
func (p *pages) advise(collapse bool) error {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return fmt.Errorf("-pages: %w", err)
	}
	defer f.Close()
	p.advised = 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 5 || len(fs[1]) < 4 || fs[1][0] != 'r' || fs[1][1] != 'w' || fs[1][3] != 'p' || fs[4] != "0" {
			continue
		}
		if len(fs) > 5 && strings.HasPrefix(fs[5], "[") && fs[5] != "[heap]" {
			continue
		}
		lo, hi, ok := strings.Cut(fs[0], "-")
		a, e1 := strconv.ParseUint(lo, 16, 64)
		b, e2 := strconv.ParseUint(hi, 16, 64)
		if !ok || e1 != nil || e2 != nil {
			continue
		}
		if p.mode == 1 {
			if madvise(a, b-a, madvNoHugepage) == nil {
				p.advised += int64(b - a)
			}
			continue
		}
		a, b = (a+hugeBytes-1)&^(hugeBytes-1), b&^(hugeBytes-1)
		if a >= b || madvise(a, b-a, madvHugepage) != nil {
			continue
		}
		p.advised += int64(b - a)
		if collapse {
			e := 0
			if err := madvise(a, b-a, madvCollapse); err != nil {
				e = int(err.(syscall.Errno))
			}
			if p.collapse <= 0 {
				p.collapse = e
			}
		}
	}
	return sc.Err()
}

func madvise(addr, n uint64, advice int) error {
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, uintptr(addr), uintptr(n), uintptr(advice)); e != 0 {
		return e
	}
	return nil
}

// anonHugeKB sums AnonHugePages over /proc/self/smaps; -1 if unreadable.
func anonHugeKB() int64 {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return -1
	}
	var sum int64
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				sum += kb
			}
		}
	}
	return sum
}

// pagesAfterSetup advises again (what setup mapped), collapses with huge,
// and writes the pages record.
func (d *driver) pagesAfterSetup() error {
	p := &d.pages
	if p.mode == 0 {
		return nil
	}
	if err := p.advise(p.mode == 2); err != nil {
		return err
	}
	mode := "4k"
	if p.mode == 2 {
		mode = "huge"
	}
	d.record("pages mode=%s advised_bytes=%d anon_huge_kb=%d collapse_errno=%d", mode, p.advised, anonHugeKB(), p.collapse)
	return nil
}
