package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/fleet"
)

const fleetUsage = "fleet: benchbook fleet NOTEBOOK.ipynb -o DIR [--nodes N] [--constraint C ...] [--shared] [--benchbook PATH] [--run-arg ARG ...] [sbatch arguments ...] [-- sbatch arguments ...]"

// parseFleetArgs reads benchbook fleet's arguments: the notebook is the
// first that is no flag; -o, --nodes, --constraint (repeatable), --shared,
// --benchbook and --run-arg (repeatable, for benchbook run) are fleet's;
// every other argument, and all after "--", goes to sbatch (a flag's value
// may follow it: --partition debug).
func parseFleetArgs(args []string) (fleet.Options, error) {
	var o fleet.Options
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		next := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value; %s", name, fleetUsage)
			}
			i++
			return args[i], nil
		}
		var err error
		switch name {
		case "-o", "--o", "--out":
			o.Out, err = next()
		case "--nodes", "-nodes", "-N":
			var v string
			if v, err = next(); err == nil {
				if o.Nodes, err = strconv.Atoi(v); err != nil || o.Nodes < 1 {
					err = fmt.Errorf("--nodes %s: a number of nodes, at least 1", v)
				}
			}
		case "--constraint", "-constraint", "-C":
			var v string
			if v, err = next(); err == nil {
				o.Constraints = append(o.Constraints, v)
			}
		case "--shared":
			o.Shared = true
		case "--benchbook":
			o.Benchbook, err = next()
		case "--run-arg":
			var v string
			if v, err = next(); err == nil {
				o.Run = append(o.Run, v)
			}
		case "--":
			o.Sbatch = append(o.Sbatch, args[i+1:]...)
			i = len(args)
		default:
			switch {
			case strings.HasPrefix(a, "-"):
				o.Sbatch = append(o.Sbatch, a)
				if !hasVal && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && o.Notebook != "" {
					i++
					o.Sbatch = append(o.Sbatch, args[i])
				}
			case o.Notebook == "":
				o.Notebook = a
			default:
				err = fmt.Errorf("a second notebook %q; %s", a, fleetUsage)
			}
		}
		if err != nil {
			return o, err
		}
	}
	if o.Notebook == "" || o.Out == "" {
		return o, errors.New(fleetUsage)
	}
	return o, nil
}

// cmdFleet runs the notebook on Slurm nodes (fleet.Run), reports every
// task and the log of each that failed, then compares the notebooks N
// ways (verified first), writing DIR/compare.json and DIR/compare.png
// too. Exit status 1 when a task failed or fewer than two notebooks came
// back; without Slurm it says so and prints the plain commands.
func cmdFleet(args []string, stdout, stderr io.Writer) error {
	opt, err := parseFleetArgs(args)
	if err != nil {
		return err
	}
	if !fleet.HaveSlurm() {
		fmt.Fprintf(stderr, "benchbook fleet: %v. Without Slurm the same is:\n%s", fleet.ErrNoSlurm, fleet.PlainCommands(opt))
		return exitCode(1)
	}
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return fmt.Errorf("fleet: %w", err)
	}
	opt.Progress = stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	tasks, err := fleet.Run(ctx, opt)
	if err != nil {
		return err
	}
	var notebooks []string
	failed := 0
	for _, t := range tasks {
		where := ""
		if t.Node != "" {
			where = " on " + t.Node
		}
		if t.OK() {
			fmt.Fprintf(stdout, "task %s%s: %s, wrote %s\n", t.ID(), where, t.State, t.Notebook)
			notebooks = append(notebooks, t.Notebook)
			continue
		}
		failed++
		why := fmt.Sprintf("benchbook run exited %d", t.ExitCode)
		if t.ExitCode < 0 {
			why = "it never finished (killed, cancelled, or its node failed)"
		}
		fmt.Fprintf(stdout, "task %s%s FAILED: %s, state %s; its log %s ends:\n", t.ID(), where, why, t.State, t.Log)
		for _, l := range strings.Split(fleet.LogTail(t, 20), "\n") {
			fmt.Fprintln(stdout, "    "+l)
		}
	}
	if len(notebooks) < 2 {
		fmt.Fprintf(stdout, "fleet: %d executed notebooks came back, too few to compare\n", len(notebooks))
		return exitCode(1)
	}
	fmt.Fprintln(stdout)
	cmpArgs := append([]string{"--nway", "--plot", filepath.Join(opt.Out, "compare.png")}, notebooks...)
	if err := cmdCompare(cmpArgs, stdout, stderr); err != nil {
		return err
	}
	if f, err := os.Create(filepath.Join(opt.Out, "compare.json")); err == nil {
		err = cmdCompare(append([]string{"--json", "--no-verify"}, notebooks...), f, io.Discard)
		f.Close()
		if err != nil {
			return err
		}
	}
	if failed > 0 {
		return exitCode(1)
	}
	return nil
}
