package sweep

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/result"
)

// SweepCaches are the data cache sizes of CPU cpu, for a sweep's plot and
// steps: L1d, L2 and L3 as /sys/devices/system/cpu/cpuN/cache describes
// that CPU (d holds them per CPU), with the CPUs each is shared by. Where
// /sys has no cache folder (some virtual machines), getconf's
// LEVEL1_DCACHE_SIZE, LEVEL2_CACHE_SIZE and LEVEL3_CACHE_SIZE (glibc reads
// them from CPUID) are used, and Source says so.
func SweepCaches(d machine.Description, cpu int) []result.CacheMark {
	src := "/sys/devices/system/cpu/cpu" + strconv.Itoa(cpu) + "/cache"
	var out []result.CacheMark
	for _, c := range d.CPUs {
		if c.ID != cpu {
			continue
		}
		for _, k := range c.Caches {
			if k.Type == "Instruction" || k.Level < 1 || k.Level > 3 {
				continue
			}
			b, ok := ParseCacheSize(k.Size)
			if !ok {
				continue
			}
			name := "L" + strconv.Itoa(k.Level)
			if k.Level == 1 {
				name = "L1d"
			}
			out = append(out, result.CacheMark{Name: name, Bytes: b, Shared: k.Shared, Source: src})
		}
	}
	if len(out) > 0 {
		return out
	}
	return getconfCaches()
}

// ParseCacheSize reads /sys's "48K", "1024K", "32768K" or "32M"
// (machine.CacheBytes); false for anything else or 0.
func ParseCacheSize(s string) (int64, bool) {
	n := machine.CacheBytes(s)
	return n, n > 0
}

func getconfCaches() []result.CacheMark {
	var out []result.CacheMark
	for _, c := range []struct{ name, key string }{{"L1d", "LEVEL1_DCACHE_SIZE"}, {"L2", "LEVEL2_CACHE_SIZE"}, {"L3", "LEVEL3_CACHE_SIZE"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		b, err := exec.CommandContext(ctx, "getconf", c.key).Output()
		cancel()
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || n <= 0 {
			continue
		}
		out = append(out, result.CacheMark{Name: c.name, Bytes: n, Source: "getconf (CPUID; /sys has no cache folder on this machine)"})
	}
	return out
}
