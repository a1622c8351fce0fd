package bench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/stdlib/asm"
	"github.com/benchbook/benchbook/stdlib/harness"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// baseRun is the baseline of a run: another build measured beside the
// kernel, round by round and process by process.
type baseRun struct {
	k             *harness.Kernel
	slots         []string
	inter         [][]float64
	fresh         map[string]*freshRuns
	sums          map[string]*Checksum
	counts        map[string]int64
	newFirst      []bool
	pairOf        []int
	freshNewFirst []bool
	rng           *rand.Rand
}

// newBaseRun prepares the baseline k; the order of the two builds in each
// round and each pair of fresh processes is drawn from a PCG seeded with
// the run's order seed (stream 1), and recorded.
func newBaseRun(k *harness.Kernel, seed uint64) *baseRun {
	return &baseRun{k: k, fresh: map[string]*freshRuns{}, sums: map[string]*Checksum{}, counts: map[string]int64{},
		rng: rand.New(rand.NewPCG(seed, 1))}
}

// has says whether the baseline has variant v; a nil baseline has none.
func (b *baseRun) has(v string) bool {
	if b == nil {
		return false
	}
	_, ok := b.k.Variant(v)
	return ok
}

// common is the part of names the baseline has, in order.
func (b *baseRun) common(names []string) []string {
	var out []string
	for _, n := range names {
		if b.has(n) {
			out = append(out, n)
		}
	}
	return out
}

// coin says whether the new build goes first.
func (b *baseRun) coin() bool { return b.rng.IntN(2) == 0 }

func (b *baseRun) addChecksum(variant string, rec harness.Record) { addChecksum(b.sums, variant, rec) }

// interleavedPair is Part 1 with a baseline: Pairs pairs of processes, one
// of the new build and one of the baseline, in step mode, taking their
// prelude and each round in turn, in a random order per round; within each
// process the slots run in a random order per round too. The rounds are
// shared out over the pairs, so that the process, whose placement in memory
// can make it faster or slower as a whole, is replicated and the verdict
// can be taken across pairs (stats.CompareClustered). The baseline gets the
// variants it has, the same batch sizes and the same settings.
func (r *runner) interleavedPair(ctx context.Context, slots []string, aa string, args []string) error {
	b := r.base
	b.slots = b.common(slots)
	cold := b.slots[0]
	if b.has(aa) {
		cold = aa
	}
	seed := r.orderSeed()
	var news, olds []*proc
	var err error
	round := 0
	for j := 0; j < r.opt.Pairs && err == nil; j++ {
		rounds := r.opt.Reps/r.opt.Pairs + btoi(j < r.opt.Reps%r.opt.Pairs)
		newArgs := withRounds(args, rounds, harness.SeedAtRound(seed, round, len(slots)))
		if j > 0 { // the clock and its gaps are measured once, in the first pair
			newArgs = without(newArgs, "-clock", "-gaps-ms")
		}
		oldArgs := []string{"-slots", strings.Join(b.slots, ","), "-batch", r.batchList(b.slots), "-cold", cold,
			"-settle-ms", ms(r.opt.Settle), "-warmup", strconv.Itoa(r.opt.Warmup), "-rounds", strconv.Itoa(rounds),
			"-order-seed", strconv.FormatUint(harness.SeedAtRound(seed+1, round, len(b.slots)), 10)}
		var pn, po *proc
		pn, po, err = r.stepPair(ctx, j, rounds, newArgs, oldArgs)
		news, olds = append(news, pn), append(olds, po)
		for range rounds {
			b.pairOf = append(b.pairOf, j)
		}
		round += rounds
	}
	r.collectInterleaved(news, slots)
	b.inter, _ = collectRounds(olds, len(b.slots))
	for _, po := range olds {
		if po == nil {
			continue
		}
		for _, rec := range po.Records {
			if slot, e := rec.Int("slot"); rec.Kind == "checksum" && e == nil && int(slot) < len(b.slots) {
				b.addChecksum(b.slots[slot], rec)
			}
		}
	}
	return err
}

