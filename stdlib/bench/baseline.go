package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/result"
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
	blocks        int    // blocks measured (blocks.go)
	stop          string // why they stopped
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

// stepPair runs the lock-step pair of block j: both processes started in
// step mode, then the prelude and each of the steps (a round each), the two
// builds in a random order each time (the order is recorded).
func (r *runner) stepPair(ctx context.Context, j, rounds int, newArgs, oldArgs harness.Args) (*proc, *proc, error) {
	b := r.base
	newP, err := r.startStepped(r.k.Binary, fmt.Sprintf("interleaved-%d", j+1), newArgs)
	if err != nil {
		return nil, nil, err
	}
	oldP, err := r.startStepped(b.k.Binary, fmt.Sprintf("baseline-interleaved-%d", j+1), oldArgs)
	if err != nil {
		pn, _ := newP.finish(err)
		return pn, nil, err
	}
	for step := 0; step <= rounds && err == nil; step++ {
		newFirst := b.coin()
		if step > 0 { // the prelude's order is random but not a round
			b.newFirst = append(b.newFirst, newFirst)
			r.progress(Progress{Phase: fmt.Sprintf("before and after: block %d, new and previous build in turn", j+1),
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
	r.notePages(pn)
	r.notePages(po)
	if err == nil {
		err = errors.Join(errN, errO)
	}
	return pn, po, err
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
		FreshNewFirst: b.freshNewFirst, Asm: map[string]string{}, Blocks: b.blocks, Stop: b.stop}
	var missing, wrong []string
	for i, name := range r.opt.Variants {
		hv, ok := b.k.Variant(name)
		if !ok {
			missing = append(missing, name)
			continue
		}
		bl.Asm[name] = hv.Asm
		if l := liveness(hv); l != "" {
			if bl.Previous == nil {
				bl.Previous = map[string]string{}
			}
			bl.Previous[name] = l
		}
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
		if c := b.sums[name].Judged(); c != nil && !c.OK {
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

// JudgeBaseline computes, for every entry of bl, new over previous from the
// new build's series in r and the previous build's samples in the entry,
// and the headline verdict of every variant (JudgeHeadline). A baseline
// measured in blocks (bl.Blocks > 0): the interleaved series block by block
// (BlockValues, r.RoundBlock), the fresh and cold series pair by pair
// (PairValues, pair i in block i), all entries one family for Holm's method
// on the sequential sign test (stats.SeqHolm), each verdict as seqVerdict
// gives it. A baseline of the design before blocks (bl.Blocks 0) is not
// judged: every entry is undefined, with CheckMethod's reason.
func JudgeBaseline(r *Result, bl *Baseline) {
	if bl.Blocks == 0 {
		why := "measured before blocks: " + CheckMethod(Protocol{StatsMethod: "rank/1"}).Error()
		for i := range bl.Variants {
			e := &bl.Variants[i]
			e.Verdict, e.Undefined, e.PValue = VerdictUndefined, why, nil
		}
		return
	}
	alpha, resolve := r.Protocol.Alpha, r.Protocol.Resolve
	var values [][]float64
	var judged []int
	for i := range bl.Variants {
		e := &bl.Variants[i]
		now := r.SamplesOf(e.Name, e.Series)
		e.Ratio = result.Finite(safeRatio(now, e.SamplesNS))
		var x []float64
		var err error
		if e.Series == "interleaved" {
			x, err = BlockValues(now, e.SamplesNS, r.RoundBlock)
		} else {
			x, err = PairValues(now, e.SamplesNS)
		}
		e.Stat = Stat{Method: stats.MethodSequential}
		if err != nil {
			e.Verdict, e.PValue, e.CILow, e.CIHigh, e.Undefined = VerdictUndefined, nil, 0, 0, undefinedReason(err)
			continue
		}
		values, judged = append(values, x), append(judged, i)
	}
	vs, padj, err := signHolm(r.Protocol)(values, alpha)
	for k, i := range judged {
		e := &bl.Variants[i]
		if err != nil {
			e.Verdict, e.PValue, e.Undefined = VerdictUndefined, nil, err.Error()
			continue
		}
		v := vs[k]
		p := v.P
		e.PValue, e.PAdjusted = &p, padj[k]
		e.CILow, e.CIHigh = result.Finite(math.Exp(v.Low)), result.Finite(math.Exp(v.High))
		e.Shift, e.NEff = math.Exp(v.Estimate), float64(v.N)
		e.Verdict = seqVerdict(v, resolve)
	}
	in := HeadlineInput{RoundBlock: r.RoundBlock, Alpha: alpha, Resolve: resolve, Fixed: !r.Protocol.Sequential}
	for _, name := range r.Protocol.Variants {
		if _, ok := bl.Asm[name]; !ok {
			continue
		}
		e := HeadlineSeries{Name: name, Previous: bl.Previous[name], Now: r.SamplesOf(name, "interleaved"),
			NowFresh: r.SamplesOf(name, "fresh")}
		if v := r.Variant(name); v != nil {
			e.New = liveOf(v)
		}
		for _, be := range bl.Variants {
			if be.Name != name {
				continue
			}
			e.AsmSame = be.AsmSame
			switch be.Series {
			case "interleaved":
				e.Before = be.SamplesNS
			case "fresh":
				e.BeforeFresh = be.SamplesNS
			}
		}
		in.Series = append(in.Series, e)
	}
	bl.Verdicts = JudgeHeadline(in)
}

// liveOf is the liveness of a variant of a result.
func liveOf(v *Variant) string {
	switch {
	case v.Dead:
		return VerdictDead
	case v.Hollow:
		return VerdictHollow
	}
	return ""
}

// safeRatio is the ratio of the medians, 0 when it cannot be taken.
func safeRatio(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	mb := stats.Median(b)
	if mb == 0 {
		return 0
	}
	return stats.Median(a) / mb
}
