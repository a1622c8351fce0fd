// Package report renders what cells produce into Jupyter MIME bundles: a
// build with the assembly of every timed function, a result with its
// conditions and summary tables, the commentary made from a result's
// findings, and the before/after of a rerun. It computes nothing new: every
// number it writes comes from the build or the result it is given.
package report

import (
	"fmt"
	"html"
	"strings"

	"github.com/benchbook/benchbook/internal/asm"
	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/stdlib/display"
)

// BuildEntry is the application/vnd.benchbook.build+json entry of a build.
type BuildEntry struct {
	Kernel   KernelEntry    `json:"kernel"`
	Cached   bool           `json:"cached"`
	BuildMS  float64        `json:"build_ms"`
	Variants []VariantEntry `json:"variants"`
}

// KernelEntry identifies a built kernel (the result's kernel object).
type KernelEntry struct {
	Name         string   `json:"name"`
	Lang         string   `json:"lang"`
	Compiler     string   `json:"compiler"`
	Flags        []string `json:"flags"`
	SourceSHA256 string   `json:"source_sha256"`
	BinarySHA256 string   `json:"binary_sha256"`
}

// VariantEntry is one variant of a build entry.
type VariantEntry struct {
	Name    string `json:"name"`
	Line    int    `json:"line"`
	Asm     string `json:"asm"`
	Dead    bool   `json:"dead"`
	Hollow  bool   `json:"hollow"`
	Finding string `json:"finding"`
	// The batch function (k passes between two clock reads), analysed on
	// its own: what the samples of a batched variant time.
	BatchAsm     string `json:"batch_asm,omitempty"`
	BatchDead    bool   `json:"batch_dead"`
	BatchHollow  bool   `json:"batch_hollow,omitempty"`
	BatchFinding string `json:"batch_finding,omitempty"`
}

// Entry returns the machine-readable entry of a build.
func Entry(k *harness.Kernel) BuildEntry {
	e := BuildEntry{Kernel: KernelEntry{Name: k.Name, Lang: k.Lang, Compiler: k.Compiler, Flags: nonNil(k.Flags),
		SourceSHA256: k.SourceSHA256, BinarySHA256: k.BinarySHA256}, Cached: k.Cached, BuildMS: k.BuildMS}
	for _, v := range k.Variants {
		e.Variants = append(e.Variants, VariantEntry{Name: v.Name, Line: v.Line, Asm: v.Asm, Dead: v.Dead, Hollow: v.Hollow, Finding: v.Finding,
			BatchAsm: v.BatchAsm, BatchDead: v.BatchDead, BatchHollow: v.BatchHollow, BatchFinding: v.BatchFinding})
	}
	return e
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// BuildLine is the one-line description of a build: compiler, flags, time.
func BuildLine(k *harness.Kernel) string {
	flags := strings.Join(k.Flags, " ")
	if flags == "" {
		flags = "(none)"
	}
	how := fmt.Sprintf("built in %.0f ms", k.BuildMS)
	switch {
	case k.Cached:
		how = fmt.Sprintf("cached: source, flags, compiler, harness and the %d files the build read unchanged, not compiled again", len(k.Deps))
	case k.Rebuilt != "":
		how = fmt.Sprintf("rebuilt in %.0f ms: %s", k.BuildMS, k.Rebuilt)
	}
	return fmt.Sprintf("%s (%s): %s, flags %s; %s; %d variants; assembly from %s",
		k.Name, langName(k.Lang), k.Compiler, flags, how, len(k.Variants), k.Disassembler)
}

func langName(lang string) string {
	if lang == "c" {
		return "C"
	}
	return "Go"
}

// Build renders a build: HTML with one collapsible block of assembly per
// variant (clock reads and loops marked), a text/plain fallback, and the
// build+json entry.
func Build(k *harness.Kernel) map[string]any {
	var h, t strings.Builder
	h.WriteString(`<div class="benchbook-build" style="font-family:sans-serif">`)
	fmt.Fprintf(&h, "<p>%s</p>", html.EscapeString(BuildLine(k)))
	t.WriteString(BuildLine(k) + "\n")
	if note := OptLevelNote(k.Lang, k.Flags); note != "" {
		fmt.Fprintf(&h, `<p style="color:#8a5a00">%s</p>`, html.EscapeString(note))
		t.WriteString(note + "\n")
	}
	if k.Warnings != "" {
		fmt.Fprintf(&h, `<pre style="color:#8a5a00">%s</pre>`, html.EscapeString(k.Warnings))
		t.WriteString(k.Warnings + "\n")
	}
	for _, v := range k.Variants {
		h.WriteString(variantHTML(v))
		t.WriteString(AsmText(VariantEntry{Name: v.Name, Line: v.Line, Asm: v.Asm, Dead: v.Dead, Hollow: v.Hollow, Finding: v.Finding}))
		if v.BatchAsm != "" {
			fmt.Fprintf(&t, "\n%s's batch loop: %s: %s\n%s", v.Name, batchVerdict(v), v.BatchFinding, v.BatchAsm)
		}
	}
	h.WriteString(asmLegend)
	h.WriteString("</div>")
	return map[string]any{display.MIMEHTML: h.String(), display.MIMEText: t.String(), display.MIMEBuild: Entry(k)}
}

// OptLevelNote warns when a cell's flags leave the optimisation level to
// the compiler's default: cell flags replace the default -std=c11 -O2, so
// %%c k -Wall builds at -O0; for Go, -gcflags=-N turns the optimiser off.
func OptLevelNote(lang string, flags []string) string {
	if flags == nil {
		return ""
	}
	switch lang {
	case "c":
		for _, f := range flags {
			if strings.HasPrefix(f, "-O") {
				return ""
			}
		}
		return "no -O flag: built at -O0, the compiler's default (the cell's flags replace the default -std=c11 -O2; add -O2 to keep it)"
	case "go", "gotest":
		for _, f := range flags {
			if strings.Contains(f, "-gcflags") && strings.Contains(f, "-N") {
				return "-gcflags with -N: the Go optimiser is off, so the code timed is not what a normal build runs"
			}
		}
	}
	return ""
}

// AsmText is a variant's block of a build's text/plain: its name, line,
// verdict and finding, then its assembly.
func AsmText(v VariantEntry) string {
	return fmt.Sprintf("\n%s (line %d): %s%s\n%s", v.Name, v.Line, verdictOf(v.Dead, v.Hollow), v.Finding, v.Asm)
}

func verdict(v harness.Variant) string { return verdictOf(v.Dead, v.Hollow) }

func verdictOf(dead, hollow bool) string {
	switch {
	case dead:
		return "DEAD: "
	case hollow:
		return "HOLLOW: "
	}
	return "live: "
}

const asmLegend = `<p style="font-size:smaller;color:#555"><font color="#555">` +
	`<mark style="background:#ffd86b">▶ clock read</mark> &nbsp; │ timed region &nbsp; ┃ loop body inside it &nbsp; ` +
	`<font color="#1864ab"><b>floating-point arithmetic</b></font></font></p>`

func variantHTML(v harness.Variant) string {
	color := "#2b8a3e"
	if v.Dead {
		color = "#c92a2a"
	} else if v.Hollow {
		color = "#d9480f"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<details open><summary><b>%s</b> <font color="%s"><b>%s</b></font>%s <font color="#777">(line %d, %s)</font></summary>`,
		html.EscapeString(v.Name), color, strings.TrimSuffix(verdict(v), ": "), html.EscapeString(": "+v.Finding), v.Line, html.EscapeString(v.Symbol))
	b.WriteString(`<pre style="font-family:monospace;font-size:12px;line-height:1.3;margin:4px 0 10px 0">`)
	b.WriteString(asmHTML(v.Func, v.Analysis))
	for _, c := range v.Callees {
		b.WriteString("\n" + html.EscapeString(c))
	}
	b.WriteString("</pre></details>")
	if v.BatchAsm != "" {
		fmt.Fprintf(&b, `<details><summary>%s's batch loop (what its samples time when a pass is too short to time alone): <b>%s</b>%s</summary><pre style="font-family:monospace;font-size:12px;line-height:1.3;margin:4px 0 10px 0">%s</pre></details>`,
			html.EscapeString(v.Name), batchVerdict(v), html.EscapeString(": "+v.BatchFinding), html.EscapeString(v.BatchAsm))
	}
	return b.String()
}

