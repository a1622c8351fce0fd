package result

import "github.com/benchbook/benchbook/internal/records"

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

func (p *PagesGot) Add(rec records.Pages) {
	kb, adv, ce := rec.AnonHugeKB, rec.AdvisedBytes, rec.CollapseErrno
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
