package ipynb

import (
	"encoding/json"
	"fmt"

	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/display"
)

// Found is one result found in a notebook's outputs.
type Found struct {
	Cell, Output int // indexes, from 0
	Value        any // the generic JSON value of the entry
}

// Where is "cell C output O".
func (f Found) Where() string { return fmt.Sprintf("cell %d output %d", f.Cell, f.Output) }

// Results returns every application/vnd.benchbook.result+json entry of nb's
// outputs, in order.
func Results(nb *Notebook) []Found {
	var out []Found
	for i, c := range nb.Cells {
		for j, o := range c.Outputs {
			if v, ok := o.Data[display.MIMEResult]; ok {
				out = append(out, Found{Cell: i, Output: j, Value: v})
			}
		}
	}
	return out
}

// DecodeResult reads a generic JSON value (a Found.Value) as a bench.Result.
func DecodeResult(v any) (*result.Result, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var r result.Result
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// SampleCount is every sample of every series of r, and the A/A copy's.
func SampleCount(r *result.Result) int {
	n := len(r.AA.SamplesNS)
	for i := range r.Variants {
		for _, name := range result.SeriesNames {
			if s := r.Variants[i].Get(name); s != nil {
				n += len(s.SamplesNS)
			}
		}
	}
	return n
}
