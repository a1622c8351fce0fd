package machine

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"time"
	"unsafe"

	driver "github.com/benchbook/benchbook/internal/harness/go/bench"
	"golang.org/x/sys/unix"
)

// FingerprintOptions say how to measure a fingerprint.
type FingerprintOptions struct {
	// CPU pins the measuring thread to this CPU (the benchmark's, with
	// pin=); -1 leaves it where the scheduler puts it.
	CPU int
	// Skip records the boot conditions only, with Skipped set to it as the
	// reason (e.g. "fingerprint=off").
	Skip string
}

// fpTrials is the number of trials of every entry.
const fpTrials = 5

// Trial lengths: the integer chain of a chain round, and each size's
// chase trial. A chain round times five chains of the integer chain's
// iterations (the others take 1 to 5 times as long): about 1.5 ms.
const (
	chainTrial = 50 * time.Microsecond
)

// chaseSizes are the working sets of the chase, each with its trial
// length: in L1 on every core, in L2 on most, in L3 on most, and in DRAM.
// The private levels are stated in cycles (each round's ns per load over
// its integer chain's ns per add), since their latency is the core's: in
// ns they move with the clock of the moment, and on this project's VM two
// runs a minute apart read a 16 KiB chase 1.21 and 1.61 ns and were called
// other hardware (fingerprint version 1). The shared levels stay in ns:
// the L3 and memory do not run at the core's clock.
var chaseSizes = []struct {
	name   string
	bytes  int
	trial  time.Duration
	cycles bool
}{
	{"chase_16K", 16 << 10, 400 * time.Microsecond, true},
	{"chase_256K", 256 << 10, 800 * time.Microsecond, true},
	{"chase_4M", 4 << 20, 2 * time.Millisecond, false},
	{"chase_64M", 64 << 20, 6 * time.Millisecond, false},
}

// StreamEntry names the fingerprint's streaming read: the chase's 64 MiB
// read in order, every byte, at least twice the last-level cache of most
// cores (32 MiB on this project's VMs), so that what a trial reads comes
// from memory; 3-5 ms a trial here (13-25 GB/s).
const StreamEntry = "stream_read"

// MeasureFingerprint measures this machine's fingerprint: the latencies
// in cycles of dependent ADDSS, ADDSD, MULSD and loads of a line in L1,
// each timed against a chain of dependent integer adds (one cycle each)
// in the same round; a pointer chase through 16 KiB, 256 KiB, 4 MiB and
// 64 MiB; a streaming read of the 64 MiB (bytes per ns); the clock's grid
// and read cost; whether an anonymous read maps the zero page; and the
// boot conditions. The trials of every entry but the stream are spread
// over the whole measurement (round robin: a round times each entry
// once), so that something that disturbs the machine for a few
// milliseconds spoils one trial of each entry, not every trial of one.
// The stream's trials follow the rounds, one after another (streams):
// a stream leaves up to the last-level cache's size of the 64 MiB cached,
// where a later chase through it would hit. About 0.15-0.2 s. It never fails: what cannot be measured is said in
// Notes.
func MeasureFingerprint(opt FingerprintOptions) Fingerprint {
	start := time.Now()
	f := Fingerprint{Version: FingerprintVersion, Host: hostName(), Boot: ReadBoot(os.DirFS("/")), CPU: -1,
		Exact: chainsExact, Entries: []Entry{}}
	if opt.Skip != "" {
		f.Skipped = opt.Skip
		f.MS = msSince(start)
		return f
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if opt.CPU >= 0 {
		restore, err := pinThread(opt.CPU)
		if err != nil {
			f.Notes = append(f.Notes, err.Error())
		} else {
			f.CPU = opt.CPU
			defer restore()
		}
	}
	m, err := newMeasurer()
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
	} else {
		defer m.close()
		for r := range fpTrials {
			m.round(r)
		}
		m.streams()
		f.Entries = m.entries()
	}
	if z, err := ProbeZeroPage(); err != nil {
		f.Notes = append(f.Notes, err.Error())
	} else {
		f.ZeroPage = z
	}
	f.MS = msSince(start)
	return f
}

// measurer holds what the rounds of a fingerprint time and what they found.
type measurer struct {
	n      uint64         // iterations of every chain
	self   []byte         // the page of the load-to-use chain
	link   unsafe.Pointer // its word that holds its own address
	chase  *chaseBuffer
	starts []unsafe.Pointer // where each size's cycle is now
	laps   []uint64         // iterations of one lap of each size
	iters  []uint64         // iterations of a trial of each size
	// per round
	intNS  []float64   // ns per integer add
	nsPer  [][]float64 // per chain, ns per instruction
	chased [][]float64 // per size, ns per load
	read   []float64   // per stream trial, bytes per ns
	grid   []float64
	cost   []float64
}

