package protocol

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"

	"github.com/benchbook/benchbook/internal/harness"
)

// CountsOf computes a variant's counts from its two runs: the later run's
// totals less the earlier's, over the difference of their passes, so that
// what the process does once (start, cold pass, setup) cancels; per
// element when the protocol names the elements of a pass. The simulated
// misses are set when cache (callgrind's desc lines) is not empty.
func CountsOf(runs []CountRun, cache []string, elements *int64) (*Counts, error) {
	if len(runs) != 2 {
		return nil, fmt.Errorf("counts: %d runs, want 2", len(runs))
	}
	a, b := runs[0], runs[1]
	if a.Passes < 0 || b.Passes <= a.Passes {
		return nil, fmt.Errorf("counts: runs of %d and %d passes, want the second larger", a.Passes, b.Passes)
	}
	if _, ok := a.Events["Ir"]; !ok {
		return nil, errors.New("counts: the first run has no Ir (instructions) total")
	}
	if _, ok := b.Events["Ir"]; !ok {
		return nil, errors.New("counts: the second run has no Ir (instructions) total")
	}
	cc := cacheDiff(a.Events, b.Events, b.Passes-a.Passes, cache)
	c := &Counts{Tool: "callgrind", InstructionsPerPass: cc.instructions, Runs: runs}
	setCache(c, cc)
	if elements != nil && *elements > 0 {
		pe := float64(cc.instructions) / float64(*elements)
		c.PerElement = &pe
	}
	return c, nil
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
	r.data.counts = map[string]cacheCounts{}
	for _, v := range r.opt.Variants {
		c, err := r.countVariant(ctx, vg, r.k.Binary, r.variant(v).Symbol, v, "counts")
		if err != nil {
			return err
		}
		r.data.counts[v] = c
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
	var runs []CountRun
	var cache []string
	for _, rounds := range countRounds {
		out := filepath.Join(r.dir, fmt.Sprintf("callgrind-%s-%s-%d.out", label, v, rounds))
		r.wrapper = append([]string{vg, "--tool=callgrind", "--callgrind-out-file=" + out, "--collect-atstart=no",
			"--toggle-collect=" + symbol, "--cache-sim=yes"}, countsCacheArgs()...)
		_, err := r.execBin(ctx, bin, fmt.Sprintf("%s-%s-%d", label, v, rounds),
			harness.Args{Slots: []string{v}, Batch: []int64{1}, Cold: v, Rounds: rounds})
		r.wrapper = nil
		if err != nil {
			return cacheCounts{}, fmt.Errorf("counts of %s under valgrind: %w", v, err)
		}
		events, desc, err := callgrindEvents(out)
		if err != nil {
			return cacheCounts{}, fmt.Errorf("counts of %s: %w", v, err)
		}
		runs, cache = append(runs, CountRun{Passes: rounds, Events: events}), desc
	}
	c := cacheDiff(runs[0].Events, runs[1].Events, countRounds[1]-countRounds[0], cache)
	c.runs = runs
	return c, nil
}
