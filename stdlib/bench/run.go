package bench

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/benchbook/benchbook/stdlib/harness"
	"github.com/benchbook/benchbook/stdlib/machine"
)

// ReadsPerPass is how many clock reads a pass must last to be timed alone;
// a shorter pass is timed in batches (seed 003).
const ReadsPerPass = 100

// GapWindowMS is how long the interleaved process reads the clock back to
// back to count the gaps in which it did not run.
const GapWindowMS = 100

// runner holds one run of the protocol.
type runner struct {
	k     *harness.Kernel
	opt   Options
	res   *Result
	dir   string
	nproc int
	data  collected
	// Phase timing and progress.
	phaseStart time.Time
}

// collected is what the processes measured, before it is summarised.
type collected struct {
	slots   []string    // interleaved slots in round-robin order; the last is the A/A copy
	inter   [][]float64 // per slot, ns per pass, in round order
	batch   map[string]int64
	inproc  map[string]*inProc
	fresh   map[string]*freshRuns
	sums    map[string]*Checksum
	clock   *Clock
	aaIndex int
}

type inProc struct {
	samples []float64
	coldNS  *float64
	coldFlt *int64
	warmFlt []int64
}

type freshRuns struct {
	samples []float64
	cold    []float64
	flt     []int64
}

// step is one named phase of the protocol.
type step struct {
	name string
	run  func(ctx context.Context) error
}

// Run runs the protocol of seed 000 on kernel k. Raw records are written as
// they are measured, and the result is written atomically to the results
// folder before Run returns, so nothing measured is lost to an interrupt or
// a crash. On interrupt it returns the partial result and ErrInterrupted.
func Run(ctx context.Context, k *harness.Kernel, opt Options) (*Result, error) {
	r, err := newRunner(k, opt)
	if err != nil {
		return nil, err
	}
	steps := []step{
		{"conditions before", r.before},
		{"first execution, discarded (calibrates batches)", r.firstExecution},
		{"part 1: variants interleaved round robin", r.interleaved},
		{"part 2: in-process series", r.inProcess},
		{"part 2: fresh processes", r.freshProcesses},
	}
	stopDuring, stopLoad := r.startDuring()
	var runErr error
	for _, s := range steps {
		if runErr = r.do(ctx, s); runErr != nil {
			break
		}
	}
	stopLoad()
	if d, err := stopDuring(); err == nil {
		r.res.Conditions.During = &d
	}
	r.res.Conditions.After = machine.Now()
	if runErr != nil {
		r.res.Partial = true
		r.res.Error = runErr.Error()
	}
	r.assemble()
	if err := r.save(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr == nil {
		runErr = r.checksumError()
	}
	return r.res, runErr
}

func newRunner(k *harness.Kernel, opt Options) (*runner, error) {
	if k == nil || k.Binary == "" {
		return nil, errors.New("no built kernel")
	}
	if err := opt.resolve(k.Names()); err != nil {
		return nil, err
	}
	if opt.Pin >= 0 {
		if err := machine.CheckCPU(opt.Pin); err != nil {
			return nil, fmt.Errorf("pin=%d: %w", opt.Pin, err)
		}
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultOptions().Timeout
	}
	dir, err := rawDir(opt.ResultsDir, k.Name)
	if err != nil {
		return nil, err
	}
	r := &runner{k: k, opt: opt, dir: dir, res: newResult(k, opt)}
	r.res.RawFile = dir
	r.data = collected{batch: map[string]int64{}, inproc: map[string]*inProc{}, fresh: map[string]*freshRuns{},
		sums: map[string]*Checksum{}}
	if opt.Predict != "" {
		r.res.Prediction, _ = ParsePrediction(opt.Predict)
	}
	return r, nil
}

func newResult(k *harness.Kernel, opt Options) *Result {
	var seed [8]byte
	_, _ = rand.Read(seed[:])
	p := Protocol{Reps: opt.Reps, Runs: opt.Runs, SettleMS: float64(opt.Settle.Microseconds()) / 1000,
		Warmup: opt.Warmup, Load: opt.Load, Variants: opt.Variants, Fresh: opt.Fresh, Quick: opt.Quick,
		Timeout: opt.Timeout.String(), BootstrapResamples: 2000, BootstrapSeed: binary.LittleEndian.Uint64(seed[:]),
		Alpha: 0.05, ReadsPerPass: ReadsPerPass}
	if opt.Pin >= 0 {
		pin := opt.Pin
		p.Pin = &pin
	}
	if opt.Elements > 0 {
		e := opt.Elements
		p.Elements = &e
	}
	return &Result{Schema: SchemaID, Protocol: p, Kernel: Kernel{Name: k.Name, Lang: k.Lang, Compiler: k.Compiler,
		Flags: append([]string{}, k.Flags...), SourceSHA256: k.SourceSHA256, BinarySHA256: k.BinarySHA256}}
}

// rawDir makes the folder that holds this run's raw records and result:
// base (a results folder beside the notebook) or the user cache.
func rawDir(base, kernel string) (string, error) {
	if base == "" {
		base = filepath.Join(harness.DefaultCacheDir(), "results")
	}
	stamp := time.Now().Format("20060102-150405.000")
	dir := filepath.Join(base, fmt.Sprintf("%s-%s", kernel, strings.ReplaceAll(stamp, ".", "-")))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("results folder: %w", err)
	}
	return dir, nil
}

