package plot

import (
	"errors"

	"github.com/benchbook/benchbook/internal/result"
)

// All returns every plot of r that has data, in the order Strip, InVsFresh,
// RunOrder, Cold, ECDF, Latency: a result without fresh series has no
// InVsFresh, one without cold passes no Cold, one without a BENCH_OPS
// variant no Latency. A plot that fails for another reason becomes a
// figure without images whose text is the error, so that it is seen.
func All(r *result.Result) []*Figure {
	var figs []*Figure
	for _, f := range []func(*result.Result) (*Figure, error){Strip, InVsFresh, RunOrder, Cold, ECDF, Latency} {
		fig, err := f(r)
		switch {
		case errors.Is(err, ErrNoData):
			continue
		case err != nil:
			fig = &Figure{Title: err.Error()}
		}
		figs = append(figs, fig)
	}
	return figs
}