// stepPair runs pair j: both processes started in step mode, then the
// prelude and each of the rounds, the two builds in a random order each
// time (the order of the rounds is recorded).
func (r *runner) stepPair(ctx context.Context, j, rounds int, newArgs, oldArgs []string) (*proc, *proc, error) {
	b := r.base
	newP, err := r.startStepped(r.k.Binary, fmt.Sprintf("interleaved-%d", j+1), newArgs...)
	if err != nil {
		return nil, nil, err
	}
	oldP, err := r.startStepped(b.k.Binary, fmt.Sprintf("baseline-interleaved-%d", j+1), oldArgs...)
	if err != nil {
		pn, _ := newP.finish(err)
		return pn, nil, err
	}
	for step := 0; step <= rounds && err == nil; step++ {
		newFirst := b.coin()
		if step > 0 { // the prelude's order is random but not a round
			b.newFirst = append(b.newFirst, newFirst)
			r.progress(Progress{Phase: fmt.Sprintf("part 1: new and previous build in turn, pair %d of %d", j+1, r.opt.Pairs),
				Process: step, Of: rounds})
		}
		order := []*stepped{newP, oldP}
		if !newFirst {
			order[0], order[1] = oldP, newP
		}
		for _, s := range order {
			if err = s.step(ctx); err != nil {
				break
			}
		}
	}
	pn, errN := newP.finish(err)
	po, errO := oldP.finish(err)
	if err == nil {
		err = errors.Join(errN, errO)
	}
	return pn, po, err
}

// withRounds is args with -rounds and -order-seed set.
func withRounds(args []string, rounds int, seed uint64) []string {
	out := append([]string{}, args...)
	for i := 0; i+1 < len(out); i++ {
		switch out[i] {
		case "-rounds":
			out[i+1] = strconv.Itoa(rounds)
		case "-order-seed":
			out[i+1] = strconv.FormatUint(seed, 10)
		}
	}
	return out
}

