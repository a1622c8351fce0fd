package protocol

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/benchbook/benchbook/internal/procs"
	"github.com/benchbook/benchbook/internal/records"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/numtext"
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
	base  *baseRun // the baseline measured in the same run, or nil
	// layouts are the builds the fresh processes are spread over: the
	// kernel first, then its alignment variants (layouts=K).
	wrapper  []string // a tool the next processes run under, e.g. valgrind
	layouts  []*harness.Kernel
	pads     *mrand.Rand
	stopLoad func()
	// Phase timing and progress; started is when Run began (the budget
	// of a before/after counts from it).
	phaseStart time.Time
	started    time.Time
	// shared, in a sweep, is what its points share (one fingerprint).
	shared *sweepShared
}

// collected is what the processes measured, before it is summarised.
type collected struct {
	slots []string    // interleaved slots; the last is the A/A copy
	inter [][]float64 // per slot, ns per pass, in round order
	pos   [][]int     // per slot, its position in each round
	// roundBlock is, per interleaved round, the block (process, or pair
	// of processes) that took it (blocks.go).
	roundBlock []int
	counts     map[string]cacheCounts // callgrind's counts (counts.go)
	batch      map[string]int64
	// autoBatch is the batch size the calibration chose, before batch=K.
	autoBatch map[string]int64
	// passNS is one pass of each variant as the calibration timed it (the
	// median of its last candidate over its k): what a warmup round is
	// expected to cost (settleCountsWarmup).
	passNS  map[string]float64
	inproc  map[string]*inProc
	fresh   map[string]*freshRuns
	sums    map[string]*Checksum
	clock   *Clock
	aaIndex int
	latency *latencyCollect // BENCH_OPS (latency.go)
	freq    freqData        // the clock of each process (freq.go)
}

func newCollected() collected {
	return collected{batch: map[string]int64{}, autoBatch: map[string]int64{}, passNS: map[string]float64{}, inproc: map[string]*inProc{}, fresh: map[string]*freshRuns{},
		sums: map[string]*Checksum{}}
}

type inProc struct {
	samples []float64
	coldNS  *float64
	coldFlt *int64
	warmFlt []int64
}

