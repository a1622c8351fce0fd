package bench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/harness"
)

// A control is a run of the kernel under one changed condition measured
// beside the kernel as it is, in the same run (the before/after blocks of
// baseline.go, the control in the place of the new build): the run that
// isolates one mechanism, so that the commentary may name it.
//
//   - pages=huge: the same binary with huge pages for its static and setup
//     memory (-pages huge) beside 4 KiB pages (-pages 4k): a TLB effect.
//   - pad=BYTES: the kernel built with -DBENCH_PAD=BYTES beside the kernel
//     built without (BENCH_PAD is 0): set conflicts of a power-of-two
//     row stride.
//
// Ratios (Result.Baseline) are control over default: huge over 4 KiB,
// padded over unpadded.
const (
	ControlPages = "pages"
	ControlPad   = "pad"
)

// MaxPad bounds pad=: a row padded by more than a megabyte is no control
// of a stride but another layout.
const MaxPad = 1 << 20

// Control says which control a result measured, and for pages what the
// processes of each side got.
type Control struct {
	Kind  string `json:"kind"`  // ControlPages or ControlPad
	Value string `json:"value"` // "huge", or the pad in bytes
	// Pages of the control side (huge) and of the default side (4k), from
	// the pages records of their processes; nil for pad.
	Pages     *PagesGot `json:"pages,omitempty"`
	BasePages *PagesGot `json:"base_pages,omitempty"`
}

// PagesGot sums the pages records of one side's processes.
type PagesGot struct {
	Mode      string `json:"mode"`      // "huge" or "4k"
	Processes int    `json:"processes"` // processes that wrote a pages record
	// WithHuge counts the processes whose AnonHugePages was above 0.
	WithHuge int `json:"with_huge"`
	// MinKB and MaxKB bound AnonHugePages over the processes.
	MinKB int64 `json:"min_anon_huge_kb"`
	MaxKB int64 `json:"max_anon_huge_kb"`
	// AdvisedBytes is the largest advised_bytes seen.
	AdvisedBytes int64 `json:"advised_bytes"`
	// CollapseFailed counts processes whose MADV_COLLAPSE failed, and
	// CollapseErrno is the first such errno.
	CollapseFailed int `json:"collapse_failed,omitempty"`
	CollapseErrno  int `json:"collapse_errno,omitempty"`
}

// Obtained says whether every process of the side had huge pages.
func (p *PagesGot) Obtained() bool {
	return p != nil && p.Processes > 0 && p.WithHuge == p.Processes
}

// None says whether no process of the side had huge pages.
func (p *PagesGot) None() bool { return p != nil && p.Processes > 0 && p.WithHuge == 0 }

func (p *PagesGot) add(rec harness.Record) {
	kb, err := rec.Int("anon_huge_kb")
	if err != nil {
		return
	}
	adv, _ := rec.Int("advised_bytes")
	ce, _ := rec.Int("collapse_errno")
	if p.Processes == 0 || kb < p.MinKB {
		p.MinKB = kb
	}
	p.MaxKB = max(p.MaxKB, kb)
	p.AdvisedBytes = max(p.AdvisedBytes, adv)
	p.Processes++
	if kb > 0 {
		p.WithHuge++
	}
	if ce > 0 {
		if p.CollapseFailed == 0 {
			p.CollapseErrno = int(ce)
		}
		p.CollapseFailed++
	}
}

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
			side.add(rec)
		}
	}
}

// ControlName is how a sentence names the two sides of a result's
// baseline: the control and the default ("huge pages", "4 KiB pages"),
// or, without a control, "" and "".
func ControlName(r *Result) (control, base string) {
	if r == nil || r.Control == nil {
		return "", ""
	}
	switch r.Control.Kind {
	case ControlPages:
		return "huge pages", "4 KiB pages"
	case ControlPad:
		return "rows padded by " + r.Control.Value + " bytes (BENCH_PAD)", "unpadded rows"
	}
	return "", ""
}

// RatioName names a before/after's ratio by its two sides: "new/previous"
// for two builds, or what a control compared ("padded/unpadded",
// "huge/4 KiB pages").
func RatioName(r *Result) string {
	if r != nil && r.Control != nil {
		switch r.Control.Kind {
		case ControlPages:
			return "huge/4 KiB pages"
		case ControlPad:
			return "padded/unpadded"
		}
	}
	return "new/previous"
}
