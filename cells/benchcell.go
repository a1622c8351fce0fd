package cells

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"path/filepath"
	"time"

	"github.com/benchbook/benchbook/stdlib/bench"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/plot"
	"github.com/benchbook/benchbook/stdlib/report"
)

// bench runs %bench NAME [keys]: the protocol, then the result, its plots,
// the commentary and, when NAME was benched before, what moved.
func (s *Session) bench(ctx context.Context, label string, m Magic, pub display.Publisher) error {
	opt, err := bench.ParseOptions(s.args(m.Args))
	if err != nil {
		return cellError("BenchError", label, 1, err.Error())
	}
	as := m.Name
	if opt.As != "" {
		as = opt.As
	}
	if !nameRE.MatchString(as) || token.IsKeyword(as) {
		return cellError("BenchError", label, 1, fmt.Sprintf("as=%s: the result's variable must be a Go identifier", as))
	}
	r, err := s.runBench(ctx, m.Name, opt, pub)
	if r == nil {
		return cellError("BenchError", label, 1, err.Error())
	}
	s.show(r, pub)
	if bindErr := s.bind(ctx, as, m.Name); bindErr != nil {
		pub.Stream("stderr", fmt.Sprintf("the result could not be bound to %s in glue cells: %v\n", as, bindErr))
	}
	switch {
	case errors.Is(err, bench.ErrInterrupted):
		return cellError("Interrupted", label, 1, fmt.Sprintf("%%bench was interrupted; the partial result is above and on disk in %s", r.RawFile))
	case err != nil:
		return cellError("BenchError", label, 1, err.Error())
	}
	return nil
}

// args are a %bench cell's keys, with quick first in a quick session.
func (s *Session) args(keys []string) []string {
	if s.opt.Quick {
		return append([]string{"quick"}, keys...)
	}
	return keys
}

// runBench runs the protocol with a progress line updated in place, and
// keeps the result for the session.
func (s *Session) runBench(ctx context.Context, name string, opt bench.Options, pub display.Publisher) (*bench.Result, error) {
	k, err := s.kernel(name)
	if err != nil {
		return nil, err
	}
	if opt.ResultsDir == "" {
		opt.ResultsDir = s.opt.ResultsDir
	}
	if opt.Export != "" && !filepath.IsAbs(opt.Export) {
		opt.Export = filepath.Join(s.opt.Dir, opt.Export)
	}
	id := display.NewID()
	start := time.Now()
	progress := func(text string, update bool) {
		pub.Display(display.Bundle{Data: map[string]any{display.MIMEText: text,
			display.MIMEHTML: `<span style="font-family:monospace;color:#555">` + text + `</span>`}, ID: id}, update)
	}
	if opt.Predict != "" {
		pub.Stream("stdout", fmt.Sprintf("prediction, written before the run: %s\n", opt.Predict))
	}
	progress(fmt.Sprintf("%%bench %s: starting", name), false)
	opt.Progress = func(p bench.Progress) {
		progress(fmt.Sprintf("%%bench %s: %s (%.1f s)", name, p, time.Since(start).Seconds()), true)
	}
	r, err := bench.Run(ctx, k, opt)
	if r != nil {
		progress(fmt.Sprintf("%%bench %s: done in %.1f s; raw records and result.json in %s", name, time.Since(start).Seconds(), r.RawFile), true)
	}
	return r, err
}

// show publishes a result: tables with the result+json entry, the plots,
// the commentary, and the before/after when the kernel was benched before.
func (s *Session) show(r *bench.Result, pub display.Publisher) {
	pub.Display(display.Bundle{Data: report.Result(r), ID: display.NewID()}, false)
	for _, f := range plot.All(r) {
		pub.Display(display.Bundle{Data: f.Bundle(), ID: display.NewID()}, false)
	}
	pub.Display(display.Bundle{Data: report.CommentaryBundle(r), ID: display.NewID()}, false)
	s.mu.Lock()
	prev := s.results[r.Kernel.Name]
	s.results[r.Kernel.Name] = r
	s.mu.Unlock()
	if prev != nil {
		pub.Display(display.Bundle{Data: report.Compare(prev, r).Bundle(), ID: display.NewID()}, false)
		for _, v := range r.Variants {
			if prev.Variant(v.Name) == nil || v.Dead {
				continue
			}
			if f, err := plot.Overlay(prev, r, v.Name); err == nil {
				pub.Display(display.Bundle{Data: f.Bundle(), ID: display.NewID()}, false)
			}
		}
	}
}

// bind makes the result a glue variable: as := bench.Get("name").
func (s *Session) bind(ctx context.Context, as, name string) error {
	_, err := s.glue.Eval(ctx, "%bench", fmt.Sprintf("%s := bench.Get(%q)", as, name), discard{})
	return err
}

// discard is a Publisher that drops everything.
type discard struct{}

func (discard) Stream(string, string)        {}
func (discard) Display(display.Bundle, bool) {}
func (discard) Clear(bool)                   {}
