package bench

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// Main runs the passes the benchbook protocol asks for (see the C driver:
// both write the same records, one line each, to the file named by -out).
func Main(variants []Variant, setup func()) {
	if len(os.Args) < 2 || os.Args[1] == "list" {
		for _, v := range variants {
			fmt.Printf("variant %s %d\n", v.Name, v.Line)
		}
		n := 0
		if setup != nil {
			n = 1
		}
		fmt.Printf("setup %d\n", n)
		return
	}
	d := &driver{variants: variants, setup: setup, out: os.Stdout, warmNS: -1}
	if err := d.run(os.Args[1:]); err != nil {
		d.record("error msg=%s", err)
		fmt.Fprintf(os.Stderr, "benchbook driver: %v\n", err)
		os.Exit(2)
	}
}

type slot struct {
	v             *Variant
	k             int64
	csGot, csWant float64
	csPasses      int64
	csUsed        bool
}

type driver struct {
	variants []Variant
	setup    func()
	pages    pages    // -pages
	out      *os.File // unbuffered: a record is in the file when record returns
	slots    []*slot
	readCost float64
	order    []int         // order[pos] is the slot that runs at pos in this round
	shuffle  bool          // -order-seed was given
	rng      uint64        // splitmix64 state
	step     *bufio.Reader // stdin in step mode, else nil
	// stepRounds measured rounds per step, each step after stepWarm
	// discarded rounds (step mode, records.md).
	stepRounds, stepWarm int
	lat                  latency // BENCH_OPS state (latency.go)
	// warmNS and warmPasses: the warmup's phase record, written after the
	// first measured pass (warmup); warmNS -1: none waits.
	warmNS     int64
	warmPasses int
}

func (d *driver) record(format string, args ...any) {
	line := fmt.Sprintf(format, args...) + "\n"
	sysN++
	_, _ = d.out.WriteString(line) // one write(2) per record: lines never interleave
}

// The driver's own system calls (issue 20): with page-table isolation and
// no PCID every system call flushes the TLB, so the driver makes none
// between a discarded pass (the warmup, a step's discarded round) and the
// measured pass after it, and counts those it makes between two measured
// passes (the fault count, the sample's record, an ops slot's waits): sysN
// counts the calls, sysMark is the count when the last pass ended; the
// syscalls record says the most between two passes. What the Go runtime
// does on its own (its monitor thread, a collection) is not counted.
var sysN, sysMark int64

// countingReader counts the reads of step mode's stdin.
type countingReader struct{ r io.Reader }

func (c countingReader) Read(p []byte) (int, error) {
	sysN++
	return c.r.Read(p)
}

// prelude holds the options of everything before the measured rounds.
type prelude struct {
	cold           string
	coldAfterSetup bool
	evictBytes     int64
	pin, warm      int
	clock, freq    bool
	settleMS       float64
	settleMinMS    float64
	calib, gapsMS  float64
}

