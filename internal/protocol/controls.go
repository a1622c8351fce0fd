package protocol

import (
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/records"
)

// controlOf is the Control of a run with these options, nil without one.
func controlOf(opt Options) *Control {
	switch {
	case opt.Pages == "huge":
		return &Control{Kind: ControlPages, Value: "huge", Pages: &PagesGot{Mode: "huge"}, BasePages: &PagesGot{Mode: "4k"}}
	case opt.Pad > 0:
		return &Control{Kind: ControlPad, Value: strconv.FormatInt(opt.Pad, 10)}
	}
	return nil
}

// isBaselineProc says whether the process labelled so is of the baseline
// side (baseline.go, blocks.go and run.go label them "baseline-...").
func isBaselineProc(label string) bool { return strings.HasPrefix(label, "baseline-") }

// pages is the -pages option of a process: huge for the kernel's side, 4k
// for the baseline's, with pages=huge; "" (the driver's 4k) otherwise.
func (r *runner) pages(label string) string {
	if r.opt.Pages != "huge" {
		return ""
	}
	if isBaselineProc(label) {
		return "4k"
	}
	return "huge"
}

// notePages adds the pages records of a finished process to its side.
func (r *runner) notePages(p *proc) {
	c := r.res.Control
	if c == nil || c.Pages == nil || p == nil {
		return
	}
	side := c.Pages
	if isBaselineProc(p.Label) {
		side = c.BasePages
	}
	for _, rec := range p.Records {
		if pg, ok := rec.Value.(records.Pages); ok {
			side.Add(pg)
		}
	}
}
