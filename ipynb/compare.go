package ipynb

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/benchbook/benchbook/stdlib/bench"
	"github.com/benchbook/benchbook/stdlib/report"
)

// located is a decoded result and where it was found.
type located struct {
	Found
	r      *bench.Result
	failed string // why, for a run that failed before it measured anything
}

// Compare sets the results of a rerun beside those of the published notebook.
// Results pair by kernel name and order of appearance: the second result of
// kernel "seed" in published with the second of "seed" in rerun. For each
// pair it writes a heading and report.Compare(published, rerun).Text(): first
// what differs between the two runs (machine, compiler, flags, source, the
// assembly of each variant, protocol, load and clock), then the ratio of the
// medians of each series judged against the run-to-run floor (two notebooks
// are two runs: nothing is called significant), and the conditions side by
// side, in lines of at most 100 runes; then it names the results present on
// one side only. A result that does not match result.schema.json (an
// empty variants list, a missing field) is refused before anything is
// compared (ErrMalformedResult); a result that cannot be read,
// or two notebooks without a single result between them, is an error.
func Compare(published, rerun *Notebook, w io.Writer) error {
	_, err := CompareHeadlines(published, rerun, w)
	return err
}

// CompareHeadlines is Compare, and it returns the headlines of every pair
// (for --fail-on slower).
func CompareHeadlines(published, rerun *Notebook, w io.Writer) ([]report.CompareHeadline, error) {
	pubs, err := decodeAll(published, "published")
	if err != nil {
		return nil, err
	}
	reruns, err := decodeAll(rerun, "rerun")
	if err != nil {
		return nil, err
	}
	if len(pubs) == 0 && len(reruns) == 0 {
		return nil, fmt.Errorf("%w: neither notebook holds a result to compare", ErrNoResults)
	}
	pairs, onlyPub, onlyRerun := pair(pubs, reruns)
	var b strings.Builder
	var heads []report.CompareHeadline
	for _, p := range pairs {
		fmt.Fprintf(&b, "== %s: published %s, rerun %s\n", p[0].r.Kernel.Name, p[0].Where(), p[1].Where())
		if p[0].failed != "" || p[1].failed != "" {
			for i, side := range []string{"published", "rerun"} {
				if p[i].failed != "" {
					fmt.Fprintf(&b, "in the %s notebook %s: nothing to compare\n", side, failedNote(p[i].failed))
				}
			}
			b.WriteString("\n")
			continue
		}
		d := report.CompareAs(p[0].r, p[1].r, "the published run", "the rerun")
		heads = append(heads, d.Headlines...)
		b.WriteString(d.Text())
		b.WriteString("\n")
	}
	for _, l := range onlyPub {
		fmt.Fprintf(&b, "%s (published %s): only in the published notebook\n", l.r.Kernel.Name, l.Where())
	}
	for _, l := range onlyRerun {
		fmt.Fprintf(&b, "%s (rerun %s): only in the rerun\n", l.r.Kernel.Name, l.Where())
	}
	_, err = io.WriteString(w, b.String())
	return heads, err
}

// ErrMalformedResult is returned (wrapped) by Compare when a result does
// not match result.schema.json; the message names the notebook, the cell
// and the field.
var ErrMalformedResult = errors.New("malformed result")

// decodeAll checks every result of nb against the schema and decodes it;
// side names the notebook in errors.
func decodeAll(nb *Notebook, side string) ([]located, error) {
	var out []located
	for _, f := range Results(nb) {
		failed, err := checkSchema(f.Value) // a run that failed before it measured is not malformed
		if err != nil {
			return nil, fmt.Errorf("%w: %s notebook, %s: %s", ErrMalformedResult, side, f.Where(), schemaError(err))
		}
		r, err := decodeResult(f.Value)
		if err != nil {
			return nil, fmt.Errorf("%s notebook, %s: the result cannot be read: %w", side, f.Where(), err)
		}
		out = append(out, located{Found: f, r: r, failed: failed})
	}
	return out, nil
}

// pair matches the k-th result of each kernel name on one side with the k-th
// of that name on the other, in the order of the published notebook.
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
