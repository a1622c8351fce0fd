package bench

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
)

// Counts is what valgrind's callgrind counted for one variant: the
// instructions its timed function executes per pass. An instruction count
// is the same on every run of the same binary and input, whatever else the
// machine is doing: the one figure here that noise does not move.
type Counts struct {
	Tool                string   `json:"tool"`
	InstructionsPerPass int64    `json:"instructions_per_pass"`
	PerElement          *float64 `json:"per_element"`
	// Simulated by callgrind (--cache-sim=yes, counts_cache.go): data misses
	// per pass of the first-level data cache and of the last level, and the
	// geometry simulated (callgrind's desc lines).
	D1MissesPerPass *float64 `json:"d1_misses_per_pass,omitempty"`
	LLMissesPerPass *float64 `json:"ll_misses_per_pass,omitempty"`
	Cache           []string `json:"cache,omitempty"`
}

// countRounds are the two numbers of measured passes whose counts are
// subtracted: what the process does once (start, cold pass, setup,
// settle, warmup) cancels, and the difference is countRounds[1] -
// countRounds[0] passes.
var countRounds = [2]int{1, 3}

// ErrNoValgrind is returned by counts= when valgrind is not installed.
var ErrNoValgrind = errors.New("valgrind is not installed: apt-get install valgrind (Debian's package; scripts/setup.sh --browser installs it)")

// counts runs each measured variant of the kernel (and of the baseline)
// under callgrind, collecting only inside its timed function, once with
// countRounds[0] measured passes and once with countRounds[1].
func (r *runner) counts(ctx context.Context) error {
	vg, err := exec.LookPath("valgrind")
	if err != nil {
		return ErrNoValgrind
	}
	r.data.counts, r.data.misses = map[string]int64{}, map[string]cacheCounts{}
	for _, v := range r.opt.Variants {
		c, err := r.countVariant(ctx, vg, r.k.Binary, r.variant(v).Symbol, v, "counts")
		if err != nil {
			return err
		}
		r.data.counts[v], r.data.misses[v] = c.instructions, c
		if r.base.has(v) {
			bv, _ := r.base.k.Variant(v)
			if c, err := r.countVariant(ctx, vg, r.base.k.Binary, bv.Symbol, v, "baseline-counts"); err == nil {
				r.base.counts[v] = c.instructions
			}
		}
	}
	return nil
}

// countVariant is the instructions and simulated data misses per pass of
// variant v of binary bin.
func (r *runner) countVariant(ctx context.Context, vg, bin, symbol, v, label string) (cacheCounts, error) {
	var totals [2]map[string]int64
	var cache []string
	for i, rounds := range countRounds {
		out := filepath.Join(r.dir, fmt.Sprintf("callgrind-%s-%s-%d.out", label, v, rounds))
		r.wrapper = append([]string{vg, "--tool=callgrind", "--callgrind-out-file=" + out, "--collect-atstart=no",
			"--toggle-collect=" + symbol, "--cache-sim=yes"}, countsCacheArgs()...)
		_, err := r.execBin(ctx, bin, fmt.Sprintf("%s-%s-%d", label, v, rounds), "-slots", v, "-batch", "1",
			"-cold", v, "-settle-ms", "0", "-warmup", "0", "-rounds", strconv.Itoa(rounds))
		r.wrapper = nil
		if err != nil {
			return cacheCounts{}, fmt.Errorf("counts of %s under valgrind: %w", v, err)
		}
		if totals[i], cache, err = callgrindEvents(out); err != nil {
			return cacheCounts{}, fmt.Errorf("counts of %s: %w", v, err)
		}
	}
	return cacheDiff(totals[0], totals[1], countRounds[1]-countRounds[0], cache), nil
}
