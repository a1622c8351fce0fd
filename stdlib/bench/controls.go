package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// setControl reads the pages= and pad= keys.
func (o *Options) setControl(key, val string) error {
	switch key {
	case "pages":
		switch val {
		case "huge", "4k":
			o.Pages = val
			if val == "4k" {
				o.Pages = "" // the default: no control
			}
			return nil
		}
		return fmt.Errorf("pages=%s: want pages=huge (huge pages beside the default 4 KiB pages, measured in the same run) or pages=4k (the default)", val)
	case "pad":
		n, err := ParseSize(val)
		if err != nil || n > MaxPad {
			return fmt.Errorf("pad=%s: want the bytes each row is padded by, a whole number from 1 to %d (e.g. pad=64; the kernel reads it as BENCH_PAD)", val, MaxPad)
		}
		o.Pad = n
		return nil
	}
	return nil
}

// checkControl refuses what a control does not combine with: it takes the
// baseline's place, so no baseline and no sweep, and one control at a time.
func (o *Options) checkControl() error {
	key := ""
	switch {
	case o.Pages != "" && o.Pad > 0:
		return fmt.Errorf("pages=%s pad=%d: one control per run; measure them in two %%bench cells", o.Pages, o.Pad)
	case o.Pages != "":
		key = "pages=" + o.Pages
	case o.Pad > 0:
		key = "pad=" + strconv.FormatInt(o.Pad, 10)
	default:
		return nil
	}
	switch {
	case o.BaselineName != "":
		return fmt.Errorf("%s does not combine with baseline=%s: the control is measured beside the kernel in the baseline's place", key, o.BaselineName)
	case o.Sweep != nil:
		return fmt.Errorf("%s does not combine with sweep=: measure the control at one point", key)
	case o.Counts:
		return fmt.Errorf("%s does not combine with counts", key)
	}
	return nil
}

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
		if rec.Kind == "pages" {
			side.Add(rec)
		}
	}
}
