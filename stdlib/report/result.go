package report

import (
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// table is a small table rendered both as HTML and as aligned text.
type table struct {
	head []string
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) html() string {
	var b strings.Builder
	b.WriteString(`<table style="border-collapse:collapse;font-size:12px;margin:4px 0 10px 0"><thead><tr>`)
	for _, h := range t.head {
		fmt.Fprintf(&b, `<th style="text-align:right;padding:2px 8px;border-bottom:1px solid #999">%s</th>`, html.EscapeString(h))
	}
	b.WriteString("</tr></thead><tbody>")
	for _, r := range t.rows {
		b.WriteString("<tr>")
		for i, c := range r {
			align := "right"
			if i == 0 {
				align = "left"
			}
			fmt.Fprintf(&b, `<td style="text-align:%s;padding:2px 8px">%s</td>`, align, html.EscapeString(c))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

func (t *table) text() string {
	widths := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// summaryTable has one row per variant and series.
func summaryTable(r *result.Result) *table {
	t := &table{head: []string{"variant / series", "n", "min", "median", "max", "mean", "cv", "max/min", ">2%", ">5%", ">10%"}}
	fh := freqHead(r) // the clock during the run, when the result has it (freq.go)
	t.head = append(t.head, fh...)
	for _, v := range r.Variants {
		for _, name := range result.SeriesNames {
			s := v.Get(name)
			if s == nil {
				continue
			}
			label := v.Name + " / " + strings.ReplaceAll(name, "_", "-")
			if v.Batch > 1 && name != "cold" {
				label += fmt.Sprintf(" (batch means of %d)", v.Batch)
			}
			t.add(append(summaryRow(label, s.Summary), freqCells(fh, s)...)...)
		}
	}
	return t
}

func summaryRow(label string, s stats.Summary) []string {
	mom := "-"
	if s.MaxOverMin != nil {
		mom = numtext.FormatRatio(*s.MaxOverMin)
	}
	return []string{label, fmt.Sprint(s.N), numtext.FormatNS(s.Min), numtext.FormatNS(s.Median), numtext.FormatNS(s.Max),
		numtext.FormatNS(s.Mean), fmt.Sprintf("%.1f%%", s.CVPct), mom, numtext.FormatPct(s.PairsOver2Pct),
		numtext.FormatPct(s.PairsOver5Pct), numtext.FormatPct(s.PairsOver10Pct)}
}

func comparisonTable(r *result.Result) *table {
	t := &table{head: []string{"ratio of medians", "series", "ratio", "95% interval", "p", "p (Holm)", "significant"}}
	for _, c := range r.Comparisons {
		padj := "-"
		if c.Method != "" {
			padj = fmt.Sprintf("%.3g", c.PAdjusted)
		}
		t.add(c.A+" / "+c.B, c.Series, numtext.FormatRatio(c.Ratio), numtext.FormatInterval(c.CILow, c.CIHigh),
			fmt.Sprintf("%.3g", c.PValue), padj, yesNo(c.Significant))
	}
	if aa := r.AA; aa.Variant != "" {
		t.add("A/A: "+aa.Variant+" / its copy", "interleaved", numtext.FormatRatio(aa.Ratio),
			numtext.FormatInterval(aa.CILow, aa.CIHigh), fmt.Sprintf("%.3g", aa.PValue), "-", "control")
	}
	return t
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// ConditionLines describe the run's conditions in a few lines: the texts
// of ConditionSentences.
func ConditionLines(r *result.Result) []string {
	var out []string
	for _, s := range ConditionSentences(r) {
		out = append(out, s.Text)
	}
	return out
}

// ConditionSentences are the run's conditions, a line each, with the claim
// each makes (internal/prose's oracles read them against the stored
// conditions and recompute the clock's step and read cost).
func ConditionSentences(r *result.Result) []findings.Sentence {
	c := r.Conditions
	m := c.Machine
	var out []findings.Sentence
	add := func(claim, text string) {
		out = append(out, findings.Sentence{Topic: "conditions", Claim: claim, Text: text})
	}
	add(findings.ClaimCondMachine, fmt.Sprintf("machine: %s, %d logical CPUs, %d cores, SMT %s, hypervisor %s, kernel %s",
		m.CPUModel, m.LogicalCPUs, m.PhysicalCores, m.SMT, m.Virtualized, m.Kernel))
	add(findings.ClaimCondFrequency, fmt.Sprintf("frequency: %s; clocksource %s; THP %s; ASLR %s", freqLine(r), m.Clocksource, m.THPEnabled, m.ASLR))
	add(findings.ClaimCondClock, fmt.Sprintf("clock: smallest step %s, one read costs %s (%s)", numtext.FormatNS(c.Clock.ResolutionNS), numtext.FormatNS(c.Clock.ReadCostNS), c.Clock.Source))
	if f := c.Fingerprint; f != nil {
		add(findings.ClaimCondFingerprint, "fingerprint: "+f.Summary())
	}
	add(findings.ClaimCondLoad, fmt.Sprintf("load average: %s before (%s), %s after (%s)", loadavg(c.Before), c.Before.Time, loadavg(c.After), c.After.Time))
	if d := c.During; d != nil {
		line := fmt.Sprintf("during %.1f s: ", d.Seconds)
		var parts []string
		for i, b := range d.BusyPct {
			parts = append(parts, fmt.Sprintf("CPU %d %.0f%% busy", i, b))
		}
		line += strings.Join(parts, ", ")
		for _, p := range d.Busiest {
			if p.BusyPct >= 1 {
				line += fmt.Sprintf("; %s (pid %d) %.0f%% of a CPU on CPU %d", p.Command, p.PID, p.BusyPct, p.CPU)
			}
		}
		add(findings.ClaimCondDuring, line)
	}
	p := r.Protocol
	proto := fmt.Sprintf("protocol: reps=%d runs=%d settle=%gms warmup=%d", p.Reps, p.Runs, p.SettleMS, p.Warmup)
	if p.Pin != nil {
		proto += fmt.Sprintf(" pin=%d", *p.Pin)
	} else {
		proto += " (not pinned)"
	}
	if p.Load > 0 {
		proto += fmt.Sprintf(" load=%d", p.Load)
	}
	if p.Elements != nil {
		proto += fmt.Sprintf(" elements=%d", *p.Elements)
	}
	if h := p.HarnessSyscalls; h != nil {
		proto += fmt.Sprintf("; the harness's own system calls: %d between a discarded pass and the measured one after it, at most %d between two measured passes",
			h.AfterDiscarded, h.Between)
	}
	add(findings.ClaimCondProtocol, proto)
	add(findings.ClaimCondKernel, fmt.Sprintf("kernel: %s (%s), %s, flags %s, binary %s", r.Kernel.Name, r.Kernel.Lang, r.Kernel.Compiler,
		strings.Join(r.Kernel.Flags, " "), short(r.Kernel.BinarySHA256)))
	return out
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func loadavg(m machine.Moment) string {
	return fmt.Sprintf("%.2f %.2f %.2f", m.Loadavg[0], m.Loadavg[1], m.Loadavg[2])
}

func freqLine(r *result.Result) string {
	b, a := r.Conditions.Before, r.Conditions.After
	if len(b.FreqKHz) > 0 {
		return fmt.Sprintf("cpufreq %s before, %s after", khzList(b.FreqKHz), khzList(a.FreqKHz))
	}
	if b.FreqEstimateMHz > 0 {
		return fmt.Sprintf("no cpufreq here; estimated from a chain of dependent adds: %.0f MHz before, %.0f MHz after", b.FreqEstimateMHz, a.FreqEstimateMHz)
	}
	return "unknown"
}

func khzList(m map[string]float64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("cpu%s %.0f MHz", k, m[k]/1000))
	}
	return strings.Join(parts, ", ")
}

func checksumLines(r *result.Result) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Kind == findings.KindChecksum && f.Variant != nil {
			out = append(out, *f.Variant+": "+f.Text)
		}
	}
	return out
}

// Result renders a result: conditions, summary tables, comparisons,
// checksums, and the result+json entry. Plots and commentary come separately.
func Result(r *result.Result) map[string]any {
	var h, t strings.Builder
	title := fmt.Sprintf("%%bench %s", r.Kernel.Name)
	if r.Partial {
		title += " (PARTIAL: " + r.Error + ")"
	}
	fmt.Fprintf(&h, `<div class="benchbook-result" style="font-family:sans-serif"><p><b>%s</b></p><ul style="font-size:12px">`, html.EscapeString(title))
	t.WriteString(title + "\n")
	for _, l := range ConditionLines(r) {
		fmt.Fprintf(&h, "<li>%s</li>", html.EscapeString(l))
		t.WriteString("  " + l + "\n")
	}
	h.WriteString("</ul>")
	st, ct := summaryTable(r), comparisonTable(r)
	h.WriteString("<p>Every series, in nanoseconds per pass (min is the floor for a fixed amount of work; the median is the reference for every ratio; the last three columns are the share of pairs of single passes that differ by more than 2, 5 and 10%):</p>")
	h.WriteString(st.html())
	t.WriteString("\n" + st.text())
	if len(ct.rows) > 0 {
		h.WriteString(ct.html())
		t.WriteString("\n" + ct.text())
	}
	if lt := latencyTable(r); lt != nil { // latency.go
		h.WriteString(lt.html())
		t.WriteString("\n" + lt.text())
	}
	if cc := countsTable(r); cc != nil { // counts_cache.go
		h.WriteString(cc.html())
		t.WriteString("\n" + cc.text())
	}
	if cs := checksumLines(r); len(cs) > 0 {
		h.WriteString("<p>" + html.EscapeString(strings.Join(cs, "; ")) + "</p>")
		t.WriteString("\n" + strings.Join(cs, "\n") + "\n")
	}
	if r.RawFile != "" {
		line := "raw records and result.json: " + r.RawFile
		if r.ResultNotWritten != "" {
			line = rawFileLine(r)
		}
		fmt.Fprintf(&h, `<p style="font-size:smaller;color:#555">%s</p>`, html.EscapeString(line))
		t.WriteString("raw records: " + r.RawFile + "\n")
	}
	h.WriteString("</div>")
	return map[string]any{display.MIMEHTML: h.String(), display.MIMEText: t.String(), display.MIMEResult: r}
}
