package bench

import (
	"bufio"
	"encoding/binary"
	"os"
	"strconv"
	"strings"
)

// flushOwn flushes every cache line of this process's own pages from every
// cache level, as the C driver's flush_own (which says why): each page that
// /proc/self/pagemap says is present, of each readable mapping
// /proc/self/maps lists but the kernel's special ones. It returns the
// bytes flushed, or -1 where it cannot (no flush instruction, no pagemap).
func flushOwn() int64 {
	if !canFlush {
		return -1
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return -1
	}
	pm, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return -1
	}
	defer pm.Close()
	page := uintptr(os.Getpagesize())
	var flushed int64
	var ents [512 * 8]byte
	sc := bufio.NewScanner(strings.NewReader(string(maps)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || f[1][0] != 'r' {
			continue
		}
		if len(f) >= 6 && (strings.HasPrefix(f[5], "[vvar") || strings.HasPrefix(f[5], "[vdso") || strings.HasPrefix(f[5], "[vsyscall")) {
			continue
		}
		los, his, _ := strings.Cut(f[0], "-")
		lo, e1 := strconv.ParseUint(los, 16, 64)
		hi, e2 := strconv.ParseUint(his, 16, 64)
		if e1 != nil || e2 != nil {
			continue
		}
		for a := uintptr(lo); a < uintptr(hi); {
			n := min((uintptr(hi)-a)/page, 512)
			got, _ := pm.ReadAt(ents[:n*8], int64(a/page*8))
			if got <= 0 {
				break
			}
			for i := 0; i < got/8; i, a = i+1, a+page {
				if binary.LittleEndian.Uint64(ents[i*8:])>>63 == 0 {
					continue // not present: a flush would fault it in
				}
				flushLines(a, page)
				flushed += int64(page)
			}
		}
	}
	return flushed
}
