package fleet

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// taskScript is what each array task runs: benchbook run on its node,
// writing OUT/<host>.ipynb, or OUT/<host>-<job>_<task>.ipynb when another
// task of the fleet already ran on that host (a small cluster, or one node
// given twice); then its exit status, name and host in a status file,
// which a killed task never writes.
const taskScript = `#!/bin/sh
# Written by benchbook fleet: one task of an array runs the notebook on
# this node. Arguments: benchbook, the notebook, the output folder, then
# arguments for benchbook run.
bb=$1 nb=$2 out=$3
shift 3
host=$(hostname -s)
task="${SLURM_ARRAY_JOB_ID:-0}_${SLURM_ARRAY_TASK_ID:-0}"
mkdir -p "$out/.fleet/claims" "$out/.fleet/status"
name=$host
if ! mkdir "$out/.fleet/claims/$name" 2>/dev/null; then name="$host-$task"; fi
echo "benchbook fleet: task $task on $host writes $out/$name.ipynb"
"$bb" run "$nb" -o "$out/$name.ipynb" "$@"
rc=$?
printf '%s %s %s\n' "$rc" "$name" "$host" >"$out/.fleet/status/$task"
exit $rc
`

// finalStates are the Slurm job states a task does not leave.
var finalStates = []string{"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "OUT_OF_MEMORY",
	"BOOT_FAIL", "DEADLINE", "SPECIAL_EXIT", "REVOKED"}

func isFinal(state string) bool {
	return slices.Contains(finalStates, strings.Fields(state + " x")[0])
}

// SbatchArgs are the arguments of one array's sbatch: the array, one node
// and task each, --exclusive unless shared, the log, the constraint, the
// caller's further arguments, then the script and its arguments.
func SbatchArgs(opt Options, constraint, script string) []string {
	args := []string{"--parsable", "--job-name=benchbook-fleet", fmt.Sprintf("--array=0-%d", opt.Nodes-1),
		"--nodes=1", "--ntasks=1", "--output=" + filepath.Join(opt.Out, ".fleet", "logs", "%A_%a.log")}
	if !opt.Shared {
		args = append(args, "--exclusive")
	}
	if constraint != "" {
		args = append(args, "--constraint="+constraint)
	}
	args = append(args, opt.Sbatch...)
	args = append(args, script, opt.Benchbook, opt.Notebook, opt.Out)
	return append(args, opt.Run...)
}

// Run submits the arrays, waits for every task to end, and returns them,
// each with its state, node, exit status, notebook and log. A cancelled
// ctx cancels the jobs (scancel). It fails only when nothing could be
// submitted or waited for; tasks that failed are in the list (Task.OK).
func Run(ctx context.Context, opt Options) ([]Task, error) {
	opt, err := prepare(opt)
	if err != nil {
		return nil, err
	}
	if !HaveSlurm() {
		return nil, ErrNoSlurm
	}
	meta := filepath.Join(opt.Out, ".fleet")
	if err := os.RemoveAll(meta); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(meta, "logs"), 0o755); err != nil {
		return nil, fmt.Errorf("fleet: %w", err)
	}
	script := filepath.Join(meta, "task.sh")
	if err := os.WriteFile(script, []byte(taskScript), 0o755); err != nil {
		return nil, fmt.Errorf("fleet: %w", err)
	}
	constraints := opt.Constraints
	if len(constraints) == 0 {
		constraints = []string{""}
	}
	var tasks []Task
	var jobs []string
	for a, c := range constraints {
		args := SbatchArgs(opt, c, script)
		fmt.Fprintf(opt.Progress, "fleet: sbatch %s\n", strings.Join(quoteAll(args), " "))
		out, err := exec.CommandContext(ctx, "sbatch", args...).CombinedOutput()
		if err != nil {
			cancel(jobs, opt)
			return nil, fmt.Errorf("fleet: sbatch failed: %w: %s", err, strings.TrimSpace(string(out)))
		}
		job := strings.TrimSpace(strings.SplitN(strings.TrimSpace(string(out)), ";", 2)[0])
		if _, err := strconv.Atoi(job); err != nil {
			cancel(jobs, opt)
			return nil, fmt.Errorf("fleet: sbatch said %q, not a job id", strings.TrimSpace(string(out)))
		}
		jobs = append(jobs, job)
		fmt.Fprintf(opt.Progress, "fleet: job %s: %d tasks%s\n", job, opt.Nodes, map[bool]string{true: ", constraint " + c, false: ""}[c != ""])
		for i := range opt.Nodes {
			tasks = append(tasks, Task{Array: a, Constraint: c, JobID: job, Index: i, State: "SUBMITTED", ExitCode: -1,
				Log: filepath.Join(meta, "logs", fmt.Sprintf("%s_%d.log", job, i))})
		}
	}
	if err := wait(ctx, opt, jobs, tasks); err != nil {
		cancel(jobs, opt)
		return tasks, err
	}
	finish(opt, jobs, tasks)
	return tasks, nil
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = shellQuote(a)
	}
	return out
}

