package report

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/benchbook/benchbook/stdlib/asm"
	"github.com/benchbook/benchbook/stdlib/bench"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// SeriesChange is one series of one variant, before and after.
type SeriesChange struct {
	Series        string
	Before, After float64 // medians, ns per pass
	Ratio         float64 // after / before
	Low, High     float64 // bootstrap 95% interval of the ratio (unpaired)
	P             float64 // Mann-Whitney U
	Significant   bool
	Err           string // why the comparison is undefined, if it is
}

// VariantChange is one variant before and after.
type VariantChange struct {
	Variant         string
	AsmSame         bool
	AsmDiff         string // unified diff of the timed function, addresses left out
	DeadBefore      bool
	DeadAfter       bool
	Series          []SeriesChange
	OnlyIn          string // "before" or "after" when the variant exists on one side only
	AsmLinesChanged int
}

// Diff compares two results of the same kernel: a rerun after a change, or
// a rerun of published evidence.
type Diff struct {
	Kernel                                       string
	SourceSame, FlagsSame, CompilerSame, BinSame bool
	FlagsBefore, FlagsAfter                      []string
	CompilerBefore, CompilerAfter                string
	Variants                                     []VariantChange
	Conditions                                   [][3]string // what, before, after
	Sentence                                     string
}

// Compare compares before and after variant by variant and series by series.
func Compare(before, after *bench.Result) Diff {
	d := Diff{Kernel: after.Kernel.Name,
		SourceSame:   before.Kernel.SourceSHA256 == after.Kernel.SourceSHA256,
		FlagsSame:    strings.Join(before.Kernel.Flags, " ") == strings.Join(after.Kernel.Flags, " "),
		CompilerSame: before.Kernel.Compiler == after.Kernel.Compiler, BinSame: before.Kernel.BinarySHA256 == after.Kernel.BinarySHA256,
		FlagsBefore: before.Kernel.Flags, FlagsAfter: after.Kernel.Flags, CompilerBefore: before.Kernel.Compiler, CompilerAfter: after.Kernel.Compiler}
	for _, av := range after.Variants {
		bv := before.Variant(av.Name)
		if bv == nil {
			d.Variants = append(d.Variants, VariantChange{Variant: av.Name, OnlyIn: "after"})
			continue
		}
		d.Variants = append(d.Variants, compareVariant(*bv, av, after.Protocol))
	}
	for _, bv := range before.Variants {
		if after.Variant(bv.Name) == nil {
			d.Variants = append(d.Variants, VariantChange{Variant: bv.Name, OnlyIn: "before"})
		}
	}
	d.Conditions = conditionPairs(before, after)
	d.Sentence = d.sentence(before, after)
	return d
}

func compareVariant(bv, av bench.Variant, p bench.Protocol) VariantChange {
	vc := VariantChange{Variant: av.Name, DeadBefore: bv.Dead, DeadAfter: av.Dead}
	vc.AsmDiff, vc.AsmLinesChanged = asmDiff(bv.Asm, av.Asm)
	vc.AsmSame = vc.AsmLinesChanged == 0
	for _, name := range bench.SeriesNames {
		bs, as := bv.Get(name), av.Get(name)
		if bs == nil || as == nil {
			continue
		}
		sc := SeriesChange{Series: name, Before: bs.Summary.Median, After: as.Summary.Median}
		c, err := stats.Compare(as.SamplesNS, bs.SamplesNS, stats.Bootstrap{Resamples: p.BootstrapResamples, Seed: p.BootstrapSeed, Confidence: 0.95}, alpha(p))
		sc.Ratio, sc.Low, sc.High, sc.P, sc.Significant = c.Ratio, c.Low, c.High, c.P, c.Significant
		if err != nil {
			sc.Err = err.Error()
		}
		vc.Series = append(vc.Series, sc)
	}
	return vc
}

func alpha(p bench.Protocol) float64 {
	if p.Alpha > 0 {
		return p.Alpha
	}
	return 0.05
}

// asmDiff is asm.Diff: the unified diff of two listings with only what
// moves when nothing changed left out, and the number of lines that differ.
func asmDiff(before, after string) (string, int) { return asm.Diff(before, after) }

func conditionPairs(b, a *bench.Result) [][3]string {
	mb, ma := b.Conditions.Machine, a.Conditions.Machine
	return [][3]string{
		{"load average before", loadavg(b.Conditions.Before), loadavg(a.Conditions.Before)},
		{"load average after", loadavg(b.Conditions.After), loadavg(a.Conditions.After)},
		{"frequency", freqLine(b), freqLine(a)},
		{"compiler", b.Kernel.Compiler, a.Kernel.Compiler},
		{"flags", strings.Join(b.Kernel.Flags, " "), strings.Join(a.Kernel.Flags, " ")},
		{"source", short(b.Kernel.SourceSHA256), short(a.Kernel.SourceSHA256)},
		{"binary", short(b.Kernel.BinarySHA256), short(a.Kernel.BinarySHA256)},
		{"machine", mb.CPUModel + ", " + mb.Kernel, ma.CPUModel + ", " + ma.Kernel},
		{"protocol", protoLine(b.Protocol), protoLine(a.Protocol)},
		{"time", b.Conditions.Before.Time, a.Conditions.Before.Time},
	}
}

func protoLine(p bench.Protocol) string {
	s := fmt.Sprintf("reps=%d runs=%d settle=%gms", p.Reps, p.Runs, p.SettleMS)
	if p.Pin != nil {
		s += fmt.Sprintf(" pin=%d", *p.Pin)
	}
	if p.Load > 0 {
		s += fmt.Sprintf(" load=%d", p.Load)
	}
	return s
}

