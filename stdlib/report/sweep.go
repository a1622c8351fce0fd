package report

import (
	"fmt"
	"html"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/display"
)

// SweepPoint is the compact output of one point of a sweep: one table row
// per measured variant (median and spread of each series, time per
// element) with the result+json entry, in place of the full tables and
// plots a %bench shows for one result.
func SweepPoint(r *result.Result) map[string]any {
	t := &table{head: []string{"point", "variant", "series", "n", "median", "min", "max", "cv", "per element"}}
	label := result.PointLabel(r)
	if r.Sweep != nil && r.Sweep.Bytes != nil {
		label += fmt.Sprintf(" (%sB)", numtext.FormatBytes(*r.Sweep.Bytes))
	}
	for _, v := range r.Variants {
		for _, name := range []string{"interleaved", "fresh"} {
			s := v.Get(name)
			if s == nil {
				continue
			}
			per := ""
			if r.Sweep != nil && r.Sweep.Elements > 0 {
				per = numtext.FormatNS(s.Summary.Median / float64(r.Sweep.Elements))
			}
			t.add(label, v.Name, name, fmt.Sprint(s.Summary.N), numtext.FormatNS(s.Summary.Median), numtext.FormatNS(s.Summary.Min),
				numtext.FormatNS(s.Summary.Max), fmt.Sprintf("%.1f%%", s.Summary.CVPct), per)
		}
	}
	var h, txt strings.Builder
	h.WriteString(t.html())
	txt.WriteString(t.text())
	for _, l := range checksumLines(r) {
		h.WriteString("<div>" + html.EscapeString(l) + "</div>")
		txt.WriteString(l + "\n")
	}
	if r.Partial {
		l := "partial: " + r.Error
		h.WriteString("<div>" + html.EscapeString(l) + "</div>")
		txt.WriteString(l + "\n")
	}
	return map[string]any{display.MIMEHTML: h.String(), display.MIMEText: txt.String(), display.MIMEResult: r}
}

// SweepCommentary is the commentary of a whole sweep: the sweep sentences
// bench.SweepSentences writes, as one paragraph.
func SweepCommentary(rs []*result.Result) map[string]any {
	names := map[string]bool{}
	if len(rs) > 0 {
		for _, v := range rs[0].Variants {
			names[v.Name] = true
		}
	}
	var ss []string
	for _, s := range findings.SweepSentences(rs) {
		ss = append(ss, sentence(s.Text, names))
	}
	md := "**Sweep.** " + strings.Join(ss, " ")
	return map[string]any{display.MIMEMarkdown: md, display.MIMEText: md}
}