func (r *runner) do(ctx context.Context, s step) error {
	start := time.Now()
	r.progress(Progress{Phase: s.name})
	err := s.run(ctx)
	r.res.Phases = append(r.res.Phases, Phase{Name: s.name, Ms: float64(time.Since(start).Microseconds()) / 1000})
	if err == nil && ctx.Err() != nil {
		err = ErrInterrupted
	}
	return err
}

func (r *runner) progress(p Progress) {
	if r.opt.Progress != nil {
		r.opt.Progress(p)
	}
}

// startDuring starts watching the machine (busy CPUs, other processes) and
// the load threads asked for; both stop when the measuring ends.
func (r *runner) startDuring() (func() (machine.During, error), func()) {
	stopDuring := func() (machine.During, error) { return machine.During{}, errors.New("not measured") }
	if stop, err := machine.Measure(5); err == nil {
		stopDuring = stop
	}
	stopLoad := func() {}
	if r.opt.Load > 0 {
		var avoid []int
		if r.opt.Pin >= 0 {
			avoid = []int{r.opt.Pin}
		}
		if stop, info, err := machine.StartLoad(r.opt.Load, avoid); err == nil {
			stopLoad = stop
			r.res.Protocol.LoadCPUs = info.CPUs
			r.res.Protocol.LoadNote = info.Note
		}
	}
	return stopDuring, stopLoad
}

func (r *runner) before(ctx context.Context) error {
	r.res.Conditions.Machine = machine.Describe()
	r.res.Conditions.Before = machine.Now()
	return nil
}

func (r *runner) variant(name string) *harness.Variant {
	v, _ := r.k.Variant(name)
	return v
}

func (r *runner) live(name string) bool {
	v := r.variant(name)
	return v != nil && !v.Dead && !v.Hollow
}

// firstExecution runs the freshly built binary once and discards it (seed
// 000: the first execution pays extra in its cold pass). It calibrates the
// batch size of every variant whose pass is shorter than ReadsPerPass clock
// reads; a variant the compiler emptied is never batched: it times the clock.
func (r *runner) firstExecution(ctx context.Context) error {
	vs := r.opt.Variants
	p, err := r.exec(ctx, "first-discarded", "-slots", strings.Join(vs, ","), "-cold", vs[0], "-clock",
		"-settle-ms", ms(r.opt.Settle), "-warmup", strconv.Itoa(r.opt.Warmup), "-rounds", "0",
		"-calibrate-reads", strconv.Itoa(ReadsPerPass))
	if err != nil {
		return err
	}
	for _, rec := range p.Records {
		if rec.Kind != "batch" {
			continue
		}
		k, err := rec.Int("k")
		if err != nil {
			return err
		}
		name := rec.Fields["variant"]
		if v := r.variant(name); v != nil && (v.Dead || v.Hollow) {
			k = 1
		}
		r.data.batch[name] = k
	}
	return nil
}

func (r *runner) batchList(slots []string) string {
	ks := make([]string, len(slots))
	for i, s := range slots {
		k := r.data.batch[s]
		if k < 1 {
			k = 1
		}
		ks[i] = strconv.FormatInt(k, 10)
	}
	return strings.Join(ks, ",")
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', -1, 64)
}

// aaVariant is the live variant that runs twice in the round robin.
func (r *runner) aaVariant() string {
	for _, v := range r.opt.Variants {
		if r.live(v) {
			return v
		}
	}
	return r.opt.Variants[0]
}

// interleaved is Part 1: all variants round robin in one process, after one
// discarded warmup pass each, with one live variant twice: the A/A control.
func (r *runner) interleaved(ctx context.Context) error {
	aa := r.aaVariant()
	slots := append(append([]string{}, r.opt.Variants...), aa)
	r.data.slots, r.data.aaIndex = slots, len(slots)-1
	r.data.inter = make([][]float64, len(slots))
	p, err := r.exec(ctx, "interleaved", "-slots", strings.Join(slots, ","), "-batch", r.batchList(slots),
		"-cold", aa, "-clock", "-gaps-ms", strconv.Itoa(GapWindowMS), "-settle-ms", ms(r.opt.Settle),
		"-warmup", strconv.Itoa(r.opt.Warmup), "-rounds", strconv.Itoa(r.opt.Reps))
	r.collectInterleaved(p, slots)
	return err
}

func (r *runner) collectInterleaved(p *proc, slots []string) {
	if p == nil {
		return
	}
	for _, rec := range p.Records {
		switch rec.Kind {
		case "clock":
			res, _ := rec.Float("resolution_ns")
			cost, _ := rec.Float("read_cost_ns")
			r.data.clock = &Clock{ResolutionNS: res, ReadCostNS: cost, Source: rec.Fields["source"]}
		case "gaps": // both drivers write it after the clock record
			if r.data.clock != nil {
				r.data.clock.addGaps(rec)
			}
		case "sample":
			slot, ns, k, ok := sample(rec)
			if ok && slot < len(slots) {
				r.data.inter[slot] = append(r.data.inter[slot], float64(ns)/float64(k))
			}
		case "checksum":
			if slot, err := rec.Int("slot"); err == nil && int(slot) < len(slots) {
				r.addChecksum(slots[slot], rec)
			}
		}
	}
}

