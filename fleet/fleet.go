// Package fleet runs one investigation on several machines of a Slurm
// cluster: it writes a task script, submits it with `sbatch --array` (one
// array per --constraint, one task per node asked for, each on a whole
// node unless told otherwise, since a shared node is a loaded node), waits
// with the state of every task from squeue (and sacct where accounting is
// on), and collects DIR/<host>.ipynb from each task that ran `benchbook
// run`. It knows nothing of notebooks beyond their paths: the caller
// compares what it returns.
package fleet

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Options say what to run where.
type Options struct {
	// Notebook is the investigation and Out the folder the executed
	// notebooks go to; both must be on a file system every node sees
	// (they are made absolute).
	Notebook, Out string
	// Benchbook is the benchbook binary the tasks run, on the nodes' file
	// system (default: this executable).
	Benchbook string
	// Nodes is the number of tasks per array (default 1 with constraints,
	// else 2); each task asks for one node.
	Nodes int
	// Constraints, when given, submit one array per constraint
	// (sbatch --constraint), so that each kind of node gets its tasks.
	Constraints []string
	// Shared leaves out --exclusive.
	Shared bool
	// Sbatch are further arguments for sbatch (--partition, --time, ...).
	Sbatch []string
	// Run are further arguments for benchbook run (e.g. --allow-errors).
	Run []string
	// Poll is how often squeue is asked (default 2 s).
	Poll time.Duration
	// Progress receives a line whenever a task changes state.
	Progress io.Writer
}

// ErrNoSlurm is returned when sbatch is not on PATH.
var ErrNoSlurm = errors.New("Slurm is not here: no sbatch on PATH")

// Task is one array task and how it ended.
type Task struct {
	Array      int    `json:"array"` // which sbatch (one per constraint)
	Constraint string `json:"constraint,omitempty"`
	JobID      string `json:"job_id"` // the array's job id
	Index      int    `json:"index"`  // SLURM_ARRAY_TASK_ID
	State      string `json:"state"`  // Slurm's last word: COMPLETED, FAILED, ...
	Node       string `json:"node,omitempty"`
	// Notebook is the executed notebook the task wrote, ExitCode benchbook
	// run's exit status (-1 when the task never said: killed, cancelled, a
	// node that failed), Log the task's output.
	Notebook string `json:"notebook,omitempty"`
	ExitCode int    `json:"exit_code"`
	Log      string `json:"log"`
}

// ID is the task's Slurm id, JOBID_INDEX.
func (t Task) ID() string { return t.JobID + "_" + strconv.Itoa(t.Index) }

// OK is a task whose benchbook run exited 0 and wrote its notebook.
func (t Task) OK() bool {
	if t.ExitCode != 0 || t.Notebook == "" {
		return false
	}
	_, err := os.Stat(t.Notebook)
	return err == nil
}

// prepare makes the paths absolute, fills the defaults and checks them.
func prepare(opt Options) (Options, error) {
	var err error
	if opt.Notebook == "" || opt.Out == "" {
		return opt, errors.New("fleet: a notebook and an output folder (-o DIR) are needed")
	}
	if opt.Notebook, err = filepath.Abs(opt.Notebook); err != nil {
		return opt, err
	}
	if _, err := os.Stat(opt.Notebook); err != nil {
		return opt, fmt.Errorf("fleet: the notebook: %w", err)
	}
	if opt.Out, err = filepath.Abs(opt.Out); err != nil {
		return opt, err
	}
	if opt.Benchbook == "" {
		if opt.Benchbook, err = os.Executable(); err != nil {
			return opt, fmt.Errorf("fleet: which benchbook the tasks run: %w", err)
		}
	}
	if opt.Nodes == 0 {
		opt.Nodes = 2
		if len(opt.Constraints) > 0 {
			opt.Nodes = 1
		}
	}
	if opt.Nodes < 1 {
		return opt, fmt.Errorf("fleet: --nodes %d: at least 1", opt.Nodes)
	}
	if opt.Poll == 0 {
		opt.Poll = 2 * time.Second
	}
	if opt.Progress == nil {
		opt.Progress = io.Discard
	}
	return opt, nil
}

// PlainCommands are the commands that do what Run does without Slurm: one
// benchbook run on each machine, then compare.
func PlainCommands(opt Options) string {
	opt, _ = prepare(opt)
	var b strings.Builder
	fmt.Fprintf(&b, "On each machine (%s on a file system they all see, or copied there and back):\n", opt.Notebook)
	fmt.Fprintf(&b, "  %s run %s -o %s/$(hostname -s).ipynb%s\n", shellQuote(opt.Benchbook), shellQuote(opt.Notebook), shellQuote(opt.Out), argsText(opt.Run))
	fmt.Fprintf(&b, "then, anywhere:\n  %s compare --nway %s/*.ipynb\n", shellQuote(opt.Benchbook), shellQuote(opt.Out))
	return b.String()
}

func argsText(args []string) string {
	var s string
	for _, a := range args {
		s += " " + shellQuote(a)
	}
	return s
}

// shellQuote quotes s for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// HaveSlurm reports whether sbatch is on PATH.
func HaveSlurm() bool {
	_, err := exec.LookPath("sbatch")
	return err == nil
}
