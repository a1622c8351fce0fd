package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/benchbook/benchbook/cells"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/kernel"
	"github.com/benchbook/benchbook/stdlib/display"
)

// engine adapts a cells.Session to the kernel's Engine interface: this is
// the one place where the wire protocol and the meaning of cells meet.
type engine struct {
	s *cells.Session
	// dir is the kernel's working folder, the notebook's: paths under it
	// are sent relative to it (ipynb.RelativePaths), as benchbook run
	// stores them, so that a saved notebook carries no folder of this
	// machine.
	dir string
}

var _ kernel.Engine = engine{}

func (e engine) Info() kernel.Info {
	return kernel.Info{
		Implementation:        "benchbook",
		ImplementationVersion: version,
		Language: kernel.LanguageInfo{Name: "go", Version: strings.TrimPrefix(runtime.Version(), "go"),
			Mimetype: "text/x-go", FileExtension: ".go", PygmentsLexer: "go", CodeMirrorMode: "go"},
		Banner: fmt.Sprintf("benchbook %s: C and Go benchmark kernels built natively (%%%%c, %%%%go), the measurement protocol (%%bench), Go glue cells (yaegi)", version),
		HelpLinks: []kernel.HelpLink{
			{Text: "benchbook cells and %bench keys", URL: "https://github.com/benchbook/benchbook#cells"},
			{Text: "Go standard library", URL: "https://pkg.go.dev/std"},
		},
	}
}

// publisher turns display calls into kernel outputs as benchbook run
// stores them (ipynb.Portable): paths under dir made relative, the display
// size of a PNG that says its density in the metadata.
type publisher struct {
	out kernel.Output
	dir string
}

func (p publisher) Stream(name, text string) {
	p.out.Stream(name, ipynb.RelativePaths(text, p.dir).(string))
}
func (p publisher) Display(b display.Bundle, update bool) {
	data, meta := ipynb.Portable(b.Data, b.Metadata, p.dir)
	p.out.Display(data, meta, b.ID, update)
}
func (p publisher) Clear(wait bool) { p.out.Clear(wait) }

func (e engine) Execute(ctx context.Context, req kernel.ExecuteRequest, out kernel.Output) kernel.ExecuteResult {
	label := fmt.Sprintf("Cell[%d]", req.ExecutionCount)
	data, err := e.s.Execute(ctx, label, req.Code, publisher{out: out, dir: e.dir})
	if data != nil {
		data, _ = ipynb.Portable(data, nil, e.dir)
	}
	res := kernel.ExecuteResult{Data: data}
	if err != nil {
		var ce *cells.Error
		if errors.As(err, &ce) {
			e := *ce
			res.Err = &e
		} else {
			res.Err = &kernel.ExecError{Name: "Error", Value: err.Error(), Traceback: []string{err.Error()}}
		}
		res.Err.Value = ipynb.RelativePaths(res.Err.Value, e.dir).(string)
		res.Err.Traceback = ipynb.RelativePaths(res.Err.Traceback, e.dir).([]string)
	}
	if len(req.UserExpressions) > 0 {
		res.UserExpressions = e.userExpressions(ctx, req.UserExpressions, out)
	}
	giveBack()
	return res
}

// bigCell is how much a cell allocates in the kernel (a %bench: its
// records, statistics, plots) before the kernel gives the memory back to
// the system once the cell is done, instead of holding it at the
// collector's goal until the next collection, which a session of glue
// cells (that allocate little here) may not reach for hours. It is done
// before the reply, when nothing is being measured, and costs one
// collection of a heap of a few MB (milliseconds).
const bigCell = 32 << 20

var given struct {
	sync.Mutex
	at uint64 // bytes allocated in all at the last release
}

func giveBack() {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	given.Lock()
	defer given.Unlock()
	if now := s[0].Value.Uint64(); now-given.at >= bigCell {
		debug.FreeOSMemory()
		given.at = now
	}
}

// userExpressions evaluates each expression as a glue cell whose outputs
// are dropped, but for what it says on stderr (a glue process started
// again, and what was lost), which goes to the cell's output.
func (e engine) userExpressions(ctx context.Context, exprs map[string]string, cell kernel.Output) map[string]any {
	out := map[string]any{}
	for name, expr := range exprs {
		data, err := e.s.Execute(ctx, "user_expressions", expr, publisher{out: stderrOnly{cell}, dir: e.dir})
		if err != nil {
			out[name] = map[string]any{"status": "error", "ename": "Error", "evalue": err.Error(), "traceback": []string{}}
			continue
		}
		if data == nil {
			data = map[string]any{display.MIMEText: ""}
		}
		out[name] = map[string]any{"status": "ok", "data": data, "metadata": map[string]any{}}
	}
	return out
}

// stderrOnly passes on what is written on stderr, and drops the rest.
type stderrOnly struct{ out kernel.Output }

func (s stderrOnly) Stream(name, text string) {
	if name == "stderr" {
		s.out.Stream(name, text)
	}
}
func (stderrOnly) Display(map[string]any, map[string]any, string, bool) {}
func (stderrOnly) Clear(bool)                                           {}

// Jupyter counts cursor positions in Unicode code points; cells count bytes.
func runesToBytes(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

func bytesToRunes(s string, b int) int {
	if b > len(s) {
		b = len(s)
	}
	return utf8.RuneCountInString(s[:b])
}

func (e engine) Complete(code string, cursor int) kernel.CompleteResult {
	m, start, end := e.s.Complete(code, runesToBytes(code, cursor))
	if m == nil {
		m = []string{}
	}
	return kernel.CompleteResult{Matches: m, CursorStart: bytesToRunes(code, start), CursorEnd: bytesToRunes(code, end), Metadata: map[string]any{}}
}

func (e engine) Inspect(code string, cursor, detail int) kernel.InspectResult {
	data, found := e.s.Inspect(code, runesToBytes(code, cursor))
	if data == nil {
		data = map[string]any{}
	}
	return kernel.InspectResult{Found: found, Data: data, Metadata: map[string]any{}}
}

func (e engine) IsComplete(code string) (string, string) { return e.s.IsComplete(code) }

func (e engine) Shutdown(restart bool) { e.s.Close() }
