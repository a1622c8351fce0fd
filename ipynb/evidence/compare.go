package evidence

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/stdlib/report"
)

// located is a decoded result and where it was found.
type located struct {
	ipynb.Found
	r      *protocol.Result
	failed string // why, for a run that failed before it measured anything
}

// Input is a notebook to compare and what it is called in the comparison:
// its file, as the command was given it ("out/investigation.ipynb").
type Input struct {
	Name     string
	Notebook *ipynb.Notebook
}

// Compare sets the results of notebook b beside those of notebook a, each
// named by its Input.Name.
// Results pair by kernel name and order of appearance: the second result of
// kernel "seed" in a with the second of "seed" in b. For each
// pair it writes a heading and report.CompareAs(a's, b's).Text(): first
// what differs between the two runs (machine, compiler, flags, source, the
// assembly of each variant, protocol, load and clock), then the ratio of the
// medians of each series judged against the run-to-run floor (two notebooks
// are two runs: nothing is called significant), and the conditions side by
// side, in lines of at most 100 runes; then it names the results present in
// one notebook only. A result that does not match result.schema.json (an
// empty variants list, a missing field) is refused before anything is
// compared (ErrMalformedResult); a result that cannot be read,
// or two notebooks without a single result between them, is an error.
// Compare does not verify its inputs: benchbook compare verifies each first.
func Compare(a, b Input, w io.Writer) error {
	_, err := CompareHeadlines(a, b, w)
	return err
}

// CompareHeadlines is Compare, and it returns the headlines of every pair
// (for --fail-on slower).
func CompareHeadlines(a, b Input, w io.Writer) ([]report.CompareHeadline, error) {
	names := [2]string{a.Name, b.Name}
	for i, def := range []string{"the first notebook", "the second notebook"} {
		if names[i] == "" || names[0] == names[1] && i == 1 {
			names[i] = def
		}
	}
	as, err := decodeAll(a.Notebook, names[0])
	if err != nil {
		return nil, err
	}
	bs, err := decodeAll(b.Notebook, names[1])
	if err != nil {
		return nil, err
	}
	if len(as) == 0 && len(bs) == 0 {
		return nil, fmt.Errorf("%w: neither notebook holds a result to compare", ErrNoResults)
	}
	pairs, onlyA, onlyB := pair(as, bs)
	var out strings.Builder
	var heads []report.CompareHeadline
	for _, p := range pairs {
		fmt.Fprintf(&out, "== %s: %s %s, %s %s\n", p[0].r.Kernel.Name, names[0], p[0].Where(), names[1], p[1].Where())
		if p[0].failed != "" || p[1].failed != "" {
			for i := range p {
				if p[i].failed != "" {
					fmt.Fprintf(&out, "in %s %s: nothing to compare\n", names[i], failedNote(p[i].failed))
				}
			}
			out.WriteString("\n")
			continue
		}
		d := report.CompareAs(p[0].r, p[1].r, names[0], names[1])
		heads = append(heads, d.Headlines...)
		out.WriteString(d.Text())
		out.WriteString("\n")
	}
	for i, only := range [][]located{onlyA, onlyB} {
		for _, l := range only {
			fmt.Fprintf(&out, "%s (%s %s): only in %s\n", l.r.Kernel.Name, names[i], l.Where(), names[i])
		}
	}
	_, err = io.WriteString(w, out.String())
	return heads, err
}

// ErrMalformedResult is returned (wrapped) by Compare when a result does
// not match result.schema.json; the message names the notebook, the cell
// and the field.
var ErrMalformedResult = errors.New("malformed result")

// decodeAll checks every result of nb against the schema and decodes it;
// name names the notebook in errors.
func decodeAll(nb *ipynb.Notebook, name string) ([]located, error) {
	var out []located
	for _, f := range ipynb.Results(nb) {
		failed, err := checkSchema(f.Value) // a run that failed before it measured is not malformed
		if err != nil {
			return nil, fmt.Errorf("%w: %s, %s: %s", ErrMalformedResult, name, f.Where(), schemaError(err))
		}
		r, err := ipynb.DecodeResult(f.Value)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: the result cannot be read: %w", name, f.Where(), err)
		}
		out = append(out, located{Found: f, r: r, failed: failed})
	}
	return out, nil
}

// pair matches the k-th result of each kernel name on one side with the k-th
// of that name on the other, in the order of the first notebook.
func pair(pubs, reruns []located) (pairs [][2]located, onlyPub, onlyRerun []located) {
	byName := map[string][]int{}
	for i, l := range reruns {
		byName[l.r.Kernel.Name] = append(byName[l.r.Kernel.Name], i)
	}
	used := make([]bool, len(reruns))
	for _, l := range pubs {
		queue := byName[l.r.Kernel.Name]
		if len(queue) == 0 {
			onlyPub = append(onlyPub, l)
			continue
		}
		byName[l.r.Kernel.Name] = queue[1:]
		used[queue[0]] = true
		pairs = append(pairs, [2]located{l, reruns[queue[0]]})
	}
	for i, l := range reruns {
		if !used[i] {
			onlyRerun = append(onlyRerun, l)
		}
	}
	return pairs, onlyPub, onlyRerun
}
