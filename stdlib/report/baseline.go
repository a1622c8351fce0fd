package report

import (
	"fmt"
	"html"
	"strings"

	"github.com/benchbook/benchbook/stdlib/bench"
	"github.com/benchbook/benchbook/stdlib/display"
)

// BaselineBundle shows before/after measured in one run: what changed in
// the build, one sentence per verdict, and the table of every variant and
// series, all from r.Baseline.
func BaselineBundle(r *bench.Result) map[string]any {
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
// per variant and series with its verdict.
func BaselineText(r *bench.Result) (head string, lines []string) {
	bl := r.Baseline
	if bl == nil {
		return "", nil
	}
	what := "the previous build of " + r.Kernel.Name
	if bl.Other != "" {
		what = "kernel " + bl.Other
	}
	head = fmt.Sprintf("%s (%s) ran again beside this build, its interleaved rounds in turn with this build's "+
		"in random order and its fresh processes alternating with this build's; ratios are this build over %s, "+
		"with 95%% intervals and p-values adjusted over the %d verdicts (Holm).",
		what, buildChange(bl.Kernel, r.Kernel), baselineName(bl), len(bl.Variants))
	if bl.Note != "" {
		head += " Note: " + bl.Note + "."
	}
	for _, e := range bl.Variants {
		lines = append(lines, baselineLine(e))
	}
	return head, lines
}

func baselineName(bl *bench.Baseline) string {
	if bl.Other != "" {
		return bl.Other
	}
	return "the previous build"
}

// buildChange says what differs between two kernel builds.
func buildChange(before, after bench.Kernel) string {
	var what []string
	if before.SourceSHA256 != after.SourceSHA256 {
		what = append(what, fmt.Sprintf("source %s, now %s", short(before.SourceSHA256), short(after.SourceSHA256)))
	}
	if strings.Join(before.Flags, " ") != strings.Join(after.Flags, " ") {
		what = append(what, fmt.Sprintf("flags %q, now %q", strings.Join(before.Flags, " "), strings.Join(after.Flags, " ")))
	}
	if before.Compiler != after.Compiler {
		what = append(what, fmt.Sprintf("compiler %s, now %s", before.Compiler, after.Compiler))
	}
	if len(what) == 0 {
		if before.BinarySHA256 == after.BinarySHA256 {
			return "the same binary"
		}
		return "the same source and flags, another binary"
	}
	return strings.Join(what, "; ")
}

// baselineLine is one verdict in words.
func baselineLine(e bench.BaselineVariant) string {
	series := strings.ReplaceAll(e.Series, "_", "-")
	asmWord := "assembly identical"
	if !e.AsmSame {
		asmWord = "assembly differs"
	}
	if e.Verdict == bench.VerdictUndefined {
		return fmt.Sprintf("%s / %s (%s): undefined: %s", e.Name, series, asmWord, e.Undefined)
	}
	iv := fmt.Sprintf("95%% interval [%s, %s], p = %.2g adjusted", bench.FormatRatio(e.CILow), bench.FormatRatio(e.CIHigh), e.PAdjusted)
	switch e.Verdict {
	case bench.VerdictSlower:
		return fmt.Sprintf("%s / %s (%s): slower, new/previous %s (+%.1f%%), %s", e.Name, series, asmWord,
			bench.FormatRatio(e.Ratio), (e.Ratio-1)*100, iv)
	case bench.VerdictFaster:
		return fmt.Sprintf("%s / %s (%s): faster, new/previous %s (%.1f%%), %s", e.Name, series, asmWord,
			bench.FormatRatio(e.Ratio), (e.Ratio-1)*100, iv)
	}
	return fmt.Sprintf("%s / %s (%s): no difference this run can resolve, new/previous %s, %s", e.Name, series, asmWord,
		bench.FormatRatio(e.Ratio), iv)
}

func baselineTable(r *bench.Result) *table {
	t := &table{head: []string{"variant / series", "median previous", "median new", "new/previous", "95% interval", "p (Holm)", "n eff", "verdict"}}
	for _, e := range r.Baseline.Variants {
		now := r.Summary(e.Name, e.Series)
		prev := bench.NewSamples(e.SamplesNS)
		pm := 0.0
		if prev != nil {
			pm = prev.Summary.Median
		}
		iv, p := "-", "-"
		if e.Verdict != bench.VerdictUndefined {
			iv = fmt.Sprintf("[%s, %s]", bench.FormatRatio(e.CILow), bench.FormatRatio(e.CIHigh))
			p = fmt.Sprintf("%.3g", e.PAdjusted)
		}
		t.add(e.Name+" / "+strings.ReplaceAll(e.Series, "_", "-"), ns(pm), ns(now.Median), bench.FormatRatio(e.Ratio), iv, p,
			fmt.Sprintf("%.0f", e.NEff), e.Verdict)
	}
	return t
}
