package evidence

import (
	"fmt"
	"slices"
	"strings"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// sweepPoints are the results of nb's outputs that belong to the sweep id,
// decoded as stored, in point order.
func sweepPoints(nb *ipynb.Notebook, id string) []*protocol.Result {
	var rs []*protocol.Result
	for _, f := range ipynb.Results(nb) {
		r, err := ipynb.DecodeResult(f.Value)
		if err == nil && r.Sweep != nil && r.Sweep.ID == id {
			rs = append(rs, r)
		}
	}
	slices.SortStableFunc(rs, func(a, b *protocol.Result) int { return a.Sweep.Index - b.Sweep.Index })
	return rs
}

// checkSweep recomputes what a sweep point holds beyond its own samples:
// its working set from every point's parameter values and static data
// (sweep.WorkingSet: the fit, or bytes=EXPR), its elements, and, on the
// point that carries the sweep's summary, the prediction's ratio of
// medians, interval and verdict from the two points' samples.
func checkSweep(nb *ipynb.Notebook, r *protocol.Result) []string {
	sp := r.Sweep
	if sp == nil {
		return nil
	}
	rs := sweepPoints(nb, sp.ID)
	var sum *protocol.SweepSummary
	for _, p := range rs {
		if p.Sweep.Summary != nil {
			sum = p.Sweep.Summary
		}
	}
	if sum == nil || len(sum.Axes) == 0 {
		return []string{fmt.Sprintf("sweep %s: no point carries the sweep's summary (its axes)", sp.ID)}
	}
	var problems []string
	if len(rs) != sp.Of {
		problems = append(problems, fmt.Sprintf("sweep %s: %d points in the notebook, the sweep has %d", sp.ID, len(rs), sp.Of))
	}
	params := make([]string, len(sum.Axes))
	for j, a := range sum.Axes {
		params[j] = a.Param
	}
	pts := make([][]int64, len(rs))
	sections := make([]int64, len(rs))
	self := -1
	for i, p := range rs {
		pts[i], sections[i] = protocol.PointValues(p.Sweep, sum.Axes), p.Sweep.SectionBytes
		if p.Sweep.Index == sp.Index {
			self = i
		}
	}
	var expr *protocol.BytesExpr
	if e, ok := strings.CutPrefix(sp.BytesRule, "bytes="); ok {
		x, err := protocol.ParseBytesExpr(e)
		if err != nil {
			return append(problems, fmt.Sprintf("sweep point %s: bytes rule %q: %v", protocol.PointLabel(r), sp.BytesRule, err))
		}
		expr = x
	}
	if self >= 0 && len(rs) >= 2 {
		bytes, rule, err := protocol.WorkingSet(pts, params, sections, expr)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("sweep point %s: working set: %v", protocol.PointLabel(r), err))
		case (bytes[self] == nil) != (sp.Bytes == nil) || bytes[self] != nil && *bytes[self] != *sp.Bytes:
			problems = append(problems, fmt.Sprintf("sweep point %s: bytes is %s, the points' values and static data give %s (%s)",
				protocol.PointLabel(r), bytesText(sp.Bytes), bytesText(bytes[self]), rule))
		}
	}
	if e := r.Protocol.Elements; e == nil || *e != sp.Elements {
		problems = append(problems, fmt.Sprintf("sweep point %s: elements is %d, the protocol's is %v", protocol.PointLabel(r), sp.Elements, r.Protocol.Elements))
	}
	if sp.Summary == nil || sp.Summary.Prediction == nil || sp.Summary.Prediction.Observed == nil {
		return problems
	}
	p := sp.Summary.Prediction
	again := *p
	if err := again.JudgeSweep(rs, sum.Axes, sum.Variant); err != nil {
		return append(problems, fmt.Sprintf("sweep prediction %q: %v", p.Text, err))
	}
	if s := floatFields(fmt.Sprintf("sweep prediction %q", p.Text), []field{{"observed", *p.Observed, *again.Observed},
		{"ci_low", *p.CILow, *again.CILow}, {"ci_high", *p.CIHigh, *again.CIHigh}}); s != "" {
		problems = append(problems, s)
	} else if p.Verdict != again.Verdict {
		problems = append(problems, fmt.Sprintf("sweep prediction %q: verdict is %q, the samples say %q", p.Text, p.Verdict, again.Verdict))
	}
	return problems
}

func bytesText(b *int64) string {
	if b == nil {
		return "null"
	}
	return fmt.Sprint(*b)
}

// checkSweepRendered checks a sweep point's output against what it renders
// (report.SweepPoint) and, on the point with the sweep's summary, the
// sweep's commentary (report.SweepCommentary of its points), the next
// Markdown output after it.
func checkSweepRendered(nb *ipynb.Notebook, f ipynb.Found, r *protocol.Result) []string {
	var problems []string
	out := nb.Cells[f.Cell].Outputs[f.Output]
	want := report.SweepPoint(r)
	for _, mime := range []string{display.MIMEText, display.MIMEHTML} {
		if p := sameText(fmt.Sprintf("cell %d output %d %s", f.Cell, f.Output, mime), out.Data[mime], want[mime], mime); p != "" {
			problems = append(problems, p)
		}
	}
	if r.Sweep.Summary == nil {
		return problems
	}
	cell := nb.Cells[f.Cell]
	rs := sweepPoints(nb, r.Sweep.ID)
	if role := report.RoleOf(out.Metadata); role != "" && role != report.RoleResult {
		problems = append(problems, fmt.Sprintf("cell %d output %d holds a sweep point but has the role %q", f.Cell, f.Output, role))
	}
	var j int
	if roles := outputRoles(cell); len(roles) > 0 {
		// Found by role: one headline, the cell's first output, and one
		// commentary.
		for _, role := range []string{report.RoleHeadline, report.RoleCommentary} {
			if n := len(roles[role]); n != 1 {
				return append(problems, fmt.Sprintf("cell %d: %d outputs have the role %s, want one", f.Cell, n, role))
			}
		}
		h := roles[report.RoleHeadline][0]
		if h != 0 {
			problems = append(problems, fmt.Sprintf("cell %d: the sweep's headline is output %d, not the first", f.Cell, h))
		}
		want := report.SweepHeadlineBundle(rs)
		for _, mime := range []string{display.MIMEText, display.MIMEHTML} {
			if p := sameText(fmt.Sprintf("cell %d output %d %s (sweep headline)", f.Cell, h, mime), cell.Outputs[h].Data[mime], want[mime], mime); p != "" {
				problems = append(problems, p)
			}
		}
		j = roles[report.RoleCommentary][0]
	} else {
		// Notebooks written before outputs carried their role: the
		// commentary follows the last point.
		var ok bool
		if j, ok = commentaryAfter(cell, f.Output); !ok {
			return append(problems, fmt.Sprintf("cell %d: no sweep commentary (a text/markdown output) follows the last point", f.Cell))
		}
	}
	c := report.SweepCommentary(rs)
	for _, mime := range []string{display.MIMEMarkdown, display.MIMEText} {
		if p := sameText(fmt.Sprintf("cell %d output %d %s (sweep commentary)", f.Cell, j, mime), nb.Cells[f.Cell].Outputs[j].Data[mime], c[mime], mime); p != "" {
			problems = append(problems, p)
		}
	}
	return problems
}
