package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Counts is what valgrind's callgrind counted for one variant: the
// instructions its timed function executes per pass. An instruction count
// is the same on every run of the same binary and input, whatever else the
// machine is doing: the one figure here that noise does not move.
type Counts struct {
	Tool                string   `json:"tool"`
	InstructionsPerPass int64    `json:"instructions_per_pass"`
	PerElement          *float64 `json:"per_element"`
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
	r.data.counts = map[string]int64{}
	for _, v := range r.opt.Variants {
		n, err := r.countVariant(ctx, vg, r.k.Binary, r.variant(v).Symbol, v, "counts")
		if err != nil {
			return err
		}
		r.data.counts[v] = n
		if r.base.has(v) {
			bv, _ := r.base.k.Variant(v)
			if n, err := r.countVariant(ctx, vg, r.base.k.Binary, bv.Symbol, v, "baseline-counts"); err == nil {
				r.base.counts[v] = n
			}
		}
	}
	return nil
}

// countVariant is the instructions per pass of variant v of binary bin.
func (r *runner) countVariant(ctx context.Context, vg, bin, symbol, v, label string) (int64, error) {
	var totals [2]int64
	for i, rounds := range countRounds {
		out := filepath.Join(r.dir, fmt.Sprintf("callgrind-%s-%s-%d.out", label, v, rounds))
		r.wrapper = []string{vg, "--tool=callgrind", "--callgrind-out-file=" + out, "--collect-atstart=no",
			"--toggle-collect=" + symbol}
		_, err := r.execBin(ctx, bin, fmt.Sprintf("%s-%s-%d", label, v, rounds), "-slots", v, "-batch", "1",
			"-cold", v, "-settle-ms", "0", "-warmup", "0", "-rounds", strconv.Itoa(rounds))
		r.wrapper = nil
		if err != nil {
			return 0, fmt.Errorf("counts of %s under valgrind: %w", v, err)
		}
		if totals[i], err = callgrindTotal(out); err != nil {
			return 0, fmt.Errorf("counts of %s: %w", v, err)
		}
	}
	return (totals[1] - totals[0]) / int64(countRounds[1]-countRounds[0]), nil
}

// callgrindTotal reads the "totals:" (or "summary:") line of a callgrind
// output file: the instructions executed while collection was on.
func callgrindTotal(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var total int64 = -1
	for sc.Scan() {
		line := sc.Text()
		for _, key := range []string{"totals:", "summary:"} {
			if rest, ok := strings.CutPrefix(line, key); ok {
				fields := strings.Fields(rest)
				if len(fields) > 0 {
					if n, err := strconv.ParseInt(fields[0], 10, 64); err == nil {
						total = n
					}
				}
			}
		}
	}
	if total < 0 {
		return 0, fmt.Errorf("%s has no totals line", path)
	}
	return total, sc.Err()
}
