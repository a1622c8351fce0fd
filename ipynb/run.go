package ipynb

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// Engine executes one cell: label names it in messages ("Cell[3]"), outputs go
// to pub while it runs, and the returned bundle (nil for none) is its
// execute_result. cells.Session implements it.
type Engine interface {
	Execute(ctx context.Context, label, code string, pub display.Publisher) (map[string]any, error)
}

// ExecError is implemented by engine errors that carry what Jupyter shows of
// a failed cell: the error output's ename, evalue and traceback.
type ExecError interface {
	ExecError() (name, value string, traceback []string)
}

// RunOptions configure Execute.
type RunOptions struct {
	// AllowErrors runs the remaining cells after a failed one.
	AllowErrors bool
	// Progress receives one line per cell; nil means none.
	Progress io.Writer
	// Version and Command go into the notebook's "benchbook" metadata: the
	// benchbook version and the command line that ran the notebook.
	Version string
	Command string
	// Quick records in the metadata that every %bench ran quick
	// (BENCHBOOK_QUICK=1): verify says so on each result.
	Quick bool
	// Now is the clock of the executed_at stamp; nil means time.Now.
	Now func() time.Time
	// Dir is the notebook's folder, where its cells run: absolute paths
	// under it are stored relative to it in every output (a result's
	// raw_file, the progress line, tables), so that the executed notebook
	// carries no folder of this machine. "" keeps paths as they are.
	Dir string
	// Checkpoint, if set, is called with the notebook after every cell,
	// failed or not (benchbook run writes the output file there), so that
	// the outputs so far are on disk even if the process running the cells
	// dies. Its error is reported on Progress and the run goes on.
	Checkpoint func(nb *Notebook) error
}

// CellError is the error of Execute when a cell failed.
type CellError struct {
	Index     int    // cell index in the notebook
	FirstLine string // the cell's first source line
	Name      string // ename of its error output
	Value     string // evalue
}

// Error says which cell failed (index and first line) and how.
func (e *CellError) Error() string {
	return fmt.Sprintf("cell %d (%s) failed: %s: %s", e.Index, e.FirstLine, e.Name, e.Value)
}

// Execute runs every non-empty code cell of nb in order through eng, with
// label "Cell[N]" where N is its execution count (1, 2, ...), and keeps its
// outputs as Jupyter clients do (see the Publisher methods of the collector).
// Outputs and counts from an earlier run are cleared first; markdown and raw
// cells are kept as they are, empty code cells are skipped. A failing cell
// gets an error output and stops the run (later cells keep no outputs and
// null counts) and Execute returns its *CellError, unless opt.AllowErrors:
// then every cell runs and only a cancelled ctx is an error. The notebook's metadata is stamped with the
// kernelspec, language_info (unless present) and a "benchbook" entry.
func Execute(ctx context.Context, nb *Notebook, eng Engine, opt RunOptions) error {
	stamp(nb, opt)
	var todo []int
	for i, c := range nb.Cells {
		if c.Type == CodeCell {
			c.Outputs, c.ExecutionCount = nil, nil
			if strings.TrimSpace(c.Source) != "" {
				todo = append(todo, i)
			}
		}
	}
	st := &runState{nb: nb, dir: opt.Dir}
	for k, idx := range todo {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("run stopped before cell %d: %w", idx, err)
		}
		ce := st.runCell(ctx, eng, idx, k+1, len(todo), opt.Progress)
		checkpoint(nb, opt)
		if ce != nil && !opt.AllowErrors {
			return ce
		}
	}
	return ctx.Err()
}

// checkpoint hands the notebook as run so far to opt.Checkpoint.
func checkpoint(nb *Notebook, opt RunOptions) {
	if opt.Checkpoint == nil {
		return
	}
	if err := opt.Checkpoint(nb); err != nil && opt.Progress != nil {
		fmt.Fprintf(opt.Progress, "could not save the notebook so far: %v\n", err)
	}
}

// runCell executes cell idx as the n-th of total, and returns its failure.
func (st *runState) runCell(ctx context.Context, eng Engine, idx, n, total int, progress io.Writer) *CellError {
	c := st.nb.Cells[idx]
	c.ExecutionCount = &n
	first := firstLine(c.Source)
	if progress != nil {
		fmt.Fprintf(progress, "[%d/%d] cell %d: %s ... ", n, total, idx, first)
	}
	start := time.Now()
	pub := st.begin(idx)
	res, err := call(ctx, eng, fmt.Sprintf("Cell[%d]", n), c.Source, pub)
	st.end(res, err, n)
	took := time.Since(start)
	if err == nil {
		if progress != nil {
			fmt.Fprintf(progress, "ok in %s\n", seconds(took))
			printHeadlines(progress, c)
		}
		return nil
	}
	if progress != nil {
		defer printHeadlines(progress, c)
	}
	name, value, _ := errorParts(err)
	if progress != nil {
		fmt.Fprintf(progress, "FAILED in %s: %s: %s\n", seconds(took), name, firstLine(value))
	}
	return &CellError{Index: idx, FirstLine: first, Name: name, Value: value}
}

