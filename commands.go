package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/benchbook/benchbook/internal/procs"

	"github.com/benchbook/benchbook/cells"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/ipynb/evidence"
	"github.com/benchbook/benchbook/kernel"
)

func cmdInstall(args []string, stdout io.Writer) error {
	mode, prefix := "user", ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--user" || a == "--sys-prefix":
			mode = strings.TrimPrefix(a, "--")
		case a == "--prefix" && i+1 < len(args):
			mode, prefix = "prefix", args[i+1]
			i++
		case strings.HasPrefix(a, "--prefix="):
			mode, prefix = "prefix", strings.TrimPrefix(a, "--prefix=")
		default:
			return fmt.Errorf("install: unknown argument %q (want --user, --sys-prefix or --prefix DIR)", a)
		}
	}
	dir, err := kernel.SpecDir(mode, prefix)
	if err != nil {
		return fmt.Errorf("install: %w", err)
	}
	tools, found := toolPath()
	var env map[string]string
	if tools != "" {
		env = map[string]string{toolPathVar: tools}
	}
	if err := kernel.InstallSpec(dir, kernel.Spec{Logos: logos(), Env: env}); err != nil {
		return fmt.Errorf("install: %w", err)
	}
	fmt.Fprintf(stdout, "installed the kernelspec %q in %s\n", kernel.KernelName, dir)
	for _, f := range found {
		fmt.Fprintln(stdout, f)
	}
	return nil
}

// toolPathVar names, in the kernelspec's env, the folders of the toolchains
// benchbook install found; the kernel puts them first on its PATH, so that
// a client started with another PATH (a desktop launcher, a Jupyter server
// run as a service) still finds the same go and cc.
const toolPathVar = "BENCHBOOK_TOOLPATH"

// toolPath finds go, cc (or $CC) and objdump on PATH and returns their
// folders, and a line per tool for the user.
func toolPath() (string, []string) {
	var dirs, lines []string
	for _, tool := range []string{"go", cmpOr(os.Getenv("CC"), "cc"), "objdump"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			lines = append(lines, fmt.Sprintf("  %s: not found on PATH (scripts/setup.sh installs it)", tool))
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		lines = append(lines, fmt.Sprintf("  %s: %s", tool, p))
		if d := filepath.Dir(p); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return strings.Join(dirs, string(os.PathListSeparator)), lines
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// useToolPath puts the folders the kernelspec recorded first on PATH.
func useToolPath() {
	if tp := os.Getenv(toolPathVar); tp != "" {
		os.Setenv("PATH", tp+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
}

func cmdKernel(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("kernel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	conn := fs.String("f", "", "the connection file Jupyter wrote")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *conn == "" {
		return errors.New("kernel: -f CONNECTION_FILE is required")
	}
	useToolPath()
	killOrphans(stderr)
	root, err := procs.BecomeRoot()
	if err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	defer root.Stop() // every process started for the kernel, !cmd & too
	s, err := cells.New(cells.Options{Quick: quick()})
	if err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	defer s.Close()
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	// A kernel that jupyter_client started lives in a session of its own:
	// when the console or server that started it is killed, nothing else
	// ends it (issue 23 item 10). As ipykernel, it exits when its parent
	// goes.
	ctx, stop := procs.ParentWatch(context.Background(), time.Second)
	defer stop()
	err = kernel.Run(ctx, *conn, engine{s: s, dir: wd}, stderr)
	if cause := context.Cause(ctx); errors.Is(cause, procs.ErrParentGone) {
		fmt.Fprintf(stderr, "benchbook kernel: %v: shutting down\n", cause)
	}
	return err
}

// runEngine adapts a cells.Session to the notebook runner.
type runEngine struct{ *cells.Session }

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the executed notebook (default NOTEBOOK.executed.ipynb)")
	htmlOut := fs.String("html", "", "also write one self-contained HTML page")
	allow := fs.Bool("allow-errors", false, "run every cell even after one fails")
	failOn := fs.String("fail-on", "", "exit 1 when a before/after headline says this: slower, faster or differ (for CI)")
	in, flagArgs := splitPositional(args)
	if err := fs.Parse(flagArgs); err != nil {
		return err
	}
	if in == "" {
		return errors.New("run: which notebook? benchbook run NOTEBOOK.ipynb [-o OUT.ipynb] [--html OUT.html] [--allow-errors] [--fail-on slower]")
	}
	if _, ok := ipynb.FailOn[*failOn]; *failOn != "" && !ok {
		return fmt.Errorf("run: --fail-on %s: want slower, faster or differ", *failOn)
	}
	nb, err := ipynb.ReadFile(in)
	if err != nil {
		return err
	}
	if *out == "" {
		*out = strings.TrimSuffix(in, ".ipynb") + ".executed.ipynb"
	}
	killOrphans(stderr)
	root, err := procs.BecomeRoot()
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	defer root.Stop() // every process started for the run, !cmd & too
	unlock, err := lockOutput(*out)
	if err != nil {
		return err
	}
	defer unlock()
	dir, err := filepath.Abs(filepath.Dir(in))
	if err != nil {
		return err
	}
	s, err := cells.New(cells.Options{Dir: dir, Quick: quick()})
	if err != nil {
		return err
	}
	defer s.Close()
	// SIGINT, SIGTERM (a scheduler's, a container's stop) and SIGHUP stop
	// the cell that runs; the notebook so far is written below.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// The outputs so far go to a file beside out after every cell, and out
	// is written once, at the end: until then it is the previous copy, which
	// a cell may be reading (a rerun compared with the copy it replaces).
	partial := partialPath(*out)
	fmt.Fprintf(stderr, "benchbook run: the outputs so far are saved to %s after every cell; it becomes %s when the run ends\n", partial, *out)
	runErr := ipynb.Execute(ctx, nb, runEngine{s}, ipynb.RunOptions{AllowErrors: *allow, Progress: stderr, Quick: quick(),
		Version: version, Dir: dir, Command: "benchbook run " + strings.Join(args, " "),
		Checkpoint: func(nb *ipynb.Notebook) error { return ipynb.WriteFile(partial, nb) }})
	if err := ipynb.WriteFile(*out, nb); err != nil {
		return err
	}
	_ = os.Remove(partial)
	fmt.Fprintf(stdout, "executed notebook: %s\n", *out)
	if *htmlOut != "" {
		page, err := ipynb.HTML(nb)
		if err != nil {
			return err
		}
		if err := ipynb.WriteAtomic(*htmlOut, page); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "HTML: %s\n", *htmlOut)
	}
	if runErr == nil && *failOn != "" {
		if hits := ipynb.Flagged(nb, ipynb.FailOn[*failOn]); len(hits) > 0 {
			return fmt.Errorf("--fail-on %s: %d before/after verdicts say so:\n  %s", *failOn, len(hits), strings.Join(hits, "\n  "))
		}
	}
	return runErr
}

// partialPath is where benchbook run keeps the outputs so far of a run
// that writes out: NAME.partial.ipynb beside it.
func partialPath(out string) string {
	return strings.TrimSuffix(out, ".ipynb") + ".partial.ipynb"
}

// killOrphans kills what the processes of a benchbook that was killed left
// behind (procs.KillOrphans) and says so.
func killOrphans(stderr io.Writer) {
	if pids := procs.KillOrphans(); len(pids) > 0 {
		fmt.Fprintf(stderr, "benchbook: killed %d processes left behind by a benchbook that was killed: %v\n", len(pids), pids)
	}
}

// lockOutput makes sure only one benchbook run writes out at a time: two
// runs of one notebook would write the same executed notebook, and the last
// would silently replace the other's. The lock is flock(2) on a hidden file
// beside out (procs.LockFile: a link or another user's file there is
// refused), so it goes with a run that is killed; the file is removed when
// the run ends, and by the run's guard when it is killed.
func lockOutput(out string) (func(), error) {
	name := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".lock")
	unlock, err := procs.LockFile(name)
	if errors.Is(err, procs.ErrLocked) {
		return nil, fmt.Errorf("run: another benchbook run is writing %s (%s is locked): wait for it, or give this one -o OTHER.ipynb", out, name)
	}
	if err != nil {
		return nil, fmt.Errorf("run: lock file: %w", err)
	}
	return unlock, nil
}

// splitPositional takes the first argument that is not a flag (or a flag's
// value) as the notebook, so flags may come before or after it.
func splitPositional(args []string) (string, []string) {
	valued := map[string]bool{"-o": true, "--o": true, "-html": true, "--html": true}
	var rest []string
	pos := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case valued[a] && i+1 < len(args):
			rest = append(rest, a, args[i+1])
			i++
		case strings.HasPrefix(a, "-"):
			rest = append(rest, a)
		case pos == "":
			pos = a
		default:
			rest = append(rest, a)
		}
	}
	return pos, rest
}