type freshRuns struct {
	samples  []float64
	cold     []float64
	flt      []int64
	setupNS  []float64
	setupFlt []int64
	layout   Layout
	freq     []FreqProcess // each process's clock (freq.go)
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
	switch {
	case opt.Pages == "huge" && opt.Baseline == nil:
		opt.Baseline = k // the same binary with 4 KiB pages (controls.go)
	case opt.Pad > 0 && opt.Baseline == nil:
		return nil, fmt.Errorf("pad=%d: the padded build runs beside the kernel without it: give the unpadded build as Options.Baseline (a %%bench cell does)", opt.Pad)
	}
	r, err := newRunner(k, opt)
	if err != nil {
		return nil, err
	}
	r.started = time.Now()
	r.progress(Progress{Phase: "raw records and result in " + r.dir})
	steps := []step{
		{"conditions before", r.before},
		{"first execution, discarded (calibrates batches)", r.firstExecution},
		{"part 1: variants interleaved round robin", r.interleaved},
		{"part 2: in-process series", r.inProcess},
		{"part 2: fresh processes", r.freshProcesses},
	}
	if opt.Baseline != nil {
		// Before and after: the in-process series first, then blocks of
		// both builds (interleaved pairs and fresh pairs) until the
		// verdicts are known or the budget is spent (blocks.go).
		steps = []step{
			{"conditions before", r.before},
			{"first execution, discarded (calibrates batches)", r.firstExecution},
			{"part 2: in-process series", r.inProcess},
			{"before and after, in blocks", r.interleaved},
		}
	}
	if opt.Counts {
		steps = append(steps, step{"instruction counts under valgrind", r.counts})
	}
	stopDuring := r.startDuring()
	runErr := r.startLoad(ctx)
	for _, s := range steps {
		if runErr != nil {
			break
		}
		runErr = r.do(ctx, s)
	}
	if r.stopLoad != nil {
		r.stopLoad()
	}
	if d, err := stopDuring(); err == nil {
		r.res.Conditions.During = &d
	}
	r.res.Conditions.After = machine.Now()
	if runErr != nil {
		r.res.Partial = true
		r.res.Error = runErr.Error()
	}
	r.assemble()
	if err := r.save(); err != nil {
		// Said with the result, so that nothing shown claims the file
		// (the folder is new: the file is there only if save wrote it).
		if _, serr := os.Lstat(filepath.Join(r.dir, ResultFile)); serr != nil {
			r.res.ResultNotWritten = err.Error()
		}
		if runErr == nil || !errors.Is(runErr, ErrDiskFull) {
			runErr = errors.Join(runErr, err)
		}
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
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultOptions().Timeout
	}
	// Everything that can be checked is checked before anything runs.
	for _, check := range []func() error{opt.Check, func() error { return opt.ResolveVariants(k.Names()) }, opt.CheckMachine, opt.CheckExport} {
		if err := check(); err != nil {
			return nil, err
		}
	}
	dir, err := rawDir(opt.ResultsDir, k.Name)
	if err != nil {
		return nil, err
	}
	r := &runner{k: k, opt: opt, dir: dir, res: newResult(k, opt)}
	r.res.RawFile, r.res.BaselineNote = dir, opt.BaselineNote
	r.res.Control = controlOf(opt)
	r.data = newCollected()
	if opt.Predict != "" {
		r.res.Prediction, _ = ParsePrediction(opt.Predict)
	}
	r.pads = mrand.New(mrand.NewPCG(r.orderSeed(), 2))
	r.layouts = []*harness.Kernel{k}
	if len(opt.LayoutKernels) > 1 {
		r.layouts = opt.LayoutKernels
	}
	r.res.Protocol.Layouts = len(r.layouts)
	if err := r.pinAwayFromLoad(); err != nil {
		return nil, err
	}
	if opt.Baseline != nil {
		r.base = newBaseRun(opt.Baseline, r.orderSeed())
	}
	return r, nil
}

// orderSeed is the protocol's order seed as a number.
func (r *runner) orderSeed() uint64 {
	n, _ := strconv.ParseUint(r.res.Protocol.OrderSeed, 10, 64)
	return n
}

// maxSeed bounds the order seed below 2^53: JavaScript numbers keep
// integers exact only that far.
const maxSeed = 1<<53 - 1

func newResult(k *harness.Kernel, opt Options) *Result {
	var seed [8]byte
	_, _ = rand.Read(seed[:])
	p := Protocol{Reps: opt.Reps, Runs: opt.Runs, SettleMS: float64(opt.Settle.Microseconds()) / 1000,
		Warmup: opt.Warmup, Load: opt.Load, Variants: opt.Variants, Fresh: opt.Fresh, Quick: opt.Quick,
		Timeout: opt.Timeout.String(), StatsMethod: Method, Alpha: 0.05, ReadsPerPass: ReadsPerPass,
		OrderSeed: strconv.FormatUint(binary.LittleEndian.Uint64(seed[:])&maxSeed, 10)}
	if opt.Pin >= 0 {
		pin := opt.Pin
		p.Pin = &pin
	}
	floor := float64(opt.SettleFloor().Microseconds()) / 1000
	p.SettleMinMS, p.Resolve = &floor, opt.Resolve
	p.ColdAfter, p.ASLR = "start", "on"
	if opt.ColdAfterSetup {
		p.ColdAfter = "setup"
	}
	if opt.NoASLR {
		p.ASLR = "off"
	}
	p.Batch = "auto"
	if opt.Batch > 0 {
		p.Batch = strconv.FormatInt(opt.Batch, 10)
	}
	if opt.Elements > 0 {
		e := opt.Elements
		p.Elements = &e
	}
	return &Result{Schema: SchemaID, Protocol: p, Kernel: Kernel{Name: k.Name, Lang: k.Lang, Compiler: k.Compiler,
		Flags: append([]string{}, k.Flags...), SourceSHA256: k.SourceSHA256, BinarySHA256: k.BinarySHA256}}
}

