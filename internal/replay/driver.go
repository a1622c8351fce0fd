package replay

import (
	"bufio"
	"encoding/binary"
	"flag"
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
)

// Version is the harness version the start record gives: the one the
// drivers of records.md write.
const Version = 8

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
	step       *bufio.Reader
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

type prelude struct {
	cold           string
	coldAfterSetup bool
	evictBytes     int64
	pin, warm      int
	clock, freq    bool
	settleMS       float64
	settleMinMS    float64
	calib, gapsMS  float64
	pages          string
}

func decimal(p *int64) func(string) error {
	return func(s string) error {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("want a byte count, got %q", s)
		}
		*p = n
		return nil
	}
}

// run parses the options of records.md's table (every one, nothing else:
// flag refuses an unknown option) and writes the records in their order.
func (d *driver) run(args []string) (int, error) {
	if args[0] != "run" {
		return 0, fmt.Errorf("usage: list | run -out FILE -slots a,b [options]")
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var p prelude
	var stackPad, heapPad int64
	out := fs.String("out", "", "append records to this file")
	slots := fs.String("slots", "", "variants in round-robin order")
	batch := fs.String("batch", "", "passes per timed sample, per slot")
	fs.StringVar(&p.cold, "cold", "", "variant of the cold pass")
	fs.IntVar(&p.pin, "pin", -1, "CPU to pin to")
	fs.Float64Var(&p.settleMS, "settle-ms", 100, "settle time")
	fs.Float64Var(&p.settleMinMS, "settle-min-ms", -1, "adaptive settle: the floor")
	fs.IntVar(&d.stepRounds, "step-rounds", 1, "measured rounds per step")
	fs.IntVar(&d.stepWarm, "step-warmup", 0, "discarded rounds at the start of each step")
	fs.IntVar(&p.warm, "warmup", 1, "discarded rounds")
	rounds := fs.Int("rounds", 0, "measured rounds")
	fs.Float64Var(&p.calib, "calibrate-reads", 0, "calibrate batches to this many clock reads")
	fs.BoolVar(&p.clock, "clock", false, "measure the clock")
	fs.Float64Var(&p.gapsMS, "gaps-ms", 0, "record the gaps of this long a window")
	fs.Func("order-seed", "shuffle the slots of every measured round", func(v string) error {
		s, err := strconv.ParseUint(v, 10, 64)
		d.seed, d.shuffle = s, true
		return err
	})
	step := fs.Bool("step", false, "step mode")
	fs.BoolVar(&p.coldAfterSetup, "cold-after-setup", false, "take the cold pass after setup and an eviction")
	fs.Func("evict-bytes", "bytes the eviction writes", decimal(&p.evictBytes))
	fs.Func("stack-pad", "stack pad in bytes", decimal(&stackPad))
	fs.Func("heap-pad", "heap pad in bytes", decimal(&heapPad))
	noASLR := fs.Bool("no-aslr", false, "address space randomisation off")
	fs.Func("pages", "4k or huge", func(v string) error {
		if v != "4k" && v != "huge" {
			return fmt.Errorf("-pages %s: want 4k or huge", v)
		}
		p.pages = v
		return nil
	})
	freq := fs.Bool("freq", false, "estimate the core clock")
	if err := fs.Parse(args[1:]); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return 0, fmt.Errorf("cannot open -out file: %w", err)
		}
		d.out, d.closer = f, f
		d.file = filepath.Base(*out)
	}
	d.log(args)
	h := fnv.New64a()
	h.Write([]byte(d.file))
	d.key = h.Sum64() ^ d.sc.Seed
	if f := d.sc.Fail; f != nil && f.Process != "" && strings.Contains(d.file, f.Process) {
		d.fail = f
	}
	d.record("start lang=%s pid=%d harness=%d", d.lang(), os.Getpid(), Version)
	switch {
	case *step && *out == "":
		return 0, fmt.Errorf("-step needs -out: stdout carries the ok lines")
	case d.stepRounds < 1:
		return 0, fmt.Errorf("-step-rounds must be at least 1")
	case d.stepWarm < 0:
		return 0, fmt.Errorf("-step-warmup must not be negative")
	case p.coldAfterSetup && p.cold == "":
		return 0, fmt.Errorf("-cold-after-setup needs -cold")
	}
	if p.settleMinMS < 0 || p.settleMinMS > p.settleMS {
		p.settleMinMS = p.settleMS
	}
	if err := d.parseSlots(*slots, *batch); err != nil {
		return 0, err
	}
	if *step {
		d.step = bufio.NewReader(d.stdin)
	}
	d.record("layout stack_pad=%d heap_pad=%d stack_addr=%#x heap_addr=%#x text_addr=%#x aslr=%d",
		stackPad, heapPad, 0x7ffc00000000-stackPad, 0xc000010000+heapPad, 0x401000, b2i(!*noASLR))
	if d.fail != nil && d.fail.AfterSamples == 0 {
		return d.failNow()
	}
	stopped := !d.stepWait()
	if !stopped {
		p.freq = *freq
		if err := d.prelude(p); err != nil {
			return 0, err
		}
		d.stepOK()
		var err error
		if stopped, err = d.measure(*rounds); err != nil {
			return d.failed(err)
		}
		if *freq {
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

func (d *driver) parseSlots(list, batches string) error {
	if list == "" {
		return fmt.Errorf("-slots is required")
	}
	for _, name := range strings.Split(list, ",") {
		v := d.sc.variant(name)
		if v == nil {
			return fmt.Errorf("unknown variant %s", name)
		}
		d.slots = append(d.slots, &slot{v: v, k: 1})
	}
	if batches != "" {
		for i, s := range strings.Split(batches, ",") {
			if i < len(d.slots) {
				if k, err := strconv.ParseInt(s, 10, 64); err == nil && k > 0 {
					d.slots[i].k = k
				}
			}
		}
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

func (d *driver) prelude(p prelude) error {
	if p.pin >= 0 {
		d.record("pinned cpu=%d", p.pin) // nothing runs: no need to pin
	}
	if p.cold != "" && !p.coldAfterSetup {
		if err := d.cold(p.cold, "start"); err != nil {
			return err
		}
	}
	if p.clock {
		d.clockRecord()
	}
	if p.gapsMS > 0 {
		d.record("gaps window_ns=%d threshold_ns=5000 count=0 total_ns=0 max_ns=0", int64(p.gapsMS*1e6))
	}
	if d.sc.Setup {
		d.record("phase name=setup ns=%d minflt=%d", 250000, 64)
		if d.lang() == "go" {
			d.record("phase name=gc ns=%d", 50000)
		}
	}
	switch p.pages {
	case "4k":
		d.record("pages mode=4k advised_bytes=%d anon_huge_kb=0 collapse_errno=-1", 1<<20)
	case "huge":
		d.record("pages mode=huge advised_bytes=%d anon_huge_kb=2048 collapse_errno=0", 2<<20)
	}
	if p.coldAfterSetup {
		bytes := p.evictBytes
		if bytes == 0 {
			bytes = 64 << 20
		}
		d.record("phase name=evict ns=%d bytes=%d huge=0", bytes/1000, bytes)
		if err := d.cold(p.cold, "setup"); err != nil {
			return err
		}
	}
	d.settle(p.settleMS, p.settleMinMS)
	if p.calib > 0 {
		if !p.clock {
			d.clockRecord()
		}
		d.calibrate(int64(p.calib*d.sc.readCost()) + 1)
	}
	if p.freq {
		d.freqRecord("before")
	}
	d.record("phase name=warmup ns=%d passes=%d", int64(float64(p.warm)*d.roundNS()), p.warm*len(d.slots))
	return nil
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
		k, ns := int64(1), median(1)
		for ns < goal && k < 1e9 {
			k = predictK(goal, k, ns, k)
			ns = median(k)
		}
		s.k = k
		d.record("batch slot=%d variant=%s k=%d ns=%d goal_ns=%d timings=%d", i, s.v.Name, k, ns, goal, timings)
	}
}

func predictK(goal, prevK, prevNS, last int64) int64 {
	if prevNS <= 0 {
		prevNS = 1
	}
	k := goal * prevK / prevNS
	k += k / 5
	k = min(k, 100*last)
	k = max(k, last+1)
	return min(k, 1e9)
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

func (d *driver) stepWait() bool {
	if d.step == nil {
		return true
	}
	line, err := d.step.ReadString('\n')
	return err == nil && strings.TrimRight(line, "\r\n") != "stop"
}

func (d *driver) stepOK() {
	if d.step != nil {
		_, _ = io.WriteString(d.stdout, "ok\n")
	}
}

// measure writes the measured rounds' samples; it returns true if step
// mode stopped it, errFailed when the scenario fails the process.
func (d *driver) measure(rounds int) (bool, error) {
	for r := 0; r < rounds; r++ {
		if d.step != nil && r%d.stepRounds == 0 && !d.stepWait() {
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
			d.record("sample round=%d slot=%d pos=%d k=%d ns=%d minflt=%d", r, i, p, s.k, d.sampleNS(s.v, s.k, drawSample, r, i), 0)
			d.samples++
			if d.fail != nil && d.samples >= d.fail.AfterSamples {
				return false, errFailed{}
			}
		}
		if (r+1)%d.stepRounds == 0 || r+1 == rounds {
			d.stepOK()
		}
	}
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
