package machine

import (
	"fmt"
	"io/fs"
	"math/bits"
	"os"
	"path"
	"strconv"
	"strings"
)

// CallgrindCacheArgs are the valgrind options that set callgrind's
// simulated cache geometry to CPU 0's, as /sys lists it: --D1 from the
// level-1 data cache and --LL from the highest level that is not an
// instruction cache, each size,ways,line where the geometry has a
// power-of-two number of sets (which callgrind requires), else left out
// (valgrind reads the CPU itself, which a VM may report oddly).
func CallgrindCacheArgs() []string { return callgrindCacheArgs(os.DirFS("/")) }

func callgrindCacheArgs(fsys fs.FS) []string {
	const dir = "sys/devices/system/cpu/cpu0/cache"
	entries, _ := fs.ReadDir(fsys, dir)
	var d1, ll string
	llLevel := 0
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "index") {
			continue
		}
		read := func(name string) string {
			return strings.TrimSpace(string(readFile(fsys, path.Join(dir, e.Name(), name))))
		}
		level, _ := strconv.Atoi(read("level"))
		size := CacheBytes(read("size"))
		ways, _ := strconv.ParseInt(read("ways_of_associativity"), 10, 64)
		line, _ := strconv.ParseInt(read("coherency_line_size"), 10, 64)
		if size <= 0 || ways <= 0 || line <= 0 || size%(ways*line) != 0 || bits.OnesCount64(uint64(size/(ways*line))) != 1 {
			continue
		}
		geom := fmt.Sprintf("%d,%d,%d", size, ways, line)
		switch typ := read("type"); {
		case level == 1 && typ == "Data":
			d1 = geom
		case typ != "Instruction" && level > llLevel && level > 1:
			ll, llLevel = geom, level
		}
	}
	var args []string
	if d1 != "" {
		args = append(args, "--D1="+d1)
	}
	if ll != "" {
		args = append(args, "--LL="+ll)
	}
	return args
}
