package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/benchbook/benchbook/cells"
	"github.com/benchbook/benchbook/ipynb"
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
	if err := kernel.InstallSpec(dir, kernel.Spec{Logos: logos()}); err != nil {
		return fmt.Errorf("install: %w", err)
	}
	fmt.Fprintf(stdout, "installed the kernelspec %q in %s\n", kernel.KernelName, dir)
	return nil
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
	s, err := cells.New(cells.Options{Quick: quick()})
	if err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	return kernel.Run(context.Background(), *conn, engine{s}, stderr)
}

// runEngine adapts a cells.Session to the notebook runner.
type runEngine struct{ *cells.Session }

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the executed notebook (default NOTEBOOK.executed.ipynb)")
	htmlOut := fs.String("html", "", "also write one self-contained HTML page")
	allow := fs.Bool("allow-errors", false, "run every cell even after one fails")
	in, flagArgs := splitPositional(args)
	if err := fs.Parse(flagArgs); err != nil {
		return err
	}
	if in == "" {
		return errors.New("run: which notebook? benchbook run NOTEBOOK.ipynb [-o OUT.ipynb] [--html OUT.html] [--allow-errors]")
	}
	nb, err := ipynb.ReadFile(in)
	if err != nil {
		return err
	}
	if *out == "" {
		*out = strings.TrimSuffix(in, ".ipynb") + ".executed.ipynb"
	}
	dir, err := filepath.Abs(filepath.Dir(in))
	if err != nil {
		return err
	}
	s, err := cells.New(cells.Options{Dir: dir, Quick: quick()})
	if err != nil {
		return err
	}
	defer s.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	runErr := ipynb.Execute(ctx, nb, runEngine{s}, ipynb.RunOptions{AllowErrors: *allow, Progress: stderr,
		Command:    "benchbook run " + strings.Join(args, " "),
		Checkpoint: func(nb *ipynb.Notebook) error { return ipynb.WriteFile(*out, nb) }})
	if err := ipynb.WriteFile(*out, nb); err != nil {
		return err
	}
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
	return runErr
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

func cmdVerify(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return errors.New("verify: benchbook verify EXECUTED.ipynb")
	}
	nb, err := ipynb.ReadFile(args[0])
	if err != nil {
		return err
	}
	ok, err := ipynb.Verify(nb, stdout)
	if err != nil {
		return fmt.Errorf("verify %s: %w", args[0], err)
	}
	if !ok {
		return exitCode(1)
	}
	return nil
}

func cmdCompare(args []string, stdout io.Writer) error {
	if len(args) != 2 {
		return errors.New("compare: benchbook compare PUBLISHED.ipynb RERUN.ipynb")
	}
	pub, err := ipynb.ReadFile(args[0])
	if err != nil {
		return err
	}
	re, err := ipynb.ReadFile(args[1])
	if err != nil {
		return err
	}
	return ipynb.Compare(pub, re, stdout)
}

// quick is BENCHBOOK_QUICK=1: every %bench runs as a smoke test.
func quick() bool { return os.Getenv("BENCHBOOK_QUICK") == "1" }
