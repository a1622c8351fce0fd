package report

import (
	"fmt"
	"html"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/display"
)

// verdictColor is the colour of a verdict word in the HTML headline.
var verdictColor = map[string]string{
	result.VerdictSlower: "#b00020", result.VerdictFaster: "#1b7f3b", result.VerdictDead: "#b00020",
	result.VerdictHollow: "#b05a00", result.VerdictUndefined: "#b05a00",
}

// HeadlineText is the headline of a result as text: one line per variant
// (bench.Headline), then where its raw records are.
func HeadlineText(r *result.Result) string {
	return headlineText(findings.Headline(r), rawOf(r))
}

// HeadlineBundle is the headline as the first output of %bench: text, and
// HTML with each line's variant in bold and its verdict word coloured. The
// HTML uses only what the classic Notebook keeps in an untrusted output
// (<b>, <font color>, <div>).
func HeadlineBundle(r *result.Result) map[string]any {
	return headlineBundle(findings.Headline(r), rawOf(r))
}

// SweepHeadlineBundle is the headline of a sweep (bench.SweepHeadline), the
// first output of its %bench, as HeadlineBundle writes a result's: the
// raw line names the first point's folder, beside which the others are.
func SweepHeadlineBundle(rs []*result.Result) map[string]any {
	raw := ""
	if len(rs) > 0 && rs[0].RawFile != "" {
		raw = fmt.Sprintf("raw records and %s of each point in %s ...", result.ResultFile, rs[0].RawFile)
	}
	return headlineBundle(findings.SweepHeadline(rs), raw)
}

func rawOf(r *result.Result) string {
	if r.RawFile == "" {
		return ""
	}
	return rawFileLine(r)
}

func headlineText(lines []findings.HeadlineLine, raw string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	if raw != "" {
		b.WriteString(raw + "\n")
	}
	return b.String()
}

func headlineBundle(lines []findings.HeadlineLine, raw string) map[string]any {
	var h strings.Builder
	h.WriteString(`<div class="benchbook-headline" style="font-family:monospace;font-size:13px">`)
	for _, l := range lines {
		if l.Variant == "" {
			fmt.Fprintf(&h, `<div><font color="#444">%s</font></div>`, html.EscapeString(l.Text))
			continue
		}
		name, rest, _ := strings.Cut(l.Text, ": ")
		rest = html.EscapeString(rest)
		if c, ok := verdictColor[l.Verdict]; ok {
			for _, w := range []string{"slower", "faster", "undefined", "DEAD", "HOLLOW"} {
				if i := strings.Index(rest, w); i >= 0 {
					rest = rest[:i] + `<font color="` + c + `"><b>` + w + `</b></font>` + rest[i+len(w):]
					break
				}
			}
		}
		fmt.Fprintf(&h, "<div><b>%s</b>: %s</div>", html.EscapeString(name), rest)
	}
	if raw != "" {
		fmt.Fprintf(&h, `<div><font color="#666">%s</font></div>`, html.EscapeString(raw))
	}
	h.WriteString("</div>")
	return map[string]any{display.MIMEText: headlineText(lines, raw), display.MIMEHTML: h.String()}
}

// rawFileLine says where the raw records and the result are: "raw records
// and result.json in DIR", or, when result.json could not be written, that
// it was not and why.
func rawFileLine(r *result.Result) string {
	if r.ResultNotWritten != "" {
		return fmt.Sprintf("raw records in %s; %s was NOT written: %s", r.RawFile, result.ResultFile, r.ResultNotWritten)
	}
	return fmt.Sprintf("raw records and %s in %s", result.ResultFile, r.RawFile)
}
