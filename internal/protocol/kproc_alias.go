package protocol

import "github.com/benchbook/benchbook/internal/kproc"

// The errors of internal/kproc (a kernel process and how it ended): protocol.X
// is kproc.X.
var (
	ErrInterrupted = kproc.ErrInterrupted
	ErrDiskFull    = kproc.ErrDiskFull
)

// proc is one execution of the kernel binary: its records and how it ended.
type proc = kproc.Proc
