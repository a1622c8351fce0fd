package options

import (
	"fmt"

	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/internal/sweep"
)

// setSweep reads the sweep= and bytes= keys.
func (o *Options) setSweep(key, val string) error {
	var err error
	if key == "sweep" {
		o.Sweep, err = sweep.ParseSweep(val)
		return err
	}
	o.Bytes, err = sweep.ParseBytesExpr(val)
	return err
}

// checkPredict checks predict=: a sweep's scaling claim against its axes,
// else a ratio of two variants.
func (o *Options) checkPredict() error {
	if o.Sweep != nil {
		_, err := sweep.ParseSweepPrediction(o.Predict, o.Sweep)
		return err
	}
	if sweep.IsSweepPrediction(o.Predict) {
		return fmt.Errorf("predict=%q: time(...) names points of a sweep; this %%bench has no sweep= key", o.Predict)
	}
	_, err := result.ParsePrediction(o.Predict)
	return err
}

// checkSweep checks sweep= and bytes= together.
func (o *Options) checkSweep() error {
	if o.Bytes == nil {
		return nil
	}
	if o.Sweep == nil {
		return fmt.Errorf("bytes=%s: bytes= gives a sweep's working set; this %%bench has no sweep= key", o.Bytes)
	}
	for _, a := range o.Sweep {
		if a.Param == o.Bytes.Param {
			return nil
		}
	}
	return fmt.Errorf("bytes=%s: %s is not a swept parameter (the sweep sweeps %s)", o.Bytes, o.Bytes.Param, o.Sweep[0].Param)
}
