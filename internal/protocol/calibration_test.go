package protocol

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// noiseModel is how simulated samples of a before/after scatter, in log
// units: each process of a block shifts its samples as a whole (placement,
// sdProc), each round and each fresh pass scatters on its own (sdRound,
// sdFresh), one pass in outlierEvery lands outlier times slower (a
// preemption), and one block in noisyEvery has its scatter multiplied by
// five (another tenant's burst). A common drift of the machine multiplies
// both builds of a block alike (drift per block), as a lock-step pair sees it.
type noiseModel struct {
	name                     string
	sdProc, sdRound, sdFresh float64
	outlierEvery, noisyEvery int
	outlier, drift           float64
}

var (
	quietModel = noiseModel{name: "quiet", sdProc: 0.004, sdRound: 0.01, sdFresh: 0.015, outlierEvery: 30, outlier: 0.3, noisyEvery: 20, drift: 0.02}
	busyModel  = noiseModel{name: "busy", sdProc: 0.02, sdRound: 0.06, sdFresh: 0.08, outlierEvery: 8, outlier: 0.8, noisyEvery: 5, drift: 0.1}
)

// simBlock adds block j of m variants to in: BlockRounds lock-step rounds
// and one fresh pair per variant; the new build is ratio[v] times slower.
func simBlock(rng *rand.Rand, in *HeadlineInput, nm noiseModel, ratio []float64, j int) {
	scale := 1.0
	if nm.noisyEvery > 0 && rng.IntN(nm.noisyEvery) == 0 {
		scale = 5
	}
	e := func(sd float64) float64 {
		x := sd * scale * rng.NormFloat64()
		if nm.outlierEvery > 0 && rng.IntN(nm.outlierEvery) == 0 {
			x += nm.outlier * rng.Float64()
		}
		return x
	}
	drift := nm.drift * rng.NormFloat64()
	pNew, pOld := nm.sdProc*rng.NormFloat64(), nm.sdProc*rng.NormFloat64()
	for range BlockRounds {
		in.RoundBlock = append(in.RoundBlock, j)
	}
	for v := range in.Series {
		s := &in.Series[v]
		for range BlockRounds {
			d := drift + 0.01*rng.NormFloat64() // drift moves within the block too, both builds alike
			s.Now = append(s.Now, 1e6*ratio[v]*math.Exp(d+pNew+e(nm.sdRound)))
			s.Before = append(s.Before, 1e6*math.Exp(d+pOld+e(nm.sdRound)))
		}
		s.NowFresh = append(s.NowFresh, 1e6*ratio[v]*math.Exp(drift+nm.sdProc*rng.NormFloat64()+e(nm.sdFresh)))
		s.BeforeFresh = append(s.BeforeFresh, 1e6*math.Exp(drift+nm.sdProc*rng.NormFloat64()+e(nm.sdFresh)))
	}
}

// simBeforeAfter runs a simulated before/after under the runner's own rule
// (BlockStop): blocks until every verdict is known, or maxBlocks (the
// budget, in blocks). It returns the headline verdicts and the blocks taken.
func simBeforeAfter(rng *rand.Rand, nm noiseModel, ratio []float64, maxBlocks int, resolve float64) ([]VariantVerdict, int) {
	in := HeadlineInput{Alpha: 0.05, Resolve: resolve}
	for v := range ratio {
		in.Series = append(in.Series, HeadlineSeries{Name: string(rune('a' + v))})
	}
	var vs []VariantVerdict
	for n := 1; ; n++ {
		simBlock(rng, &in, nm, ratio, n-1)
		vs = JudgeHeadline(in)
		known := func() bool {
			for _, v := range vs {
				if v.Verdict == VerdictUndefined {
					return false
				}
			}
			return true
		}
		if BlockStop(n, MaxPairs, false, known, func() bool { return n >= maxBlocks }) != "" {
			return vs, n
		}
	}
}