// call runs the engine, turning a panic into an error with its stack.
func call(ctx context.Context, eng Engine, label, code string, pub display.Publisher) (res map[string]any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, &panicError{value: fmt.Sprint(p), stack: string(debug.Stack())}
		}
	}()
	return eng.Execute(ctx, label, code, pub)
}

// panicError is a panic of the engine, shown as a cell error.
type panicError struct{ value, stack string }

func (p *panicError) Error() string { return "panic: " + p.value }

// ExecError implements ExecError.
func (p *panicError) ExecError() (string, string, []string) {
	return "panic", p.value, strings.Split(strings.TrimRight(p.stack, "\n"), "\n")
}

// errorParts is what an error output shows of err.
func errorParts(err error) (name, value string, traceback []string) {
	if ee, ok := err.(ExecError); ok {
		name, value, traceback = ee.ExecError()
	} else {
		name, value, traceback = "Error", err.Error(), []string{err.Error()}
	}
	if traceback == nil {
		traceback = []string{}
	}
	return name, value, traceback
}

// stamp writes the kernelspec and language_info (unless present) and the
// "benchbook" entry into the notebook metadata: the version, the command
// (with paths under opt.Dir made relative to it) and the time.
func stamp(nb *Notebook, opt RunOptions) {
	if nb.Metadata == nil {
		nb.Metadata = map[string]any{}
	}
	if _, ok := nb.Metadata["kernelspec"]; !ok {
		nb.Metadata["kernelspec"] = map[string]any{"name": "benchbook", "display_name": "Go (benchbook)", "language": "go"}
	}
	if _, ok := nb.Metadata["language_info"]; !ok {
		nb.Metadata["language_info"] = map[string]any{"name": "go", "file_extension": ".go", "mimetype": "text/x-go",
			"pygments_lexer": "go", "codemirror_mode": "go"}
	}
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	nb.Metadata["benchbook"] = map[string]any{"version": opt.Version, "command": RelativePaths(opt.Command, opt.Dir),
		"executed_at": now().UTC().Format(time.RFC3339)}
	if opt.Quick {
		nb.Metadata["benchbook"].(map[string]any)["quick"] = true
	}
}

// firstLine is the first non-blank line of src, shortened to 60 characters.
func firstLine(src string) string {
	for _, l := range strings.Split(src, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if utf8.RuneCountInString(l) > 60 {
				l = string([]rune(l)[:59]) + "…"
			}
			return l
		}
	}
	return ""
}

// seconds formats a duration for progress lines: 4.2s, 0.03s.
func seconds(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// printHeadlines writes the headline of each %bench of cell c (the
// outputs of role headline), indented, so that a console run shows the
// answer as the notebook does.
func printHeadlines(w io.Writer, c *Cell) {
	for _, o := range c.Outputs {
		if report.RoleOf(o.Metadata) != report.RoleHeadline {
			continue
		}
		for _, l := range strings.Split(strings.TrimRight(Text(o.Data[display.MIMEText]), "\n"), "\n") {
			if l != "" && !strings.HasPrefix(l, "raw records") {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
	}
}

// FailOn is what --fail-on names: the headline verdicts of a before/after
// measured in one run that make benchbook run (or compare) exit non-zero.
var FailOn = map[string][]string{
	"slower": {result.VerdictSlower},
	"faster": {result.VerdictFaster},
	"differ": {result.VerdictSlower, result.VerdictFaster},
}

// Flagged is the headline of every variant of the notebook's results whose
// before/after verdict (Baseline.Verdicts) is one of verdicts, with where
// it is: "cell 12: sink: 1.25x slower ...".
func Flagged(nb *Notebook, verdicts []string) []string {
	var out []string
	for _, f := range Results(nb) {
		r, err := DecodeResult(f.Value)
		if err != nil || r.Baseline == nil {
			continue
		}
		for _, l := range findings.Headline(r) {
			if l.Variant != "" && slices.Contains(verdicts, l.Verdict) {
				out = append(out, fmt.Sprintf("cell %d: %s", f.Cell, l.Text))
			}
		}
	}
	return out
}

// Provenance says which benchbook executed nb, when and with what command,
// from metadata.benchbook (written by Execute), or that the notebook does
// not say.
func Provenance(nb *Notebook) string {
	m, _ := nb.Metadata["benchbook"].(map[string]any)
	version, _ := m["version"].(string)
	if version == "" {
		return "the notebook does not say which benchbook executed it (metadata.benchbook.version is empty or missing)"
	}
	s := "executed by benchbook " + version
	if at, _ := m["executed_at"].(string); at != "" {
		s += " at " + at
	}
	if cmd, _ := m["command"].(string); cmd != "" {
		s += " (" + cmd + ")"
	}
	return s
}
