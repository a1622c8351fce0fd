package protocol_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/records"
	"github.com/benchbook/benchbook/internal/replay"
)

// The test binary is the replay driver when the host runs it as a replay
// kernel (internal/replay): these tests measure nothing, so they run in
// plain go test, on a busy machine too.
func init() { replay.Main() }

// replayKernel makes a replay kernel of sc in dir; its processes log their
// record files and arguments to dir/name.log.
func replayKernel(t *testing.T, dir, name string, sc replay.Scenario) (*harness.Kernel, string) {
	t.Helper()
	sc.Log = filepath.Join(dir, name+".log")
	k, err := replay.NewKernel(dir, name, sc)
	if err != nil {
		t.Fatal(err)
	}
	return k, sc.Log
}

// replayOptions are %bench's options from args, small enough that a run
// takes a second or two, with the results under t's temporary folder.
func replayOptions(t *testing.T, args ...string) protocol.Options {
	t.Helper()
	opt, err := protocol.ParseOptions(append([]string{"settle=1ms", "fingerprint=off", "timeout=1m"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	opt.ResultsDir = t.TempDir()
	return opt
}

// logged is one process of a replay kernel as its log line says: the
// kernel, its record file's name and the options it was given.
type logged struct {
	kernel, file string
	args         map[string]string
}

func readLog(t *testing.T, path string) []logged {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ps []logged
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			t.Fatalf("%s: %q is no log line", path, line)
		}
		p := logged{kernel: f[0], file: f[1], args: map[string]string{}}
		argv := f[2]
		words := strings.Fields(argv)
		for i := 1; i < len(words); i++ {
			if !strings.HasPrefix(words[i], "-") {
				continue
			}
			v := ""
			if i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
				v = words[i+1]
			}
			p.args[words[i]] = v
		}
		ps = append(ps, p)
	}
	return ps
}

// label is a record file's label: p012-fresh-l0-a-03.txt is fresh-l0-a-03.
func label(file string) string {
	return strings.TrimSuffix(regexp.MustCompile(`^p[0-9]+-`).ReplaceAllString(file, ""), ".txt")
}

// rawRecords reads a record file of the run's folder.
func rawRecords(t *testing.T, dir, file string) []records.Record {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rr := records.NewReader(f)
	var recs []records.Record
	for rr.Scan() {
		recs = append(recs, rr.Record())
	}
	return recs
}

func near(x, want, tol float64) bool { return math.Abs(x/want-1) <= tol }

// threeVariants: a dead variant first (the A/A copy must be the first live
// one, a), a at 1 ms with a checksum, b 1.25x slower.
func threeVariants(seed uint64) replay.Scenario {
	return replay.Scenario{Seed: seed, Setup: true, Variants: []replay.Variant{
		{Name: "dead", Dead: true},
		{Name: "a", NS: 1e6, Noise: 0.02, Checksum: true, Want: 3},
		{Name: "b", NS: 1.25e6, Noise: 0.02},
	}}
}

