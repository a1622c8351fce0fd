package evidence

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// checkRendered renders again, from the result's JSON, what readers see of
// it (the text/html and text/plain tables of report.Result and, after a
// %bench, the commentary of report.CommentaryBundle) and compares it with
// what the notebook stores (and the before/after table of
// report.BaselineBundle when the result has a baseline): a number changed in a table or a sentence, but
// not in the JSON, is a mismatch that names the output and the first line
// that differs.
func checkRendered(nb *ipynb.Notebook, f ipynb.Found, r *protocol.Result) []string {
	if r.Sweep != nil {
		return checkSweepRendered(nb, f, r)
	}
	var problems []string
	cell := nb.Cells[f.Cell]
	same := func(j int, what string, want map[string]any, mimes ...string) {
		for _, mime := range mimes {
			where := fmt.Sprintf("cell %d output %d %s", f.Cell, j, mime)
			if what != "" {
				where += " (" + what + ")"
			}
			if p := sameText(where, cell.Outputs[j].Data[mime], want[mime], mime); p != "" {
				problems = append(problems, p)
			}
		}
	}
	same(f.Output, "", report.Result(r), display.MIMEText, display.MIMEHTML)
	if !isBenchCell(cell) {
		return problems
	}
	if roles := outputRoles(cell); len(roles) > 0 {
		return append(problems, checkRoles(f, cell, roles, r, same)...)
	}
	// Notebooks written before outputs carried their role: the commentary
	// follows the result, the before/after table its commentary.
	j, ok := commentaryAfter(cell, f.Output)
	if !ok {
		return append(problems, fmt.Sprintf("cell %d: no commentary (a text/markdown output) follows the result", f.Cell))
	}
	same(j, "commentary", report.CommentaryBundle(r), display.MIMEMarkdown, display.MIMEText)
	if r.Baseline == nil {
		return problems
	}
	k, ok := baselineAfter(cell, j)
	if !ok {
		return append(problems, fmt.Sprintf("cell %d: the result has a baseline, but no before/after table follows its commentary", f.Cell))
	}
	same(k, "before/after", report.BaselineBundle(r), display.MIMEText, display.MIMEHTML)
	return problems
}

// outputRoles maps each role a cell's outputs carry (report.Role) to the
// outputs that carry it.
func outputRoles(c *ipynb.Cell) map[string][]int {
	roles := map[string][]int{}
	for i, o := range c.Outputs {
		if role := report.RoleOf(o.Metadata); role != "" {
			roles[role] = append(roles[role], i)
		}
	}
	return roles
}

// checkRoles holds the outputs of a %bench cell to what the result renders,
// each found by its role: one headline (the cell's first output), one
// commentary, and one before/after when the result has a baseline; the
// outputs that hold the result's JSON carry the role "result".
func checkRoles(f ipynb.Found, c *ipynb.Cell, roles map[string][]int, r *protocol.Result, same func(int, string, map[string]any, ...string)) []string {
	var problems []string
	one := func(role string) (int, bool) {
		switch n := len(roles[role]); {
		case n == 1:
			return roles[role][0], true
		case n == 0:
			problems = append(problems, fmt.Sprintf("cell %d: no output has the role %s", f.Cell, role))
		default:
			problems = append(problems, fmt.Sprintf("cell %d: %d outputs have the role %s", f.Cell, n, role))
		}
		return 0, false
	}
	if report.RoleOf(c.Outputs[f.Output].Metadata) != report.RoleResult {
		problems = append(problems, fmt.Sprintf("cell %d output %d holds the result but has the role %q", f.Cell, f.Output, report.RoleOf(c.Outputs[f.Output].Metadata)))
	}
	if j, ok := one(report.RoleHeadline); ok {
		if j != 0 {
			problems = append(problems, fmt.Sprintf("cell %d: the headline is output %d, not the first", f.Cell, j))
		}
		same(j, "headline", report.HeadlineBundle(r), display.MIMEText, display.MIMEHTML)
	}
	if j, ok := one(report.RoleCommentary); ok {
		same(j, "commentary", report.CommentaryBundle(r), display.MIMEText, display.MIMEHTML, display.MIMEMarkdown)
	}
	if r.Baseline != nil {
		if j, ok := one(report.RoleBaseline); ok {
			same(j, "before/after", report.BaselineBundle(r), display.MIMEText, display.MIMEHTML)
		}
	} else if n := len(roles[report.RoleBaseline]); n > 0 {
		problems = append(problems, fmt.Sprintf("cell %d: a before/after table, but the result has no baseline", f.Cell))
	}
	return problems
}

// baselineClass marks the HTML of report.BaselineBundle.
const baselineClass = `<div class="benchbook-baseline"`

// baselineAfter finds the before/after table (report.BaselineBundle) after
// output i, before the next result.
func baselineAfter(c *ipynb.Cell, i int) (int, bool) {
	for j := i + 1; j < len(c.Outputs); j++ {
		if _, ok := c.Outputs[j].Data[display.MIMEResult]; ok {
			return 0, false
		}
		if strings.HasPrefix(ipynb.Text(c.Outputs[j].Data[display.MIMEHTML]), baselineClass) {
			return j, true
		}
	}
	return 0, false
}

// isBenchCell says whether a cell's first line is a %bench magic, whose
// result is followed by its commentary.
func isBenchCell(c *ipynb.Cell) bool {
	return strings.HasPrefix(strings.TrimSpace(c.Source), "%bench ") || strings.TrimSpace(c.Source) == "%bench"
}

// commentaryAfter finds the first text/markdown output after output i.
func commentaryAfter(c *ipynb.Cell, i int) (int, bool) {
	for j := i + 1; j < len(c.Outputs); j++ {
		if _, ok := c.Outputs[j].Data[display.MIMEResult]; ok {
			return 0, false // the next result: this one had none
		}
		if _, ok := c.Outputs[j].Data[display.MIMEMarkdown]; ok {
			return j, true
		}
	}
	return 0, false
}

// sameText compares a stored entry with the rendered one and describes the
// first line that differs, or returns "".
func sameText(where string, stored, rendered any, mime string) string {
	got, want := ipynb.Text(stored), ipynb.Text(rendered)
	if got == want {
		return ""
	}
	split := strings.SplitAfter
	if mime == display.MIMEHTML {
		split = htmlLines
	}
	gl, wl := split(got, "\n"), split(want, "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return fmt.Sprintf("%s line %d is %s, the result's JSON renders %s", where, i+1, excerpt(g, w), excerpt(w, g))
		}
	}
	return where + " differs from what the result's JSON renders"
}

// htmlLines splits an HTML fragment after each closing tag of a row, list
// item or paragraph, the lines a reader sees; sep is ignored.
func htmlLines(s, _ string) []string {
	var out []string
	for s != "" {
		i := -1
		for _, tag := range []string{"</tr>", "</li>", "</p>", "</thead>"} {
			if k := strings.Index(s, tag); k >= 0 && (i < 0 || k+len(tag) < i) {
				i = k + len(tag)
			}
		}
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// excerpt quotes a of at most 80 characters around where it first differs
// from b ("(nothing)" when a is empty).
func excerpt(a, b string) string {
	if a == "" {
		return "(nothing)"
	}
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	start := max(0, k-30)
	for start > 0 && !utf8.RuneStart(a[start]) {
		start--
	}
	end := min(len(a), start+80)
	for end < len(a) && !utf8.RuneStart(a[end]) {
		end++
	}
	q := a[start:end]
	if start > 0 {
		q = "…" + q
	}
	if end < len(a) {
		q += "…"
	}
	return fmt.Sprintf("%q", strings.TrimRight(q, "\n"))
}
