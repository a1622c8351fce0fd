package cells

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"html"
	"os"
	"path/filepath"
	"time"

	"github.com/benchbook/benchbook/cells/glue"
	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/plot"
	"github.com/benchbook/benchbook/stdlib/report"
)

// bench runs %bench NAME [keys]: the protocol, then the result, its plots,
// the commentary and, when NAME was benched before, what moved.
func (s *Session) bench(ctx context.Context, label string, m Magic, pub display.Publisher) error {
	started := time.Now()
	opt, err := protocol.ParseOptions(s.args(m.Args))
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
	if p, ok := s.packageNamed(as); ok {
		return cellError("BenchError", label, 1, fmt.Sprintf("as=%s: %s is the package %q in glue cells, and a variable of that name would hide it for the rest of the session; choose another name with as=NAME", as, as, p))
	}
	if opt.Sweep != nil {
		return s.benchSweep(ctx, label, m.Name, as, opt, pub)
	}
	opt.Started = started
	r, headline, err := s.runBench(ctx, m.Name, opt, pub)
	if r == nil {
		return cellError("BenchError", label, 1, err.Error())
	}
	s.show(r, pub, headline)
	bound := "bound to " + as
	if bindErr := s.bind(ctx, as, m.Name, pub); bindErr != nil {
		bound = "not bound to " + as + " (" + as + " is as it was)"
		pub.Stream("stderr", fmt.Sprintf("the result could not be bound to %s in glue cells: %v\n", as, bindErr))
	}
	switch {
	case errors.Is(err, protocol.ErrInterrupted):
		return cellError("Interrupted", label, 1, fmt.Sprintf("%%bench was interrupted; the partial result is above, %s, and on disk in %s", bound, r.RawFile))
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

// runBench runs the protocol with a progress line updated in place, the
// cell's first output, and keeps the result for the session; it returns
// the progress line's display id, where show puts the headline.
func (s *Session) runBench(ctx context.Context, name string, opt protocol.Options, pub display.Publisher) (*protocol.Result, string, error) {
	k, err := s.kernel(name)
	if err != nil {
		return nil, "", err
	}
	runK := k // what runs as the kernel: k, or a control's build (controls.go)
	var base *harness.Kernel
	var note string
	if opt.Pages != "" || opt.Pad > 0 {
		runK, base, note, err = s.control(ctx, name, k, opt)
	} else {
		base, note, err = s.baseline(name, k, opt.BaselineName)
	}
	if err != nil {
		return nil, "", err
	}
	opt.Baseline, opt.BaselineNote = base, note
	if opt.Layouts > 1 {
		s.mu.Lock()
		spec := s.specs[name]
		s.mu.Unlock()
		if opt.LayoutKernels, err = harness.BuildLayouts(ctx, spec, opt.Layouts); err != nil {
			return nil, "", err
		}
	}
	if opt.ResultsDir == "" {
		opt.ResultsDir = s.opt.ResultsDir
	}
	if opt.Export != "" && !filepath.IsAbs(opt.Export) {
		opt.Export = filepath.Join(s.opt.Dir, opt.Export)
	}
	id := display.NewID()
	start := time.Now()
	lead := ""
	if note != "" {
		lead = "; " + note
	}
	if opt.Predict != "" {
		lead += "; prediction, written before the run: " + opt.Predict
	}
	progress := progressLine(pub, id)
	progress(fmt.Sprintf("%%bench %s: starting%s", name, lead), false)
	opt.Progress = func(p protocol.Progress) {
		progress(fmt.Sprintf("%%bench %s: %s (%.1f s)%s", name, p, time.Since(start).Seconds(), lead), true)
	}
	r, err := protocol.Run(ctx, runK, opt)
	if r != nil {
		s.mu.Lock()
		s.benched[name] = k
		s.mu.Unlock()
	}
	return r, id, err
}

// baseline picks what a %bench of kernel name measures beside it in the
// same run: the kernel named other (baseline=OTHER), else the build name was
// last measured with when it differs from k. A previous build whose binary
// is gone is reported in note and the run goes on without it.
func (s *Session) baseline(name string, k *harness.Kernel, other string) (base *harness.Kernel, note string, err error) {
	if other != "" {
		o, err := s.kernel(other)
		if err != nil {
			return nil, "", fmt.Errorf("baseline=%s: %w", other, err)
		}
		return o, "", nil
	}
	s.mu.Lock()
	prev := s.benched[name]
	s.mu.Unlock()
	if prev == nil || prev.Key == k.Key {
		return nil, "", nil
	}
	if prev.BinarySHA256 == k.BinarySHA256 {
		return nil, fmt.Sprintf("%s changed since it was last measured (%s) but the binary is byte for byte the same (%s): nothing to measure before and after; this run measures it alone",
			name, whatChanged(prev, k), short(k.BinarySHA256)), nil
	}
	if _, err := os.Stat(prev.Binary); err != nil {
		return nil, fmt.Sprintf("the previous build of %s is not in the cache (%v): rerun its cell to measure before and after in one run; this run has no baseline", name, err), nil
	}
	return prev, fmt.Sprintf("%s changed since it was last measured (%s): the previous build runs again beside the new one, in the same run", name, whatChanged(prev, k)), nil
}

// show publishes a result, the answer first: the headline in place of the
// progress line (the cell's first output), the before/after measured in
// one run (or, when the kernel was benched before without a baseline, the
// comparison across runs) with its overlays, then the conditions and
// tables with the result+json entry, the plots, and the commentary. Every
// output says what it is in its metadata (report.Role), which verify reads.
func (s *Session) show(r *protocol.Result, pub display.Publisher, headline string) {
	pub.Display(display.Bundle{Data: report.HeadlineBundle(r), Metadata: report.Role(report.RoleHeadline), ID: headline}, true)
	s.mu.Lock()
	prev := s.results[r.Kernel.Name]
	s.results[r.Kernel.Name] = r
	s.mu.Unlock()
	overlay := func(before *protocol.Result) {
		for _, v := range r.Variants {
			if before.Variant(v.Name) == nil || v.Dead {
				continue
			}
			if f, err := plot.Overlay(before, r, v.Name); err == nil {
				pub.Display(display.Bundle{Data: f.Bundle(), Metadata: report.WithRole(f.Metadata(), report.RolePlot), ID: display.NewID()}, false)
			}
		}
	}
	switch {
	case r.Baseline != nil:
		pub.Display(display.Bundle{Data: report.BaselineBundle(r), Metadata: report.Role(report.RoleBaseline), ID: display.NewID()}, false)
		overlay(r.BaselineResult())
	case prev != nil:
		pub.Display(display.Bundle{Data: report.Compare(prev, r).Bundle(), Metadata: report.Role(report.RoleCompare), ID: display.NewID()}, false)
		overlay(prev)
	}
	pub.Display(display.Bundle{Data: report.Result(r), Metadata: report.Role(report.RoleResult), ID: display.NewID()}, false)
	for _, f := range plot.All(r) {
		pub.Display(display.Bundle{Data: f.Bundle(), Metadata: report.WithRole(f.Metadata(), report.RolePlot), ID: display.NewID()}, false)
	}
	pub.Display(display.Bundle{Data: report.CommentaryBundle(r), Metadata: report.Role(report.RoleCommentary), ID: display.NewID()}, false)
}

// bindLimit bounds the binding of a result, which an interrupt of its cell
// does not stop (the partial result of an interrupted %bench is bound).
const bindLimit = 30 * time.Second

// bind makes the result a glue variable: var as = bench.Get("name"), a
// declaration, so that a new glue process (after a crash) gets it back, the
// same result (glue.Session.CallSite). What the glue process says, such as
// that it was started again and what was lost, goes to the cell's pub.
func (s *Session) bind(ctx context.Context, as, name string, pub display.Publisher) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bindLimit)
	defer cancel()
	_, err := s.glue.Eval(ctx, "%bench", fmt.Sprintf("var %s = bench.Get(%q)", as, name), pub)
	return err
}

func short(h string) string { return h[:min(len(h), 12)] }

// packageNamed is the path of the package glue cells have under name:
// imported by a cell, preloaded, or from the standard library.
func (s *Session) packageNamed(name string) (string, bool) {
	if p, ok := s.glue.Package(name); ok {
		return p, true
	}
	if p, ok := preload[name]; ok {
		return p, true
	}
	if name == "display" {
		return "github.com/benchbook/benchbook/stdlib/display", true
	}
	return glue.StdlibPackage(name)
}

// progressLine is the first output of a %bench (or sweep) cell, role
// headline, which its progress updates and the headline replaces.
func progressLine(pub display.Publisher, id string) func(text string, update bool) {
	return func(text string, update bool) {
		pub.Display(display.Bundle{Data: map[string]any{display.MIMEText: text,
			display.MIMEHTML: `<span style="font-family:monospace;color:#555">` + html.EscapeString(text) + `</span>`},
			Metadata: report.Role(report.RoleHeadline), ID: id}, update)
	}
}