// A first %bench: the discarded first execution, BlockPlan's processes of
// interleaved rounds with the A/A copy of the first live variant last, one
// in-process series of reps per fresh variant, runs fresh processes per
// fresh variant taking turns, each giving its cold pass and its pass to the
// same run of the series; checksums summed over every measured pass.
func TestReplayFirstBench(t *testing.T) {
	dir := t.TempDir()
	k, log := replayKernel(t, dir, "first", threeVariants(1))
	const reps, runs = 20, 10
	opt := replayOptions(t, "reps=20", "runs=10", "variants=dead,a,b", "fresh=a,b")
	r, err := protocol.Run(context.Background(), k, opt)
	if err != nil {
		t.Fatal(err)
	}
	per, blocks := protocol.BlockPlan(reps)
	ps := readLog(t, log)
	var want []string
	want = append(want, "first-discarded")
	for j := 1; j <= blocks; j++ {
		want = append(want, "interleaved-"+strconv.Itoa(j))
	}
	want = append(want, "inprocess-a", "inprocess-b")
	for run := 1; run <= runs; run++ {
		for _, v := range []string{"a", "b"} {
			want = append(want, "fresh-l0-"+v+"-"+strconv.Itoa(100 + run)[1:])
		}
	}
	var got []string
	for _, p := range ps {
		got = append(got, label(p.file))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("processes\n %v\nwant\n %v", got, want)
	}
	for j, p := range ps[1 : 1+blocks] {
		if p.args["-slots"] != "dead,a,b,a" || p.args["-rounds"] != strconv.Itoa(per) || p.args["-order-seed"] == "" {
			t.Errorf("%s: -slots %q -rounds %q -order-seed %q; want the A/A copy of a last, %d rounds, shuffled",
				p.file, p.args["-slots"], p.args["-rounds"], p.args["-order-seed"], per)
		}
		if _, clock := p.args["-clock"]; clock != (j == 0) {
			t.Errorf("%s: -clock %v: the clock is measured in the first block only", p.file, clock)
		}
	}
	if _, cold := ps[0].args["-calibrate-reads"]; !cold || ps[0].args["-cold"] != "dead" {
		t.Errorf("first execution: %v", ps[0].args)
	}
	if r.AA.Variant != "a" || len(r.AA.SamplesNS) != reps || !near(r.AA.Ratio, 1, 0.03) {
		t.Errorf("A/A: variant %q, %d samples, ratio %v", r.AA.Variant, len(r.AA.SamplesNS), r.AA.Ratio)
	}
	for _, v := range []string{"a", "b"} {
		if n := len(r.Series(v, "interleaved")); n != reps {
			t.Errorf("%s: %d interleaved samples, want %d", v, n, reps)
		}
		if n := len(r.Series(v, "in_process")); n != reps {
			t.Errorf("%s: %d in-process samples, want %d", v, n, reps)
		}
		fresh, cold := r.Series(v, "fresh"), r.Series(v, "cold")
		if len(fresh) != runs || len(cold) != runs {
			t.Fatalf("%s: %d fresh and %d cold samples, want %d each", v, len(fresh), len(cold), runs)
		}
		// Run i of both series is the same process's: its cold record and its sample.
		i := 0
		for _, p := range ps {
			if !strings.HasPrefix(label(p.file), "fresh-l0-"+v+"-") {
				continue
			}
			for _, rec := range rawRecords(t, r.RawFile, p.file) {
				switch rec.Kind {
				case "cold":
					if ns, _ := rec.Float("ns"); ns != cold[i] {
						t.Errorf("%s: cold[%d] = %v, its process %s recorded %v", v, i, cold[i], p.file, ns)
					}
				case "sample":
					if ns, _ := rec.Float("ns"); ns != fresh[i] {
						t.Errorf("%s: fresh[%d] = %v, its process %s recorded %v", v, i, fresh[i], p.file, ns)
					}
				}
			}
			i++
		}
	}
	if ratio, ok := r.Ratio("b", "a"); !ok || !near(ratio, 1.25, 0.03) {
		t.Errorf("b/a = %v (%v), the scenario's 1.25", ratio, ok)
	}
	// a's passes: twice per interleaved round (the A/A copy), the
	// in-process series, one per fresh process; 3 each.
	c := r.Variant("a").Checksum
	if c == nil || c.Passes != 2*reps+reps+runs || !c.OK || c.Got != 3*float64(c.Passes) {
		t.Errorf("a's checksum %+v, want %d passes of 3", c, 3*reps+runs)
	}
	if c := r.Variant("b").Checksum; c != nil {
		t.Errorf("b has no checksum, the result says %+v", c)
	}
}

// oneVariant is a kernel of one variant a of ns per pass.
func oneVariant(seed uint64, ns, noise float64) replay.Scenario {
	return replay.Scenario{Seed: seed, Variants: []replay.Variant{{Name: "a", NS: ns, Noise: noise}}}
}

