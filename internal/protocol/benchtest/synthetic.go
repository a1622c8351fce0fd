// Package benchtest makes synthetic benchbook results for tests: made-up
// samples with the shape of seed 000's run, summarised, compared and
// explained by the same code as a real run, from a fixed seed.
package benchtest

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/protocol"
)

// VariantSpec shapes one variant's samples.
type VariantSpec struct {
	Name       string
	MedianNS   float64 // warm pass
	Spread     float64 // relative standard deviation of a pass
	Dead       bool    // the compiler removed the work: MedianNS should be a clock read
	ColdFactor float64 // cold pass over warm pass; 0 means 2
	Faults     int64   // minor page faults of a cold pass; 0 means 1024
	Outlier    float64 // one interleaved pass this many times slower; 0 means none
	Checksum   float64 // per-pass checksum value; 0 means no checksum
	Asm        string
}

// Spec shapes a whole result.
type Spec struct {
	Seed     uint64
	Kernel   string
	Flags    []string
	Reps     int
	Runs     int
	LoadAvg  [2]float64 // 1-minute load before and after
	FreqMHz  float64    // estimated clock
	ReadNS   float64    // cost of a clock read
	Elements int64
	Gaps     int64 // gaps of about 30 µs the harness saw in 100 ms of clock reads
	Variants []VariantSpec
}

// Synthetic builds the result spec describes.
func Synthetic(spec Spec) *protocol.Result {
	rng := rand.New(rand.NewPCG(spec.Seed, 0xbe7c4))
	if spec.Reps == 0 {
		spec.Reps = 30
	}
	if spec.Runs == 0 {
		spec.Runs = 30
	}
	if spec.Kernel == "" {
		spec.Kernel = "seed"
	}
	if spec.Flags == nil {
		spec.Flags = []string{"-std=c11", "-O2"}
	}
	r := &protocol.Result{Schema: protocol.SchemaID,
		Kernel: protocol.Kernel{Name: spec.Kernel, Lang: "c", Compiler: "gcc (Debian 12.2.0-14+deb12u1) 12.2.0", Flags: spec.Flags,
			SourceSHA256: hex64(rng), BinarySHA256: hex64(rng)},
		Protocol: protocol.Protocol{Reps: spec.Reps, Runs: spec.Runs, SettleMS: 100, Warmup: 1, StatsMethod: protocol.Method,
			OrderSeed: strconv.FormatUint(spec.Seed+1, 10), Alpha: 0.05, ReadsPerPass: protocol.ReadsPerPass},
		Conditions: protocol.Conditions{
			Machine: machine.Description{CPUModel: "Synthetic CPU", LogicalCPUs: 2, PhysicalCores: 2, Kernel: "Linux 6.1"},
			Clock: protocol.Clock{ResolutionNS: 1, ReadCostNS: spec.ReadNS, GapWindowNS: 1e8, GapThresholdNS: 5000,
				GapCount: spec.Gaps, GapTotalNS: float64(spec.Gaps) * 30000, GapMaxNS: 90000},
			Before: machine.Moment{Time: "2026-11-30T10:00:00Z", Loadavg: [3]float64{spec.LoadAvg[0], 0, 0}, FreqEstimateMHz: spec.FreqMHz},
			After:  machine.Moment{Time: "2026-11-30T10:00:10Z", Loadavg: [3]float64{spec.LoadAvg[1], 0, 0}, FreqEstimateMHz: spec.FreqMHz},
		},
	}
	if spec.Elements > 0 {
		e := spec.Elements
		r.Protocol.Elements = &e
	}
	normal := func(n int, mean, spread float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = math.Max(mean*(1+spread*rng.NormFloat64()), 1)
		}
		return s
	}
	// The rounds come in blocks, as a run takes them (bench.BlockPlan).
	per, _ := protocol.BlockPlan(spec.Reps)
	for i := range spec.Reps {
		r.RoundBlock = append(r.RoundBlock, i/per)
	}
	var aaName string
	var aaSamples []float64
	for _, vs := range spec.Variants {
		r.Variants = append(r.Variants, variant(vs, spec, normal, rng))
		if aaName == "" && !vs.Dead {
			aaName, aaSamples = vs.Name, normal(spec.Reps, vs.MedianNS, vs.Spread)
		}
	}
	if aaName != "" {
		r.AA = protocol.AAControl(aaName, r.Variant(aaName).Series.Interleaved.SamplesNS, aaSamples, r.Protocol, r.RoundBlock)
	}
	setPositions(r, spec.Seed+1)
	r.Comparisons = protocol.Comparisons(r.Variants, r.Protocol, r.RoundBlock)
	r.Findings, r.TextVersion = protocol.Findings(r), protocol.TextVersion
	return r
}

