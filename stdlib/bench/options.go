// Package bench runs the measurement protocol of seed 000 on a built native
// kernel and returns a Result that carries every sample behind every figure
// and everything that can change its numbers: warmup discarded, variants
// interleaved round robin with an A/A control, an in-process series beside a
// fresh-process series, the cold pass and its page faults, the clock, the load,
// the machine.
package bench

import (
	"fmt"

	"github.com/benchbook/benchbook/stdlib/harness"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Minimums of the protocol: seed 000's run.sh refuses fewer.
const (
	MinReps = 10
	MinRuns = 10
	// MinPairs is the fewest process pairs a baseline's rounds are shared
	// over: the verdict is a test across pairs (stats.MinClusters).
	MinPairs = 3
)

// Options are the keys of %bench (DESIGN.md) and of bench.Run in glue cells.
type Options struct {
	Reps     int
	Runs     int
	Settle   time.Duration
	Warmup   int
	Variants []string // measured variants; nil means all
	Fresh    []string // variants with a fresh-process series; nil means all measured
	Elements int64    // work per pass, 0 when not given
	Pin      int      // CPU, -1 when not pinned
	Load     int      // busy threads on other CPUs during the run
	Quick    bool
	As       string        // glue variable bound to the result
	Timeout  time.Duration // per process
	Predict  string        // e.g. "sink/discarded>100"
	Export   string        // file for the Go benchmark format
	// ResultsDir is where raw samples go before anything is shown.
	ResultsDir string
	// Baseline, when set, is measured in the same run beside the kernel:
	// the previous build of it (the session sets it) or the kernel named by
	// BaselineName (baseline=OTHER).
	Baseline     *harness.Kernel `json:"-"`
	BaselineName string
	// Pairs is how many pairs of processes share the interleaved rounds
	// when a baseline is measured (at least MinPairs).
	Pairs int
	// Progress, when set, is told what the run is doing.
	Progress func(Progress) `json:"-"`
}

// Progress is one step of a running protocol.
type Progress struct {
	Phase   string
	Process int // 1-based process count in this phase, 0 when not per process
	Of      int
}

func (p Progress) String() string {
	if p.Of > 0 {
		return fmt.Sprintf("%s: process %d of %d", p.Phase, p.Process, p.Of)
	}
	return p.Phase
}

// DefaultOptions are the protocol's defaults.
func DefaultOptions() Options {
	return Options{Reps: 30, Runs: 30, Settle: 100 * time.Millisecond, Warmup: 1, Pin: -1, Timeout: 5 * time.Minute,
		Pairs: 5}
}

var keyHelp = map[string]string{
	"reps":     "passes per variant in the round robin and in the in-process series (>= 10)",
	"runs":     "fresh processes per variant (>= 10)",
	"settle":   "time each process repeats the pass before measuring (e.g. 100ms)",
	"warmup":   "discarded passes per variant after settling",
	"variants": "measured variants, comma separated",
	"fresh":    "variants with a fresh-process series, comma separated",
	"elements": "work per pass, for ns per element and the plausibility check",
	"pin":      "CPU number every process is pinned to",
	"load":     "busy threads started on other CPUs during the run",
	"quick":    "reps=runs=10, settle=20ms",
	"as":       "glue variable bound to the result",
	"timeout":  "time limit per process (e.g. 2m)",
	"predict":  `a prediction written before the run, e.g. "sink/discarded>100"`,
	"export":   "write the samples in the Go benchmark format to this file",
	"baseline": "another kernel of the session, measured in the same run as the baseline (ratios are this/other)",
	"pairs":    "pairs of processes (new build, baseline) that share the interleaved rounds of a before/after (>= 3)",
}

// ValidKeys lists the keys %bench accepts.
func ValidKeys() []string {
	keys := make([]string, 0, len(keyHelp))
	for k := range keyHelp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ParseOptions reads key=value arguments (and the bare key quick). quick
// applies first, so explicit keys override it.
func ParseOptions(args []string) (Options, error) {
	o := DefaultOptions()
	for _, a := range args {
		if a == "quick" || a == "quick=true" {
			o.Quick, o.Reps, o.Runs, o.Settle = true, MinReps, MinRuns, 20*time.Millisecond
		}
	}
	for _, a := range args {
		key, val, hasVal := strings.Cut(a, "=")
		if key == "quick" {
			continue
		}
		if _, ok := keyHelp[key]; !ok {
			return o, fmt.Errorf("unknown key %q: valid keys are %s", key, strings.Join(ValidKeys(), ", "))
		}
		if !hasVal || val == "" {
			return o, fmt.Errorf("key %s needs a value: %s=... (%s)", key, key, keyHelp[key])
		}
		if err := o.set(key, unquote(val)); err != nil {
			return o, err
		}
	}
	return o, nil
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

func (o *Options) set(key, val string) error {
	var err error
	switch key {
	case "reps", "runs":
		n, e := strconv.Atoi(val)
		if e != nil {
			return fmt.Errorf("%s=%s: not a whole number", key, val)
		}
		if n < MinReps {
			return fmt.Errorf("%s=%d is too few: the minimum is %d (a single run is not a measurement)", key, n, MinReps)
		}
		if key == "reps" {
			o.Reps = n
		} else {
			o.Runs = n
		}
	case "settle", "timeout":
		d, e := time.ParseDuration(val)
		if e != nil || d < 0 {
			return fmt.Errorf("%s=%s: want a duration such as 100ms or 2m", key, val)
		}
		if key == "settle" {
			o.Settle = d
		} else {
			o.Timeout = d
		}
	case "pairs":
		n, e := strconv.Atoi(val)
		if e != nil || n < MinPairs {
			return fmt.Errorf("pairs=%s: want a whole number >= %d (the before/after verdict is a test across pairs)", val, MinPairs)
		}
		o.Pairs = n
	case "warmup", "pin", "load":
		n, e := strconv.Atoi(val)
		if e != nil || n < 0 {
			return fmt.Errorf("%s=%s: want a whole number >= 0", key, val)
		}
		switch key {
		case "warmup":
			o.Warmup = n
		case "pin":
			o.Pin = n
		default:
			o.Load = n
		}
	case "elements":
		o.Elements, err = strconv.ParseInt(val, 0, 64)
		if err != nil || o.Elements <= 0 {
			return fmt.Errorf("elements=%s: want a positive whole number (1<<20 is written 1048576)", val)
		}
	case "variants", "fresh":
		list := strings.Split(val, ",")
		for i := range list {
			list[i] = strings.TrimSpace(list[i])
		}
		if key == "variants" {
			o.Variants = list
		} else {
			o.Fresh = list
		}
	case "as":
		o.As = val
	case "predict":
		if _, err := ParsePrediction(val); err != nil {
			return err
		}
		o.Predict = val
	case "export":
		o.Export = val
	case "baseline":
		o.BaselineName = val
	}
	return nil
}

// resolve checks the options against the kernel's variants and picks the
// measured and fresh variants.
func (o *Options) resolve(names []string) error {
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	check := func(key string, list []string) error {
		for _, v := range list {
			if !known[v] {
				return fmt.Errorf("%s=: the kernel has no variant %q; its variants are %s", key, v, strings.Join(names, ", "))
			}
		}
		return nil
	}
	if o.Variants == nil {
		o.Variants = names
	}
	if err := check("variants", o.Variants); err != nil {
		return err
	}
	if o.Fresh == nil {
		o.Fresh = o.Variants
	}
	return check("fresh", o.Fresh)
}