// cancel cancels the jobs submitted so far.
func cancel(jobs []string, opt Options) {
	if len(jobs) == 0 {
		return
	}
	fmt.Fprintf(opt.Progress, "fleet: scancel %s\n", strings.Join(jobs, " "))
	_ = exec.Command("scancel", jobs...).Run()
}

// wait polls squeue until every task is in a final state or gone from
// the queue, and says each change of a task's state or node.
func wait(ctx context.Context, opt Options, jobs []string, tasks []Task) error {
	start := time.Now()
	seen := map[string]bool{}
	for {
		rows, err := squeue(ctx, jobs)
		if err != nil {
			return err
		}
		done := true
		for i := range tasks {
			t := &tasks[i]
			r, ok := rows[t.ID()]
			if !ok {
				// Gone from the queue: ended and purged, or not yet
				// expanded (a pending array shows as one line).
				if pending, ok := rows[t.JobID+"_pending"]; ok && !seen[t.ID()] {
					r = pending
				} else if seen[t.ID()] || len(rows) == 0 {
					if !isFinal(t.State) {
						t.State = "ENDED"
					}
					continue
				} else {
					done = false
					continue
				}
			}
			seen[t.ID()] = true
			if r.state != t.State || (r.node != "" && r.node != t.Node) {
				t.State = r.state
				if r.node != "" && !strings.HasPrefix(r.node, "(") {
					t.Node = r.node
				}
				fmt.Fprintf(opt.Progress, "fleet: %6.0fs  task %s: %s%s\n", time.Since(start).Seconds(), t.ID(), t.State, nodeText(t.Node))
			}
			if !isFinal(t.State) {
				done = false
			}
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(opt.Poll):
		}
	}
}

func nodeText(n string) string {
	if n == "" {
		return ""
	}
	return " on " + n
}

type queueRow struct{ state, node string }

// squeue lists the tasks of jobs in any state (squeue -r --states=all),
// by JOBID_INDEX; a pending array that squeue did not expand is listed as
// JOBID_pending.
func squeue(ctx context.Context, jobs []string) (map[string]queueRow, error) {
	cmd := exec.CommandContext(ctx, "squeue", "-h", "-r", "--states=all", "-j", strings.Join(jobs, ","), "-o", "%i|%T|%N")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	rows := map[string]queueRow{}
	if err != nil {
		// squeue refuses ids it no longer knows: the jobs ended and were purged.
		if strings.Contains(stderr.String(), "Invalid job id") {
			return rows, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("fleet: squeue failed: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(strings.TrimSpace(sc.Text()), "|")
		if len(f) < 3 {
			continue
		}
		id := f[0]
		if strings.Contains(id, "_[") {
			id = strings.SplitN(id, "_", 2)[0] + "_pending"
		}
		rows[id] = queueRow{state: f[1], node: f[2]}
	}
	return rows, nil
}

// finish reads each task's status file (its exit status and notebook)
// and, where sacct answers, its final state and node.
func finish(opt Options, jobs []string, tasks []Task) {
	acct := sacct(jobs)
	for i := range tasks {
		t := &tasks[i]
		if a, ok := acct[t.ID()]; ok {
			t.State = a.state
			if a.node != "" && a.node != "None assigned" {
				t.Node = a.node
			}
		}
		b, err := os.ReadFile(filepath.Join(opt.Out, ".fleet", "status", t.ID()))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 3 {
			continue
		}
		if rc, err := strconv.Atoi(f[0]); err == nil {
			t.ExitCode = rc
		}
		t.Notebook = filepath.Join(opt.Out, f[1]+".ipynb")
		if t.Node == "" {
			t.Node = f[2]
		}
	}
}

// sacct is the final state and node of each task, where Slurm keeps
// accounting; nil where it does not (sacct fails without slurmdbd or a
// job completion log).
func sacct(jobs []string) map[string]queueRow {
	out, err := exec.Command("sacct", "-n", "-P", "-X", "-j", strings.Join(jobs, ","), "-o", "JobID,State,NodeList").Output()
	if err != nil {
		return nil
	}
	rows := map[string]queueRow{}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Split(strings.TrimSpace(l), "|")
		if len(f) == 3 && strings.Contains(f[0], "_") {
			rows[f[0]] = queueRow{state: strings.Fields(f[1] + " x")[0], node: f[2]}
		}
	}
	return rows
}

// LogTail is the last n lines of a task's log, for a report of a failure.
func LogTail(t Task, n int) string {
	b, err := os.ReadFile(t.Log)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("... %d lines before", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