// beforeAfter runs kernel now against baseline before with args, and
// returns the result, a's verdict and its headline line.
func beforeAfter(t *testing.T, now, before *harness.Kernel, args ...string) (*protocol.Result, protocol.VariantVerdict, string) {
	t.Helper()
	opt := replayOptions(t, append([]string{"reps=10", "runs=10", "fresh=a"}, args...)...)
	opt.Baseline = before
	r, err := protocol.Run(context.Background(), now, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Baseline == nil || len(r.Baseline.Verdicts) != 1 {
		t.Fatalf("no verdict of a: %+v", r.Baseline)
	}
	var line string
	for _, l := range protocol.Headline(r) {
		if l.Variant == "a" {
			line = l.Text
		}
	}
	return r, r.Baseline.Verdicts[0], line
}

// A before/after of a build 1.25x slower than its baseline, and of one
// whose baseline is 1.25x slower: slower (faster), with an interval that
// holds the ratio, decided at the 10-block minimum (the blocks are
// lock-step pairs in step mode, then a fresh pair each).
func TestReplayBeforeAfterDecided(t *testing.T) {
	cases := []struct {
		now, before float64
		verdict     string
		ratio       float64
		headline    string
	}{
		{1.25e6, 1e6, protocol.VerdictSlower, 1.25, `^a: 1\.2[0-9]*x slower \[1\.[0-9]+, 1\.[0-9]+\] than the previous build \(same run, 10 pairs, .*assembly differs$`},
		{1e6, 1.25e6, protocol.VerdictFaster, 0.8, `^a: 1\.2[0-9]*x faster \[1\.[0-9]+, 1\.[0-9]+\] than the previous build \(same run, 10 pairs, .*assembly differs$`},
	}
	for _, c := range cases {
		t.Run(c.verdict, func(t *testing.T) {
			testDecided(t, c.now, c.before, c.verdict, c.ratio, c.headline)
		})
	}
}

func testDecided(t *testing.T, nowNS, beforeNS float64, verdict string, ratio float64, headline string) {
	dir := t.TempDir()
	now, nowLog := replayKernel(t, dir, "now", oneVariant(1, nowNS, 0.02))
	before, beforeLog := replayKernel(t, dir, "before", oneVariant(2, beforeNS, 0.02))
	r, v, line := beforeAfter(t, now, before, "budget=30s")
	t.Log(line)
	if v.Verdict != verdict || v.CILow > ratio || v.CIHigh < ratio || !near(v.Ratio, ratio, 0.02) {
		t.Errorf("verdict %s, ratio %v in [%v, %v]; want %s around %v", v.Verdict, v.Ratio, v.CILow, v.CIHigh, verdict, ratio)
	}
	if !regexp.MustCompile(headline).MatchString(line) {
		t.Errorf("headline %q", line)
	}
	// The headline says the factor both ways: its interval holds 1.25.
	if m := regexp.MustCompile(`\[([0-9.]+), ([0-9.]+)\]`).FindStringSubmatch(line); m != nil {
		lo, _ := strconv.ParseFloat(m[1], 64)
		hi, _ := strconv.ParseFloat(m[2], 64)
		if lo > 1.25 || hi < 1.25 {
			t.Errorf("headline interval [%v, %v] does not hold 1.25: %q", lo, hi, line)
		}
	}
	if r.Baseline.Blocks != protocol.MinRuns || r.Baseline.Stop != protocol.StopDecided {
		t.Errorf("%d blocks, stopped: %s; want %d, decided", r.Baseline.Blocks, r.Baseline.Stop, protocol.MinRuns)
	}
	for _, c := range []struct {
		log            string
		first, stepped string
	}{{nowLog, "first-discarded", "interleaved-"}, {beforeLog, "baseline-first-discarded", "baseline-interleaved-"}} {
		ps := readLog(t, c.log)
		var steps, fresh int
		for _, p := range ps {
			switch l := label(p.file); {
			case strings.HasPrefix(l, c.stepped):
				steps++
				_, step := p.args["-step"]
				if !step || p.args["-rounds"] != strconv.Itoa(protocol.BlockRounds) || p.args["-step-warmup"] != strconv.Itoa(protocol.StepWarmup) {
					t.Errorf("%s: %v, want step mode of %d rounds", p.file, p.args, protocol.BlockRounds)
				}
			case strings.Contains(l, "fresh-"):
				fresh++
			}
		}
		if label(ps[0].file) != c.first || steps != protocol.MinRuns || fresh != protocol.MinRuns {
			t.Errorf("%s: first %s, %d lock-step and %d fresh processes; want %d each", c.log, ps[0].file, steps, fresh, protocol.MinRuns)
		}
	}
	if n := len(r.Series("a", "interleaved")); n != protocol.MinRuns*protocol.BlockRounds || len(r.Baseline.NewFirst) != n {
		t.Errorf("%d interleaved rounds, %d orders recorded; want %d", n, len(r.Baseline.NewFirst), protocol.MinRuns*protocol.BlockRounds)
	}
}

// A before/after of an unchanged build, its noise too wide for an
// interval within resolve=1% in the budget: it runs until the budget stops
// it, and reads undefined or no difference, never slower or faster.
func TestReplayBeforeAfterUnchanged(t *testing.T) {
	dir := t.TempDir()
	now, _ := replayKernel(t, dir, "now", oneVariant(3, 1e6, 0.05))
	before, _ := replayKernel(t, dir, "before", oneVariant(4, 1e6, 0.05))
	r, v, line := beforeAfter(t, now, before, "budget=2s", "resolve=1%")
	t.Logf("%d blocks: %s", r.Baseline.Blocks, line)
	if v.Verdict != protocol.VerdictUndefined && v.Verdict != protocol.VerdictNoDifference {
		t.Errorf("unchanged code reads %s: %s", v.Verdict, line)
	}
	if v.CILow > 1 || v.CIHigh < 1 {
		t.Errorf("interval [%v, %v] excludes 1", v.CILow, v.CIHigh)
	}
	// Past the minimum here (28-41 blocks in 2 s); a machine busy enough
	// may fit no more than the minimum in the budget, so that is not held.
	if r.Baseline.Stop != protocol.StopBudget || r.Baseline.Blocks < protocol.MinRuns {
		t.Errorf("%d blocks, stopped: %s; want at least %d, stopped by the budget", r.Baseline.Blocks, r.Baseline.Stop, protocol.MinRuns)
	}
	if strings.Contains(line, "slower") || strings.Contains(line, "faster") || !strings.HasSuffix(line, "assembly identical") {
		t.Errorf("headline %q", line)
	}
}

// A process that fails midway ends the run: the error names the process
// and how it ended, the result is partial with what was measured before,
// and the raw records of every process so far are on disk, the failed
// one's without its done record; recover rebuilds the same series from
// them.
func TestReplayProcessFails(t *testing.T) {
	cases := []struct {
		name string
		fail replay.Fail
		says []string
		// what is measured before the failure: interleaved rounds of a,
		// in-process samples, fresh samples
		inter, inproc, fresh int
		last                 string // the label of the last process
	}{
		{"fresh process exits 3", replay.Fail{Process: "fresh-l0-a-03", AfterSamples: 0, Status: 3},
			[]string{"fresh-l0-a-03", "exited with status 3"}, 20, 20, 2, "fresh-l0-a-03"},
		{"interleaved block ends early", replay.Fail{Process: "interleaved-2", AfterSamples: 4, Status: 0}, // its first round
			[]string{"interleaved-2", "exited without finishing its passes"}, 3, 0, 0, "interleaved-2"},
		{"refused", replay.Fail{Process: "inprocess-b", AfterSamples: 0, Status: 2, Error: "replayed refusal"},
			[]string{"inprocess-b", "the harness refused: replayed refusal"}, 20, 20, 0, "inprocess-b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			sc := threeVariants(5)
			sc.Fail = &c.fail
			k, log := replayKernel(t, dir, "fails", sc)
			r, err := protocol.Run(context.Background(), k, replayOptions(t, "reps=20", "runs=10", "variants=dead,a,b", "fresh=a,b"))
			if err == nil {
				t.Fatal("the run did not fail")
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("the error does not say %q: %v", s, err)
				}
			}
			if r == nil || !r.Partial || r.Error != err.Error() {
				t.Fatalf("the result is not partial with the error: %+v", r)
			}
			counts := func(r *protocol.Result) [3]int {
				return [3]int{len(r.Series("a", "interleaved")), len(r.Series("a", "in_process")), len(r.Series("a", "fresh"))}
			}
			if got, want := counts(r), [3]int{c.inter, c.inproc, c.fresh}; got != want {
				t.Errorf("a's interleaved, in-process and fresh samples: %v, want %v", got, want)
			}
			ps := readLog(t, log)
			if l := label(ps[len(ps)-1].file); l != c.last {
				t.Errorf("the last process was %s, want %s", l, c.last)
			}
			for i, p := range ps {
				recs := rawRecords(t, r.RawFile, p.file)
				done := len(recs) > 0 && recs[len(recs)-1].Kind == "done"
				if len(recs) == 0 || recs[0].Kind != "start" || done != (i < len(ps)-1) {
					t.Errorf("%s on disk: %d records, done %v", p.file, len(recs), done)
				}
			}
			if err := os.Remove(filepath.Join(r.RawFile, protocol.ResultFile)); err != nil {
				t.Fatal(err)
			}
			rec, err := protocol.Recover(r.RawFile)
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Partial || counts(rec) != counts(r) {
				t.Errorf("recovered: partial %v, samples %v; the run's %v", rec.Partial, counts(rec), counts(r))
			}
		})
	}
}

