package harness

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/records"
)

// The first outputs of splitmix64 seeded with 0, as published with the
// reference implementation (Vigna's splitmix64.c).
func TestSplitmix64(t *testing.T) {
	want := []uint64{0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F}
	for n, w := range want {
		if got := splitmix64(uint64(n+1) * splitmixGamma); got != w {
			t.Errorf("draw %d: %#x, want %#x", n, got, w)
		}
	}
}

// sequentialOrders draws rounds of nslots from one generator, the way the
// drivers do, without RoundOrder's skip ahead.
func sequentialOrders(seed uint64, rounds, nslots int) [][]int {
	state := seed
	var all [][]int
	for r := 0; r < rounds; r++ {
		order := make([]int, nslots)
		for i := range order {
			order[i] = i
		}
		for i := nslots - 1; i > 0; i-- {
			state += splitmixGamma
			z := splitmix64(state)
			j := int((uint128mulhi(z, uint64(i+1))))
			order[i], order[j] = order[j], order[i]
		}
		all = append(all, order)
	}
	return all
}

// uint128mulhi is the high word of x*y, by halves (not math/bits, which
// RoundOrder uses).
func uint128mulhi(x, y uint64) uint64 {
	x0, x1, y0, y1 := x&0xffffffff, x>>32, y&0xffffffff, y>>32
	w0 := x0 * y0
	t := x1*y0 + w0>>32
	w1, w2 := t&0xffffffff, t>>32
	w1 += x0 * y1
	return x1*y1 + w2 + w1>>32
}

func TestRoundOrder(t *testing.T) {
	// Seed 0, 3 slots, round 0 by hand: draw 0xE220... is 0.88 of 2^64,
	// times 3 is 2: swap(2, 2); draw 0x6E78... is 0.43, times 2 is 0:
	// swap(1, 0).
	if got := RoundOrder(0, 0, 3); !slices.Equal(got, []int{1, 0, 2}) {
		t.Errorf("seed 0 round 0 of 3: %v, want [1 0 2]", got)
	}
	for _, seed := range []uint64{0, 1, 42, 1<<64 - 1} {
		for _, n := range []int{1, 2, 3, 7} {
			for r, want := range sequentialOrders(seed, 5, n) {
				if got := RoundOrder(seed, r, n); !slices.Equal(got, want) {
					t.Errorf("seed %d round %d of %d: %v, drawn in sequence %v", seed, r, n, got, want)
				}
			}
		}
	}
	if got := RoundOrder(5, 3, 0); len(got) != 0 {
		t.Errorf("no slots: %v", got)
	}
	// Each of the 6 orders of 3 slots, 6000 rounds: about 1000 each
	// (binomial sd 29; the bounds are 7 sd).
	count := map[string]int{}
	for r := 0; r < 6000; r++ {
		count[fmt.Sprint(RoundOrder(99, r, 3))]++
	}
	if len(count) != 6 {
		t.Fatalf("orders of 3 slots seen: %v", count)
	}
	for o, n := range count {
		if n < 800 || n > 1200 {
			t.Errorf("order %s in %d of 6000 rounds", o, n)
		}
	}
}

func sampleLine(round, slot, pos int) string {
	return fmt.Sprintf("sample round=%d slot=%d pos=%d k=1 ns=10 minflt=0", round, slot, pos)
}

