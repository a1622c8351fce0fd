package gluechild

import (
	"fmt"
	"os"
	"syscall"
)

// EnvChild marks the child process: a test binary that re-executes itself
// as the child checks it in TestMain (see ServeIfChild).
const EnvChild = "BENCHBOOK_GLUE_CHILD"

// Child file descriptors: requests come in on fd 3, frames go out on fd 4,
// so that what compiled code writes on stdout cannot corrupt the protocol.
const (
	fdIn  = 3
	fdOut = 4
)

// Main is the child process (benchbook glue-child): it applies the limits
// and serves the protocol on fds 3 and 4. It returns the exit status.
func Main(options SessionOptions) int {
	_ = os.Unsetenv(EnvChild)
	l, err := LimitsFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchbook glue-child:", err)
		return 2
	}
	if err := l.apply(); err != nil {
		fmt.Fprintln(os.Stderr, "benchbook glue-child: warning:", err)
	}
	// Not inherited by what a cell starts: a shell line's background job
	// holding fd 4 would keep the parent waiting for the child's end.
	syscall.CloseOnExec(fdIn)
	syscall.CloseOnExec(fdOut)
	in, out := os.NewFile(fdIn, "glue-in"), os.NewFile(fdOut, "glue-out")
	if err := Serve(in, out, options); err != nil {
		fmt.Fprintln(os.Stderr, "benchbook glue-child (started by benchbook itself, with its pipes on fds 3 and 4):", err)
		return 1
	}
	return 0
}

// ServeIfChild runs Main and exits when this process was started as a glue
// child (for test binaries, from TestMain); otherwise it returns.
func ServeIfChild(options SessionOptions) {
	if os.Getenv(EnvChild) == "1" {
		os.Exit(Main(options))
	}
}
