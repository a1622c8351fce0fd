package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/ipynb/evidence"
	"github.com/benchbook/benchbook/stdlib/plot"
	"github.com/benchbook/benchbook/stdlib/report"
)

const compareUsage = "compare: benchbook compare A.ipynb B.ipynb [C.ipynb ...] [--ref A] [--nway] [--json] [--plot FILE.png] [--fail-on slower] [--no-verify]"

// compareArgs are the arguments of benchbook compare.
type compareArgs struct {
	notebooks []string
	ref       string
	nway      bool
	json      bool
	plot      string
	failOn    string
	noVerify  bool
}

func parseCompareArgs(args []string) (compareArgs, error) {
	var c compareArgs
	value := func(i *int, name string) (string, error) {
		a := args[*i]
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, nil
		}
		if *i+1 >= len(args) {
			return "", fmt.Errorf("%s needs a value; %s", name, compareUsage)
		}
		*i++
		return args[*i], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := strings.SplitN(a, "=", 2)[0]
		var err error
		switch "-" + strings.TrimLeft(name, "-") {
		case "-ref":
			c.ref, err = value(&i, name)
		case "-plot":
			c.plot, err = value(&i, name)
		case "-fail-on":
			c.failOn, err = value(&i, name)
			if err == nil && c.failOn != "slower" {
				err = fmt.Errorf("--fail-on %s: the one condition is slower (--fail-on slower)", c.failOn)
			}
		case "-nway":
			c.nway = true
		case "-json":
			c.json = true
		case "-no-verify":
			c.noVerify = true
		default:
			if strings.HasPrefix(a, "-") {
				return c, fmt.Errorf("unknown flag %s; %s", a, compareUsage)
			}
			c.notebooks = append(c.notebooks, a)
		}
		if err != nil {
			return c, err
		}
	}
	if len(c.notebooks) < 2 {
		return c, errors.New(compareUsage)
	}
	return c, nil
}

// machineLabels names each notebook by its file name without .ipynb
// (benchbook fleet writes DIR/<host>.ipynb), by its path where two names
// are alike.
func machineLabels(paths []string) []string {
	labels := make([]string, len(paths))
	count := map[string]int{}
	for i, p := range paths {
		labels[i] = strings.TrimSuffix(filepath.Base(p), ".ipynb")
		count[labels[i]]++
	}
	for i, p := range paths {
		if count[labels[i]] > 1 {
			labels[i] = strings.TrimSuffix(p, ".ipynb")
		}
	}
	seen := map[string]int{}
	for i := range labels { // the same file twice: a, a (2)
		seen[labels[i]]++
		if n := seen[labels[i]]; n > 1 {
			labels[i] += fmt.Sprintf(" (%d)", n)
		}
	}
	return labels
}

// cmdCompare compares executed notebooks. Two, without --nway, get the
// rerun table (the first against the second, each named by its file); three or more, or --nway, the
// N-way comparison against --ref (the first by default). Every input is
// verified first (benchbook verify): evidence that does not verify is
// refused, unless --no-verify. --fail-on slower exits 1 when a headline
// says slower.
func cmdCompare(args []string, stdout, stderr io.Writer) error {
	c, err := parseCompareArgs(args)
	if err != nil {
		return err
	}
	nbs := make([]*ipynb.Notebook, len(c.notebooks))
	for i, p := range c.notebooks {
		if nbs[i], err = ipynb.ReadFile(p); err != nil {
			return err
		}
	}
	verified := "The inputs were not verified (--no-verify)"
	if !c.noVerify {
		if err := verifyAll(c.notebooks, nbs, stderr); err != nil {
			return err
		}
		verified = "Every input verified first (benchbook verify recomputed its summaries, comparisons and text)"
	}
	labels := machineLabels(c.notebooks)
	ref := 0
	if c.ref != "" {
		ref = -1
		for i, l := range labels {
			if c.ref == l || c.ref == c.notebooks[i] || c.ref == strconv.Itoa(i+1) {
				ref = i
			}
		}
		if ref < 0 {
			return fmt.Errorf("compare: --ref %s is none of %s (a label, a path, or a number from 1)", c.ref, strings.Join(labels, ", "))
		}
	}
	var heads []report.CompareHeadline
	if len(nbs) == 2 && !c.nway && !c.json && c.plot == "" {
		a, b := evidence.Input{Name: c.notebooks[0], Notebook: nbs[0]}, evidence.Input{Name: c.notebooks[1], Notebook: nbs[1]}
		if ref == 1 {
			a, b = b, a
		}
		if heads, err = evidence.CompareHeadlines(a, b, stdout); err != nil {
			return err
		}
		fmt.Fprintln(stdout, verified+".")
	} else {
		res, err := evidence.CompareN(evidence.Machines{Labels: labels, Notebooks: nbs, Ref: ref})
		if err != nil {
			return err
		}
		heads = res.Headlines()
		if c.json {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(res); err != nil {
				return err
			}
		} else {
			fmt.Fprint(stdout, res.Text())
			fmt.Fprintln(stdout, verified+".")
		}
		if c.plot != "" {
			if err := writeMachinesPlot(c.plot, res); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "compare: the dot plot of the medians per machine is in %s\n", c.plot)
		}
	}
	if c.failOn == "slower" && report.AnySlower(heads) {
		fmt.Fprintln(stderr, "compare: a headline says slower (--fail-on slower)")
		return exitCode(1)
	}
	return nil
}