// fpChains are the chains timed against the integer chain, in order.
var fpChains = []struct{ name, what string }{
	{"addss", "dependent ADDSS (single-precision add), cycles"},
	{"addsd", "dependent ADDSD (double-precision add), cycles"},
	{"mulsd", "dependent MULSD (double-precision multiply), cycles"},
	{"load", "dependent loads of one line in L1 (load to use), cycles"},
}

func newMeasurer() (*measurer, error) {
	n, err := calibrateTrial(driver.FreqChain, chainTrial)
	if err != nil {
		return nil, fmt.Errorf("fingerprint: %w", err)
	}
	m := &measurer{n: n, nsPer: make([][]float64, len(fpChains)), chased: make([][]float64, len(chaseSizes))}
	if m.self, err = unix.Mmap(-1, 0, os.Getpagesize(), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS); err != nil {
		return nil, fmt.Errorf("fingerprint: load chain: %w", err)
	}
	m.link = (&chaseBuffer{mem: m.self}).selfLink()
	total := 0
	for _, s := range chaseSizes {
		total += s.bytes
	}
	if m.chase, err = newChaseBuffer(total); err != nil {
		m.close()
		return nil, fmt.Errorf("fingerprint: %w", err)
	}
	off := 0
	for _, s := range chaseSizes {
		p := m.chase.layout(off, s.bytes)
		off += s.bytes
		lap := uint64(max(1, s.bytes/lineBytes/chainOps))
		// A probe of at most a lap sizes the trial; it also warms.
		probe := min(lap, 256)
		ns := timed(func() { p = loadChain(probe, p) }) / float64(probe*chainOps)
		m.starts = append(m.starts, p)
		m.laps = append(m.laps, lap)
		m.iters = append(m.iters, uint64(max(1, float64(s.trial)/max(ns, 0.1)/chainOps)))
	}
	return m, nil
}

func (m *measurer) close() {
	if m.self != nil {
		_ = unix.Munmap(m.self)
	}
	if m.chase != nil {
		m.chase.close()
	}
}

// round times every entry once: the chains (each twice, the faster kept:
// an interrupt only slows a run, and one in the integer chain would make
// every ratio of the round low), each chase size (after a lap for the
// sizes a cache can hold, which the 64 MiB chase of the round before
// evicted), and a probe of the clock.
func (m *measurer) round(r int) {
	n := m.n
	runs := []func(){
		func() { cleanVector(); chainSinkF = float64(addssChain(n, 1)) },
		func() { cleanVector(); chainSinkF = addsdChain(n, 1) },
		func() { cleanVector(); chainSinkF = mulsdChain(n, 1) },
		func() { chainSinkP = loadChain(n, m.link) },
	}
	intNS := min(timed(intChain(n)), timed(intChain(n))) / (float64(n) * driver.FreqAdds)
	m.intNS = append(m.intNS, intNS)
	for i, run := range runs {
		m.nsPer[i] = append(m.nsPer[i], min(timed(run), timed(run))/(float64(n)*chainOps))
	}
	for i, s := range chaseSizes {
		p := m.starts[i]
		if s.bytes <= 4<<20 {
			p = loadChain(m.laps[i], p)
		}
		iters := m.iters[i]
		m.chased[i] = append(m.chased[i], timed(func() { p = loadChain(iters, p) })/float64(iters*chainOps))
		m.starts[i] = p
	}
	p := ProbeClock()
	m.grid = append(m.grid, p.GridNS)
	m.cost = append(m.cost, p.ReadCostNS)
}

// streams times the streaming read fpTrials times: the largest chase's
// memory (already written: its own pages, no zero page) read in order,
// every byte. It comes after the last chase through that memory (what it
// leaves cached would make a chase there read the cache), and the one
// before it leaves a few MiB of random lines cached: the median of the
// trials, each over 64 MiB, is what memory delivers.
func (m *measurer) streams() {
	last := len(chaseSizes) - 1
	off := 0
	for _, s := range chaseSizes[:last] {
		off += s.bytes
	}
	mem := m.chase.mem[off : off+chaseSizes[last].bytes]
	base, lines := unsafe.Pointer(&mem[0]), uint64(len(mem)/lineBytes)
	for range fpTrials {
		m.read = append(m.read, float64(len(mem))/timed(func() { chainSinkI = streamRead(base, lines) }))
	}
}