func (d *driver) run(args []string) error {
	if args[0] != "run" {
		return fmt.Errorf("usage: list | run -out FILE -slots a,b [options]")
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var p prelude
	out := fs.String("out", "", "append records to this file")
	slots := fs.String("slots", "", "variants in round-robin order")
	batch := fs.String("batch", "", "passes per timed sample, per slot")
	fs.StringVar(&p.cold, "cold", "", "variant of the cold pass")
	fs.IntVar(&p.pin, "pin", -1, "CPU to pin every thread to")
	fs.Float64Var(&p.settleMS, "settle-ms", 100, "settle time")
	fs.Float64Var(&p.settleMinMS, "settle-min-ms", -1, "adaptive settle: the floor (default: settle-ms, a fixed settle)")
	fs.IntVar(&d.stepRounds, "step-rounds", 1, "measured rounds per step in step mode")
	fs.IntVar(&d.stepWarm, "step-warmup", 0, "discarded rounds at the start of each step in step mode")
	fs.IntVar(&p.warm, "warmup", 1, "discarded passes per slot")
	rounds := fs.Int("rounds", 0, "measured rounds")
	fs.Float64Var(&p.calib, "calibrate-reads", 0, "calibrate batches to this many clock reads")
	fs.BoolVar(&p.clock, "clock", false, "measure the clock")
	fs.Float64Var(&p.gapsMS, "gaps-ms", 0, "read the clock this long and record the gaps")
	fs.Func("order-seed", "shuffle the slots of every measured round, from this seed", func(v string) error {
		seed, err := strconv.ParseUint(v, 10, 64)
		d.rng, d.shuffle = seed, true
		return err
	})
	step := fs.Bool("step", false, "wait for a line on stdin before the prelude and each round")
	fs.BoolVar(&p.coldAfterSetup, "cold-after-setup", false, "take the cold pass after setup and an eviction of the caches")
	var stackPad, heapPad int64
	fs.Func("evict-bytes", "bytes the eviction writes instead of flushing the process's own pages (default: the flush)", decimal(&p.evictBytes))
	fs.Func("stack-pad", "move the stack of the measuring code down by this many bytes", decimal(&stackPad))
	fs.Func("heap-pad", "allocate and keep this many bytes before setup", decimal(&heapPad))
	noASLR := fs.Bool("no-aslr", false, "re-execute once with address space randomisation off")
	fs.Func("pages", "page size of the static and setup memory: 4k or huge", d.pages.set)
	freq := fs.Bool("freq", false, "estimate the core clock right before the warmup and right after the measured rounds")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	var aslrErr error
	if *noASLR {
		aslrErr = reexecNoASLR() // returns only if it did not re-execute
	}
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("cannot open -out file: %w", err)
		}
		d.out = f
	}
	d.record("start lang=go pid=%d harness=%d", os.Getpid(), Version)
	if *step && *out == "" {
		return fmt.Errorf("-step needs -out: stdout carries the ok lines")
	}
	if d.stepRounds < 1 {
		return fmt.Errorf("-step-rounds must be at least 1")
	}
	if d.stepWarm < 0 {
		return fmt.Errorf("-step-warmup must not be negative")
	}
	if p.settleMinMS < 0 || p.settleMinMS > p.settleMS {
		p.settleMinMS = p.settleMS
	}
	if p.coldAfterSetup && p.cold == "" {
		return fmt.Errorf("-cold-after-setup needs -cold")
	}
	if aslrErr != nil {
		return aslrErr
	}
	if err := d.parseSlots(*slots, *batch); err != nil {
		return err
	}
	if err := d.latInit(); err != nil {
		return err
	}
	if *step {
		d.step = bufio.NewReader(countingReader{os.Stdin})
		signal.Ignore(syscall.SIGPIPE)
	}
	if heapPad > 0 {
		heapPadBlock = make([]byte, heapPad) // kept, never written
	}
	heapProbe = new([64]byte)
	var stopped bool
	var err error
	padStack(stackPad, func() {
		var here byte
		d.record("layout stack_pad=%d heap_pad=%d stack_addr=%#x heap_addr=%#x text_addr=%#x aslr=%d", stackPad,
			len(heapPadBlock), uintptr(unsafe.Pointer(&here)), uintptr(unsafe.Pointer(heapProbe)), funcPC(d.slots[0].v.Once),
			b2i(aslrOn()))
		if stopped = !d.stepWait(); stopped {
			return
		}
		p.freq = *freq
		if err = d.prelude(p); err != nil {
			return
		}
		d.stepOK()
		stopped, err = d.measure(*rounds)
		if *freq {
			d.freqEstimate("after")
		}
	})
	if err != nil {
		return err
	}
	d.latEnd()
	d.checksums()
	d.record("done stopped=%d", b2i(stopped))
	return nil
}