func sample(rec harness.Record) (slot int, ns, k int64, ok bool) {
	s, e1 := rec.Int("slot")
	ns, e2 := rec.Int("ns")
	k, e3 := rec.Int("k")
	if e1 != nil || e2 != nil || e3 != nil || k < 1 {
		return 0, 0, 0, false
	}
	return int(s), ns, k, true
}

func (r *runner) addChecksum(variant string, rec harness.Record) {
	got, e1 := rec.Float("got")
	want, e2 := rec.Float("want")
	passes, e3 := rec.Int("passes")
	if e1 != nil || e2 != nil || e3 != nil {
		return
	}
	c := r.data.sums[variant]
	if c == nil {
		c = &Checksum{Want: want}
		r.data.sums[variant] = c
	}
	c.Got += got
	c.Passes += int(passes)
	c.Want = want
}

// inProcess is Part 2's first half: per variant, one process that makes its
// cold pass, sets up, settles, discards its warmup and takes reps passes.
func (r *runner) inProcess(ctx context.Context) error {
	for i, v := range r.opt.Fresh {
		r.progress(Progress{Phase: "part 2: in-process series of " + v, Process: i + 1, Of: len(r.opt.Fresh)})
		p, err := r.exec(ctx, "inprocess-"+v, "-slots", v, "-batch", r.batchList([]string{v}), "-cold", v,
			"-settle-ms", ms(r.opt.Settle), "-warmup", strconv.Itoa(r.opt.Warmup), "-rounds", strconv.Itoa(r.opt.Reps))
		r.collectInProcess(v, p)
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) collectInProcess(v string, p *proc) {
	if p == nil {
		return
	}
	s := &inProc{}
	r.data.inproc[v] = s
	for _, rec := range p.Records {
		switch rec.Kind {
		case "cold":
			ns, e1 := rec.Float("ns")
			flt, e2 := rec.Int("minflt")
			if e1 == nil && e2 == nil {
				s.coldNS, s.coldFlt = &ns, &flt
			}
		case "sample":
			if _, ns, k, ok := sample(rec); ok {
				s.samples = append(s.samples, float64(ns)/float64(k))
				if f, err := rec.Int("minflt"); err == nil {
					s.warmFlt = append(s.warmFlt, f)
				}
			}
		case "checksum":
			r.addChecksum(v, rec)
		}
	}
}

// freshProcesses is Part 2's second half and Part 3: runs processes per
// variant, each making its cold pass first and then one measured pass. The
// variants take turns, so that drift over the run lands on each alike.
func (r *runner) freshProcesses(ctx context.Context) error {
	total := r.opt.Runs * len(r.opt.Fresh)
	n := 0
	for run := 0; run < r.opt.Runs; run++ {
		for _, v := range r.opt.Fresh {
			n++
			r.progress(Progress{Phase: "part 2: fresh processes", Process: n, Of: total})
			p, err := r.exec(ctx, fmt.Sprintf("fresh-%s-%02d", v, run+1), "-slots", v, "-batch", r.batchList([]string{v}),
				"-cold", v, "-settle-ms", ms(r.opt.Settle), "-warmup", strconv.Itoa(r.opt.Warmup), "-rounds", "1")
			r.collectFresh(v, p)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *runner) collectFresh(v string, p *proc) {
	if p == nil {
		return
	}
	s := r.data.fresh[v]
	if s == nil {
		s = &freshRuns{}
		r.data.fresh[v] = s
	}
	var cold *float64
	var flt int64
	var warm []float64
	for _, rec := range p.Records {
		switch rec.Kind {
		case "cold":
			if ns, err := rec.Float("ns"); err == nil {
				cold = &ns
				flt, _ = rec.Int("minflt")
			}
		case "sample":
			if _, ns, k, ok := sample(rec); ok {
				warm = append(warm, float64(ns)/float64(k))
			}
		case "checksum":
			r.addChecksum(v, rec)
		}
	}
	// A process counts in the cold series only with its measured pass, so
	// that the cold and fresh series stay paired by process.
	if cold != nil && len(warm) == 1 {
		s.cold = append(s.cold, *cold)
		s.flt = append(s.flt, flt)
		s.samples = append(s.samples, warm[0])
	}
}

// addGaps records what the gaps record says.
func (c *Clock) addGaps(rec harness.Record) {
	c.GapWindowNS, _ = rec.Float("window_ns")
	c.GapThresholdNS, _ = rec.Float("threshold_ns")
	c.GapCount, _ = rec.Int("count")
	c.GapTotalNS, _ = rec.Float("total_ns")
	c.GapMaxNS, _ = rec.Float("max_ns")
}
