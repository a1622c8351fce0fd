// Command benchbook is a Jupyter kernel for performance investigations: C and
// Go benchmark kernels compiled natively, the measurement protocol of the
// seeds, plots and commentary, and Go glue cells, with executed notebooks that
// carry every sample as evidence.
//
//	benchbook install [--user|--sys-prefix|--prefix DIR]
//	benchbook kernel -f CONNECTION_FILE
//	benchbook run NOTEBOOK.ipynb [-o OUT.ipynb] [--html OUT.html] [--allow-errors] [--fail-on slower]
//	benchbook verify EXECUTED.ipynb
//	benchbook compare A.ipynb B.ipynb [C.ipynb ...] [--ref A] [--nway] [--json] [--plot FILE.png] [--fail-on slower] [--no-verify]
//	benchbook fingerprint [--cpu N] [--json]
//	benchbook fleet NOTEBOOK.ipynb -o DIR [--nodes N | --constraint C ...] [sbatch arguments ...]
//	benchbook recover RESULTS_FOLDER
//	benchbook version
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/benchbook/benchbook/cells"
	"github.com/benchbook/benchbook/internal/heapdump"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	heapdump.Install()
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "benchbook: %v\n", err)
		if code, ok := err.(exitCode); ok {
			os.Exit(int(code))
		}
		os.Exit(1)
	}
}

// exitCode is an error that only sets the exit status (the command already
// said why).
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

const usage = `usage:
  benchbook install [--user|--sys-prefix|--prefix DIR]   install the Jupyter kernelspec "benchbook"
  benchbook kernel -f CONNECTION_FILE                    the kernel Jupyter starts
  benchbook run NOTEBOOK.ipynb [-o OUT.ipynb] [--html OUT.html] [--allow-errors] [--fail-on slower]
                                                         execute a notebook without Jupyter
  benchbook verify EXECUTED.ipynb                        recompute every summary from its samples
  benchbook compare PUBLISHED.ipynb RERUN.ipynb          the rerun table: what moved and why
  benchbook compare A.ipynb B.ipynb C.ipynb ... [--ref A] [--json] [--plot FILE.png] [--fail-on slower]
                                                         one investigation on several machines, N ways
  benchbook fingerprint [--cpu N] [--json]               this machine's measured identity
  benchbook fleet NOTEBOOK.ipynb -o DIR [--nodes N | --constraint C] [sbatch args ...]
                                                         run it on Slurm nodes, then compare them
  benchbook recover RESULTS_FOLDER                       rebuild a killed run's result from its raw records
  benchbook version
`

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitCode(2)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "install":
		return cmdInstall(rest, stdout)
	case "kernel":
		return cmdKernel(rest, stderr)
	case "run":
		return cmdRun(rest, stdout, stderr)
	case "verify":
		return cmdVerify(rest, stdout, stderr)
	case "compare":
		return cmdCompare(rest, stdout, stderr)
	case "fingerprint":
		return cmdFingerprint(rest, stdout)
	case "fleet":
		return cmdFleet(rest, stdout, stderr)
	case "recover":
		return cmdRecover(rest, stdout)
	case "glue-child": // hidden: the process glue cells run in (cells/gluechild)
		if code := cells.ServeGlueChild(); code != 0 {
			return exitCode(code)
		}
		return nil
	case "version", "--version":
		fmt.Fprintf(stdout, "benchbook %s\n", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}