// prelude runs what comes before the measured rounds, in the protocol's order.
func (d *driver) prelude(p prelude) error {
	if p.pin >= 0 {
		if err := pinAll(p.pin); err != nil {
			return err
		}
		d.record("pinned cpu=%d", p.pin)
	}
	if d.pages.mode != 0 {
		if err := d.pages.advise(false); err != nil {
			return err
		}
	}
	if p.cold != "" && !p.coldAfterSetup {
		if err := d.cold(p.cold, "start"); err != nil {
			return err
		}
	}
	if p.clock {
		d.clockStats()
	}
	if p.gapsMS > 0 {
		d.gaps(p.gapsMS)
	}
	d.runSetup()
	if err := d.pagesAfterSetup(); err != nil {
		return err
	}
	if p.coldAfterSetup {
		if err := d.evict(p.evictBytes); err != nil {
			return err
		}
		if err := d.cold(p.cold, "setup"); err != nil {
			return err
		}
	}
	d.settle(p.settleMS, p.settleMinMS)
	if p.calib > 0 {
		if !p.clock {
			d.clockStats()
		}
		d.calibrate(int64(p.calib*d.readCost) + 1)
	}
	d.latPrelude()
	// The warmup comes last, right before the measured rounds: work that
	// leaves the data alone for a millisecond (the clock estimate, the
	// empty operations) can let other work on the core evict it, and the
	// first measured pass would pay for it.
	if p.freq {
		d.freqEstimate("before")
	}
	d.warmup(p.warm)
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (d *driver) find(name string) *Variant {
	for i := range d.variants {
		if d.variants[i].Name == name {
			return &d.variants[i]
		}
	}
	return nil
}

func (d *driver) parseSlots(list, batches string) error {
	if list == "" {
		return fmt.Errorf("-slots is required")
	}
	for _, name := range strings.Split(list, ",") {
		v := d.find(name)
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

func (s *slot) pass() int64 {
	var ns int64
	if s.k > 1 {
		ns = s.v.Batch(s.k)
	} else {
		ns = s.v.Once()
	}
	sysMark = sysN
	return ns
}

func minflt() int64 {
	var ru syscall.Rusage
	sysN++
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Minflt
}

// cold times the first pass of a variant in the process; after says what
// ran before it: "start" (nothing: setup has not run) or "setup" (setup
// ran, then evict emptied the caches).
func (d *driver) cold(name, after string) error {
	v := d.find(name)
	if v == nil {
		return fmt.Errorf("unknown cold variant %s", name)
	}
	f0 := minflt()
	ns := v.Once()
	d.record("cold variant=%s ns=%d minflt=%d after=%s", name, ns, minflt()-f0, after)
	return nil
}

// clockStats records the clock measured right (clock.go): the median read
// cost, the mean, the smallest step, and the runs of values spaced deltas
// took.
func (d *driver) clockStats() {
	median, mean, step := ClockReads(ClockBlocks, ClockBlockReads)
	d.readCost = median
	d.record("clock min_step_ns=%d read_cost_ns=%.3f read_cost_mean_ns=%.3f reads=%d spaced=%s source=runtime.nanotime",
		step, median, mean, ClockBlocks*ClockBlockReads, FrequentRanges(SpacedDeltas(ClockPairs)))
}

// gaps reads the clock back to back for ms milliseconds and records every
// gap longer than 5 us between two reads: time the thread did not run.
func (d *driver) gaps(ms float64) {
	const threshold = 5000
	start := Now()
	end, prev := start+int64(ms*1e6), start
	var count, total, longest int64
	for t := prev; t < end; prev = t {
		t = Now()
		if gap := t - prev; gap > threshold {
			count++
			total += gap
			longest = max(longest, gap)
		}
	}
	d.record("gaps window_ns=%d threshold_ns=%d count=%d total_ns=%d max_ns=%d", prev-start, threshold, count, total, longest)
}

func (d *driver) runSetup() {
	if d.setup == nil {
		return
	}
	f0, t0 := minflt(), Now()
	d.setup()
	d.record("phase name=setup ns=%d minflt=%d", Now()-t0, minflt()-f0)
	t0 = Now()
	runtime.GC()
	d.record("phase name=gc ns=%d", Now()-t0)
}

// Adaptive settle (records.md): windows of at least 1 ms and one round;
// after the floor it stops once settleCalm windows in a row were none of
// them more than settleTol below the fastest window before them.
const (
	settleCalm = 3
	settleTol  = 0.02
)

// settle repeats whole rounds of every slot, in slot order, for at most ms
// milliseconds (none at all when ms is 0); with a floor minMS below ms it stops early once the pass
// no longer gets faster.
func (d *driver) settle(ms, minMS float64) {
	t0 := Now()
	end, floor := t0+int64(ms*1e6), t0+int64(minMS*1e6)
	adaptive := minMS < ms
	passes, calm, stable := 0, 0, false
	best := -1.0
	for ms > 0 {
		w0, wt, rounds := Now(), int64(0), 0
		for {
			for _, s := range d.slots {
				s.pass()
				passes++
			}
			rounds++
			if wt = Now(); wt-w0 >= 1e6 || wt >= end {
				break
			}
		}
		if wt >= end {
			break
		}
		if !adaptive {
			continue
		}
		per := float64(wt-w0) / float64(rounds)
		if best < 0 || per < best*(1-settleTol) {
			calm = 0
		} else {
			calm++
		}
		if best < 0 || per < best {
			best = per
		}
		if calm >= settleCalm && wt >= floor {
			stable = true
			break
		}
	}
	d.record("phase name=settle ns=%d passes=%d stable=%d", Now()-t0, passes, b2i(stable))
}

// warmup runs the discarded rounds right before the measured ones; its
// phase record waits in d.warmNS (-1: none) until the first measured pass
// is over, so that no write comes between the two.
func (d *driver) warmup(w int) {
	t0 := Now()
	for i := 0; i < w; i++ {
		for _, s := range d.slots {
			s.pass()
		}
	}
	d.warmNS, d.warmPasses = Now()-t0, w*len(d.slots)
}

func (d *driver) warmupRecord() {
	if d.warmNS >= 0 {
		d.record("phase name=warmup ns=%d passes=%d", d.warmNS, d.warmPasses)
	}
	d.warmNS = -1
}

// predictK is testing.B's predictN: aim 20% over the goal, grow at most 100x,
// at least by one, never beyond 1e9.
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

// calibTimings is how many times calibrate times each candidate (the
// single pass, then each batch size): their median decides, never one
// timing, which one interrupt makes too slow (seen: a disturbed pass
// switched batching off for one point of a sweep).
const calibTimings = 3

func median3(a, b, c int64) int64 {
	return max(min(a, b), min(max(a, b), c))
}

func (d *driver) calibrate(goal int64) {
	for i, s := range d.slots {
		k, ns := int64(1), median3(s.v.Once(), s.v.Once(), s.v.Once())
		for ns < goal && k < 1e9 {
			k = predictK(goal, k, ns, k)
			ns = median3(s.v.Batch(k), s.v.Batch(k), s.v.Batch(k))
		}
		s.k = k
		d.record("batch slot=%d variant=%s k=%d ns=%d goal_ns=%d timings=%d", i, s.v.Name, k, ns, goal, calibTimings)
	}
}

// splitmix64 is Steele, Lea and Flood's generator, as in Java's
// SplittableRandom; the C driver and harness.RoundOrder are the same.
func (d *driver) splitmix64() uint64 {
	d.rng += 0x9E3779B97F4A7C15
	z := d.rng
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// roundOrder sets d.order for the next measured round: the slot order, or
// with -order-seed a fresh Fisher-Yates shuffle of it, where j is the high
// 64 bits of next() * (i + 1), a number in [0, i]. Settle and warmup keep
// the slot order.
func (d *driver) roundOrder() {
	d.order = d.order[:0]
	for i := range d.slots {
		d.order = append(d.order, i)
	}
	if !d.shuffle {
		return
	}
	for i := len(d.order) - 1; i > 0; i-- {
		j, _ := bits.Mul64(d.splitmix64(), uint64(i+1))
		d.order[i], d.order[j] = d.order[j], d.order[i]
	}
}

// stepWait reads one line from stdin in step mode; it returns false at EOF,
// on an error, or for the line "stop". Outside step mode it returns true.
func (d *driver) stepWait() bool {
	if d.step == nil {
		return true
	}
	line, err := d.step.ReadString('\n')
	return err == nil && strings.TrimRight(line, "\r\n") != "stop"
}

// stepOK tells the peer the step is done. Every record of the step is in
// the -out file already (d.out is unbuffered). A peer that went away is
// noticed by the next stepWait (SIGPIPE is ignored).
func (d *driver) stepOK() {
	if d.step != nil {
		sysN++
		_, _ = os.Stdout.WriteString("ok\n")
	}
}

// measure runs the measured rounds; it returns true if step mode stopped
// it. A sample's minflt is the faults between the count after the pass
// before and the count after it, and -1 (not counted) on the first
// measured pass after discarded ones: its count before would be a system
// call between them.
func (d *driver) measure(rounds int) (bool, error) {
	fprev, firstMax, betweenMax, samples := int64(-1), int64(0), int64(0), 0
	afterDiscard, stopped := true, false
	defer func() {
		d.warmupRecord()
		if rounds > 0 {
			d.record("syscalls after_discarded=%d between=%d samples=%d", firstMax, betweenMax, samples)
		}
	}()
	for r := 0; r < rounds; r++ {
		if d.step != nil && r%d.stepRounds == 0 {
			if !d.stepWait() {
				stopped = true
				break
			}
			// The peer's step ran in between: its effect on the caches
			// is paid by discarded rounds, not measured ones.
			for range d.stepWarm {
				for _, s := range d.slots {
					s.pass()
				}
			}
			if d.stepWarm > 0 {
				fprev, afterDiscard = -1, true
			}
		}
		d.roundOrder()
		for p, i := range d.order {
			s := d.slots[i]
			checksum.sum, checksum.used = 0, false
			d.latBefore(i)
			if gap := sysN - sysMark; afterDiscard {
				firstMax = max(firstMax, gap)
			} else {
				betweenMax = max(betweenMax, gap)
			}
			ns := s.pass()
			f1 := minflt()
			if err := d.latAfter(i); err != nil {
				return false, err
			}
			if checksum.used {
				s.csUsed = true
				s.csGot += checksum.sum
				s.csWant = checksum.want
				s.csPasses += s.k
			}
			flt := int64(-1)
			if fprev >= 0 {
				flt = f1 - fprev
			}
			d.record("sample round=%d slot=%d pos=%d k=%d ns=%d minflt=%d", r, i, p, s.k, ns, flt)
			d.warmupRecord()
			fprev, afterDiscard = f1, false
			samples++
		}
		if (r+1)%d.stepRounds == 0 || r+1 == rounds {
			d.stepOK()
		}
	}
	return stopped, nil
}

func (d *driver) checksums() {
	for i, s := range d.slots {
		if s.csUsed {
			d.record("checksum slot=%d got=%s want=%s passes=%d", i, g17(s.csGot), g17(s.csWant), s.csPasses)
		}
	}
}

func g17(x float64) string { return strconv.FormatFloat(x, 'g', 17, 64) }

// pinAll pins every thread of the process to cpu; threads created later
// inherit the mask of the thread that creates them.
func pinAll(cpu int) error {
	runtime.LockOSThread()
	var mask [16]uint64
	if cpu < 0 || cpu >= len(mask)*64 {
		return fmt.Errorf("cpu %d out of range", cpu)
	}
	mask[cpu/64] |= 1 << (cpu % 64)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("pin: %w", err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(mask),
			uintptr(unsafe.Pointer(&mask[0])))
		if errno != 0 {
			return fmt.Errorf("sched_setaffinity on thread %d: %w", tid, errno)
		}
	}
	return nil
}

// decimal parses a byte count as the C driver does: decimal digits only
// (no sign, no 0x, no octal).
func decimal(n *int64) func(string) error {
	return func(v string) error {
		u, err := strconv.ParseUint(v, 10, 63)
		*n = int64(u)
		return err
	}
}

// llcBytes is the largest cache size the kernel lists for cpu0 (the
// last-level cache), or 0 when /sys does not say.
func llcBytes() int64 {
	paths, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*/size")
	var best int64
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		v := strings.TrimSpace(string(b))
		shift := 0
		switch {
		case strings.HasSuffix(v, "K"):
			shift = 10
		case strings.HasSuffix(v, "M"):
			shift = 20
		case strings.HasSuffix(v, "G"):
			shift = 30
		}
		n, err := strconv.ParseInt(strings.TrimRight(v, "KMG"), 10, 64)
		if err == nil && n<<shift > best {
			best = n << shift
		}
	}
	return best
}

var evictSink byte

// evict empties the caches of what setup left in them before the cold
// pass: by default it flushes the process's own pages (flushOwn); with
// bytes > 0 (-evict-bytes), or where it cannot flush, it writes one byte
// in every 64 of a fresh mapping of bytes bytes (default: twice the
// last-level cache, else 64 MiB), unmapped again (not Go heap: no garbage
// for a later GC). MAP_POPULATE
// allocates its pages in the one call rather than a fault each; either
// way outside the cold pass.
func (d *driver) evict(bytes int64) error {
	t0 := Now()
	if bytes <= 0 {
		// The process's own pages flushed (flushOwn), as the C driver's
		// evict; a stream where it cannot.
		if flushed := flushOwn(); flushed >= 0 {
			if err := evictTLB(); err != nil {
				return err
			}
			d.record("phase name=evict ns=%d bytes=%d huge=0 how=flush", Now()-t0, flushed)
			return nil
		}
		bytes = 64 << 20
		if llc := llcBytes(); llc > 0 {
			bytes = 2 * llc
		}
	}
	// Huge pages allocated in one call, else 4 KiB pages with MAP_POPULATE,
	// one write per cache line (as the C driver's evict, which says why).
	const huge = 2 << 20
	m, err := syscall.Mmap(-1, 0, int(bytes)+huge, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return fmt.Errorf("evict: mmap failed: %w", err)
	}
	off := int((huge - uintptr(unsafe.Pointer(&m[0]))%huge) % huge)
	p := m[off : off+int(bytes)]
	hugepages := 0
	if syscall.Madvise(p, syscall.MADV_HUGEPAGE) == nil && syscall.Madvise(p, madvPopulateWrite) == nil {
		hugepages = 1
	} else {
		_ = syscall.Munmap(m)
		if m, err = syscall.Mmap(-1, 0, int(bytes), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_POPULATE); err != nil {
			return fmt.Errorf("evict: mmap failed: %w", err)
		}
		p = m
	}
	for i := 0; i < len(p); i += 64 {
		p[i] = byte(i)
	}
	evictSink = p[len(p)-1]
	_ = syscall.Munmap(m)
	if hugepages == 1 {
		if err := evictTLB(); err != nil {
			return err
		}
	}
	d.record("phase name=evict ns=%d bytes=%d huge=%d how=write", Now()-t0, bytes, hugepages)
	return nil
}

// evictTLB: the TLB too, as the C driver's evict_tlb: one write to each
// page of a 4 KiB-page mapping of evictTLBPages pages.
func evictTLB() error {
	q, err := syscall.Mmap(-1, 0, evictTLBPages*4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return fmt.Errorf("evict: mmap failed: %w", err)
	}
	_ = syscall.Madvise(q, syscall.MADV_NOHUGEPAGE)
	_ = syscall.Madvise(q, madvPopulateWrite)
	for i := 0; i < len(q); i += 4096 {
		q[i] = byte(i)
	}
	evictSink ^= q[len(q)-1]
	_ = syscall.Munmap(q)
	return nil
}

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14), which syscall
// lacks; evictTLBPages is twice the largest second-level TLB of these CPUs.
const (
	madvPopulateWrite = 23
	evictTLBPages     = 8192
)

// Layout: heapPadBlock is -heap-pad's block, heapProbe the allocation after it.
var (
	heapPadBlock []byte
	heapProbe    *[64]byte
)

// addrNoRandomize is ADDR_NO_RANDOMIZE of <sys/personality.h>.
const addrNoRandomize = 0x0040000

func personality(p uintptr) (int, error) {
	r, _, errno := syscall.RawSyscall(syscall.SYS_PERSONALITY, p, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}

// reexecNoASLR sets ADDR_NO_RANDOMIZE and re-executes the binary with the
// same arguments and environment; execve keeps the flag, so the
// re-executed process finds it set and returns at once. The personality
// is a thread's, so the thread is locked from setting it to execve.
func reexecNoASLR() error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p, err := personality(0xffffffff)
	if err != nil {
		return fmt.Errorf("-no-aslr: personality failed: %w", err)
	}
	if p&addrNoRandomize != 0 {
		return nil // re-executed, or started under setarch -R
	}
	if _, err := personality(uintptr(p | addrNoRandomize)); err != nil {
		return fmt.Errorf("-no-aslr: personality(ADDR_NO_RANDOMIZE) refused: %w", err)
	}
	if q, _ := personality(0xffffffff); q&addrNoRandomize == 0 {
		return fmt.Errorf("-no-aslr: personality(ADDR_NO_RANDOMIZE) refused")
	}
	err = syscall.Exec("/proc/self/exe", os.Args, os.Environ())
	return fmt.Errorf("-no-aslr: re-exec of /proc/self/exe failed: %w", err)
}

// aslrOn reports whether this process's addresses are randomised.
func aslrOn() bool {
	if p, err := personality(0xffffffff); err == nil && p&addrNoRandomize != 0 {
		return false
	}
	b, err := os.ReadFile("/proc/sys/kernel/randomize_va_space")
	return err != nil || strings.TrimSpace(string(b)) != "0"
}

// funcPC is the address of the code of a func value.
func funcPC(f func() int64) uintptr {
	return **(**uintptr)(unsafe.Pointer(&f))
}

// padStack runs f with its stack frames at least n bytes further from the
// top of the goroutine's stack: Go has no alloca, so it recurses through
// padFrame, whose frame is a fixed size (measured, 32 bytes or so on
// amd64), ceil(n / size) times. A goroutine's stack is copied when it grows, so absolute
// addresses move, but the offsets from the top, which decide the address
// bits below the stack's alignment, are kept.
func padStack(n int64, f func()) {
	if n <= 0 {
		f()
		return
	}
	size := int64(frameSize())
	padFrame(int((n+size-1)/size)-1, f, 0, nil) // depth d is d+1 frames
}

// padFrame recurses depth times, then runs f, or with f nil stores in
// dist the distance between its frame and its caller's (outer).
//
//go:noinline
func padFrame(depth int, f func(), outer uintptr, dist *uintptr) {
	var mark byte
	here := uintptr(unsafe.Pointer(&mark))
	switch {
	case depth > 0:
		padFrame(depth-1, f, here, dist)
	case f != nil:
		f()
	default:
		*dist = outer - here
	}
}

// frameSize measures padFrame's frame: the distance between the locals of
// two nested calls, taken twice; a stack copy between the two reads of
// one shows as two distances that differ.
func frameSize() uintptr {
	for {
		var a, b uintptr
		padFrame(1, nil, 0, &a)
		padFrame(1, nil, 0, &b)
		if a == b && a > 0 && a < 4096 {
			return a
		}
	}
}
