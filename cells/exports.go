package cells

import (
	"errors"
	"reflect"

	"github.com/benchbook/benchbook/stdlib/bench"
	"github.com/benchbook/benchbook/stdlib/report"
	"github.com/benchbook/benchbook/stdlib/symbols"
	"github.com/traefik/yaegi/interp"
)

const benchPath = "github.com/benchbook/benchbook/stdlib/bench"

// preload are the notebook packages glue cells use without an import.
var preload = map[string]string{
	"bench":  benchPath,
	"stats":  "github.com/benchbook/benchbook/stdlib/stats",
	"plot":   "github.com/benchbook/benchbook/stdlib/plot",
	"report": "github.com/benchbook/benchbook/stdlib/report",
}

// exports are the notebook packages' symbols for this session: the
// generated tables, with bench.Run and bench.Get bound to this session's
// kernels and results.
func (s *Session) exports() interp.Exports {
	out := interp.Exports{}
	for path, syms := range symbols.Symbols {
		copied := make(map[string]reflect.Value, len(syms)+2)
		for k, v := range syms {
			copied[k] = v
		}
		out[path] = copied
	}
	b := out[benchPath+"/bench"]
	b["Run"] = reflect.ValueOf(s.runFromGlue)
	b["Get"] = reflect.ValueOf(s.result)
	b["Kernels"] = reflect.ValueOf(s.kernelNames)
	return out
}

// runFromGlue is bench.Run in glue cells: the protocol on a kernel built in
// this session, with %bench's keys: bench.Run("seed", "quick", "reps=20").
// The result is kept as the kernel's latest, like %bench's.
func (s *Session) runFromGlue(name string, args ...string) (*bench.Result, error) {
	opt, err := bench.ParseOptions(s.args(args))
	if err != nil {
		return nil, err
	}
	pub, ctx := s.current()
	if pub == nil {
		return nil, errors.New("bench.Run: no cell is running")
	}
	r, err := s.runBench(ctx, name, opt, pub)
	if r != nil {
		s.mu.Lock()
		s.results[name] = r
		s.mu.Unlock()
	}
	return r, err
}

// result is bench.Get: the latest result of a kernel in this session.
func (s *Session) result(name string) *bench.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.results[name]
}

func (s *Session) kernelNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for n := range s.kernels {
		names = append(names, n)
	}
	return sortStrings(names)
}

// render shows notebook values richly when they are a cell's final value.
func render(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case *bench.Result:
		if x == nil {
			return nil, false
		}
		return report.Result(x), true
	case report.Diff:
		return x.Bundle(), true
	}
	return nil, false
}
