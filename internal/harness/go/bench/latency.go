package bench

import (
	"fmt"
	"math/bits"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// Op times the operations of an ops variant, the Go twin of the C
// harness's BENCH_OPS (docs/latency.md):
//
//	//bench:ops 1000
//	func BenchInsert(op *bench.Op) {
//		for i := 0; i < 1000; i++ {
//			op.Begin()
//			m[i] = i
//			op.End()
//		}
//	}
//
// A pass performs exactly the declared number of operations, each between
// op.Begin() and op.End(). Begin reads the counter last and End first
// (tickBegin, tickEnd: LFENCE;RDTSC and RDTSCP;LFENCE on amd64, the
// virtual counter on arm64); the calls themselves are part of the
// overhead the driver measures with empty operations and reports.
type Op struct {
	t0     uint64
	begins int64
	open   bool
	bad    string   // the first misuse, with its line
	hist   []uint64 // the histogram of a measured pass, else nil
	max    uint64
	maxT0  uint64 // the counter at the Begin of the worst operation
	maxOp  int64  // its index in the pass (from 0, over a batch's k passes)
}

// theOp is the one Op of the process: passes run one at a time.
var theOp Op

// CurrentOp is the Op the generated timed function hands an ops variant.
func CurrentOp() *Op { return &theOp }

// Begin starts an operation.
func (o *Op) Begin() {
	if o.open && o.bad == "" {
		o.misuse("op.Begin called again before op.End")
	}
	o.open = true
	o.begins++
	o.t0 = tickBegin()
}

// End ends the operation that Begin started and records its time.
func (o *Op) End() {
	t := tickEnd()
	if !o.open && o.bad == "" {
		o.misuse("op.End without an op.Begin")
	}
	o.open = false
	if o.hist != nil {
		o.add(t - o.t0)
	}
}

//go:noinline
func (o *Op) misuse(what string) {
	_, _, line, _ := runtime.Caller(2)
	o.bad = fmt.Sprintf("%s (line %d)", what, line)
}

func (o *Op) add(t uint64) {
	if int64(t) < 0 {
		t = 0 // a counter that went back
	}
	o.hist[latIndex(t)]++
	if t > o.max {
		o.max, o.maxT0, o.maxOp = t, o.t0, o.begins-1
	}
}

// The histogram: HDR style with 3 significant digits, as in the C driver
// (latency.c): values below 2048 ticks have a bucket each; above, each
// power of two is cut into 1024 buckets.
const (
	latHalf    = 1024
	latBuckets = 34 * latHalf
	latWindow  = 5e6 // ns: the calibration window of the tick rate
)

func latIndex(v uint64) int {
	v = min(v, 1<<43-1)
	if v < 2*latHalf {
		return int(v)
	}
	e := bits.Len64(v) - 11
	return (e+1)*latHalf + int(v>>e) - latHalf
}

func latLowest(i int) uint64 {
	if i < 2*latHalf {
		return uint64(i)
	}
	return uint64(i%latHalf+latHalf) << (i/latHalf - 1)
}

// latPercentile is the lowest value of the bucket holding the operation
// of rank ceil(q * count), from 1.
func latPercentile(h []uint64, q float64) uint64 {
	var count uint64
	for _, c := range h {
		count += c
	}
	if count == 0 {
		return 0
	}
	rank := max(uint64(q*float64(count)+0.999999), 1)
	var seen uint64
	for i, c := range h {
		if seen += c; seen >= rank {
			return latLowest(i)
		}
	}
	return 0
}

// latSlot is the latency state of one slot of an ops variant.
type latSlot struct {
	n, passes     int64
	hist          []uint64
	max, overhead uint64
	// Where the worst operation was: its measured pass (from 0), its index
	// in the pass, and CLOCK_MONOTONIC at its Begin; emptyMax is the worst
	// of the n empty operations of the prelude.
	maxPass, maxOp, maxAtNS int64
	emptyMax                uint64
	// maxRunDelay and maxNivcsw: what the thread waited while the sample
	// (pass, or k passes) that holds the worst operation ran: the growth
	// of its scheduler run delay (ns runnable but not running) and of its
	// involuntary context switches; -1 unread.
	maxRunDelay, maxNivcsw int64
}

// latency is the driver's BENCH_OPS state.
type latency struct {
	slots     []latSlot
	any       bool
	rateStart float64
	// The thread's waits around each measured pass of an ops slot, outside
	// the timed region: field 2 of /proc/thread-self/schedstat (kept open,
	// read with pread) and getrusage(RUSAGE_THREAD)'s ru_nivcsw. The
	// goroutine is locked to its thread so that both are the measuring
	// thread's.
	schedstat             *os.File
	wait0Delay, wait0Nivc int64
}

// rusageThread is RUSAGE_THREAD (Linux), which syscall does not name.
const rusageThread = 1

// latWaits reads the thread's run delay (ns) and involuntary switches; -1
// for what cannot be read. Its two system calls come right before a pass
// of an ops slot, after a discarded pass too: the waits must bracket the
// pass that holds the worst operation, and a pass of n operations is long
// beside the TLB refill a system call can cost (the syscalls record counts
// them).
func (d *driver) latWaits() (delay, nivcsw int64) {
	delay, nivcsw = -1, -1
	if f := d.lat.schedstat; f != nil {
		var buf [128]byte
		sysN++
		if n, _ := f.ReadAt(buf[:], 0); n > 0 {
			if fs := strings.Fields(string(buf[:n])); len(fs) >= 2 {
				if v, err := strconv.ParseInt(fs[1], 10, 64); err == nil {
					delay = v
				}
			}
		}
	}
	var ru syscall.Rusage
	sysN++
	if syscall.Getrusage(rusageThread, &ru) == nil {
		nivcsw = ru.Nivcsw
	}
	return delay, nivcsw
}

func (d *driver) latInit() error {
	d.lat.slots = make([]latSlot, len(d.slots))
	for i, s := range d.slots {
		if s.v.Ops == 0 {
			continue
		}
		if s.v.Ops < 0 {
			return fmt.Errorf("//bench:ops %d of %s (line %d): the number of operations per pass must be at least 1", s.v.Ops, s.v.Name, s.v.Line)
		}
		d.lat.slots[i] = latSlot{n: s.v.Ops, hist: make([]uint64, latBuckets), maxRunDelay: -1, maxNivcsw: -1}
		d.lat.any = true
	}
	if d.lat.any {
		runtime.LockOSThread() // for the rest of the run: the waits are a thread's
		d.lat.schedstat, _ = os.Open("/proc/thread-self/schedstat")
	}
	return nil
}

// latCPUFlags says which of constant_tsc and nonstop_tsc the first flags
// line of /proc/cpuinfo lists.
func latCPUFlags() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "flags") {
			continue
		}
		var have []string
		for _, f := range []string{"constant_tsc", "nonstop_tsc"} {
			if strings.Contains(line+" ", " "+f+" ") {
				have = append(have, f)
			}
		}
		if len(have) > 0 {
			return strings.Join(have, ",")
		}
		break
	}
	return "none"
}

