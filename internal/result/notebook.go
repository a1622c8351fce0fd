package result

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/benchbook/benchbook/stdlib/display"
)

// Results are the results an executed notebook carries, in the order its
// cells show them.
type Results []*Result

// ReadNotebook reads the results in the outputs of an executed notebook
// (.ipynb): every application/vnd.benchbook.result+json entry, so that a
// rerun can be compared with published evidence in a glue cell (seed 002:
// run again, then compare the new files with the published ones). The
// numbers are decoded as the result's own types: a seed written as a
// 64-bit integer keeps all its digits.
func ReadNotebook(path string) (Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb struct {
		Cells []struct {
			Outputs []struct {
				Data map[string]json.RawMessage `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, fmt.Errorf("%s is not a notebook: %w", path, err)
	}
	var out Results
	for ci, c := range nb.Cells {
		for _, o := range c.Outputs {
			raw, ok := o.Data[display.MIMEResult]
			if !ok {
				continue
			}
			r := new(Result)
			if err := json.Unmarshal(raw, r); err != nil {
				return nil, fmt.Errorf("%s, cell %d: its result does not decode: %w", path, ci+1, err)
			}
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no benchbook result: was it executed?", path)
	}
	return out, nil
}

// Of is the results of kernel name, in notebook order.
func (rs Results) Of(name string) Results {
	var out Results
	for _, r := range rs {
		if r.Kernel.Name == name {
			out = append(out, r)
		}
	}
	return out
}

// First is the first result of kernel name, or an error that lists the
// kernels the notebook has results of.
func (rs Results) First(name string) (*Result, error) {
	if of := rs.Of(name); len(of) > 0 {
		return of[0], nil
	}
	var names []string
	for _, r := range rs {
		names = append(names, r.Kernel.Name)
	}
	return nil, fmt.Errorf("no result of kernel %q; the notebook has results of %v", name, names)
}