// verifyAll verifies every notebook and refuses one that does not verify,
// with what verify said of it.
func verifyAll(paths []string, nbs []*ipynb.Notebook, stderr io.Writer) error {
	for i, nb := range nbs {
		var out bytes.Buffer
		ok, err := evidence.Verify(nb, &out)
		if err != nil {
			return fmt.Errorf("compare: %s cannot be verified: %w", paths[i], err)
		}
		if !ok {
			stderr.Write(out.Bytes())
			return fmt.Errorf("compare: %s does not verify (above: what benchbook verify found); compare refuses evidence that does not verify (--no-verify compares anyway)", paths[i])
		}
	}
	return nil
}

// writeMachinesPlot draws the first kernel's medians per machine
// (plot.Machines), each variant's headline series.
func writeMachinesPlot(path string, res evidence.NWayResult) error {
	if len(res.Kernels) == 0 {
		return errors.New("compare --plot: no kernel was compared on two machines")
	}
	var pngs [][]byte
	for _, n := range res.Kernels {
		labels := make([]string, len(n.Machines))
		for i, m := range n.Machines {
			labels[i] = m.Label
		}
		var series []plot.MachineSeries
		for _, row := range headlineRowsOf(n) {
			if row.Dead {
				continue // a ratio of clock reads: not compared
			}
			s := plot.MachineSeries{Variant: row.Variant + " / " + row.Series}
			for _, c := range row.Cells {
				s.Points = append(s.Points, plot.MachinePoint{Median: c.MedianNS, Low: c.LowNS, High: c.HighNS})
			}
			series = append(series, s)
		}
		f, err := plot.Machines(fmt.Sprintf("%s on %d machines", n.Kernel, len(labels)), labels, n.Ref, series)
		if err != nil {
			return fmt.Errorf("compare --plot, %s: %w", n.Kernel, err)
		}
		pngs = append(pngs, f.PNG)
	}
	if err := os.WriteFile(path, pngs[0], 0o644); err != nil {
		return err
	}
	for i := 1; i < len(pngs); i++ { // one file per further kernel: NAME-2.png, ...
		p := strings.TrimSuffix(path, ".png") + "-" + strconv.Itoa(i+1) + ".png"
		if err := os.WriteFile(p, pngs[i], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// headlineRowsOf are the rows each headline was read from.
func headlineRowsOf(n report.NWay) []report.NWayRow {
	var out []report.NWayRow
	for _, h := range n.Headlines {
		for _, r := range n.Rows {
			if r.Variant == h.Variant && (r.Series == h.Series || h.Series == "") {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// cmdFingerprint measures this machine's fingerprint and prints it, or
// with --json its JSON form (as a result's conditions.fingerprint holds
// it). --cpu N pins the measurement.
func cmdFingerprint(args []string, stdout io.Writer) error {
	opt := machine.FingerprintOptions{CPU: -1}
	asJSON := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--json" || a == "-json":
			asJSON = true
		case (a == "--cpu" || a == "-cpu") && i+1 < len(args):
			n, err := strconv.Atoi(args[i+1])
			if err != nil {
				return fmt.Errorf("fingerprint: --cpu %s: %w", args[i+1], err)
			}
			if err := machine.CheckCPU(n); err != nil {
				return fmt.Errorf("fingerprint: --cpu %d: %w", n, err)
			}
			opt.CPU = n
			i++
		default:
			return fmt.Errorf("fingerprint: unknown argument %q (benchbook fingerprint [--cpu N] [--json])", a)
		}
	}
	f := machine.MeasureFingerprint(opt)
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(f)
	}
	_, err := fmt.Fprintln(stdout, strings.Join(f.Lines(), "\n"))
	return err
}
