package kproc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/benchbook/benchbook/internal/procs"
	"github.com/benchbook/benchbook/internal/records"
)

// ErrInterrupted is returned when the run was cancelled; the result holds
// what was measured by then and is marked partial.
var ErrInterrupted = errors.New("interrupted")

// Proc is one execution of the kernel binary: its records and how it ended.
type Proc struct {
	Label   string
	File    string
	Records []records.Record
	Output  string // what the kernel itself printed (stdout and stderr), truncated
	Layout  int    // which build of layouts=K ran (0: the kernel's own)
}

// TailBuffer keeps the last max bytes written to it; it may be written
// from more than one goroutine.
type TailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *TailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

func (t *TailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

// ExitError says how a process that failed ended: by which signal, or with
// which exit status, and what it printed.
func ExitError(label string, err error, p *Proc) error {
	if err == nil {
		return nil
	}
	for _, rec := range p.Records {
		if e, ok := rec.Value.(records.Error); ok {
			return fmt.Errorf("%s: the harness refused: %s", label, e.Msg)
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Errorf("%s: the kernel was killed by signal %s (%s)%s", label, signalName(ws.Signal()), ws.Signal(), OutputTail(p.Output))
		}
		return fmt.Errorf("%s: the kernel exited with status %d%s", label, ee.ExitCode(), OutputTail(p.Output))
	}
	return fmt.Errorf("%s: %w", label, err)
}

func signalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{syscall.SIGSEGV: "SIGSEGV", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE",
		syscall.SIGABRT: "SIGABRT", syscall.SIGILL: "SIGILL", syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM"}
	if n, ok := names[s]; ok {
		return n
	}
	return strconv.Itoa(int(s))
}

func OutputTail(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 12 {
		lines = lines[len(lines)-12:]
	}
	return "; its last output:\n" + strings.Join(lines, "\n")
}

// MaxRecordFile bounds a record file: far more than MaxReps passes of the
// largest records take, so that recover never reads without end.
const MaxRecordFile = 1 << 30

// ReadRecordFile reads the records of one process. The file must be a
// regular file, not a link (a FIFO or /dev/urandom in its place would hang
// the reader or never end: procs.OpenRegular), of at most MaxRecordFile
// bytes. A missing file has no records.
func ReadRecordFile(path string) ([]records.Record, error) {
	f, err := procs.OpenRegular(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > MaxRecordFile {
		return nil, fmt.Errorf("%s holds %d bytes, more than the %d a record file of a run can: not a record file", path, fi.Size(), MaxRecordFile)
	}
	rr := records.NewReader(io.LimitReader(f, MaxRecordFile))
	var recs []records.Record
	for rr.Scan() {
		recs = append(recs, rr.Record())
	}
	return recs, rr.Err()
}

// NewTailBuffer is a TailBuffer that keeps the last max bytes.
func NewTailBuffer(max int) *TailBuffer { return &TailBuffer{max: max} }