// latRate measures ticks per microsecond against the monotonic clock and
// writes the ticks record.
func (d *driver) latRate(when string) float64 {
	var rate float64
	var window int64
	if f := tickFreq(); f != 0 {
		rate = float64(f) / 1e6
	} else {
		n0 := Now()
		c0 := tickBegin()
		n1 := Now()
		for n1-n0 < latWindow {
			n1 = Now()
		}
		c1 := tickEnd()
		n2 := Now()
		window = n2 - n0
		rate = float64(c1-c0) / (float64(n1+n2)/2 - float64(n0)) * 1000
	}
	d.record("ticks when=%s source=%s ticks_per_us=%.6f window_ns=%d cpu_flags=%s", when, tickSource, rate, window, latCPUFlags())
	return rate
}

// latPrelude ends the prelude: the tick rate, then per ops slot a pass of
// n empty operations whose median is the overhead.
func (d *driver) latPrelude() {
	if !d.lat.any {
		return
	}
	d.lat.rateStart = d.latRate("start")
	h := make([]uint64, latBuckets)
	for i := range d.lat.slots {
		l := &d.lat.slots[i]
		if l.n == 0 {
			continue
		}
		clear(h)
		theOp = Op{hist: h}
		for j := int64(0); j < l.n; j++ {
			theOp.Begin()
			theOp.End()
		}
		l.overhead = latPercentile(h, 0.5)
		l.emptyMax = theOp.max
	}
	theOp = Op{}
}

