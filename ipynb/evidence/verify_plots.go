package evidence

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/plot"
)

// plotCheck is what checkPlots found of a cell's plots.
type plotCheck struct {
	checked, unchecked int
	problems           []string
}

// note is "5 plots drawn again, the same pixels" and, when some could not
// be drawn from the cell's results, how many were left unchecked.
func (p plotCheck) note() string {
	if p.checked+p.unchecked == 0 {
		return ""
	}
	s := ipynb.Plural(p.checked, "plot") + " drawn again from the samples, byte for byte the same"
	if p.unchecked > 0 {
		s += fmt.Sprintf("; %s unchecked (drawn against a result this cell does not hold)", ipynb.Plural(p.unchecked, "plot"))
	}
	return s
}

// checkPlots draws again every plot the results of a %bench cell give
// (plot.All of each result and its overlays against its baseline, or the
// sweep's plot), which are deterministic (jitter is seeded), and compares
// each stored image/png with the figure of the same title byte for byte: a
// swapped or edited picture is a mismatch that names the output. A stored
// plot no result of the cell draws (an overlay against a result of an
// earlier cell) is counted unchecked. A cell without plots draws none.
func checkPlots(nb *ipynb.Notebook, cell int, rs []*protocol.Result) plotCheck {
	if !slices.ContainsFunc(nb.Cells[cell].Outputs, func(o *ipynb.Output) bool { _, ok := o.Data[display.MIMEPNG]; return ok }) {
		return plotCheck{}
	}
	var figs []*plot.Figure
	if len(rs) > 0 && rs[0].Sweep != nil {
		if f, err := plot.Sweep(rs); err == nil {
			figs = append(figs, f)
		}
	} else {
		for _, r := range rs {
			if before := r.BaselineResult(); r.Baseline != nil && before != nil {
				for _, v := range r.Variants {
					if before.Variant(v.Name) == nil || v.Dead {
						continue
					}
					if f, err := plot.Overlay(before, r, v.Name); err == nil {
						figs = append(figs, f)
					}
				}
			}
			figs = append(figs, plot.All(r)...)
		}
	}
	drawn := map[string]*plot.Figure{}
	for _, f := range figs {
		if len(f.PNG) > 0 {
			drawn[f.Title] = f
		}
	}
	var pc plotCheck
	for j, o := range nb.Cells[cell].Outputs {
		s, ok := o.Data[display.MIMEPNG]
		if !ok {
			continue
		}
		title := ipynb.Text(o.Data[display.MIMEText])
		f, ok := drawn[title]
		if !ok {
			pc.unchecked++
			continue
		}
		stored, err := base64.StdEncoding.DecodeString(strings.TrimSpace(ipynb.Text(s)))
		if err != nil {
			pc.problems = append(pc.problems, fmt.Sprintf("cell %d output %d image/png (plot %s): not base64: %v", cell, j, excerpt(title, ""), err))
			continue
		}
		if got, want := sha256.Sum256(stored), sha256.Sum256(f.PNG); got != want {
			pc.problems = append(pc.problems, fmt.Sprintf("cell %d output %d image/png (plot %s): the picture (sha256 %x) is not what the samples draw (%x)",
				cell, j, excerpt(title, ""), got[:6], want[:6]))
			continue
		}
		pc.checked++
	}
	return pc
}
