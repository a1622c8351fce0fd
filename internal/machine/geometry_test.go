package machine

import (
	"slices"
	"testing"
	"testing/fstest"
)

// Callgrind's cache geometry from /sys: the level-1 data cache and the
// highest level but an instruction cache, and nothing of a geometry whose
// number of sets is not a power of two (callgrind refuses it).
func TestCallgrindCacheArgs(t *testing.T) {
	cache := func(fsys fstest.MapFS, i, level int, typ, size, ways, line string) {
		d := "sys/devices/system/cpu/cpu0/cache/index" + string(rune('0'+i)) + "/"
		for name, v := range map[string]string{"level": string(rune('0' + level)), "type": typ, "size": size, "ways_of_associativity": ways, "coherency_line_size": line} {
			fsys[d+name] = &fstest.MapFile{Data: []byte(v + "\n")}
		}
	}
	fsys := fstest.MapFS{}
	cache(fsys, 0, 1, "Data", "48K", "12", "64")
	cache(fsys, 1, 1, "Instruction", "32K", "8", "64")
	cache(fsys, 2, 2, "Unified", "2048K", "16", "64")
	cache(fsys, 3, 3, "Unified", "32768K", "16", "64")
	if got, want := callgrindCacheArgs(fsys), []string{"--D1=49152,12,64", "--LL=33554432,16,64"}; !slices.Equal(got, want) {
		t.Errorf("args %q, want %q", got, want)
	}
	// 15 MiB in 12 ways of 64 bytes is 20480 sets, not a power of two:
	// the L2 is the last level callgrind can take.
	cache(fsys, 3, 3, "Unified", "15360K", "12", "64")
	if got, want := callgrindCacheArgs(fsys), []string{"--D1=49152,12,64", "--LL=2097152,16,64"}; !slices.Equal(got, want) {
		t.Errorf("with an L3 of 20480 sets: args %q, want %q", got, want)
	}
	if got := callgrindCacheArgs(fstest.MapFS{}); len(got) != 0 {
		t.Errorf("no caches listed: args %q, want none", got)
	}
}