func variant(vs VariantSpec, spec Spec, normal func(int, float64, float64) []float64, rng *rand.Rand) protocol.Variant {
	cold, faults := vs.ColdFactor, vs.Faults
	if cold == 0 {
		cold = 2
	}
	if faults == 0 {
		faults = 1024
	}
	inter := normal(spec.Reps, vs.MedianNS, vs.Spread)
	if vs.Outlier > 0 {
		inter[spec.Reps/2] *= vs.Outlier
	}
	v := protocol.Variant{Name: vs.Name, Dead: vs.Dead, Batch: 1, Asm: vs.Asm}
	if vs.Dead {
		v.RegionInstructions = 2 // the argument moves of the second clock read, as gcc -O2 leaves them
	}
	v.Series.Interleaved = protocol.NewSamples(inter)
	v.Series.InProcess = protocol.NewSamples(normal(spec.Reps, vs.MedianNS, vs.Spread))
	v.Series.Fresh = protocol.NewSamples(normal(spec.Runs, vs.MedianNS, vs.Spread*1.5))
	flt := make([]int64, spec.Runs)
	coldMean := vs.MedianNS * cold
	if vs.Dead {
		coldMean, faults = vs.MedianNS, 0
	}
	for i := range flt {
		flt[i] = faults + int64(rng.IntN(3))
		if vs.Dead {
			flt[i] = 0
		}
	}
	single := coldMean * 1.05
	zero := 0.0
	v.Series.Cold = &protocol.Cold{Samples: *protocol.NewSamples(normal(spec.Runs, coldMean, 0.04)), MinFlt: flt,
		InProcessColdNS: &single, WarmMinFltPerPass: &zero}
	if vs.Checksum != 0 {
		n := spec.Reps * 2
		v.Checksum = &protocol.Checksum{Got: vs.Checksum * float64(n), Want: vs.Checksum, Passes: n, OK: true}
	}
	return v
}

// setPositions records where each interleaved slot ran in each round, as
// a driver with -order-seed seed would have run them.
func setPositions(r *protocol.Result, seed uint64) {
	n := len(r.Variants)
	if r.AA.Variant != "" {
		n++
	}
	for slot := 0; slot < n; slot++ {
		var pos []int
		for round := 0; round < r.Protocol.Reps; round++ {
			pos = append(pos, slices.Index(harness.RoundOrder(seed, round, n), slot))
		}
		if slot < len(r.Variants) {
			r.Variants[slot].Series.Interleaved.Positions = pos
		} else {
			r.AA.Positions = pos
		}
	}
}

func hex64(rng *rand.Rand) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 64)
	for i := range b {
		b[i] = digits[rng.IntN(16)]
	}
	return string(b)
}

// Seed000 is a synthetic run shaped like seed 000's: a dead variant at one
// clock read beside two live ones that agree.
func Seed000(seed uint64) *protocol.Result {
	return Synthetic(Spec{Seed: seed, LoadAvg: [2]float64{0.4, 0.5}, FreqMHz: 2900, ReadNS: 21, Elements: 1 << 20, Gaps: 100,
		Variants: []VariantSpec{
			{Name: "discarded", MedianNS: 21, Spread: 0.05, Dead: true},
			{Name: "sink", MedianNS: 498000, Spread: 0.01},
			{Name: "checksum", MedianNS: 498500, Spread: 0.01, Checksum: 917504},
		}})
}
