package kproc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/benchbook/benchbook/internal/procs"
)

// Stepped is a kernel process in step mode (-step, records.md): it waits
// for a line on its standard input before its prelude and before each
// measured round, and answers "ok" on its standard output when the step is
// done. Two of them, the new build and the baseline, take their rounds in
// turn: before/after measured in one run, round by round.
type Stepped struct {
	p        *Proc
	stdin    io.WriteCloser
	lines    chan string
	hp       *procs.Proc
	out      *TailBuffer
	deadline time.Time
	exited   bool
	waitErr  error
}

// Step asks for one step and waits for its "ok", the process's end, an
// interrupt or the timeout.
func (s *Stepped) Step(ctx context.Context) error {
	if s.exited {
		return fmt.Errorf("%s: the kernel is no longer running", s.p.Label)
	}
	if _, err := io.WriteString(s.stdin, "go\n"); err != nil {
		return s.fail(ctx, fmt.Errorf("%s: the kernel stopped reading its steps: %w", s.p.Label, err))
	}
	timer := time.NewTimer(time.Until(s.deadline))
	defer timer.Stop()
	exited := s.hp.Done()
	for {
		select {
		case <-exited: // read what it wrote before it exited, to the end
			s.waitErr, s.exited, exited = s.hp.Wait(), true, nil
		case line, ok := <-s.lines:
			if !ok {
				return s.fail(ctx, fmt.Errorf("%s: the kernel closed its output before finishing the step", s.p.Label))
			}
			if line == "ok" {
				return nil
			}
			s.out.Write([]byte(line + "\n")) // anything else the kernel printed
		case <-ctx.Done():
			return s.fail(ctx, ErrInterrupted)
		case <-timer.C:
			return s.fail(ctx, fmt.Errorf("%s: the process ran longer than its timeout and was killed", s.p.Label))
		}
	}
}

// fail kills the process group and returns err.
func (s *Stepped) fail(ctx context.Context, err error) error {
	s.kill()
	return err
}

func (s *Stepped) kill() {
	if !s.exited {
		s.waitErr = s.hp.Kill()
		s.exited = true
	}
}

// Finish closes the step input, so the kernel writes its checksums and
// "done" and exits, and reads what it recorded. After an error of the run
// (cause), the process is killed instead.
func (s *Stepped) Finish(cause error) (*Proc, error) {
	_ = s.stdin.Close()
	if cause == nil && !s.exited {
		select {
		case <-s.hp.Done():
			s.waitErr = s.hp.Wait()
			s.exited = true
		case <-time.After(time.Until(s.deadline)):
			cause = fmt.Errorf("%s: the kernel did not exit after its last step and was killed", s.p.Label)
		}
	}
	s.kill()
	go func() { // the reader ends once the pipe's last holder is gone
		for range s.lines {
		}
	}()
	p := s.p
	p.Output = s.out.String()
	recs, readErr := ReadRecordFile(p.File)
	p.Records = recs
	if cause != nil {
		return p, cause
	}
	if err := ExitError(p.Label, s.waitErr, p); err != nil {
		return p, err
	}
	if readErr != nil {
		return p, fmt.Errorf("%s: %w", p.Label, readErr)
	}
	if len(recs) == 0 || recs[len(recs)-1].Kind != "done" {
		return p, fmt.Errorf("%s: the kernel exited without finishing its passes%s", p.Label, OutputTail(p.Output))
	}
	return p, nil
}

// StartStepped starts cmd, a kernel in step mode (-step) that is to record
// into p, labelled label in messages; its timeout counts from here and
// covers all its steps.
func StartStepped(cmd *exec.Cmd, p *Proc, label string, timeout time.Duration) (*Stepped, error) {
	s := &Stepped{p: p, lines: make(chan string, 4), out: NewTailBuffer(16 << 10),
		deadline: time.Now().Add(timeout)}
	cmd.Stderr = s.out
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	// The step answers come through a pipe of our own, read to its end:
	// it ends once the kernel and whatever it left behind are gone.
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	s.hp, err = procs.StartProc(cmd)
	w.Close()
	if err != nil {
		stdout.Close()
		return nil, fmt.Errorf("%s: cannot start the kernel: %w", label, err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			s.lines <- strings.TrimSpace(sc.Text())
		}
		close(s.lines)
		stdout.Close()
	}()
	return s, nil
}
