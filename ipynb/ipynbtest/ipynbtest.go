// Package ipynbtest is what the tests of ipynb and ipynb/evidence share: an
// engine that runs a script per cell source instead of code, and an engine
// error that carries Jupyter's error fields. It imports nothing of ipynb,
// so ipynb's own tests can use it.
package ipynbtest

import (
	"context"
	"fmt"

	"github.com/benchbook/benchbook/stdlib/display"
)

// Step is what the fake engine does for one cell's code.
type Step func(pub display.Publisher) (map[string]any, error)

// Engine runs a script per cell source and records the labels it got.
type Engine struct {
	Steps  map[string]Step
	Labels []string
	Codes  []string
}

// Execute runs the step of code, or fails for code without one.
func (f *Engine) Execute(_ context.Context, label, code string, pub display.Publisher) (map[string]any, error) {
	f.Labels = append(f.Labels, label)
	f.Codes = append(f.Codes, code)
	s, ok := f.Steps[code]
	if !ok {
		return nil, fmt.Errorf("fake engine: no step for %q", code)
	}
	return s(pub)
}

// ExecErr is an engine error that carries Jupyter's error fields.
type ExecErr struct {
	Name, Value string
	Traceback   []string
}

func (e *ExecErr) Error() string                         { return e.Name + ": " + e.Value }
func (e *ExecErr) ExecError() (string, string, []string) { return e.Name, e.Value, e.Traceback }

// Plain is a bundle of text/plain s.
func Plain(s string) map[string]any { return map[string]any{display.MIMEText: s} }
