package options

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/internal/sweep"
)

// Options are the keys of %bench (DESIGN.md) and of bench.Run in glue cells.
type Options struct {
	Reps   int
	Runs   int
	Settle time.Duration
	// SettleMin is the floor of the adaptive settle (settle=LO..HI); -1
	// means the default, the smaller of DefaultSettleMin and Settle. Equal
	// to Settle, the settle is fixed.
	SettleMin time.Duration
	Warmup    int
	Variants  []string // measured variants; nil means all
	Fresh     []string // variants with the in-process and fresh-process series; nil means all measured
	Elements  int64    // work per pass, 0 when not given
	Pin       int      // CPU, -1 when not pinned
	Load      int      // busy threads on other CPUs during the run
	// LoadKind is what they do: "alu" (the default) or "memory" (load=memory:N).
	LoadKind string
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
	// BaselineNote is what the session says of the baseline it chose, or
	// why it has none (the previous build gone from the cache); the result
	// keeps it (Result.BaselineNote).
	BaselineNote string
	// Pairs, with a baseline, fixes how many blocks (pairs of processes,
	// one of each build) are measured when PairsFixed is set (pairs=);
	// otherwise the blocks go on until every verdict is known or Budget is
	// spent (and at least MinRuns, at most MaxPairs: BlockStop).
	Pairs      int
	PairsFixed bool
	// Budget is the time a before/after may take: no new block starts
	// when it would end past it (budget=).
	Budget time.Duration
	// Resolve is the width of the band around 1 within which an interval
	// is "no difference" (resolve=, a fraction: 0.02 is 2%, the band
	// 0.99..1.01; Verdict).
	Resolve float64
	// Started is when the %bench began (the cell, with its build), from
	// which the budget counts; zero means when Run began.
	Started time.Time
	// ColdAfterSetup times the cold pass after setup with the caches
	// evicted (cold=after-setup) instead of before setup (cold=start).
	ColdAfterSetup bool
	// NoASLR runs the fresh processes with address randomisation off
	// (aslr=off): one fixed layout.
	NoASLR bool
	// Layouts is how many builds with different code alignment the fresh
	// processes are spread over (layouts=K, C only); LayoutKernels holds
	// them, the kernel itself first (the session builds them).
	Layouts       int
	LayoutKernels []*harness.Kernel
	// NoFingerprint skips the measured fingerprint (fingerprint=off): the
	// result records the boot conditions only.
	NoFingerprint bool
	// Counts runs each variant under valgrind's callgrind too and records
	// its instructions per pass: the one figure the load does not move.
	Counts bool
	// Batch fixes the passes per sample of every live variant (batch=K; 1
	// times every pass alone); 0 lets the first execution choose (a pass
	// shorter than ReadsPerPass clock reads is batched).
	Batch int64
	// Sweep is the sweep= axes (sweep.go) and Bytes the bytes= working
	// set rule; the session builds one kernel per point (RunSweep).
	Sweep []result.Axis
	Bytes *sweep.BytesExpr
	// Pages is "huge" for the pages=huge control (controls.go): the kernel
	// with huge pages beside 4 KiB pages; "" without it.
	Pages string
	// Pad is the pad=BYTES control (controls.go): the kernel built with
	// -DBENCH_PAD=Pad beside the kernel without; 0 without it.
	Pad int64
	// Progress, when set, is told what the run is doing.
	Progress func(Progress) `json:"-"`
}

// SettleFloor is the floor of the adaptive settle: SettleMin when given,
// else the smaller of DefaultSettleMin and Settle.
func (o Options) SettleFloor() time.Duration {
	if o.SettleMin >= 0 {
		return min(o.SettleMin, o.Settle)
	}
	return min(result.DefaultSettleMin, o.Settle)
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
	return Options{Reps: 30, Runs: 30, Settle: 100 * time.Millisecond, SettleMin: -1, Warmup: 1, Pin: -1, Timeout: 5 * time.Minute,
		Pairs: 10, Budget: 15 * time.Second, Resolve: result.DefaultResolve}
}