// sentence says in one sentence what moved and what the conditions say.
func (d Diff) sentence(b, a *bench.Result) string {
	var changedAsm, moved []string
	sameAsm := 0
	for _, v := range d.Variants {
		if v.OnlyIn != "" {
			continue
		}
		if v.AsmSame {
			sameAsm++
		} else {
			changedAsm = append(changedAsm, v.Variant)
		}
		for _, s := range v.Series {
			if s.Series == "interleaved" && s.Significant {
				moved = append(moved, fmt.Sprintf("%s by %+.1f%%", v.Variant, (s.Ratio-1)*100))
			}
		}
	}
	var parts []string
	switch {
	case len(changedAsm) == 0:
		parts = append(parts, fmt.Sprintf("the assembly of all %d variants is identical", sameAsm))
	default:
		parts = append(parts, fmt.Sprintf("the assembly changed for %s", strings.Join(changedAsm, ", ")))
	}
	if len(moved) == 0 {
		parts = append(parts, "no interleaved median moved by more than this pair of runs can resolve")
	} else {
		parts = append(parts, "the interleaved median moved significantly for "+strings.Join(moved, ", "))
	}
	if pb, pa := protoLine(b.Protocol), protoLine(a.Protocol); pb != pa {
		parts = append(parts, fmt.Sprintf("the protocol changed: %s, then %s", pb, pa))
	}
	if len(moved) > 0 && len(changedAsm) == 0 {
		lb, la := b.Conditions.Before.Loadavg[0], a.Conditions.Before.Loadavg[0]
		fb, fa := freqOf(b), freqOf(a)
		why := fmt.Sprintf("with the same code, look at the conditions: load %.2f then %.2f", lb, la)
		if fb > 0 && fa > 0 {
			why += fmt.Sprintf(", clock %.0f then %.0f MHz (%+.1f%%)", fb, fa, (fa/fb-1)*100)
		}
		parts = append(parts, why)
	}
	return strings.ToUpper(parts[0][:1]) + parts[0][1:] + "; " + strings.Join(parts[1:], "; ") + "."
}

func freqOf(r *bench.Result) float64 {
	mhz, _ := bench.FrequencyMHz(r)
	return mhz
}

// Text is the rerun table as aligned text.
func (d Diff) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", d.Kernel, d.Sentence)
	for _, v := range d.Variants {
		b.WriteString(v.line() + "\n")
	}
	t := d.seriesTable()
	b.WriteString("\n" + t.text())
	ct := &table{head: []string{"condition", "before", "after"}}
	for _, c := range d.Conditions {
		ct.add(c[0], c[1], c[2])
	}
	b.WriteString("\n" + ct.text())
	return b.String()
}

func (v VariantChange) line() string {
	switch {
	case v.OnlyIn != "":
		return fmt.Sprintf("%s: only in the %s run", v.Variant, v.OnlyIn)
	case v.AsmSame:
		return fmt.Sprintf("%s: assembly identical", v.Variant)
	}
	return fmt.Sprintf("%s: assembly differs in %d lines%s", v.Variant, v.AsmLinesChanged, deadChange(v))
}

func deadChange(v VariantChange) string {
	if v.DeadBefore != v.DeadAfter {
		if v.DeadAfter {
			return " (now dead: the work was removed)"
		}
		return " (no longer dead: the work is timed now)"
	}
	return ""
}

func (d Diff) seriesTable() *table {
	t := &table{head: []string{"variant / series", "median before", "median after", "after/before", "95% interval", "p", "significant"}}
	for _, v := range d.Variants {
		for _, s := range v.Series {
			iv := fmt.Sprintf("[%s, %s]", bench.FormatRatio(s.Low), bench.FormatRatio(s.High))
			if s.Err != "" && (math.IsInf(s.Ratio, 0) || s.Ratio == 0) {
				iv = "undefined"
			}
			t.add(v.Variant+" / "+strings.ReplaceAll(s.Series, "_", "-"), ns(s.Before), ns(s.After), bench.FormatRatio(s.Ratio), iv,
				fmt.Sprintf("%.3g", s.P), yesNo(s.Significant))
		}
	}
	return t
}

// Bundle renders the comparison as HTML with the assembly diffs, and text.
func (d Diff) Bundle() map[string]any {
	var h strings.Builder
	fmt.Fprintf(&h, `<div class="benchbook-compare" style="font-family:sans-serif"><p><b>Before / after: %s.</b> %s</p><ul style="font-size:12px">`,
		html.EscapeString(d.Kernel), html.EscapeString(d.Sentence))
	for _, v := range d.Variants {
		fmt.Fprintf(&h, "<li>%s", html.EscapeString(v.line()))
		if !v.AsmSame && v.OnlyIn == "" {
			fmt.Fprintf(&h, `<details><summary>diff</summary><pre style="font-size:11px">%s</pre></details>`, html.EscapeString(v.AsmDiff))
		}
		h.WriteString("</li>")
	}
	h.WriteString("</ul>")
	h.WriteString(d.seriesTable().html())
	ct := &table{head: []string{"condition", "before", "after"}}
	for _, c := range d.Conditions {
		ct.add(c[0], c[1], c[2])
	}
	h.WriteString(ct.html() + "</div>")
	return map[string]any{display.MIMEHTML: h.String(), display.MIMEText: d.Text()}
}