func batchVerdict(v harness.Variant) string {
	switch {
	case v.BatchDead:
		return "dead"
	case v.BatchHollow:
		return "hollow"
	}
	return "live"
}

// AsmLineHTML is an instruction as the HTML of a build shows it, before
// its marks: its address, source position and text, escaped.
func AsmLineHTML(in asm.Inst) string {
	text := html.EscapeString(in.Text)
	if in.Source != "" {
		text = fmt.Sprintf("%-14s %s", html.EscapeString(in.Source), text)
	}
	return fmt.Sprintf("%x:  %s", in.Addr, text)
}

// asmHTML marks the clock reads, the timed region and the loops of f. The
// marks survive the classic Notebook's sanitizer, which drops style
// attributes in untrusted notebooks: a text gutter (▶ clock read, │ timed
// region, ┃ loop body), <mark> on the clock reads and <font> on float
// arithmetic; the styles add colour where they are kept.
func asmHTML(f asm.Func, a asm.Analysis) string {
	if len(f.Insts) == 0 {
		return ""
	}
	inRegion := map[uint64]bool{}
	for _, in := range a.Region {
		inRegion[in.Addr] = true
	}
	inLoop := func(addr uint64) bool {
		for _, l := range a.Loops {
			if addr >= l.Start && addr <= l.End {
				return true
			}
		}
		return false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "   %s:\n", html.EscapeString(f.Name))
	for _, in := range f.Insts {
		line := AsmLineHTML(in)
		gutter := "  "
		switch {
		case asm.IsClockCall(in):
			gutter = "▶ "
			line = `<mark style="background:#ffd86b">` + line + "   ◀ clock read</mark>"
		case inLoop(in.Addr):
			gutter = "┃ "
		case inRegion[in.Addr]:
			gutter = "│ "
		}
		if asm.IsFP(in.Mnemonic) {
			line = `<font color="#1864ab"><b>` + line + "</b></font>"
		}
		style := ""
		if inRegion[in.Addr] {
			style = ` style="background:#e8f0ff"`
		}
		fmt.Fprintf(&b, "<span%s>%s %s</span>\n", style, gutter, line)
	}
	return b.String()
}