// without drops the flags named (with their value, except -clock).
func without(args []string, flags ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if slices.Contains(flags, args[i]) {
			if args[i] != "-clock" {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// assembleBaseline puts the baseline's samples beside the new build's and
// judges every variant and series.
func (r *runner) assembleBaseline() {
	b := r.base
	if b == nil {
		return
	}
	bl := &Baseline{Kernel: kernelOf(b.k), SameRun: true, Other: r.opt.BaselineName, NewFirst: b.newFirst,
		PairOf: b.pairOf, FreshNewFirst: b.freshNewFirst, Asm: map[string]string{}}
	var missing, wrong []string
	for i, name := range r.opt.Variants {
		hv, ok := b.k.Variant(name)
		if !ok {
			missing = append(missing, name)
			continue
		}
		bl.Asm[name] = hv.Asm
		if n, ok := b.counts[name]; ok {
			if bl.Counts == nil {
				bl.Counts = map[string]int64{}
			}
			bl.Counts[name] = n
		}
		same := AsmSame(hv.Asm, r.res.Variants[i].Asm)
		add := func(series string, samples []float64) {
			if len(samples) > 0 && r.res.Variants[i].Get(series) != nil {
				bl.Variants = append(bl.Variants, BaselineVariant{Name: name, AsmSame: same, Series: series, SamplesNS: samples})
			}
		}
		if k := slices.Index(b.slots, name); k >= 0 && k < len(b.inter) {
			add("interleaved", b.inter[k])
		}
		if fr := b.fresh[name]; fr != nil {
			add("fresh", fr.samples)
			add("cold", fr.cold)
		}
		if c := b.sums[name].judged(); c != nil && !c.OK {
			wrong = append(wrong, name)
		}
	}
	var notes []string
	if len(missing) > 0 {
		notes = append(notes, fmt.Sprintf("the baseline has no variant %s", strings.Join(missing, ", ")))
	}
	if len(wrong) > 0 {
		notes = append(notes, fmt.Sprintf("the baseline's checksum did not match for %s", strings.Join(wrong, ", ")))
	}
	bl.Note = strings.Join(notes, "; ")
	JudgeBaseline(r.res, bl)
	r.res.Baseline = bl
}

// kernelOf is the identity of a built kernel as a result records it.
func kernelOf(k *harness.Kernel) Kernel {
	return Kernel{Name: k.Name, Lang: k.Lang, Compiler: k.Compiler, Flags: append([]string{}, k.Flags...),
		SourceSHA256: k.SourceSHA256, BinarySHA256: k.BinarySHA256}
}

// AsmSame says whether two listings of a timed function are the same code:
// equal once addresses are normalised away (immediates, displacements and
// registers are kept).
func AsmSame(a, b string) bool {
	return slices.Equal(asm.Normalize(a), asm.Normalize(b))
}

// JudgeBaseline computes, for every entry of bl, new over previous from the
// new build's series in r and the previous build's samples in the entry:
// in the interleaved series, paired by round within each process pair and
// tested across the pairs (bl.PairOf says which pair each round came from;
// stats.CompareClustered), in the fresh and cold series unpaired, one
// process per sample (stats.CompareUnpaired). The p-values of all entries are one family for Holm's
// adjustment. The verdict is "slower" or "faster" when the adjusted
// p-value is below alpha (its interval then lies above or below 1), "no
// difference" when it is not, "undefined" when the figures cannot be
// computed.
func JudgeBaseline(r *Result, bl *Baseline) {
	ps := make([]float64, len(bl.Variants))
	for i := range bl.Variants {
		e := &bl.Variants[i]
		var now []float64
		if v := r.Variant(e.Name); v != nil {
			if s := v.Get(e.Series); s != nil {
				now = s.SamplesNS
			}
		}
		var v stats.Verdict
		var st Stat
		if e.Series == "interleaved" {
			v, st = judgeClustered(now, e.SamplesNS, bl.PairOf, r.Protocol.Alpha)
		} else {
			v, st = judge(now, e.SamplesNS, false, r.Protocol.Alpha)
		}
		p := v.P
		e.Ratio, e.CILow, e.CIHigh, e.PValue, e.Stat = v.Ratio, v.Low, v.High, &p, st
		ps[i] = p
	}
	adjust(ps, func(i int, pa float64) {
		e := &bl.Variants[i]
		e.PAdjusted = pa
		switch {
		case e.Undefined != "":
			e.Verdict, e.PValue = VerdictUndefined, nil
		case pa >= r.Protocol.Alpha:
			e.Verdict = VerdictNoDifference
		case e.CILow > 1:
			e.Verdict = VerdictSlower
		case e.CIHigh < 1:
			e.Verdict = VerdictFaster
		default: // the interval and the test disagree at the edge: claim nothing
			e.Verdict = VerdictNoDifference
		}
	})
}

// BaselineResult is the baseline as a result of its own, for plots that
// draw before against after: the previous build's kernel and, per variant,
// its samples of this run in each series.
func (r *Result) BaselineResult() *Result {
	bl := r.Baseline
	if bl == nil {
		return nil
	}
	out := &Result{Schema: SchemaID, Kernel: bl.Kernel, Protocol: r.Protocol, Conditions: r.Conditions}
	for _, e := range bl.Variants {
		v := out.Variant(e.Name)
		if v == nil {
			out.Variants = append(out.Variants, Variant{Name: e.Name, Asm: bl.Asm[e.Name], Batch: 1})
			v = &out.Variants[len(out.Variants)-1]
		}
		s := NewSamples(e.SamplesNS)
		switch e.Series {
		case "interleaved":
			v.Series.Interleaved = s
		case "fresh":
			v.Series.Fresh = s
		case "cold":
			if s != nil {
				v.Series.Cold = &Cold{Samples: *s}
			}
		}
	}
	return out
}
