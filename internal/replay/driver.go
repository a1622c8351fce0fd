package replay

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/harness"
	gobench "github.com/benchbook/benchbook/internal/harness/go/bench"
)

// Main runs the replay driver and exits when this binary was started as a
// replay kernel (a scenario file sits at os.Args[0]+ScenarioSuffix);
// otherwise it returns at once. Call it from an init function of a test
// package (before testing parses its flags).
func Main() {
	if len(os.Args) < 1 {
		return
	}
	if _, err := os.Stat(os.Args[0] + ScenarioSuffix); err != nil {
		return
	}
	os.Exit(Run(os.Args[0]+ScenarioSuffix, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Run is the driver on args (without the program name) with the scenario
// file at path; it returns the exit status.
func Run(path string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sc, err := ReadScenario(path)
	if err != nil {
		fmt.Fprintf(stderr, "replay driver: %v\n", err)
		return 2
	}
	if len(args) == 0 || args[0] == "list" {
		for i, v := range sc.Variants {
			line := v.Line
			if line == 0 {
				line = i + 2
			}
			fmt.Fprintf(stdout, "variant %s %d\n", v.Name, line)
		}
		fmt.Fprintf(stdout, "setup %d\n", b2i(sc.Setup))
		return 0
	}
	d := &driver{sc: sc, kernel: filepath.Base(strings.TrimSuffix(path, ScenarioSuffix)), out: stdout, stdin: stdin, stdout: stdout}
	status, err := d.run(args)
	defer func() {
		if d.closer != nil {
			d.closer.Close()
		}
	}()
	if err != nil {
		d.record("error msg=%s", err)
		fmt.Fprintf(stderr, "replay driver: %v\n", err)
		return 2
	}
	return status
}

type slot struct {
	v        *Variant
	k        int64
	csGot    float64
	csPasses int64
}

type driver struct {
	warmup     string // the warmup's phase record, until the first sample is written
	sc         *Scenario
	kernel     string // the kernel's name: its Binary's
	out        io.Writer
	closer     io.Closer // the -out file
	stdin      io.Reader
	stdout     io.Writer
	file       string // the record file's name: the noise's key
	key        uint64
	slots      []*slot
	shuffle    bool
	seed       uint64 // -order-seed
	step       *bufio.Scanner
	stepRounds int
	stepWarm   int
	samples    int // sample records written
	fail       *Fail
}

// errFailed ends a process the scenario fails (its Fail says how).
type errFailed struct{}

func (errFailed) Error() string { return "replay: failed as the scenario says" }

func (d *driver) record(format string, args ...any) {
	_, _ = io.WriteString(d.out, fmt.Sprintf(format, args...)+"\n") // one write(2) per record
}

// ParseArgs reads a driver command line (the words after "run") back into
// the host's harness.Args: the inverse of Args.Argv, one entry per option
// of records.md's table and none other, with the drivers' defaults for
// what is not given (-settle-ms 100, -warmup 1). An unknown option, a
// missing value or one that is not a number is an error, as the drivers'
// flag parsing makes it.
func ParseArgs(argv []string) (harness.Args, error) {
	a := harness.Args{SettleMS: 100, Warmup: 1}
	layout := func() *harness.Layout {
		if a.Layout == nil {
			a.Layout = &harness.Layout{}
		}
		return a.Layout
	}
	integer := func(set func(int)) func(string) error {
		return func(v string) error {
			n, err := strconv.Atoi(v)
			set(n)
			return err
		}
	}
	float := func(set func(float64)) func(string) error {
		return func(v string) error {
			f, err := strconv.ParseFloat(v, 64)
			set(f)
			return err
		}
	}
	valued := map[string]func(string) error{
		"-out":   func(v string) error { a.Out = v; return nil },
		"-slots": func(v string) error { a.Slots = strings.Split(v, ","); return nil },
		"-batch": func(v string) error {
			for _, w := range strings.Split(v, ",") {
				k, err := strconv.ParseInt(w, 10, 64)
				if err != nil {
					return err
				}
				a.Batch = append(a.Batch, k)
			}
			return nil
		},
		"-cold": func(v string) error { a.Cold = v; return nil },
		"-evict-bytes": func(v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			a.EvictBytes = n
			return err
		},
		"-stack-pad":       integer(func(n int) { layout().StackPad = n }),
		"-heap-pad":        integer(func(n int) { layout().HeapPad = n }),
		"-pin":             integer(func(n int) { a.Pin = &n }),
		"-settle-ms":       float(func(f float64) { a.SettleMS = f }),
		"-settle-min-ms":   float(func(f float64) { a.SettleMinMS = &f }),
		"-warmup":          integer(func(n int) { a.Warmup = n }),
		"-rounds":          integer(func(n int) { a.Rounds = n }),
		"-calibrate-reads": integer(func(n int) { a.CalibrateReads = n }),
		"-gaps-ms":         integer(func(n int) { a.GapsMS = n }),
		"-order-seed": func(v string) error {
			seed, err := strconv.ParseUint(v, 10, 64)
			a.OrderSeed = &seed
			return err
		},
		"-pages": func(v string) error {
			if v != "4k" && v != "huge" {
				return errors.New("want 4k or huge")
			}
			a.Pages = v
			return nil
		},
		"-step-rounds": integer(func(n int) { a.StepRounds = n }),
		"-step-warmup": integer(func(n int) { a.StepWarmup = n }),
	}
	bare := map[string]func(){
		"-cold-after-setup": func() { a.ColdAfterSetup = true },
		"-no-aslr":          func() { layout().NoASLR = true },
		"-clock":            func() { a.Clock = true },
		"-freq":             func() { a.Freq = true },
		"-step":             func() { a.Step = true },
	}
	for i := 0; i < len(argv); i++ {
		name := argv[i]
		if set, ok := bare[name]; ok {
			set()
			continue
		}
		set, ok := valued[name]
		switch {
		case !ok:
			return a, fmt.Errorf("flag provided but not defined: %s", name)
		case i+1 == len(argv):
			return a, fmt.Errorf("flag needs an argument: %s", name)
		}
		i++
		if err := set(argv[i]); err != nil {
			return a, fmt.Errorf("invalid value %q for flag %s: %v", argv[i], name, err)
		}
	}
	return a, nil
}

// run writes the records of the run args ask for, in records.md's order.
func (d *driver) run(args []string) (int, error) {
	if args[0] != "run" {
		return 0, fmt.Errorf("usage: list | run -out FILE -slots a,b [options]")
	}
	a, err := ParseArgs(args[1:])
	if err != nil {
		return 0, err
	}
	if a.Out != "" {
		f, err := os.OpenFile(a.Out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return 0, fmt.Errorf("cannot open -out file: %w", err)
		}
		d.out, d.closer = f, f
		d.file = filepath.Base(a.Out)
	}
	d.log(args)
	h := fnv.New64a()
	h.Write([]byte(d.file))
	d.key = h.Sum64() ^ d.sc.Seed
	if f := d.sc.Fail; f != nil && f.Process != "" && strings.Contains(d.file, f.Process) {
		d.fail = f
	}
	d.record("start lang=%s pid=%d harness=%d", d.lang(), os.Getpid(), gobench.Version)
	d.stepRounds, d.stepWarm = max(a.StepRounds, 1), a.StepWarmup
	if a.OrderSeed != nil {
		d.seed, d.shuffle = *a.OrderSeed, true
	}
	switch {
	case a.Step && a.Out == "":
		return 0, fmt.Errorf("-step needs -out: stdout carries the ok lines")
	case a.StepRounds < 0:
		return 0, fmt.Errorf("-step-rounds must be at least 1")
	case d.stepWarm < 0:
		return 0, fmt.Errorf("-step-warmup must not be negative")
	case a.ColdAfterSetup && a.Cold == "":
		return 0, fmt.Errorf("-cold-after-setup needs -cold")
	}
	if err := d.parseSlots(a.Slots, a.Batch); err != nil {
		return 0, err
	}
	if a.Step {
		d.step = bufio.NewScanner(d.stdin)
	}
	var l harness.Layout
	if a.Layout != nil {
		l = *a.Layout
	}
	d.record("layout stack_pad=%d heap_pad=%d stack_addr=%#x heap_addr=%#x text_addr=%#x aslr=%d",
		l.StackPad, l.HeapPad, 0x7ffc00000000-l.StackPad, 0xc000010000+l.HeapPad, 0x401000, b2i(!l.NoASLR))
	if d.fail != nil && d.fail.AfterSamples == 0 {
		return d.failNow()
	}
	stopped := !d.stepWait()
	if !stopped {
		if err := d.prelude(a); err != nil {
			return 0, err
		}
		d.stepOK()
		if stopped, err = d.measure(a.Rounds); err != nil {
			return d.failed(err)
		}
		if a.Freq {
			d.freqRecord("after")
		}
	}
	d.checksums()
	d.record("done stopped=%d", b2i(stopped))
	return 0, nil
}

func (d *driver) lang() string {
	if d.sc.Lang != "" {
		return d.sc.Lang
	}
	return "c"
}

// LogLine is the line a process appends to Scenario.Log: the kernel's
// name (its Binary's), its record file's name and its arguments joined by
// spaces, separated by tabs. Kernels that share a log (the points of a
// sweep) record the order their processes ran in.
func LogLine(kernel, file string, args []string) string {
	return kernel + "\t" + file + "\t" + strings.Join(args, " ") + "\n"
}

func (d *driver) log(args []string) {
	if d.sc.Log == "" {
		return
	}
	f, err := os.OpenFile(d.sc.Log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(LogLine(d.kernel, d.file, args))
}

// failNow ends the process as its Fail says.
func (d *driver) failNow() (int, error) {
	if d.fail.Error != "" {
		d.record("error msg=%s", d.fail.Error)
	}
	return d.fail.Status, nil
}

func (d *driver) failed(err error) (int, error) {
	if _, ok := err.(errFailed); ok {
		return d.failNow()
	}
	return 0, err
}

func (d *driver) parseSlots(names []string, batch []int64) error {
	if len(names) == 0 || names[0] == "" {
		return fmt.Errorf("-slots is required")
	}
	for i, name := range names {
		v := d.sc.variant(name)
		if v == nil {
			return fmt.Errorf("unknown variant %s", name)
		}
		s := &slot{v: v, k: 1}
		if i < len(batch) && batch[i] > 0 {
			s.k = batch[i]
		}
		d.slots = append(d.slots, s)
	}
	return nil
}

// What a draw is for: each kind of pass has its own stream.
const (
	drawCold = iota + 1
	drawSample
	drawCalibrate
	drawRecorded
)

// uniform is a number in [0, 1) that only the scenario's seed, the record
// file's name and (kind, a, b) decide: no state, so a shuffled round order
// does not move any sample's time.
func (d *driver) uniform(kind, a, b int) float64 {
	var seed [32]byte
	binary.LittleEndian.PutUint64(seed[0:], d.key)
	binary.LittleEndian.PutUint64(seed[8:], uint64(kind))
	binary.LittleEndian.PutUint64(seed[16:], uint64(a))
	binary.LittleEndian.PutUint64(seed[24:], uint64(b))
	return rand.New(rand.NewChaCha8(seed)).Float64()
}

// normal is a standard normal draw (Box-Muller).
func (d *driver) normal(kind, a, b int) float64 {
	u1 := d.uniform(kind, a, 2*b)
	u2 := d.uniform(kind, a, 2*b+1)
	return math.Sqrt(-2*math.Log(1-u1)) * math.Cos(2*math.Pi*u2)
}

// pass is one pass of v, the draw (kind, a, b): its median time (NS or a
// recorded one) times the noise.
func (d *driver) pass(v *Variant, kind, a, b int) float64 {
	if v.Dead {
		return d.sc.readCost() * math.Exp(v.Noise*d.normal(kind, a, b))
	}
	ns := v.NS
	if n := len(v.Recorded); n > 0 {
		ns = v.Recorded[min(n-1, int(d.uniform(drawRecorded*16+kind, a, b)*float64(n)))]
	}
	return ns * math.Exp(v.Noise*d.normal(kind, a, b))
}

// sampleNS is a sample of k passes: a dead variant times the clock reads
// alone, whatever k.
func (d *driver) sampleNS(v *Variant, k int64, kind, a, b int) int64 {
	ns := d.pass(v, kind, a, b)
	if !v.Dead {
		ns *= float64(k)
	}
	return max(1, int64(math.Round(ns)))
}

// roundNS is one round of every slot at its median: what settle and warmup
// phases are said to take.
func (d *driver) roundNS() float64 {
	var ns float64
	for _, s := range d.slots {
		if s.v.Dead {
			ns += d.sc.readCost()
		} else {
			ns += float64(s.k) * max(s.v.NS, 1)
		}
	}
	return ns
}

// prelude writes what comes before the measured rounds, in the protocol's
// order (records.md, Options).
func (d *driver) prelude(a harness.Args) error {
	if a.Pin != nil && *a.Pin >= 0 {
		d.record("pinned cpu=%d", *a.Pin) // nothing runs: no need to pin
	}
	if a.Cold != "" && !a.ColdAfterSetup {
		if err := d.cold(a.Cold, "start"); err != nil {
			return err
		}
	}
	if a.Clock {
		d.clockRecord()
	}
	if a.GapsMS > 0 {
		d.record("gaps window_ns=%d threshold_ns=5000 count=0 total_ns=0 max_ns=0", int64(a.GapsMS)*1e6)
	}
	if d.sc.Setup {
		d.record("phase name=setup ns=%d minflt=%d", 250000, 64)
		if d.lang() == "go" {
			d.record("phase name=gc ns=%d", 50000)
		}
	}
	switch a.Pages {
	case "4k":
		d.record("pages mode=4k advised_bytes=%d anon_huge_kb=0 collapse_errno=-1", 1<<20)
	case "huge":
		d.record("pages mode=huge advised_bytes=%d anon_huge_kb=2048 collapse_errno=0", 2<<20)
	}
	if a.ColdAfterSetup {
		bytes := a.EvictBytes
		if bytes == 0 {
			bytes = 64 << 20
		}
		how := "write"
		if a.EvictBytes == 0 {
			bytes, how = 8<<20, "flush" // as the drivers: the process's own pages flushed
		}
		d.record("phase name=evict ns=%d bytes=%d huge=0 how=%s", bytes/1000, bytes, how)
		if err := d.cold(a.Cold, "setup"); err != nil {
			return err
		}
	}
	floor := a.SettleMS
	if a.SettleMinMS != nil && *a.SettleMinMS >= 0 && *a.SettleMinMS < floor {
		floor = *a.SettleMinMS
	}
	d.settle(a.SettleMS, floor)
	if a.CalibrateReads > 0 {
		if !a.Clock {
			d.clockRecord()
		}
		d.calibrate(int64(float64(a.CalibrateReads)*d.sc.readCost()) + 1)
	}
	if a.Freq {
		d.freqRecord("before")
	}
	// As the drivers: the warmup's record waits until the first measured
	// pass is over (records.md, harness version 10).
	d.warmup = fmt.Sprintf("phase name=warmup ns=%d passes=%d", int64(float64(a.Warmup)*d.roundNS()), a.Warmup*len(d.slots))
	return nil
}

// warmupRecord writes the warmup's record if it waits.
func (d *driver) warmupRecord() {
	if d.warmup != "" {
		d.record("%s", d.warmup)
		d.warmup = ""
	}
}

func (d *driver) cold(name, after string) error {
	v := d.sc.variant(name)
	if v == nil {
		return fmt.Errorf("unknown cold variant %s", name)
	}
	ns := v.ColdNS
	if ns <= 0 {
		ns = 3 * v.NS
	}
	if v.Dead || ns <= 0 {
		ns = d.sc.readCost()
	}
	ns *= math.Exp(v.Noise * d.normal(drawCold, 0, 0))
	d.record("cold variant=%s ns=%d minflt=%d after=%s", name, max(1, int64(math.Round(ns))), 12, after)
	return nil
}

func (d *driver) clockRecord() {
	c := d.sc.readCost()
	d.record("clock min_step_ns=%d read_cost_ns=%.3f read_cost_mean_ns=%.3f reads=%d spaced=%s source=replay",
		int64(c), c, c*1.05, 200000, fmt.Sprintf("%d-%d", int64(c), int64(c)+600))
}

// settle says it ran whole rounds for its floor (adaptive: then it was
// stable) or its bound; nothing ran at all when the bound is 0.
func (d *driver) settle(ms, minMS float64) {
	if ms <= 0 {
		d.record("phase name=settle ns=0 passes=0 stable=0")
		return
	}
	adaptive := minMS < ms
	took := ms
	if adaptive {
		took = max(minMS, 1)
	}
	rounds := max(1, int64(took*1e6/max(d.roundNS(), 1)))
	d.record("phase name=settle ns=%d passes=%d stable=%d", int64(took*1e6), rounds*int64(len(d.slots)), b2i(adaptive))
}

// calibrate is the drivers' calibration on the scenario's times: the
// single pass, then testing.B's predictN, each candidate the median of
// three draws.
func (d *driver) calibrate(goal int64) {
	const timings = 3
	for i, s := range d.slots {
		draw := 0
		median := func(k int64) int64 {
			var t [timings]int64
			for j := range t {
				t[j] = d.sampleNS(s.v, k, drawCalibrate, i, draw)
				draw++
			}
			return max(min(t[0], t[1]), min(max(t[0], t[1]), t[2]))
		}
		// testing.B's predictN, as the drivers' predictK: 20% over the
		// goal, at most 100x and at least one more than the last.
		k, ns := int64(1), median(1)
		for ns < goal && k < 1e9 {
			k = min(1e9, max(k+1, min(100*k, goal*k/max(ns, 1)*6/5)))
			ns = median(k)
		}
		s.k = k
		d.record("batch slot=%d variant=%s k=%d ns=%d goal_ns=%d timings=%d", i, s.v.Name, k, ns, goal, timings)
	}
}

func (d *driver) freqRecord(when string) {
	const iterations, adds, ns = 46875, 64, 1000000
	d.record("freq when=%s mhz=%.3f ns=%d median_ns=%d worst_ns=%d iterations=%d adds=%d",
		when, float64(iterations)*adds/ns*1000, ns, ns, ns, iterations, adds)
}

// roundOrder is records.md's shuffle of measured round r: the order
// harness.RoundOrder computes (the slot order without -order-seed).
func (d *driver) roundOrder(r int) []int {
	if d.shuffle {
		return harness.RoundOrder(d.seed, r, len(d.slots))
	}
	order := make([]int, len(d.slots))
	for i := range order {
		order[i] = i
	}
	return order
}

// stepWait waits for the next step's line in step mode: false at EOF, on
// a read error or for "stop", which end the run (records.md, Step mode).
func (d *driver) stepWait() bool {
	return d.step == nil || d.step.Scan() && strings.TrimSpace(d.step.Text()) != "stop"
}

// stepOK answers a step done (its records are in the file already).
func (d *driver) stepOK() {
	if d.step != nil {
		fmt.Fprintln(d.stdout, "ok")
	}
}

// measure writes the measured rounds' samples; it returns true if step
// mode stopped it, errFailed when the scenario fails the process.
func (d *driver) measure(rounds int) (bool, error) {
	n0 := d.samples
	syscalls := func() { // as the drivers write it for a BENCH variant (records.md)
		d.warmupRecord()
		if rounds > 0 {
			d.record("syscalls after_discarded=0 between=3 samples=%d", d.samples-n0)
		}
	}
	for r := 0; r < rounds; r++ {
		if d.step != nil && r%d.stepRounds == 0 && !d.stepWait() {
			syscalls()
			return true, nil
		}
		for p, i := range d.roundOrder(r) {
			s := d.slots[i]
			if s.v.Checksum {
				want := s.v.Want
				if want == 0 {
					want = 1
				}
				wrong := s.v.WrongBy
				if wrong == 0 {
					wrong = 1
				}
				s.csGot += want * wrong * float64(s.k)
				s.csPasses += s.k
			}
			flt := 0 // as the drivers: not counted (-1) on the first measured pass after discarded ones
			if d.samples == n0 || (d.stepWarm > 0 && r%d.stepRounds == 0 && p == 0) {
				flt = -1
			}
			d.record("sample round=%d slot=%d pos=%d k=%d ns=%d minflt=%d", r, i, p, s.k, d.sampleNS(s.v, s.k, drawSample, r, i), flt)
			d.warmupRecord()
			d.samples++
			if d.fail != nil && d.samples >= d.fail.AfterSamples {
				return false, errFailed{}
			}
		}
		if (r+1)%d.stepRounds == 0 || r+1 == rounds {
			d.stepOK()
		}
	}
	syscalls()
	return false, nil
}

func (d *driver) checksums() {
	for i, s := range d.slots {
		if s.v.Checksum {
			want := s.v.Want
			if want == 0 {
				want = 1
			}
			d.record("checksum slot=%d got=%s want=%s passes=%d", i, g17(s.csGot), g17(want), s.csPasses)
		}
	}
}

func g17(x float64) string { return strconv.FormatFloat(x, 'g', 17, 64) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