func (d *driver) latBefore(i int) {
	theOp = Op{hist: d.lat.slots[i].hist}
	if d.lat.slots[i].n != 0 {
		d.lat.wait0Delay, d.lat.wait0Nivc = d.latWaits()
	}
}

// latAfter checks a measured pass's Begin and End calls against its slot.
func (d *driver) latAfter(i int) error {
	l, s := &d.lat.slots[i], d.slots[i]
	o := theOp
	delay1, nivcsw1 := int64(-1), int64(-1)
	if l.n != 0 {
		delay1, nivcsw1 = d.latWaits()
	}
	theOp.hist = nil
	switch {
	case o.bad != "":
		return fmt.Errorf("%s, in %s", o.bad, s.v.Name)
	case o.open:
		return fmt.Errorf("op.Begin without op.End in the same pass of %s (line %d)", s.v.Name, s.v.Line)
	case l.n == 0:
		return nil
	case o.begins != l.n*s.k:
		return fmt.Errorf("%s (line %d, //bench:ops %d): a pass did %d operations (op.Begin ... op.End), not %d",
			s.v.Name, s.v.Line, l.n, o.begins/s.k, l.n)
	}
	if o.max > l.max {
		// CLOCK_MONOTONIC at the operation's Begin: now, less the ticks since.
		ticksNow, nsNow := tickEnd(), Now()
		rate := d.lat.rateStart
		if rate <= 0 {
			rate = 1000
		}
		l.max, l.maxPass, l.maxOp = o.max, l.passes+o.maxOp/l.n, o.maxOp%l.n
		l.maxAtNS = nsNow - int64(float64(ticksNow-o.maxT0)*1000/rate)
		l.maxRunDelay, l.maxNivcsw = -1, -1
		if delay1 >= 0 && d.lat.wait0Delay >= 0 {
			l.maxRunDelay = delay1 - d.lat.wait0Delay
		}
		if nivcsw1 >= 0 && d.lat.wait0Nivc >= 0 {
			l.maxNivcsw = nivcsw1 - d.lat.wait0Nivc
		}
	}
	l.passes += s.k
	return nil
}

// latEnd writes the tick rate again and each ops slot's histogram: its
// non-empty buckets as index:count in latency_buckets records of at most
// about 900 bytes (as the C driver), then the latency record.
func (d *driver) latEnd() {
	if !d.lat.any {
		return
	}
	rate := (d.lat.rateStart + d.latRate("end")) / 2
	for i, l := range d.lat.slots {
		if l.n == 0 {
			continue
		}
		var buf strings.Builder
		var count uint64
		nonempty := 0
		for j, c := range l.hist {
			if c == 0 {
				continue
			}
			nonempty++
			count += c
			item := strconv.Itoa(j) + ":" + strconv.FormatUint(c, 10)
			if buf.Len()+len(item)+1 >= 899 {
				d.record("latency_buckets slot=%d buckets=%s", i, buf.String())
				buf.Reset()
			}
			if buf.Len() > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString(item)
		}
		if buf.Len() > 0 {
			d.record("latency_buckets slot=%d buckets=%s", i, buf.String())
		}
		d.record("latency slot=%d variant=%s ops=%d passes=%d n=%d max_ticks=%d overhead_ticks=%d ticks_per_us=%.6f nonempty=%d max_pass=%d max_op=%d max_at_ns=%d empty_max_ticks=%d max_run_delay_ns=%d max_nivcsw=%d",
			i, d.slots[i].v.Name, l.n, l.passes, count, l.max, l.overhead, rate, nonempty, l.maxPass, l.maxOp, l.maxAtNS, l.emptyMax, l.maxRunDelay, l.maxNivcsw)
	}
}