// A sweep of three points whose pass grows with N: every phase and every
// round of fresh processes visits the points in the order the summary
// records (the replay kernels share one log, so the order their processes
// ran in is known), and each point's series are its own kernel's times.
func TestReplaySweep(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "sweep.log")
	ns := []int64{1 << 10, 2 << 10, 4 << 10}
	var pts []protocol.SweepRun
	for i, n := range ns {
		sc := replay.Scenario{Seed: uint64(10 + i), Log: log, Variants: []replay.Variant{{Name: "a", NS: 100 * float64(n), Noise: 0.02}}}
		k, err := replay.NewKernel(dir, "pt"+strconv.Itoa(i), sc)
		if err != nil {
			t.Fatal(err)
		}
		pts = append(pts, protocol.SweepRun{Kernel: k, Point: protocol.SweepPoint{ID: "replay", Index: i, Of: len(ns), Param: "N", Value: n, Elements: n}})
	}
	const reps, runs = 10, 10
	rs, err := protocol.RunSweep(context.Background(), pts, replayOptions(t, "reps=10", "runs=10", "fresh=a"))
	if err != nil {
		t.Fatal(err)
	}
	sum := rs[len(rs)-1].Sweep.Summary
	if sum == nil || len(sum.Order) != 4+runs {
		t.Fatalf("summary %+v: want the order of 4 phases and %d fresh rounds", sum, runs)
	}
	// turn is the entry of Order a process belongs to: 0 is the
	// conditions (no process), then the first execution, part 1, the
	// in-process series, each round of fresh processes.
	turn := func(l string) int {
		switch {
		case l == "first-discarded":
			return 1
		case strings.HasPrefix(l, "interleaved-"):
			return 2
		case strings.HasPrefix(l, "inprocess-"):
			return 3
		case strings.HasPrefix(l, "fresh-l0-a-"):
			n, _ := strconv.Atoi(strings.TrimPrefix(l, "fresh-l0-a-"))
			return 3 + n
		}
		t.Fatalf("process %s of no phase", l)
		return 0
	}
	visited := make([][]int, len(sum.Order))
	prev := -1
	for _, p := range readLog(t, log) {
		i, _ := strconv.Atoi(strings.TrimPrefix(p.kernel, "pt"))
		tn := turn(label(p.file))
		if tn < prev {
			t.Fatalf("%s of %s ran after a process of turn %d", p.file, p.kernel, prev)
		}
		if v := visited[tn]; len(v) == 0 || v[len(v)-1] != i {
			visited[tn] = append(visited[tn], i)
		}
		prev = tn
	}
	for j, o := range sum.Order {
		sorted := slices.Sorted(slices.Values(o))
		if !slices.Equal(sorted, []int{0, 1, 2}) {
			t.Errorf("turn %d: order %v is no permutation of the points", j, o)
		}
		if j > 0 && !slices.Equal(visited[j], o) {
			t.Errorf("turn %d: the processes visited the points %v, the summary says %v", j, visited[j], o)
		}
	}
	t.Logf("order %v visited %v", sum.Order, visited)
	var last float64
	for i, r := range rs {
		if r.Sweep == nil || r.Sweep.Index != i || r.Sweep.Value != ns[i] {
			t.Fatalf("result %d is of point %+v", i, r.Sweep)
		}
		m := r.Summary("a", "interleaved").Median
		if !near(m, 100*float64(ns[i]), 0.03) || m <= last {
			t.Errorf("point %d: median %v ns, want %v, above the previous point's %v", i, m, 100*float64(ns[i]), last)
		}
		last = m
		if n, f := len(r.Series("a", "interleaved")), len(r.Series("a", "fresh")); n != reps || f != runs {
			t.Errorf("point %d: %d interleaved and %d fresh samples, want %d and %d", i, n, f, reps, runs)
		}
	}
}