var keyHelp = map[string]string{
	"reps":     "passes per variant in the round robin and in the in-process series (10 to 100000)",
	"runs":     "fresh processes per variant (10 to 100000)",
	"settle":   "how long each process repeats the pass before measuring, its warmup included: at most this (e.g. 100ms), stopping once a pass no longer gets faster after 10ms; LO..HI (e.g. 20ms..100ms) sets the floor, HI..HI makes it fixed (at most 10s and a quarter of timeout)",
	"warmup":   "discarded passes per variant after settling",
	"variants": "measured variants, comma separated",
	"fresh":    "variants with the in-process and fresh-process series (Part 2), comma separated",
	"elements": "work per pass, for ns per element and the plausibility check",
	"pin":      "CPU number every process is pinned to",
	"load":     "busy threads started on other CPUs during the run (at most the CPUs besides the kernel's): N or alu:N (a chain of dependent adds each), memory:N (each streams writes over twice the last-level cache)",
	"quick":    "reps=runs=10, settle=20ms, budget=5s, resolve=5% (quick, quick=true or quick=1; quick=false or quick=0 is off)",
	"as":       "glue variable bound to the result",
	"timeout":  "time limit per process (e.g. 2m)",
	"predict":  `a prediction written before the run, e.g. "sink/discarded>100"`,
	"export":   "write the samples in the Go benchmark format to this file",
	"baseline": "another kernel of the session, measured in the same run as the baseline (ratios are this/other)",
	"pairs":    "with a baseline: measure exactly this many blocks (a pair of processes of the two builds taking rounds in turn, and a fresh pair per variant) instead of stopping when the verdicts are known (>= 10)",
	"budget":   "with a baseline: the time the before/after may take (default 15s; quick 5s): blocks stop when every verdict is known or the budget is spent, after at least 10",
	"resolve":  "with a baseline: an interval that holds 1 and is narrower than this is 'no difference' (default 2%; quick 5%); e.g. resolve=1%",
	"cold":     "when the cold pass is timed: start (before setup, untouched memory) or after-setup (first use of set-up data, caches evicted)",
	"aslr":     "off runs the fresh processes with address randomisation disabled (one fixed layout); on is the default",
	"layouts":  "spread the fresh processes over K builds with different code alignment (C only, 1 to 8)",
	"batch":    "auto (the default: a pass shorter than 100 clock reads is timed in batches), 1 (every pass timed alone, to see what the clock does to a short pass) or K passes per sample",
	"counts":   "also count each variant's instructions per pass under valgrind (callgrind): a figure noise does not move",
	"sweep":    "build and measure the kernel once per value, interleaved: N:4K..64M (powers of two), N:4K..64M*4 (factor 4), N:1024,4096 (a list), two axes with ';' as in \"N:4K..1M;M:1,8\" (docs/sweep.md)",
	"pages":    "huge measures the kernel with huge pages (THP: madvise and MADV_COLLAPSE) for its static and setup memory beside the default 4 KiB pages, in the same run (ratios huge/4K; the control of a TLB effect); 4k is the default",
	"pad":      "BYTES builds the kernel with -DBENCH_PAD=BYTES and measures it beside the kernel without (BENCH_PAD 0), in the same run (ratios padded/unpadded; the control of set conflicts from a power-of-two row stride; C only), e.g. pad=128",
	"bytes":    "a sweep's working set per point when the static data does not give it: INT*PARAM or PARAM*INT, e.g. bytes=4*N",

	// The machine's measured identity (internal/machine fingerprint.go).
	"fingerprint": "off skips measuring the machine's fingerprint (latencies of dependent adds, multiplies and loads, a chase at 16K-64M, the clock; about 0.15 s); on is the default",
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
// applies first, so explicit keys override it; quick=false does not undo
// a quick given elsewhere (a quick session's: every %bench is a smoke
// test). Then the options are checked (Check).
func ParseOptions(args []string) (Options, error) {
	o := DefaultOptions()
	for _, a := range args {
		key, val, hasVal := strings.Cut(a, "=")
		if key != "quick" {
			continue
		}
		on, err := parseBool(key, val, hasVal)
		if err != nil {
			return o, err
		}
		if on {
			o.Quick, o.Reps, o.Runs, o.Settle = true, result.MinReps, result.MinRuns, 20*time.Millisecond
			o.Budget, o.Resolve = 5*time.Second, 0.05
		}
	}
	for _, a := range args {
		key, val, hasVal := strings.Cut(a, "=")
		if key == "quick" {
			continue
		}
		if key == "counts" { // a boolean key, like quick
			on, err := parseBool(key, val, hasVal)
			if err != nil {
				return o, err
			}
			o.Counts = on
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
	return o, o.Check()
}

// parseBool reads a boolean key: bare, or =true, =1, =false, =0.
func parseBool(key, val string, hasVal bool) (bool, error) {
	switch unquote(val) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	case "":
		if !hasVal {
			return true, nil
		}
	}
	return false, fmt.Errorf("%s=%s: want %s, %s=true or %s=1, %s=false or %s=0", key, val, key, key, key, key, key)
}

// Check refuses options that cannot make a run, before anything runs: the
// bounds of each key and settle against the timeout. ParseOptions calls it,
// and Run again for options made in glue cells.
func (o *Options) Check() error {
	if o.Reps < result.MinReps || o.Runs < result.MinRuns {
		return fmt.Errorf("reps=%d runs=%d: the minimum is %d", o.Reps, o.Runs, result.MinReps)
	}
	for _, c := range []struct {
		key string
		n   int
	}{{"reps", o.Reps}, {"runs", o.Runs}, {"warmup", o.Warmup}} {
		if c.n > result.MaxReps {
			return fmt.Errorf("%s=%d is too many: the maximum is %d (every sample is kept in memory and in the result)", c.key, c.n, result.MaxReps)
		}
	}
	if o.Warmup < 0 || o.Load < 0 {
		return fmt.Errorf("warmup=%d load=%d: want whole numbers >= 0", o.Warmup, o.Load)
	}
	if o.Settle < 0 || o.Settle > result.MaxSettle {
		return fmt.Errorf("settle=%s: want a duration between 0 and %s", o.Settle, result.MaxSettle)
	}
	if o.SettleMin > o.Settle {
		return fmt.Errorf("settle=%s..%s: the floor is longer than the bound", o.SettleMin, o.Settle)
	}
	if o.Budget <= 0 || o.Budget > result.MaxBudget {
		return fmt.Errorf("budget=%s: want a duration above 0 and at most %s", o.Budget, result.MaxBudget)
	}
	if !(o.Resolve > 0 && o.Resolve < 1) {
		return fmt.Errorf("resolve=%v: want a share between 0 and 100%%, e.g. 2%%", o.Resolve)
	}
	if o.Timeout > 0 && o.Settle > o.Timeout/result.SettleShare {
		return fmt.Errorf("settle=%s is too long for timeout=%s: every process settles before it measures, so settle must be at most 1/%d of the timeout (%s)",
			o.Settle, o.Timeout, result.SettleShare, o.Timeout/result.SettleShare)
	}
	if o.Predict != "" {
		if err := o.checkPredict(); err != nil {
			return err
		}
	}
	if err := o.checkControl(); err != nil {
		return err
	}
	return o.checkSweep()
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
		if n < result.MinReps {
			return fmt.Errorf("%s=%d is too few: the minimum is %d (a single run is not a measurement)", key, n, result.MinReps)
		}
		if n > result.MaxReps {
			return fmt.Errorf("%s=%d is too many: the maximum is %d (every sample is kept in memory and in the result)", key, n, result.MaxReps)
		}
		if key == "reps" {
			o.Reps = n
		} else {
			o.Runs = n
		}
	case "settle":
		lo, hi, isRange := strings.Cut(val, "..")
		if !isRange {
			hi = lo
		}
		dl, e1 := time.ParseDuration(lo)
		dh, e2 := time.ParseDuration(hi)
		if e1 != nil || e2 != nil || dl < 0 || dh < 0 {
			return fmt.Errorf("settle=%s: want a duration such as 100ms, or LO..HI such as 20ms..100ms", val)
		}
		if dh > result.MaxSettle {
			return fmt.Errorf("settle=%s is too long: the maximum is %s (every process settles this long)", val, result.MaxSettle)
		}
		if dl > dh {
			return fmt.Errorf("settle=%s: the floor %s is longer than the bound %s", val, dl, dh)
		}
		o.Settle, o.SettleMin = dh, -1
		if isRange {
			o.SettleMin = dl
		}
	case "timeout", "budget":
		d, e := time.ParseDuration(val)
		if e != nil || d <= 0 {
			return fmt.Errorf("%s=%s: want a duration such as 15s or 2m", key, val)
		}
		if key == "budget" {
			if d > result.MaxBudget {
				return fmt.Errorf("budget=%s is too long: the maximum is %s", val, result.MaxBudget)
			}
			o.Budget = d
		} else {
			o.Timeout = d
		}
	case "resolve":
		f, e := strconv.ParseFloat(strings.TrimSuffix(val, "%"), 64)
		if e != nil || !(f > 0 && f < 100) {
			return fmt.Errorf("resolve=%s: want a percentage such as 2%% (above 0, below 100%%)", val)
		}
		o.Resolve = f / 100
	case "cold":
		switch val {
		case "start":
			o.ColdAfterSetup = false
		case "after-setup":
			o.ColdAfterSetup = true
		default:
			return fmt.Errorf("cold=%s: want cold=start (before setup) or cold=after-setup", val)
		}
	case "aslr":
		switch val {
		case "on":
			o.NoASLR = false
		case "off":
			o.NoASLR = true
		default:
			return fmt.Errorf("aslr=%s: want aslr=off or aslr=on", val)
		}
	case "fingerprint":
		switch val {
		case "on":
			o.NoFingerprint = false
		case "off":
			o.NoFingerprint = true
		default:
			return fmt.Errorf("fingerprint=%s: want fingerprint=off or fingerprint=on", val)
		}
	case "batch":
		if val == "auto" {
			o.Batch = 0
			break
		}
		n, e := strconv.ParseInt(val, 10, 64)
		if e != nil || n < 1 || n > result.MaxBatch {
			return fmt.Errorf("batch=%s: want auto or a whole number of passes per sample from 1 to %d", val, result.MaxBatch)
		}
		o.Batch = n
	case "layouts":
		n, e := strconv.Atoi(val)
		if e != nil || n < 1 || n > harness.MaxLayouts {
			return fmt.Errorf("layouts=%s: want a whole number from 1 to %d", val, harness.MaxLayouts)
		}
		o.Layouts = n
	case "pairs":
		n, e := strconv.Atoi(val)
		if e != nil || n < result.MinRuns || n > result.MaxPairs {
			return fmt.Errorf("pairs=%s: want a whole number from %d to %d (the before/after verdict is a test across the pairs)", val, result.MinRuns, result.MaxPairs)
		}
		o.Pairs, o.PairsFixed = n, true
	case "load":
		return o.setLoad(val)
	case "warmup", "pin":
		n, e := strconv.Atoi(val)
		if e != nil || n < 0 {
			return fmt.Errorf("%s=%s: want a whole number >= 0", key, val)
		}
		if key == "warmup" {
			o.Warmup = n
		} else {
			o.Pin = n
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
		o.Predict = val // checked with the sweep's axes in Check
	case "sweep", "bytes":
		return o.setSweep(key, val)
	case "pages", "pad":
		return o.setControl(key, val)
	case "export":
		o.Export = val
	case "baseline":
		o.BaselineName = val
	}
	return nil
}

// ResolveVariants checks the options against the kernel's variants and picks the
// measured and fresh variants.
func (o *Options) ResolveVariants(names []string) error {
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
	if err := check("fresh", o.Fresh); err != nil {
		return err
	}
	if o.Predict != "" {
		p, err := result.ParsePrediction(o.Predict)
		if err != nil {
			return err
		}
		for _, v := range []string{p.A, p.B} {
			if !slices.Contains(o.Variants, v) {
				return fmt.Errorf("predict=%q: %s is not a measured variant; the measured variants are %s", o.Predict, v, strings.Join(o.Variants, ", "))
			}
		}
	}
	return nil
}

// CheckMachine checks load and pin against this machine's CPUs: pin must
// be online, and load threads may be at most the CPUs other than the one
// the kernel runs on.
func (o *Options) CheckMachine() error {
	if o.Pin >= 0 {
		if err := machine.CheckCPU(o.Pin); err != nil {
			return fmt.Errorf("pin=%d: %w", o.Pin, err)
		}
	}
	if o.Load > 0 {
		online, err := machine.OnlineCPUs()
		if err != nil {
			return fmt.Errorf("load=%d: %w", o.Load, err)
		}
		if others := len(online) - 1; o.Load > others {
			return fmt.Errorf("load=%d: this machine has %d CPUs besides the one the kernel runs on: at most load=%d", o.Load, others, others)
		}
	}
	return nil
}

// CheckExport checks that the export file can be written, before the
// measuring: its folder exists and takes a new file, and it is not a folder.
func (o *Options) CheckExport() error {
	if o.Export == "" {
		return nil
	}
	if fi, err := os.Stat(o.Export); err == nil && fi.IsDir() {
		return fmt.Errorf("export=%s: is a folder; name a file", o.Export)
	}
	dir := filepath.Dir(o.Export)
	f, err := os.CreateTemp(dir, ".benchbook-export-check-")
	if err != nil {
		return fmt.Errorf("export=%s: the file cannot be written in %s: %w", o.Export, dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// KeyHelp is what a %bench key does, and its default; "" for an unknown key.
func KeyHelp(key string) string { return keyHelp[key] }
