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

// BaselineBundle shows before/after measured in one run: what changed in
// the build, one sentence per verdict, and the table of every variant and
// series, all from r.Baseline.
func BaselineBundle(r *result.Result) map[string]any {
	head, lines := BaselineText(r)
	t := baselineTable(r)
	text := head + "\n" + strings.Join(lines, "\n") + "\n\n" + t.text()
	var h strings.Builder
	fmt.Fprintf(&h, `<div class="benchbook-baseline" style="font-family:sans-serif"><p><b>Before / after, measured in one run.</b> %s</p><ul style="font-size:12px">`,
		html.EscapeString(head))
	for _, l := range lines {
		fmt.Fprintf(&h, "<li>%s</li>", html.EscapeString(l))
	}
	h.WriteString("</ul>" + t.html() + "</div>")
	return map[string]any{display.MIMEHTML: h.String(), display.MIMEText: text}
}

// BaselineText is the lead sentence of a same-run before/after and one line
// per variant and series with its verdict: the baseline sentences of
// bench.Sentences, the same ones the commentary shows.
func BaselineText(r *result.Result) (head string, lines []string) {
	names := map[string]bool{}
	for _, v := range r.Variants {
		names[v.Name] = true
	}
	for _, s := range findings.Sentences(r) {
		if s.Topic != findings.TopicBaseline {
			continue
		}
		if s.Kind == "" {
			head = sentence(s.Text, names)
		} else {
			lines = append(lines, s.Text)
		}
	}
	return head, lines
}

func baselineTable(r *result.Result) *table {
	side, base, ratio := "new", "previous", result.RatioName(r)
	if a, b, ok := strings.Cut(ratio, "/"); ok && r.Control != nil {
		side, base = a, b
	}
	t := &table{head: []string{"variant / series", "median " + base, "median " + side, ratio, "typical", "95% interval", "p (Holm)", "n eff", "verdict"}}
	for _, e := range r.Baseline.Variants {
		now := r.Summary(e.Name, e.Series)
		prev := result.NewSamples(e.SamplesNS)
		pm := 0.0
		if prev != nil {
			pm = prev.Summary.Median
		}
		iv, p := "-", "-"
		if e.Verdict != result.VerdictUndefined {
			iv = numtext.FormatInterval(e.CILow, e.CIHigh)
			p = fmt.Sprintf("%.3g", e.PAdjusted)
		}
		t.add(e.Name+" / "+strings.ReplaceAll(e.Series, "_", "-"), ns(pm), ns(now.Median), numtext.FormatRatio(e.Ratio), numtext.FormatRatio(e.Shift), iv, p,
			fmt.Sprintf("%.0f", e.NEff), e.Verdict)
	}
	return t
}