// A pass shorter than 100 clock reads is timed in batches the first
// execution calibrates (batch=K fixes K and keeps the calibrated k); a
// dead variant is never batched; the series are per pass; a wrong checksum
// fails the run with ErrChecksum.
func TestReplayBatchesAndChecksum(t *testing.T) {
	sc := replay.Scenario{Seed: 6, Variants: []replay.Variant{
		{Name: "short", NS: 5, Noise: 0.01, Checksum: true, WrongBy: 1.5},
		{Name: "dead", Dead: true},
	}}
	k, _ := replayKernel(t, t.TempDir(), "short", sc)
	for _, c := range []struct {
		arg  string
		want func(k int) bool
	}{{"batch=auto", func(k int) bool { return k >= 400 }}, {"batch=7", func(k int) bool { return k == 7 }}} {
		r, err := protocol.Run(context.Background(), k, replayOptions(t, "reps=10", "runs=10", "fresh=short", c.arg))
		if !errors.Is(err, protocol.ErrChecksum) {
			t.Errorf("%s: err = %v, want a checksum mismatch", c.arg, err)
		}
		s, d := r.Variant("short"), r.Variant("dead")
		// The goal is 100 reads of 20 ns: a 5 ns pass takes about 480.
		if !c.want(s.Batch) || d.Batch != 1 || (c.arg == "batch=7" && s.BatchAuto < 400) {
			t.Errorf("%s: short batched %d (auto %d), dead %d", c.arg, s.Batch, s.BatchAuto, d.Batch)
		}
		if m := r.Summary("short", "interleaved").Median; !near(m, 5, 0.05) {
			t.Errorf("%s: short's median %v ns per pass, want 5", c.arg, m)
		}
		if ch := s.Checksum; ch == nil || ch.OK || ch.Got != 1.5*float64(ch.Passes) {
			t.Errorf("%s: checksum %+v", c.arg, ch)
		}
	}
}

