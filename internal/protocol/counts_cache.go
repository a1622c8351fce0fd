package protocol

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/machine"
)

// Simulated cache misses (issue 14, item 4). counts runs callgrind with
// --cache-sim=yes, so its output lists, beside the instructions (Ir), the
// data reads and writes (Dr, Dw) and the misses of the first-level
// instruction and data caches (I1mr, D1mr, D1mw) and of the last level
// (ILmr, DLmr, DLmw). Like the instructions, the misses are the
// difference of two runs over the difference of their passes, so the
// cold misses of the process's start, cold pass and setup cancel: what is
// left is what one more warm pass misses. The cache geometry callgrind
// simulated (its output's `desc:` lines) is recorded with them: valgrind
// reads it from the CPU (cpuid), which a VM may report oddly, unless
// countsCacheArgs sets it.

// cacheCounts is one variant's counts under callgrind's cache simulation.
type cacheCounts struct {
	instructions int64
	d1, ll       float64 // data misses per pass: D1mr + D1mw, DLmr + DLmw
	cache        []string
	runs         []CountRun // the two runs they come from
}

// countsCacheArgs are the valgrind options that set the simulated cache
// geometry (machine.CallgrindCacheArgs: CPU 0's, from /sys); a variable so
// a test can simulate a cache of known size.
var countsCacheArgs = machine.CallgrindCacheArgs

// callgrindEvents reads a callgrind output file: its events, with the
// totals of the "totals:" (or "summary:") line, and its desc lines about
// the simulated caches ("I1 cache: 32768 B, 64 B, 8-way associative").
func callgrindEvents(path string) (events map[string]int64, cache []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var names []string
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "events:"); ok {
			names = strings.Fields(rest)
		}
		if rest, ok := strings.CutPrefix(line, "desc:"); ok && strings.Contains(rest, " cache:") {
			cache = append(cache, strings.TrimSpace(rest))
		}
		for _, key := range []string{"totals:", "summary:"} {
			rest, ok := strings.CutPrefix(line, key)
			if !ok {
				continue
			}
			vals := strings.Fields(rest)
			if len(names) == 0 {
				names = []string{"Ir"} // callgrind's default event
			}
			events = map[string]int64{}
			for i, v := range vals {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || i >= len(names) {
					break
				}
				events[names[i]] = n
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if _, ok := events["Ir"]; !ok {
		return nil, nil, fmt.Errorf("%s has no totals line", path)
	}
	return events, cache, nil
}

// cacheDiff is the counts per pass from two runs' events: (later -
// earlier) / passes, for the instructions and the data misses.
func cacheDiff(a, b map[string]int64, passes int, cache []string) cacheCounts {
	per := func(names ...string) float64 {
		var d int64
		for _, n := range names {
			d += b[n] - a[n]
		}
		return float64(d) / float64(passes)
	}
	return cacheCounts{instructions: (b["Ir"] - a["Ir"]) / int64(passes), d1: per("D1mr", "D1mw"), ll: per("DLmr", "DLmw"), cache: cache}
}

// setCache puts the simulated misses and the geometry into c.
func setCache(c *Counts, cc cacheCounts) {
	if len(cc.cache) == 0 { // no cache simulation in this output
		return
	}
	d1, ll := cc.d1, cc.ll
	c.D1MissesPerPass, c.LLMissesPerPass, c.Cache = &d1, &ll, cc.cache
}
