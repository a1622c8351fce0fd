package evidence

import (
	"fmt"

	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/stdlib/report"
)

// Machines are executed notebooks of one investigation run on several
// machines, each under a label (its host, or its file name).
type Machines struct {
	Labels    []string
	Notebooks []*ipynb.Notebook
	Ref       int // the reference machine, an index into Labels
}

// NWayResult is the N-way comparison of every kernel the notebooks hold:
// one report.NWay per result that pairs across the notebooks (by kernel
// name and order of appearance, as Compare pairs two), and what did not.
type NWayResult struct {
	Kernels []report.NWay `json:"kernels"`
	// Unpaired names the results found in some notebooks only.
	Unpaired []string `json:"unpaired,omitempty"`
}

// CompareN compares the notebooks result by result: the k-th result of
// kernel K of every notebook together. A result that some notebooks lack
// is compared among those that have it (with at least two, and the
// reference among them) and named in Unpaired otherwise. Every result is
// checked against the schema first (ErrMalformedResult).
func CompareN(m Machines) (NWayResult, error) {
	if len(m.Notebooks) < 2 || len(m.Labels) != len(m.Notebooks) {
		return NWayResult{}, fmt.Errorf("an N-way comparison needs at least two notebooks, each with a label (%d notebooks, %d labels)", len(m.Notebooks), len(m.Labels))
	}
	if m.Ref < 0 || m.Ref >= len(m.Notebooks) {
		return NWayResult{}, fmt.Errorf("the reference %d is not one of the %d notebooks", m.Ref, len(m.Notebooks))
	}
	type key struct {
		name string
		k    int
	}
	per := make([]map[key]located, len(m.Notebooks))
	var order []key
	seen := map[key]bool{}
	total := 0
	others := []int{m.Ref}
	for i := range m.Notebooks {
		if i != m.Ref {
			others = append(others, i)
		}
	}
	for _, i := range others { // the reference first: its order of results leads
		nb := m.Notebooks[i]
		ls, err := decodeAll(nb, m.Labels[i])
		if err != nil {
			return NWayResult{}, err
		}
		total += len(ls)
		per[i] = map[key]located{}
		count := map[string]int{}
		for _, l := range ls {
			k := key{l.r.Kernel.Name, count[l.r.Kernel.Name]}
			count[l.r.Kernel.Name]++
			per[i][k] = l
			if !seen[k] {
				seen[k] = true
				order = append(order, k)
			}
		}
	}
	if total == 0 {
		return NWayResult{}, fmt.Errorf("%w: none of the notebooks holds a result to compare", ErrNoResults)
	}
	var out NWayResult
	for _, k := range order {
		var runs []report.MachineRun
		ref := -1
		var missing []string
		for i := range m.Notebooks {
			l, ok := per[i][k]
			if !ok {
				missing = append(missing, m.Labels[i])
				continue
			}
			if l.failed != "" { // nothing measured to compare (verify_failed.go)
				missing = append(missing, m.Labels[i]+", where "+failedNote(l.failed))
				continue
			}
			if i == m.Ref {
				ref = len(runs)
			}
			runs = append(runs, report.MachineRun{Label: m.Labels[i], Result: l.r})
		}
		label := fmt.Sprintf("%s (result %d of that kernel)", k.name, k.k+1)
		if ref < 0 || len(runs) < 2 {
			out.Unpaired = append(out.Unpaired, fmt.Sprintf("%s: not compared, it is only in %s", label, labelsOf(runs)))
			continue
		}
		n, err := report.CompareN(runs, ref)
		if err != nil {
			return NWayResult{}, fmt.Errorf("%s: %w", label, err)
		}
		if len(missing) > 0 {
			out.Unpaired = append(out.Unpaired, fmt.Sprintf("%s: not in %v", label, missing))
		}
		out.Kernels = append(out.Kernels, n)
	}
	return out, nil
}

func labelsOf(runs []report.MachineRun) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.Label)
	}
	return out
}

// Text is every kernel's comparison, then what was not compared.
func (n NWayResult) Text() string {
	s := ""
	for _, k := range n.Kernels {
		s += "== " + k.Text()
	}
	for _, u := range n.Unpaired {
		s += u + "\n"
	}
	return s
}

// Headlines are the headlines of every kernel, in order.
func (n NWayResult) Headlines() []report.CompareHeadline {
	var out []report.CompareHeadline
	for _, k := range n.Kernels {
		out = append(out, k.Headlines...)
	}
	return out
}
