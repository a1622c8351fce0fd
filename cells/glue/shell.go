package glue

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/benchbook/benchbook/cells/glue/source"
	"github.com/benchbook/benchbook/internal/procs"
)

// runShell runs a "!" line with /bin/sh -c in its own process group, its
// output written straight into the session's stdout and stderr pipes (so it
// streams, in order with the Go lines around it). As in IPython, a non-zero
// exit status does not fail the cell: it is reported on stderr. Cancelling
// the cell kills the whole process group.
func (s *Session) runShell(c *cellRun, seg source.Segment) *Error {
	if seg.Text == "" {
		return nil
	}
	cmd := exec.CommandContext(c.ctx, "/bin/sh", "-c", seg.Text)
	cmd.Dir = s.opt.Dir
	cmd.Env = s.opt.Env
	cmd.Stdin = s.stdin
	cmd.Stdout = s.stdout.Writer()
	cmd.Stderr = s.stderr.Writer()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = time.Second
	// Started from the thread that lives as long as this process, so that
	// Pdeathsig fires only when it dies; what the line leaves running
	// (!cmd &) carries the kernel's root and dies with the kernel
	// (harness/root.go).
	err := procs.StartCmd(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	s.syncStreams()
	if c.ctx.Err() != nil {
		return s.interrupted(c, seg.Line, "")
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exit):
		s.out.Stream("stderr", fmt.Sprintf("! %s: %s\n", seg.Text, exitText(exit)))
		return nil
	}
	return errorAt(c, ErrSession, seg.Line, "cannot run the shell: "+err.Error())
}

// exitText describes how a process ended.
func exitText(e *exec.ExitError) string {
	if ws, ok := e.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "killed by signal " + ws.Signal().String()
	}
	return fmt.Sprintf("exit status %d", e.ExitCode())
}
