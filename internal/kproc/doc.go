// Package kproc is what internal/protocol knows of one process of a kernel
// binary once it ran: its records (ReadRecordFile), the tail of what it
// printed (TailBuffer, OutputTail), how it ended (ExitError), and a
// filesystem with no room left for its records (NoSpaceIn, DiskFullError).
// The runner in internal/protocol starts the processes; this package holds what
// it reads of them.
package kproc