// TestCalibrationBeforeAfter holds the headline's decision rule, with the
// runner's stopping rule, to the truth of simulated before/afters at the
// sizes users run: the default (a 15 s budget: about 60 blocks of a 1 ms
// kernel, resolve 2%) and quick (5 s: about 20 blocks, resolve 5%), one to
// three variants, a quiet and a busy machine. With no true difference the
// share of runs in which any variant reads slower or faster must be at most
// 0.05 plus three standard errors; beside an unchanged variant, a 1.25x
// change must read slower in at least 95% of runs, a 1.10x change in 80%
// (quiet) and a 2x change in all with quick, and the interval printed with
// the verdict must hold the true ratio in at least 93%. On the quiet machine at most 10% of quick A/A runs may be
// undefined. The seed is drawn per run and logged, so a failure can be
// replayed (BENCHBOOK_SEED is not needed: the log has it).
func TestCalibrationBeforeAfter(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 19))
	const trials = 400
	tol := 3 * math.Sqrt(0.05*0.95/trials)
	type config struct {
		name      string
		maxBlocks int
		resolve   float64
	}
	configs := []config{{"default", 60, 0.02}, {"quick", 20, 0.05}}
	for _, nm := range []noiseModel{quietModel, busyModel} {
		for _, c := range configs {
			for _, m := range []int{1, 3} {
				ratio := make([]float64, m)
				for i := range ratio {
					ratio[i] = 1
				}
				fp, undefined, blocks := 0, 0, 0
				for range trials {
					vs, n := simBeforeAfter(rng, nm, ratio, c.maxBlocks, c.resolve)
					blocks += n
					for _, v := range vs {
						if v.Verdict == VerdictSlower || v.Verdict == VerdictFaster {
							fp++
							break
						}
					}
					for _, v := range vs {
						if v.Verdict == VerdictUndefined {
							undefined++
							break
						}
					}
				}
				rate, und := float64(fp)/trials, float64(undefined)/trials
				t.Logf("%s %s, %d variants, no difference: false positives %.3f, undefined %.3f, %.1f blocks", nm.name, c.name, m, rate, und, float64(blocks)/trials)
				if rate > 0.05+tol {
					t.Errorf("%s %s, %d variants: family-wise false positives %.3f > %.3f", nm.name, c.name, m, rate, 0.05+tol)
				}
				if nm.name == "quiet" && c.name == "quick" && und > 0.10 {
					t.Errorf("quick, quiet: %.3f of A/A runs undefined, want at most 0.10", und)
				}
			}
		}
	}
	for _, tc := range []struct {
		nm    noiseModel
		c     config
		ratio float64
		power float64
	}{
		{quietModel, configs[0], 1.25, 0.95},
		{quietModel, configs[0], 1.10, 0.80},
		{quietModel, configs[1], 2, 1},
		{busyModel, configs[0], 1.25, 0.95},
		{busyModel, configs[1], 2, 1},
	} {
		slower, covered, blocks := 0, 0, 0
		for range trials {
			vs, n := simBeforeAfter(rng, tc.nm, []float64{tc.ratio, 1}, tc.c.maxBlocks, tc.c.resolve)
			blocks += n
			if vs[0].Verdict == VerdictSlower {
				slower++
			}
			if vs[0].CILow <= tc.ratio && tc.ratio <= vs[0].CIHigh {
				covered++
			}
		}
		share, cov := float64(slower)/trials, float64(covered)/trials
		t.Logf("%s %s, %.2fx beside an unchanged variant: slower %.3f, interval holds %.2f in %.3f, %.1f blocks", tc.nm.name, tc.c.name,
			tc.ratio, share, tc.ratio, cov, float64(blocks)/trials)
		if share < tc.power-tol {
			t.Errorf("%s %s, %.2fx: read slower in %.3f, want %.2f", tc.nm.name, tc.c.name, tc.ratio, share, tc.power)
		}
		if cov < 0.93 {
			t.Errorf("%s %s, %.2fx: the interval holds the true ratio in %.3f, want 0.93", tc.nm.name, tc.c.name, tc.ratio, cov)
		}
	}
}