func cmdVerify(args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		return errors.New("verify: benchbook verify EXECUTED.ipynb")
	}
	nb, err := ipynb.ReadFile(args[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%s: %s; verified by benchbook %s\n", args[0], ipynb.Provenance(nb), version)
	ok, err := evidence.Verify(nb, stdout)
	if err != nil {
		return fmt.Errorf("verify %s: %w", args[0], err)
	}
	if !ok {
		return exitCode(1)
	}
	return nil
}

// cmdRecover rebuilds the result of a %bench run that was killed, from the
// raw records in its folder, writes it there and says what it holds.
func cmdRecover(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return errors.New("recover: benchbook recover RESULTS_FOLDER (the folder a %bench run named when it started)")
	}
	r, err := protocol.Recover(args[0])
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, recoverSummary(r))
	return nil
}

// recoverSummary is one line: the kernel, and per variant how many samples
// of each series were recovered.
func recoverSummary(r *protocol.Result) string {
	var parts []string
	for _, v := range r.Variants {
		var series []string
		for _, name := range protocol.SeriesNames {
			if s := v.Get(name); s != nil {
				series = append(series, fmt.Sprintf("%s n=%d", name, len(s.SamplesNS)))
			}
		}
		if len(series) == 0 {
			series = []string{"no samples"}
		}
		parts = append(parts, v.Name+": "+strings.Join(series, ", "))
	}
	return fmt.Sprintf("recovered %s (partial): %s; written to %s", r.Kernel.Name, strings.Join(parts, "; "),
		filepath.Join(r.RawFile, protocol.ResultFile))
}

// quick is BENCHBOOK_QUICK=1: every %bench runs as a smoke test.
func quick() bool { return os.Getenv("BENCHBOOK_QUICK") == "1" }
