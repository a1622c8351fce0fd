package cells

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"

	"github.com/benchbook/benchbook/cells/glue"
	"github.com/benchbook/benchbook/cells/gluechild"
	"github.com/benchbook/benchbook/stdlib/display"

	"github.com/benchbook/benchbook/internal/protocol"
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

// benchAPI is what bench.Run, bench.Get and bench.Kernels do in glue cells.
type benchAPI struct {
	run     func(name string, args ...string) (*protocol.Result, error)
	get     func(name string) *protocol.Result
	kernels func() []string
}

// exports are the notebook packages' symbols for glue cells: the generated
// tables, with bench.Run, bench.Get and bench.Kernels bound to api.
func exports(api benchAPI) interp.Exports {
	out := interp.Exports{}
	for path, syms := range symbols.Symbols {
		copied := make(map[string]reflect.Value, len(syms)+2)
		for k, v := range syms {
			copied[k] = v
		}
		out[path] = copied
	}
	b := out[benchPath+"/bench"]
	b["Run"] = reflect.ValueOf(api.run)
	b["Get"] = reflect.ValueOf(api.get)
	b["Kernels"] = reflect.ValueOf(api.kernels)
	return out
}

// Glue cells run in a child process (cells/gluechild), whose bench.Run,
// bench.Get and bench.Kernels call this session in the parent: the kernels
// and results live here, and the child gets copies of results as JSON.
const (
	callRun     = "bench.Run"
	callGet     = "bench.Get"
	callKernels = "bench.Kernels"
	// callReplayed is bench.Run or bench.Get in a var initializer that a
	// replay runs again: the answer is the result the call returned when
	// its cell ran, never a new run nor a later result.
	callReplayed = "bench.Replayed"
)

// replayed are the calls a replay answers from what they returned (see
// glue.Options.Replayed).
var replayed = []string{callRun, callGet, callKernels}

// runArgs are the arguments of bench.Run across the process boundary; Site
// names the call when a declaration makes it (glue.Session.CallSite).
type runArgs struct {
	Name string   `json:"name"`
	Args []string `json:"args"`
	Site string   `json:"site,omitempty"`
}

// getArgs are those of bench.Get and of a replayed call.
type getArgs struct {
	Name string `json:"name"`
	Site string `json:"site,omitempty"`
}

// ServeGlueChild is the glue child process (the hidden command benchbook
// glue-child): a glue session whose bench calls reach the parent. It
// returns the exit status.
func ServeGlueChild() int { return gluechild.Main(childOptions) }

// ServeGlueChildIfAsked serves and exits when this process was started as
// a glue child; test binaries that make Sessions call it from TestMain.
func ServeGlueChildIfAsked() { gluechild.ServeIfChild(childOptions) }

// childOptions are the options of the child's glue session, in the working
// directory the parent gave it.
func childOptions(call gluechild.Caller) (glue.Options, error) {
	dir, err := os.Getwd()
	if err != nil {
		return glue.Options{}, err
	}
	return glue.Options{Exports: exports(remoteBench(call)), Preload: preload, Dir: dir, Render: render, Replayed: replayed}, nil
}

// remoteBench is the child's bench API: each call asks the parent.
func remoteBench(call gluechild.Caller) benchAPI {
	return benchAPI{
		run: func(name string, args ...string) (*protocol.Result, error) {
			var r *protocol.Result
			site := call.Site()
			if call.Replaying() { // a var initializer: the result it had, not a new run
				err := call.Call(callReplayed, getArgs{Name: name, Site: site}, &r)
				return r, err
			}
			err := call.Call(callRun, runArgs{Name: name, Args: args, Site: site}, &r)
			return r, err
		},
		get: func(name string) *protocol.Result {
			var r *protocol.Result
			site, method := call.Site(), callGet
			if call.Replaying() {
				method = callReplayed
			}
			if err := call.Call(method, getArgs{Name: name, Site: site}, &r); err != nil {
				panic(err)
			}
			return r
		},
		kernels: func() []string {
			var names []string
			if err := call.Call(callKernels, nil, &names); err != nil {
				panic(err)
			}
			return names
		},
	}
}

// handleGlue answers the child's calls, in the context and publisher of
// the cell that made them (pub is nil between cells).
func (s *Session) handleGlue(ctx context.Context, pub display.Publisher, method string, args json.RawMessage) (any, error) {
	switch method {
	case callRun:
		var a runArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		r, err := s.runFromGlue(ctx, pub, a.Name, a.Args...)
		s.keepSite(a.Site, r)
		if r == nil {
			return nil, err
		}
		return r, err
	case callGet:
		var a getArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		r := s.result(a.Name)
		s.keepSite(a.Site, r)
		return r, nil
	case callReplayed:
		var a getArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		return s.replayedResult(a)
	case callKernels:
		return s.kernelNames(), nil
	}
	return nil, fmt.Errorf("unknown call %q", method)
}

// runFromGlue is bench.Run in glue cells: the protocol on a kernel built in
// this session, with %bench's keys: bench.Run("seed", "quick", "reps=20").
// The result is kept as the kernel's latest, like %bench's.
func (s *Session) runFromGlue(ctx context.Context, pub display.Publisher, name string, args ...string) (*protocol.Result, error) {
	opt, err := protocol.ParseOptions(s.args(args))
	if err != nil {
		return nil, err
	}
	if pub == nil {
		return nil, errors.New("bench.Run: no cell is running")
	}
	r, id, err := s.runBench(ctx, name, opt, pub)
	if r != nil {
		pub.Display(display.Bundle{Data: report.HeadlineBundle(r), Metadata: report.Role(report.RoleHeadline), ID: id}, true)
		s.mu.Lock()
		s.results[name] = r
		s.mu.Unlock()
	}
	return r, err
}

// keepSite keeps the result (nil too) a declaration's call returned, for
// its replay.
func (s *Session) keepSite(site string, r *protocol.Result) {
	if site == "" {
		return
	}
	s.mu.Lock()
	s.sites[site] = r
	s.mu.Unlock()
}

// replayedResult answers a bench.Run or bench.Get that a replay runs again:
// the result the call returned when its cell ran.
func (s *Session) replayedResult(a getArgs) (*protocol.Result, error) {
	s.mu.Lock()
	r, ok := s.sites[a.Site]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("the result of %s that this declaration had is not known; re-run its cell", a.Name)
	}
	return r, nil
}

// result is bench.Get: the latest result of a kernel in this session.
func (s *Session) result(name string) *protocol.Result {
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
	case *protocol.Result:
		if x == nil {
			return nil, false
		}
		return report.Result(x), true
	case report.Diff:
		return x.Bundle(), true
	}
	return nil, false
}