// rawDir makes the folder that holds this run's raw records and result, in
// base (a results folder beside the notebook) or the user cache: a new
// folder, created exclusively (two runs started in the same millisecond get
// two), private to the user (0700). base must be a folder of this user's,
// not a link (procs.OwnDir), and the new folder is made in it without
// following one (procs.MkdirIn).
func rawDir(base, kernel string) (string, error) {
	if base == "" {
		cache, err := harness.DefaultCacheDir()
		if err != nil {
			return "", fmt.Errorf("results folder: %w", err)
		}
		base = filepath.Join(cache, "results")
	}
	if err := procs.OwnDir(base); err != nil {
		return "", fmt.Errorf("results folder: %w", err)
	}
	stamp := strings.ReplaceAll(time.Now().Format("20060102-150405.000"), ".", "-")
	for range 10 {
		var suffix [4]byte
		_, _ = rand.Read(suffix[:])
		dir, err := procs.MkdirIn(base, fmt.Sprintf("%s-%s-%x", kernel, stamp, suffix))
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("results folder: %w", err)
		}
	}
	return "", fmt.Errorf("results folder: no free name in %s", base)
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

// startDuring starts watching the machine (busy CPUs, other processes);
// the returned func stops it when the measuring ends. (startLoad starts the
// load threads asked for.)
func (r *runner) startDuring() func() (machine.During, error) {
	if stop, err := machine.Measure(5); err == nil {
		return stop
	}
	return func() (machine.During, error) { return machine.During{}, errors.New("not measured") }
}

// startLoad starts the busy threads load= asks for, pinned to CPUs other
// than the benchmark's (pinAwayFromLoad chose them); a load that does not
// start, or could only run unpinned, fails the run.
func (r *runner) startLoad(ctx context.Context) error {
	if r.opt.Load == 0 {
		return nil
	}
	kind, bytes := machine.LoadALU, int64(0)
	if r.opt.LoadKind == machine.LoadMemory {
		kind, bytes = machine.LoadMemory, machine.LoadMemoryBytes()
	}
	stop, info, err := machine.StartLoadKind(kind, bytes, r.opt.Load, r.res.Protocol.BenchCPUs)
	if err != nil {
		return fmt.Errorf("load=%d: %w", r.opt.Load, err)
	}
	if len(info.CPUs) != r.opt.Load {
		stop()
		return fmt.Errorf("load=%d: the load threads could not be pinned away from the benchmark's CPU %v: %s", r.opt.Load, r.res.Protocol.BenchCPUs, info.Note)
	}
	r.stopLoad = stop
	r.res.Protocol.LoadCPUs = info.CPUs
	r.res.Protocol.LoadNote = info.Note
	r.res.Protocol.LoadKind, r.res.Protocol.LoadBytes = kind, bytes
	return nil
}

// pinAwayFromLoad, with load=, pins every benchmark process to one CPU
// (pin= when given, else the first this process may use) so that the load
// threads, pinned to the others, never share it; both sets are recorded.
func (r *runner) pinAwayFromLoad() error {
	if r.opt.Pin >= 0 {
		r.res.Protocol.BenchCPUs = []int{r.opt.Pin}
	}
	if r.opt.Load == 0 || r.opt.Pin >= 0 {
		return nil
	}
	cpu, err := machine.FirstAllowedCPU()
	if err != nil {
		return fmt.Errorf("load=%d: %w", r.opt.Load, err)
	}
	r.opt.Pin = cpu
	r.res.Protocol.BenchCPUs = []int{cpu}
	return nil
}

func (r *runner) before(ctx context.Context) error {
	r.res.Conditions.Machine = machine.Describe()
	r.res.Conditions.Fingerprint = r.fingerprint()
	r.res.Conditions.Before = machine.Now()
	return r.saveRunFile()
}

// fingerprint measures the machine's fingerprint on the benchmark's CPU
// (pin=, or the one load= keeps free), or only its boot conditions with
// fingerprint=off. A sweep measures it once, for its first point.
func (r *runner) fingerprint() *machine.Fingerprint {
	if r.shared != nil && r.shared.fp != nil {
		return r.shared.fp
	}
	opt := machine.FingerprintOptions{CPU: r.opt.Pin}
	if r.opt.NoFingerprint {
		opt.Skip = "fingerprint=off"
	}
	f := machine.MeasureFingerprint(opt)
	if r.shared != nil {
		r.shared.fp = &f
	}
	return &f
}

