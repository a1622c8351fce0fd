package plot

import (
	"math"
	"math/rand/v2"

	"github.com/benchbook/benchbook/internal/result"
)

// gen draws fixed synthetic samples: the same seed gives the same series.
type gen struct{ rng *rand.Rand }

func newGen(seed uint64) gen { return gen{rand.New(rand.NewPCG(seed, 0x5eed))} }

// normal returns n samples around mean with a relative spread (standard
// deviation over mean).
func (g gen) normal(n int, mean, spread float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = mean * (1 + spread*g.rng.NormFloat64())
	}
	return s
}

// clock returns n readings of a duration of about ns on a clock with a 1 ns
// step: whole nanoseconds that jitter by about one step.
func (g gen) clock(n int, ns float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.Round(ns + 0.8*g.rng.NormFloat64())
	}
	return s
}

// minflt returns n page-fault counts around base.
func (g gen) minflt(n int, base int64) []int64 {
	s := make([]int64, n)
	for i := range s {
		s[i] = base + int64(g.rng.IntN(12))
	}
	return s
}

func samples(ns []float64) *result.Samples { return &result.Samples{SamplesNS: ns} }

func ptr[T any](v T) *T { return &v }

// deadAndLive is seed 000's run, made up: a dead variant reading about 20 ns
// (the clock's 1 ns jitter), two live ones around 500 µs with a 1% spread and
// one outlier each, fresh-process series a little slower and wider, cold
// passes about twice a warm one with 1024 page faults, and an A/A copy.
func deadAndLive() *result.Result {
	g := newGen(1)
	live := func(name string, mean float64, outlierAt int) result.Variant {
		in := g.normal(30, mean, 0.01)
		in[outlierAt] *= 1.3
		return result.Variant{
			Name:  name,
			Batch: 1,
			Series: result.Series{
				Interleaved: samples(in),
				InProcess:   samples(g.normal(30, mean*0.995, 0.008)),
				Fresh:       samples(g.normal(30, mean*1.02, 0.025)),
				Cold: &result.Cold{
					Samples:         *samples(g.normal(30, mean*2.2, 0.05)),
					MinFlt:          g.minflt(30, 1024),
					InProcessColdNS: ptr(mean * 2.35),
					InProcessMinFlt: ptr(int64(1031)),
				},
			},
		}
	}
	dead := result.Variant{
		Name:  "discarded",
		Dead:  true,
		Batch: 1,
		Series: result.Series{
			Interleaved: samples(g.clock(30, 20)),
			InProcess:   samples(g.clock(30, 20)),
			Fresh:       samples(g.clock(30, 21)),
			Cold: &result.Cold{
				Samples:         *samples(g.clock(30, 95)),
				MinFlt:          g.minflt(30, 2),
				InProcessColdNS: ptr(88.0),
			},
		},
	}
	return &result.Result{
		Schema: result.SchemaID,
		Kernel: result.Kernel{Name: "sum", Lang: "c", Compiler: "cc 12.2.0", Flags: []string{"-std=c11", "-O2"}},
		Protocol: result.Protocol{
			Reps: 30, Runs: 30, Warmup: 1,
			Variants: []string{"discarded", "sink", "checksum"},
			Fresh:    []string{"discarded", "sink", "checksum"},
		},
		Variants: []result.Variant{dead, live("sink", 498_000, 17), live("checksum", 501_500, 5)},
		AA:       result.AA{Variant: "sink", SamplesNS: g.normal(30, 498_500, 0.01)},
	}
}

// liveOnly has two live variants 3.8x apart, with interleaved and in-process
// series only: a linear axis, and no fresh or cold plot.
func liveOnly() *result.Result {
	g := newGen(2)
	v := func(name string, mean float64) result.Variant {
		return result.Variant{Name: name, Batch: 1, Series: result.Series{
			Interleaved: samples(g.normal(30, mean, 0.012)),
			InProcess:   samples(g.normal(30, mean*1.004, 0.01)),
		}}
	}
	return &result.Result{
		Schema:   result.SchemaID,
		Kernel:   result.Kernel{Name: "dot", Lang: "go", Compiler: "go1.26.8", Flags: []string{"-gcflags=-B"}},
		Protocol: result.Protocol{Reps: 30, Runs: 10, Variants: []string{"scalar", "unrolled4"}},
		Variants: []result.Variant{v("scalar", 498_000), v("unrolled4", 131_000)},
	}
}