// entries are the entries of the rounds measured: a chain's cycles in a
// round are its ns per instruction over the integer chain's of that
// round (the clock is the same a millisecond apart), and so are the
// cycles of a chase in a private cache; a chase in the shared levels is
// in ns, its cycles its ns at the median integer chain's.
func (m *measurer) entries() []Entry {
	perAdd := Median(m.intNS)
	out := []Entry{{Name: "int_add", What: "dependent integer ADD: the reference, one cycle; ns per add (the clock)", Unit: "ns",
		Value: perAdd, Trials: m.intNS, NS: perAdd, Cycles: 1}}
	for i, c := range fpChains {
		cyc := make([]float64, len(m.intNS))
		for r := range cyc {
			cyc[r] = m.nsPer[i][r] / m.intNS[r]
		}
		out = append(out, Entry{Name: c.name, What: c.what, Unit: "cycles", Value: Median(cyc), Trials: cyc,
			NS: Median(m.nsPer[i]), Cycles: Median(cyc)})
	}
	for i, s := range chaseSizes {
		ns := Median(m.chased[i])
		if s.cycles {
			cyc := make([]float64, len(m.intNS))
			for r := range cyc {
				cyc[r] = m.chased[i][r] / m.intNS[r]
			}
			out = append(out, Entry{Name: s.name, What: fmt.Sprintf("pointer chase, a random cycle through %s, 4 KiB pages; cycles per load", sizeName(s.bytes)),
				Unit: "cycles", Value: Median(cyc), Trials: cyc, NS: ns, Cycles: Median(cyc), Bytes: int64(s.bytes)})
			continue
		}
		out = append(out, Entry{Name: s.name, What: fmt.Sprintf("pointer chase, a random cycle through %s, 4 KiB pages; ns per load", sizeName(s.bytes)),
			Unit: "ns", Value: ns, Trials: m.chased[i], NS: ns, Cycles: ns / perAdd, Bytes: int64(s.bytes)})
	}
	big := chaseSizes[len(chaseSizes)-1].bytes
	out = append(out, Entry{Name: StreamEntry, What: fmt.Sprintf("streaming read of %s in order, every byte, 4 KiB pages; bytes per ns (GB/s)", sizeName(big)),
		Unit: "GB/s", Value: Median(m.read), Trials: m.read, Bytes: int64(big)})
	out = append(out,
		Entry{Name: "clock_grid", What: "the clock's granularity: the grid its spaced deltas sit on", Unit: "ns",
			Value: Median(m.grid), Trials: m.grid, NS: Median(m.grid)},
		Entry{Name: "clock_read", What: "one clock read (runtime.nanotime): the median block of back-to-back reads", Unit: "ns",
			Value: Median(m.cost), Trials: m.cost, NS: Median(m.cost)})
	for i := range out {
		out[i].Noise = NoiseOf(out[i])
	}
	return out
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// pinThread binds the calling (locked) thread to cpu and returns what
// puts its affinity back.
func pinThread(cpu int) (func(), error) {
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return nil, fmt.Errorf("fingerprint: not pinned to CPU %d: %w", cpu, err)
	}
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("fingerprint: not pinned to CPU %d: %w", cpu, err)
	}
	return func() { _ = unix.SchedSetaffinity(0, &old) }, nil
}

// chainSinks keep the chains' results.
var (
	chainSinkI uint64
	chainSinkF float64
	chainSinkP unsafe.Pointer
)

// intChain is a run of n iterations of the driver's FreqChain.
func intChain(n uint64) func() {
	return func() { chainSinkI = driver.FreqChain(n, 3) }
}

// timed runs f and returns how long it took in ns.
func timed(f func()) float64 {
	t0 := driver.Now()
	f()
	return float64(driver.Now() - t0)
}

// calibrateTrial returns the iterations of chain that take about trial:
// it doubles a short run until it takes a quarter of that, then scales.
// The first runs also wake an idle core.
func calibrateTrial(chain func(iterations, step uint64) uint64, trial time.Duration) (uint64, error) {
	n := uint64(64)
	for range 40 {
		d := timed(func() { chainSinkI = chain(n, 3) })
		if d >= float64(trial)/4 {
			return max(1, uint64(float64(n)*float64(trial)/d)), nil
		}
		n *= 2
	}
	return 0, fmt.Errorf("%d iterations of the add chain still took under %v", n, trial/4)
}

func sizeName(b int) string {
	if b >= 1<<20 {
		return fmt.Sprintf("%d MiB", b>>20)
	}
	return fmt.Sprintf("%d KiB", b>>10)
}

// NoiseOf is the entry's noise: the range of its inner trials (all but
// the fastest and the slowest: one disturbed trial on either side does
// not widen it), and never less than the entry's floor (entryFloors), the
// run-to-run movement of its kind on an undisturbed machine, which trials
// a fraction of a second apart cannot see.
func NoiseOf(e Entry) float64 {
	s := slices.Clone(e.Trials)
	slices.Sort(s)
	spread := 0.0
	if len(s) >= 3 {
		spread = s[len(s)-2] - s[1]
	}
	fl := entryFloors[e.Name]
	return max(spread, fl.rel*math.Abs(e.Value), fl.abs)
}
