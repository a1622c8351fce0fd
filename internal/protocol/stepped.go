package protocol

import (
	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/kproc"
)

// stepped is a kernel process in step mode (kproc.Stepped).
type stepped = kproc.Stepped

// startStepped starts bin in step mode; the process's timeout counts from
// here and covers all its steps.
func (r *runner) startStepped(bin, label string, a harness.Args) (*stepped, error) {
	a.Step = true
	p, cmd := r.newProc(bin, label, a)
	return kproc.StartStepped(cmd, p, label, r.opt.Timeout)
}