// cold=after-setup moves the cold pass of every process that takes one
// after setup and an eviction (-cold-after-setup), and the cold series is
// still one per fresh process.
func TestReplayColdAfterSetup(t *testing.T) {
	k, log := replayKernel(t, t.TempDir(), "cold", threeVariants(8))
	r, err := protocol.Run(context.Background(), k, replayOptions(t, "reps=10", "runs=10", "variants=a,b", "fresh=a", "cold=after-setup"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range readLog(t, log) {
		_, after := p.args["-cold-after-setup"]
		if _, cold := p.args["-cold"]; cold != after {
			t.Errorf("%s: -cold %v, -cold-after-setup %v", p.file, cold, after)
		}
		if !strings.Contains(p.file, "fresh-") {
			continue
		}
		var kinds []string
		for _, rec := range rawRecords(t, r.RawFile, p.file) {
			if rec.Kind == "cold" || rec.Kind == "phase" && rec.Fields["name"] != "warmup" {
				kinds = append(kinds, rec.Kind+":"+rec.Fields["name"]+rec.Fields["after"])
			}
		}
		if strings.Join(kinds, " ") != "phase:setup phase:evict cold:setup phase:settle" {
			t.Errorf("%s: prelude %v", p.file, kinds)
		}
	}
	if r.Protocol.ColdAfter != "setup" || len(r.Series("a", "cold")) != 10 {
		t.Errorf("cold after %q, %d cold samples", r.Protocol.ColdAfter, len(r.Series("a", "cold")))
	}
}