func TestCheckOrder(t *testing.T) {
	parse := func(lines ...string) []records.Record {
		var recs []records.Record
		for i, l := range lines {
			r, ok := records.Parse(l)
			if !ok {
				t.Fatalf("%q is not a record", l)
			}
			r.Line = i + 1
			recs = append(recs, r)
		}
		return recs
	}
	seed := uint64(0)
	cases := []struct {
		name  string
		recs  []records.Record
		seed  *uint64
		wrong string
	}{
		{"fixed", parse(sampleLine(0, 0, 0), sampleLine(0, 1, 1), sampleLine(1, 0, 0), sampleLine(1, 1, 1)), nil, ""},
		{"fixed out of order", parse(sampleLine(0, 1, 0), sampleLine(0, 0, 1)), nil, "order says slot 0"},
		{"seeded", parse(sampleLine(0, 1, 0), sampleLine(0, 0, 1), sampleLine(0, 2, 2)), &seed, ""},
		{"seeded but fixed", parse(sampleLine(0, 0, 0), sampleLine(0, 1, 1), sampleLine(0, 2, 2)), &seed, "order says slot 1"},
		{"slot twice", parse(sampleLine(0, 0, 0), sampleLine(0, 0, 0)), nil, "twice"},
		{"no pos", parse("sample round=0 slot=0 k=1 ns=10 minflt=0"), nil, "no pos"},
		{"pos out of range", parse(sampleLine(0, 0, 3)), nil, "has 3 slots"},
	}
	for _, c := range cases {
		err := CheckOrder(c.recs, 3, c.seed)
		if (err == nil) != (c.wrong == "") || (err != nil && !strings.Contains(err.Error(), c.wrong)) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.wrong)
		}
	}
}

// seedKernels holds the seed kernel of each language, built once for the
// tests that only run it.
var seedKernels struct {
	sync.Mutex
	k map[string]*Kernel
}

func seedKernel(t *testing.T, lang string) *Kernel {
	t.Helper()
	seedKernels.Lock()
	defer seedKernels.Unlock()
	if k := seedKernels.k[lang]; k != nil {
		return k
	}
	spec := seedSpec(t, lang, nil)
	spec.CacheDir = sharedCacheDir
	k := build(t, spec)
	if seedKernels.k == nil {
		seedKernels.k = map[string]*Kernel{}
	}
	seedKernels.k[lang] = k
	return k
}

// runKernel runs k with run -out FILE and args and returns its records.
func runKernel(t *testing.T, k *Kernel, args ...string) []records.Record {
	t.Helper()
	out := filepath.Join(t.TempDir(), "records.txt")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, k.Binary, append([]string{"run", "-out", out}, args...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v: %s", k.Binary, args, err, b)
	}
	return readRecords(t, out)
}

// Both drivers run the rounds in the order RoundOrder gives, and record it.
func TestDriverOrder(t *testing.T) {
	const slots = "discarded,sink,discarded,discarded,checksum,discarded"
	const nslots, rounds = 6, 4
	for _, lang := range []string{"c", "go"} {
		t.Run(lang, func(t *testing.T) {
			k := seedKernel(t, lang)
			base := []string{"-slots", slots, "-settle-ms", "1", "-warmup", "0", "-rounds", strconv.Itoa(rounds)}
			for _, seed := range []uint64{0, 1, 0x9E3779B97F4A7C15, 1<<64 - 1} {
				recs := runKernel(t, k, append(base, "-order-seed", strconv.FormatUint(seed, 10))...)
				if err := CheckOrder(recs, nslots, &seed); err != nil {
					t.Errorf("seed %d: %v", seed, err)
				}
				if n := countKind(recs, "sample"); n != nslots*rounds {
					t.Errorf("seed %d: %d samples, want %d", seed, n, nslots*rounds)
				}
			}
			recs := runKernel(t, k, base...)
			if err := CheckOrder(recs, nslots, nil); err != nil {
				t.Errorf("without -order-seed: %v", err)
			}
		})
	}
}

func countKind(recs []records.Record, kind string) int {
	n := 0
	for _, r := range recs {
		if r.Kind == kind {
			n++
		}
	}
	return n
}

func TestSeedAtRoundContinuesTheSequence(t *testing.T) {
	for _, seed := range []uint64{0, 7, 1<<53 - 1} {
		for _, start := range []int{0, 1, 6, 13} {
			s := SeedAtRound(seed, start, 4)
			for i := 0; i < 5; i++ {
				if got, want := RoundOrder(s, i, 4), RoundOrder(seed, start+i, 4); !slices.Equal(got, want) {
					t.Fatalf("seed %d from round %d: round %d runs %v, want %v", seed, start, i, got, want)
				}
			}
		}
	}
}
