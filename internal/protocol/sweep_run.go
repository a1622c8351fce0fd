package protocol

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"strconv"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/result"
)

// SweepRun is one point of a sweep to measure: its build and its place.
type SweepRun struct {
	Kernel *harness.Kernel
	Point  SweepPoint
}

// checkSweepOptions refuses what a sweep does not combine with.
func checkSweepOptions(opt Options) error {
	switch {
	case opt.Baseline != nil || opt.BaselineName != "":
		return errors.New("sweep= does not take a baseline: every point is measured beside the others already")
	case opt.Layouts > 1:
		return errors.New("sweep= does not take layouts=")
	case opt.Load > 0:
		return errors.New("sweep= does not take load=")
	case opt.Counts:
		return errors.New("sweep= does not take counts")
	case opt.Export != "":
		return errors.New("sweep= does not take export=")
	}
	return nil
}

// RunSweep measures every point of a sweep under the protocol, the points
// interleaved: each phase (first execution, part 1, the in-process series)
// visits the points in a fresh random order, and the fresh processes go
// round by round, each round visiting every point in a fresh random order,
// so that drift over the run lands on every point alike. The orders are
// recorded (SweepSummary.Order, from OrderSeed). Each point's result is
// saved in its own raw folder before RunSweep returns; on an error every
// point is returned partial, as far as it got.
func RunSweep(ctx context.Context, pts []SweepRun, opt Options) ([]*Result, error) {
	if len(pts) < 2 {
		return nil, errors.New("a sweep needs at least two points")
	}
	if err := checkSweepOptions(opt); err != nil {
		return nil, err
	}
	progress := opt.Progress
	pred := opt.Predict
	opt.Predict = "" // judged over the sweep, not per point
	if opt.Pin < 0 {
		// Cache sizes are per core: every point runs on the one CPU whose
		// caches the plot marks.
		cpu, err := machine.FirstAllowedCPU()
		if err != nil {
			return nil, fmt.Errorf("sweep: the CPU to run on: %w", err)
		}
		opt.Pin = cpu
	}
	runners := make([]*runner, len(pts))
	shared := &sweepShared{}
	for i, p := range pts {
		o := opt
		o.Elements = p.Point.Elements
		label := result.SweepPointLabel(p.Point)
		if progress != nil {
			o.Progress = func(pr Progress) { pr.Phase = label + ": " + pr.Phase; progress(pr) }
		}
		r, err := newRunner(p.Kernel, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		pt := p.Point
		r.res.Sweep = &pt
		r.shared = shared
		runners[i] = r
	}
	var seed [8]byte
	_, _ = rand.Read(seed[:])
	orderSeed := binary.LittleEndian.Uint64(seed[:]) & maxSeed
	rng := mrand.New(mrand.NewPCG(orderSeed, 3))
	var order [][]int
	turn := func(name string, run func(r *runner) func(ctx context.Context) error) error {
		perm := rng.Perm(len(runners))
		order = append(order, perm)
		for _, i := range perm {
			if err := runners[i].do(ctx, step{name, run(runners[i])}); err != nil {
				return fmt.Errorf("%s: %w", result.SweepPointLabel(*runners[i].res.Sweep), err)
			}
		}
		return nil
	}
	phases := []struct {
		name string
		run  func(r *runner) func(ctx context.Context) error
	}{
		{"conditions before", func(r *runner) func(context.Context) error { return r.before }},
		{"first execution, discarded (calibrates batches)", func(r *runner) func(context.Context) error { return r.firstExecution }},
		{"part 1: variants interleaved round robin", func(r *runner) func(context.Context) error { return r.interleaved }},
		{"part 2: in-process series", func(r *runner) func(context.Context) error { return r.inProcess }},
	}
	var runErr error
	for _, ph := range phases {
		if runErr = turn(ph.name, ph.run); runErr != nil {
			break
		}
	}
	for run := 0; runErr == nil && run < opt.Runs; run++ {
		runErr = turn(fmt.Sprintf("part 2: fresh processes, round %d of %d", run+1, opt.Runs),
			func(r *runner) func(context.Context) error {
				return func(ctx context.Context) error { return r.freshRound(ctx, run) }
			})
	}
	if runErr == nil && ctx.Err() != nil {
		runErr = ErrInterrupted
	}
	results := make([]*Result, len(runners))
	var saveErr error
	for i, r := range runners {
		r.res.Conditions.After = machine.Now()
		if runErr != nil {
			r.res.Partial = true
			r.res.Error = runErr.Error()
		}
		r.assemble()
		results[i] = r.res
	}
	last := results[len(results)-1]
	sum := &SweepSummary{Axes: opt.Sweep, OrderSeed: strconv.FormatUint(orderSeed, 10), Order: order,
		Variant: sweepVariant(results), Caches: SweepCaches(last.Conditions.Machine, opt.Pin)}
	if sum.Axes == nil {
		sum.Axes = sweepAxes(results)
	}
	if pred != "" {
		if p, err := ParseSweepPrediction(pred, sum.Axes); err == nil {
			p.Seed = orderSeed
			// A point without samples (a partial run) leaves it unjudged.
			_ = p.JudgeSweep(results, sum.Axes, sum.Variant)
			sum.Prediction = p
		}
	}
	last.Sweep.Summary = sum
	for _, r := range runners {
		if err := r.save(); err != nil && saveErr == nil {
			saveErr = err
		}
	}
	if runErr == nil {
		runErr = saveErr
	}
	if runErr == nil {
		for _, r := range runners {
			if err := r.checksumError(); err != nil {
				runErr = fmt.Errorf("%s: %w", result.SweepPointLabel(*r.res.Sweep), err)
				break
			}
		}
	}
	return results, runErr
}

// freshRound is one round of part 2's fresh processes for one point: one
// process per fresh variant, each making its cold pass, then one measured
// pass (freshProcesses without baseline or layouts).
func (r *runner) freshRound(ctx context.Context, run int) error {
	for _, v := range r.opt.Fresh {
		p, err := r.execBin(ctx, r.k.Binary, fmt.Sprintf("fresh-l0-%s-%02d", v, run+1), r.freshArgs(v))
		collectFresh(r.data.fresh, v, p, r.addChecksum)
		if err != nil {
			return err
		}
	}
	return nil
}

// sweepAxes rebuilds the axes from the points, in point order.
func sweepAxes(rs []*Result) []Axis {
	first := rs[0].Sweep
	names := []string{first.Param}
	if len(first.Params) > 1 {
		names = result.SortedKeys(first.Params, first.Param)
	}
	axes := make([]Axis, len(names))
	for j, n := range names {
		axes[j].Param = n
		seen := map[int64]bool{}
		for _, r := range rs {
			v := r.Sweep.Value
			if j > 0 || len(r.Sweep.Params) > 1 {
				v = r.Sweep.Params[n]
			}
			if !seen[v] {
				seen[v] = true
				axes[j].Values = append(axes[j].Values, v)
			}
		}
	}
	return axes
}

// sweepVariant is the variant a sweep's curve is drawn from: the first
// measured variant that is not dead.
func sweepVariant(rs []*Result) string {
	for _, v := range rs[0].Variants {
		if !v.Dead {
			return v.Name
		}
	}
	if len(rs[0].Variants) > 0 {
		return rs[0].Variants[0].Name
	}
	return ""
}