// sweepShared is what the runners of one sweep's points share.
type sweepShared struct {
	fp *machine.Fingerprint // measured by the first point's conditions
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
// 000: the first execution pays extra in its cold pass). It settles and
// calibrates, and takes no warmup: no round follows it. It calibrates the
// batch size of every variant whose pass is shorter than ReadsPerPass clock
// reads; a variant the compiler emptied is never batched: it times the clock.
func (r *runner) firstExecution(ctx context.Context) error {
	vs := r.opt.Variants
	p, err := r.exec(ctx, "first-discarded", harness.Args{Slots: vs, Cold: vs[0], Clock: true,
		SettleMS: settleMS(r.opt.Settle), CalibrateReads: ReadsPerPass})
	if err != nil {
		return err
	}
	if err := r.collectBatches(p); err != nil {
		return err
	}
	if r.base != nil {
		// The baseline's binary is run once and discarded too: the first
		// execution after a while pays for what the page cache lost. A
		// baseline that no longer runs is reported and left out.
		_, err := r.execBin(ctx, r.base.k.Binary, "baseline-first-discarded", harness.Args{Slots: r.base.common(vs)})
		if len(r.base.common(vs)) == 0 {
			err = errors.New("it has none of the measured variants")
		}
		if err != nil && ctx.Err() == nil {
			r.res.BaselineDropped = fmt.Sprintf("the baseline (%s, binary %s) was left out of this run: %v",
				r.base.k.Name, numtext.ShortHash(r.base.k.BinarySHA256), err)
			r.base, r.res.Protocol.Pairs = nil, 0
		}
	}
	return nil
}

// collectBatches reads the batch size calibrated for each variant.
func (r *runner) collectBatches(p *proc) error {
	for _, rec := range p.Records {
		b, ok := rec.Value.(records.Batch)
		if !ok {
			continue
		}
		k, name := b.K, b.Variant
		r.data.autoBatch[name] = k
		if k > 0 && b.NS > 0 {
			r.data.passNS[name] = float64(b.NS) / float64(k)
		}
		if r.opt.Batch > 0 {
			k = r.opt.Batch // batch=K: the user's choice, the calibration's kept
		}
		if v := r.variant(name); v != nil && (v.Dead || v.Hollow) {
			k = 1
		}
		r.data.batch[name] = k
	}
	return nil
}

// batches are the passes per sample of each slot, as calibrated (at least 1).
func (r *runner) batches(slots []string) []int64 {
	ks := make([]int64, len(slots))
	for i, s := range slots {
		ks[i] = max(r.data.batch[s], 1)
	}
	return ks
}

// measured are the options of a process that measures slots: their
// batches, the settle and the warmup; rounds are the caller's.
func (r *runner) measured(slots []string) harness.Args {
	return harness.Args{Slots: slots, Batch: r.batches(slots), SettleMS: settleMS(r.opt.Settle), Warmup: r.opt.Warmup}
}

// settleMS is d in milliseconds, to the microsecond.
func settleMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// aaVariant is the live variant that runs twice in the round robin.
func (r *runner) aaVariant() string {
	for _, v := range r.opt.Variants {
		if r.live(v) {
			return v
		}
	}
	return r.opt.Variants[0]
}

// interleavedSlots are the measured variants and the A/A copy, last.
func (r *runner) interleavedSlots() []string {
	return append(append([]string{}, r.opt.Variants...), r.aaVariant())
}

// interleaved is Part 1: all variants round robin in a few processes
// (BlockPlan), after one discarded warmup pass each, with one live variant
// twice: the A/A control. With a baseline it is the before/after in blocks.
// Its processes take no cold pass: nothing reads it (the cold series is the
// fresh processes'), and with cold=after-setup it would cost each of them
// an eviction.
func (r *runner) interleaved(ctx context.Context) error {
	slots := r.interleavedSlots()
	if r.base != nil {
		return r.beforeAfter(ctx)
	}
	return r.interleavedBlocks(ctx, slots)
}

// collectInterleaved reads the interleaved processes (one, or one per
// pair with a baseline): their rounds in order, the clock, the checksums.
func (r *runner) collectInterleaved(ps []*proc, slots []string) {
	r.data.slots, r.data.aaIndex = slots, len(slots)-1
	r.data.inter, r.data.pos = collectRounds(ps, len(slots))
	r.data.collectFreqInterleaved(ps, len(slots))
	for _, p := range ps {
		if p != nil {
			r.collectClockAndSums(p, slots)
		}
	}
}

func (r *runner) collectClockAndSums(p *proc, slots []string) {
	for _, rec := range p.Records {
		switch v := rec.Value.(type) {
		case records.Clock:
			r.data.clock = clockOf(v)
		case records.Gaps: // both drivers write it after the clock record
			if r.data.clock != nil {
				addGaps(r.data.clock, v)
			}
		case records.Checksum:
			if v.Slot >= 0 && int(v.Slot) < len(slots) {
				r.addChecksum(slots[v.Slot], v)
			}
		}
	}
}

// collectRounds reads the samples of interleaved processes, one after the
// other: per slot, ns per pass in round order and the position the slot ran
// at in its round.
func collectRounds(ps []*proc, nslots int) ([][]float64, [][]int) {
	inter, pos := make([][]float64, nslots), make([][]int, nslots)
	var recs []records.Record
	for _, p := range ps {
		if p != nil {
			recs = append(recs, p.Records...)
		}
	}
	for _, rec := range recs {
		slot, pass, ok := sample(rec)
		if !ok || slot >= nslots {
			continue
		}
		inter[slot] = append(inter[slot], pass)
		pos[slot] = append(pos[slot], int(rec.Value.(records.Sample).Pos))
	}
	return inter, pos
}

// sample reads a sample record: its slot and its time per pass.
func sample(rec records.Record) (slot int, pass float64, ok bool) {
	s, ok := rec.Value.(records.Sample)
	if !ok || s.K < 1 || s.Slot < 0 {
		return 0, 0, false
	}
	return int(s.Slot), float64(s.NS) / float64(s.K), true
}

func (r *runner) addChecksum(variant string, c records.Checksum) {
	addChecksum(r.data.sums, variant, c)
}

// addChecksum adds a checksum record of variant to sums.
func addChecksum(sums map[string]*Checksum, variant string, rec records.Checksum) {
	c := sums[variant]
	if c == nil {
		c = &Checksum{Want: rec.Want}
		sums[variant] = c
	}
	c.Got += rec.Got
	c.Passes += int(rec.Passes)
	c.Want = rec.Want
}

// inProcess is Part 2's first half: per variant, one process that makes its
// cold pass, sets up, settles, discards its warmup and takes reps passes.
func (r *runner) inProcess(ctx context.Context) error {
	for i, v := range r.opt.Fresh {
		r.progress(Progress{Phase: "part 2: in-process series of " + v, Process: i + 1, Of: len(r.opt.Fresh)})
		a := r.measured([]string{v})
		a.Cold, a.Rounds = v, r.opt.Reps
		p, err := r.exec(ctx, "inprocess-"+v, a)
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
		switch c := rec.Value.(type) {
		case records.Cold:
			ns, flt := float64(c.NS), c.Minflt
			s.coldNS, s.coldFlt = &ns, &flt
		case records.Sample:
			if _, pass, ok := sample(rec); ok {
				s.samples = append(s.samples, pass)
				if c.Minflt >= 0 { // -1: not counted (records.md)
					s.warmFlt = append(s.warmFlt, c.Minflt)
				}
			}
		case records.Checksum:
			r.addChecksum(v, c)
		case records.Ticks, records.LatencyBuckets, records.Latency:
			r.data.collectLatency(rec)
		}
	}
	r.data.collectFreqInProcess(v, p, len(s.samples))
}

// freshProcesses is Part 2's second half and Part 3: runs processes per
// variant, each making its cold pass first and then one measured pass. The
// variants take turns, so that drift over the run lands on each alike.
// (With a baseline the fresh processes are in the blocks.)
func (r *runner) freshProcesses(ctx context.Context) error {
	total := r.opt.Runs * len(r.opt.Fresh)
	n := 0
	for run := 0; run < r.opt.Runs; run++ {
		for _, v := range r.opt.Fresh {
			n++
			r.progress(Progress{Phase: "part 2: fresh processes", Process: n, Of: total})
			layout := run % len(r.layouts)
			if err := r.freshOne(ctx, r.layouts[layout].Binary, fmt.Sprintf("fresh-l%d", layout), v, run, layout, r.data.fresh, r.addChecksum); err != nil {
				return err
			}
		}
	}
	return nil
}

// collectFresh adds one fresh process's cold pass and measured pass to the
// runs of variant v in into; its checksum records go to sum.
func collectFresh(into map[string]*freshRuns, v string, p *proc, sum func(string, records.Checksum)) {
	if p == nil {
		return
	}
	s := into[v]
	if s == nil {
		s = &freshRuns{}
		into[v] = s
	}
	var cold *float64
	var flt int64
	var warm []float64
	setupNS, setupFlt := -1.0, int64(-1)
	stack, heap, aslr := -1, -1, true
	for _, rec := range p.Records {
		switch c := rec.Value.(type) {
		case records.Cold:
			ns := float64(c.NS)
			cold, flt = &ns, c.Minflt
		case records.Setup:
			setupNS, setupFlt = float64(c.NS), c.Minflt
		case records.Layout:
			stack, heap, aslr = int(c.StackPad), int(c.HeapPad), c.ASLR != 0
		case records.Sample:
			if _, pass, ok := sample(rec); ok {
				warm = append(warm, pass)
			}
		case records.Checksum:
			sum(v, c)
		}
	}
	// A process counts in the cold series only with its measured pass, so
	// that the cold and fresh series stay paired by process.
	if cold != nil && len(warm) == 1 {
		s.cold = append(s.cold, *cold)
		s.flt = append(s.flt, flt)
		s.samples = append(s.samples, warm[0])
		if setupNS >= 0 {
			s.setupNS, s.setupFlt = append(s.setupNS, setupNS), append(s.setupFlt, setupFlt)
		}
		s.layout.IDs = append(s.layout.IDs, p.Layout)
		s.layout.StackPad = append(s.layout.StackPad, stack)
		s.layout.HeapPad = append(s.layout.HeapPad, heap)
		s.layout.ASLR = append(s.layout.ASLR, aslr)
		s.freq = append(s.freq, procFreq(p.Records, 1))
	}
}

// placement is where a fresh process goes in memory: address
// randomisation off when asked, and a random shift of its stack and heap (0 to 4080 bytes in steps of 16,
// drawn from the run's order seed), so that the fresh series samples
// placements instead of repeating one (seed 000: "nothing here randomises or
// records code, stack or heap layout").
func (r *runner) placement() *harness.Layout {
	return &harness.Layout{StackPad: 16 * r.pads.IntN(256), HeapPad: 16 * r.pads.IntN(256), NoASLR: r.opt.NoASLR}
}

// clockOf reads a clock record: the grid from its spaced runs
// (machine.ClockGrid, as the fingerprint reads it), the median read cost,
// the mean and the smallest step.
func clockOf(rec records.Clock) *Clock {
	c := &Clock{Source: rec.Source, Spaced: rec.Spaced, ReadCostNS: rec.ReadCostNS, ReadCostMeanNS: rec.ReadCostMeanNS,
		MinStepNS: float64(rec.MinStepNS)}
	c.ResolutionNS = ClockResolution(c.Spaced, c.MinStepNS)
	return c
}

// addGaps records what the gaps record says.
func addGaps(c *Clock, rec records.Gaps) {
	c.GapWindowNS, c.GapThresholdNS, c.GapCount = float64(rec.WindowNS), float64(rec.ThresholdNS), rec.Count
	c.GapTotalNS, c.GapMaxNS = float64(rec.TotalNS), float64(rec.MaxNS)
}
