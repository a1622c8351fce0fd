package protocol

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/records"
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

func (b *baseRun) addChecksum(variant string, rec records.Checksum) {
	addChecksum(b.sums, variant, rec)
}

// stepPair runs the lock-step pair of block j: both processes started in
// step mode, then the prelude and each of the steps (StepRounds rounds
// each, the last what is left of rounds), the two builds in a random order
// each time (the order is recorded, once per round).
func (r *runner) stepPair(ctx context.Context, j, rounds int, newArgs, oldArgs harness.Args) (*proc, *proc, error) {
	b := r.base
	newP, err := r.startStepped(r.k.Binary, fmt.Sprintf("interleaved-%d", j+1), newArgs)
	if err != nil {
		return nil, nil, err
	}
	oldP, err := r.startStepped(b.k.Binary, fmt.Sprintf("baseline-interleaved-%d", j+1), oldArgs)
	if err != nil {
		pn, _ := newP.Finish(err)
		return pn, nil, err
	}
	steps := (rounds + StepRounds - 1) / StepRounds
	for step := 0; step <= steps && err == nil; step++ {
		newFirst := b.coin()
		if step > 0 { // the prelude's order is random but not a round
			for range min(StepRounds, rounds-(step-1)*StepRounds) {
				b.newFirst = append(b.newFirst, newFirst)
			}
			r.progress(Progress{Phase: fmt.Sprintf("before and after: block %d, new and previous build in turn", j+1),
				Process: step, Of: steps})
		}
		order := []*stepped{newP, oldP}
		if !newFirst {
			order[0], order[1] = oldP, newP
		}
		for _, s := range order {
			if err = s.Step(ctx); err != nil {
				break
			}
		}
	}
	pn, errN := newP.Finish(err)
	po, errO := oldP.Finish(err)
	r.notePages(pn)
	r.notePages(po)
	r.noteSyscalls(pn)
	r.noteSyscalls(po)
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
