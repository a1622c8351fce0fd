package report

import (
	"fmt"
	"html"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/benchbook/benchbook/internal/asm"
	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/display"
)

// RunToRunDrift is how far the medians of the same code on the same machine
// moved between two runs at different moments in seed 002 (10 to 14
// percent): the least a difference across runs must exceed to mean anything.
const RunToRunDrift = 0.10

// SeriesChange is one series of one variant, before and after. Across runs
// the passes of a run are not replicates of anything (the run is), so there
// is no test and no interval: only the ratio of the medians, judged against
// the run-to-run floor of the Diff.
type SeriesChange struct {
	Series        string
	Before, After float64 // medians, ns per pass
	Ratio         float64 // after / before
	Beyond        bool    // |Ratio-1| exceeds the Diff's Floor
	Meaningless   string  // why the ratio says nothing (dead code on a side), if it does not
	Err           string  // why the ratio is undefined, if it is
}

// VariantChange is one variant before and after.
type VariantChange struct {
	Variant         string
	AsmSame         bool
	AsmDiff         string // unified diff of the timed function (asm.Diff)
	DeadBefore      bool
	DeadAfter       bool
	Series          []SeriesChange
	OnlyIn          string // "before" or "after" when the variant exists on one side only
	AsmLinesChanged int
}

// Diff compares two results of the same kernel: a rerun after a change, or
// a rerun of published evidence. Two results are two runs: AcrossRuns is
// set, and a ratio is only ever within or beyond Floor.
type Diff struct {
	Kernel string
	// AcrossRuns: the results come from two runs made at different moments.
	AcrossRuns bool
	// Floor is the run-to-run floor, a fraction (0.1 = 10%): the largest of
	// the A/A intervals of both runs and RunToRunDrift; FloorWhy says so.
	Floor                                        float64
	FloorWhy                                     string
	MachineSame                                  bool
	MachineBefore, MachineAfter                  string
	SourceSame, FlagsSame, CompilerSame, BinSame bool
	FlagsBefore, FlagsAfter                      []string
	CompilerBefore, CompilerAfter                string
	Variants                                     []VariantChange
	// Changes says what differs between the runs, in this order: machine,
	// compiler, flags, source, assembly, protocol, conditions.
	Changes    []string
	Conditions [][3]string // what, before, after
	Verdict    string      // the medians against the floor
	Sentence   string      // Changes and Verdict as one paragraph
	// BeforeLabel and AfterLabel name the two runs in sentences ("before",
	// "after"; compare of notebooks: "the published run", "the rerun").
	BeforeLabel, AfterLabel string
	// Hardware compares the two runs' measured fingerprints.
	Hardware machine.FingerprintDiff
	// StoredConditions are every stored condition that differs (the
	// description's facts, the boot conditions, the zero page): what,
	// before, after.
	StoredConditions [][3]string
	// Headlines are one line per variant, the first thing Text says.
	Headlines []CompareHeadline
}

// Compare compares before and after variant by variant and series by series.
func Compare(before, after *result.Result) Diff {
	return CompareAs(before, after, "the previous run", "this run")
}

// CompareAs is Compare with the two runs named in its sentences.
func CompareAs(before, after *result.Result, beforeLabel, afterLabel string) Diff {
	d := Diff{Kernel: after.Kernel.Name, AcrossRuns: true, BeforeLabel: beforeLabel, AfterLabel: afterLabel,
		Hardware:         machine.DiffFingerprints(before.Conditions.Fingerprint, after.Conditions.Fingerprint),
		StoredConditions: storedConditions(before, after),
		SourceSame:       before.Kernel.SourceSHA256 == after.Kernel.SourceSHA256,
		FlagsSame:        strings.Join(before.Kernel.Flags, " ") == strings.Join(after.Kernel.Flags, " "),
		CompilerSame:     before.Kernel.Compiler == after.Kernel.Compiler, BinSame: before.Kernel.BinarySHA256 == after.Kernel.BinarySHA256,
		FlagsBefore: before.Kernel.Flags, FlagsAfter: after.Kernel.Flags, CompilerBefore: before.Kernel.Compiler, CompilerAfter: after.Kernel.Compiler,
		MachineBefore: machineLine(before.Conditions.Machine), MachineAfter: machineLine(after.Conditions.Machine)}
	d.MachineSame = d.MachineBefore == d.MachineAfter
	d.Floor, d.FloorWhy = runFloor(before, after)
	for _, av := range after.Variants {
		bv := before.Variant(av.Name)
		if bv == nil {
			d.Variants = append(d.Variants, VariantChange{Variant: av.Name, OnlyIn: "after"})
			continue
		}
		d.Variants = append(d.Variants, compareVariant(*bv, av, d.Floor))
	}
	for _, bv := range before.Variants {
		if after.Variant(bv.Name) == nil {
			d.Variants = append(d.Variants, VariantChange{Variant: bv.Name, OnlyIn: "before"})
		}
	}
	d.Conditions = conditionPairs(before, after)
	d.Changes = d.changes(before, after)
	d.Verdict = d.verdict(before, after)
	d.Sentence = strings.Join(append(append([]string{}, d.Changes...), d.Verdict), " ")
	d.Headlines = d.headlines()
	return d
}

// machineLine names a machine by what changes its speed most: CPU model,
// cores and logical CPUs, OS kernel.
func machineLine(m machine.Description) string {
	cpu := m.CPUModel
	if cpu == "" {
		cpu = "unknown CPU"
	}
	s := cpu
	if m.PhysicalCores > 0 {
		s += fmt.Sprintf(", %d cores", m.PhysicalCores)
	}
	if m.LogicalCPUs > 0 {
		s += fmt.Sprintf(", %d logical CPUs", m.LogicalCPUs)
	}
	if m.Kernel != "" {
		s += ", " + m.Kernel
	}
	return s
}

// machineDiff names what differs between two machines, before vs after.
func machineDiff(b, a machine.Description) string {
	var parts []string
	if b.CPUModel != a.CPUModel {
		parts = append(parts, fmt.Sprintf("%s vs %s", orUnknown(b.CPUModel), orUnknown(a.CPUModel)))
	}
	if b.PhysicalCores != a.PhysicalCores {
		parts = append(parts, fmt.Sprintf("%d vs %d cores", b.PhysicalCores, a.PhysicalCores))
	}
	if b.LogicalCPUs != a.LogicalCPUs {
		parts = append(parts, fmt.Sprintf("%d vs %d logical CPUs", b.LogicalCPUs, a.LogicalCPUs))
	}
	if b.Kernel != a.Kernel {
		parts = append(parts, fmt.Sprintf("OS kernel %s vs %s", orUnknown(b.Kernel), orUnknown(a.Kernel)))
	}
	return strings.Join(parts, ", ")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// runFloor is the least change across two runs that means anything: the
// widest A/A interval of either run (how far this code moves against itself
// within one run), and never less than RunToRunDrift.
func runFloor(before, after *result.Result) (float64, string) {
	floor := RunToRunDrift
	var parts []string
	for _, x := range []struct {
		side string
		r    *result.Result
	}{{"before", before}, {"after", after}} {
		aa := x.r.AA
		if !(aa.CILow > 0 && aa.CIHigh > 0) || math.IsInf(aa.CILow, 0) || math.IsInf(aa.CIHigh, 0) {
			parts = append(parts, fmt.Sprintf("the %s run has no A/A interval", x.side))
			continue
		}
		spread := math.Max(math.Abs(aa.CILow-1), math.Abs(aa.CIHigh-1))
		floor = math.Max(floor, spread)
		parts = append(parts, fmt.Sprintf("A/A %.1f%% %s", spread*100, x.side))
	}
	why := fmt.Sprintf("the largest of %s and %.0f%%, how far reruns of the same code on one machine moved (seed 002)",
		strings.Join(parts, ", "), RunToRunDrift*100)
	return floor, why
}

func compareVariant(bv, av result.Variant, floor float64) VariantChange {
	vc := VariantChange{Variant: av.Name, DeadBefore: bv.Dead, DeadAfter: av.Dead}
	vc.AsmDiff, vc.AsmLinesChanged = asmDiff(bv.Asm, av.Asm)
	vc.AsmSame = vc.AsmLinesChanged == 0
	for _, name := range result.SeriesNames {
		bs, as := bv.Get(name), av.Get(name)
		if bs == nil || as == nil {
			continue
		}
		sc := SeriesChange{Series: name, Before: bs.Summary.Median, After: as.Summary.Median}
		switch {
		case bs.Summary.Median <= 0 || as.Summary.Median <= 0 || math.IsNaN(bs.Summary.Median) || math.IsNaN(as.Summary.Median):
			sc.Err = "a median is zero or missing"
		default:
			sc.Ratio = as.Summary.Median / bs.Summary.Median
			sc.Beyond = math.Abs(sc.Ratio-1) > floor
		}
		if bv.Dead || av.Dead {
			sc.Meaningless = "dead code: the ratio of clock reads"
			sc.Beyond = false
		}
		vc.Series = append(vc.Series, sc)
	}
	return vc
}

// asmDiff is asm.Diff: the unified diff of two listings with only what
// moves when nothing changed left out, and the number of lines that differ.
func asmDiff(before, after string) (string, int) { return asm.Diff(before, after) }

// conditionPairs sets the two runs side by side, in the order of Changes.
func conditionPairs(b, a *result.Result) [][3]string {
	return [][3]string{
		{"machine", machineLine(b.Conditions.Machine), machineLine(a.Conditions.Machine)},
		{"compiler", b.Kernel.Compiler, a.Kernel.Compiler},
		{"flags", strings.Join(b.Kernel.Flags, " "), strings.Join(a.Kernel.Flags, " ")},
		{"source", short(b.Kernel.SourceSHA256), short(a.Kernel.SourceSHA256)},
		{"binary", short(b.Kernel.BinarySHA256), short(a.Kernel.BinarySHA256)},
		{"protocol", protoLine(b.Protocol), protoLine(a.Protocol)},
		{"load average before", loadavg(b.Conditions.Before), loadavg(a.Conditions.Before)},
		{"load average after", loadavg(b.Conditions.After), loadavg(a.Conditions.After)},
		{"frequency", freqLine(b), freqLine(a)},
		{"A/A interval", aaLine(b.AA), aaLine(a.AA)},
		{"time", b.Conditions.Before.Time, a.Conditions.Before.Time},
	}
}

func aaLine(aa result.AA) string {
	if !numtext.Bounded(aa.CILow, aa.CIHigh) {
		return "none"
	}
	return numtext.FormatRatio(aa.Ratio) + " " + numtext.FormatInterval(aa.CILow, aa.CIHigh)
}

func protoLine(p result.Protocol) string {
	s := fmt.Sprintf("reps=%d runs=%d settle=%gms", p.Reps, p.Runs, p.SettleMS)
	if p.Pin != nil {
		s += fmt.Sprintf(" pin=%d", *p.Pin)
	}
	if p.Load > 0 {
		s += fmt.Sprintf(" load=%d", p.Load)
	}
	// The keys that change what a sample is: two runs that differ in one of
	// them measured different things, and the comparison must say so.
	if p.Batch != "" && p.Batch != "auto" {
		s += " batch=" + p.Batch
	}
	if p.ColdAfter == "setup" {
		s += " cold=after-setup"
	}
	if p.ASLR == "off" {
		s += " aslr=off"
	}
	if p.Layouts > 1 {
		s += fmt.Sprintf(" layouts=%d", p.Layouts)
	}
	return s
}

// changes says what differs between the two runs, most decisive first:
// machine, compiler, flags, source, assembly, protocol, conditions.
func (d Diff) changes(b, a *result.Result) []string {
	out := []string{d.hardwareSentence(b, a)}
	if c := conditionsSentence(d.StoredConditions); c != "" {
		out = append(out, c)
	}
	if d.CompilerSame {
		out = append(out, fmt.Sprintf("Same compiler: %s.", orNone(d.CompilerAfter)))
	} else {
		out = append(out, fmt.Sprintf("The compiler differs: %s vs %s.", orNone(d.CompilerBefore), orNone(d.CompilerAfter)))
	}
	if d.FlagsSame {
		out = append(out, fmt.Sprintf("Same flags: %s.", orNone(strings.Join(d.FlagsAfter, " "))))
	} else {
		out = append(out, fmt.Sprintf("The flags differ: %s vs %s.", orNone(strings.Join(d.FlagsBefore, " ")), orNone(strings.Join(d.FlagsAfter, " "))))
	}
	switch {
	case d.SourceSame && d.BinSame:
		out = append(out, "Same source and same binary.")
	case d.SourceSame:
		out = append(out, fmt.Sprintf("Same source; the binary differs (%s vs %s).", short(b.Kernel.BinarySHA256), short(a.Kernel.BinarySHA256)))
	default:
		out = append(out, fmt.Sprintf("The source differs (%s vs %s).", short(b.Kernel.SourceSHA256), short(a.Kernel.SourceSHA256)))
	}
	var per []string
	same, both := 0, 0
	for _, v := range d.Variants {
		per = append(per, v.line())
		if v.OnlyIn == "" {
			both++
			if v.AsmSame {
				same++
			}
		}
	}
	if same == both && len(per) == both {
		out = append(out, fmt.Sprintf("The assembly of all %d variants is identical.", both))
	} else {
		out = append(out, "Assembly per variant: "+strings.Join(per, "; ")+".")
	}
	if pb, pa := protoLine(b.Protocol), protoLine(a.Protocol); pb != pa {
		out = append(out, fmt.Sprintf("Between the runs the protocol changed: %s, then %s.", pb, pa))
	}
	cond := fmt.Sprintf("Conditions: 1-minute load %.2f then %.2f before the run, %.2f then %.2f after",
		b.Conditions.Before.Loadavg[0], a.Conditions.Before.Loadavg[0], b.Conditions.After.Loadavg[0], a.Conditions.After.Loadavg[0])
	fb, estB := findings.FrequencyMHz(b)
	fa, estA := findings.FrequencyMHz(a)
	if fb > 0 && fa > 0 {
		what := "clock"
		if estB || estA {
			what = "estimated clock"
		}
		cond += fmt.Sprintf("; %s %.0f then %.0f MHz (%+.1f%%)", what, fb, fa, (fa/fb-1)*100)
	} else {
		cond += "; clock unknown on a side"
	}
	return append(out, cond+".")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// verdict judges every median ratio against the run-to-run floor. Across
// runs nothing is called significant: the passes of one run are not
// replicates of the run, and two runs at different moments differ anyway.
func (d Diff) verdict(b, a *result.Result) string {
	var beyond, within []string
	for _, v := range d.Variants {
		var over []string
		for _, s := range v.Series {
			if s.Meaningless != "" || s.Err != "" {
				continue
			}
			change := fmt.Sprintf("%+.1f%%", (s.Ratio-1)*100)
			if s.Beyond {
				over = append(over, strings.ReplaceAll(s.Series, "_", "-")+" "+change)
			} else if s.Series == "interleaved" {
				within = append(within, v.Variant+" "+change)
			}
		}
		if len(over) > 0 {
			beyond = append(beyond, fmt.Sprintf("%s (%s)", v.Variant, strings.Join(over, ", ")))
		}
	}
	var out string
	switch {
	case len(beyond) == 0 && len(within) == 0:
		out = "Across runs: no live series to compare."
	case len(beyond) == 0:
		out = fmt.Sprintf("Across runs, every median is within the run-to-run floor of %.1f%% (interleaved: %s).",
			d.Floor*100, strings.Join(within, ", "))
	default:
		out = fmt.Sprintf("Across runs, beyond the floor of %.1f%%: %s; measure both in one run to tell.", d.Floor*100, strings.Join(beyond, ", "))
	}
	if !d.MachineSame && len(beyond) > 0 {
		out = strings.TrimSuffix(out, ".") + "; on two machines that is a difference of hardware as much as code."
	}
	return out + fmt.Sprintf(" Two runs at different moments give only a ratio of medians (the passes of a run are not replicates of the run); the floor is %s.", d.FloorWhy)
}

// TextWidth is the widest line of Text, for a terminal.
const TextWidth = 100

// hardwareLeads: when the fingerprints say the hardware differs, that is
// said before any headline, since every ratio then compares hardware.
func (d Diff) hardwareLeads() bool {
	return d.Hardware.Verdict == machine.HardwareDifferent && len(d.Changes) > 0
}

// Text is the comparison for a terminal: what differs first (machine,
// compiler, flags, source, assembly, protocol, conditions), then the
// verdict, the medians and the conditions; no line is wider than TextWidth.
func (d Diff) Text() string {
	var b strings.Builder
	changes := d.Changes
	if d.hardwareLeads() {
		b.WriteString(wrap(d.Kernel+": "+strings.ToLower(changes[0][:1])+changes[0][1:], TextWidth, "  "))
		changes = changes[1:]
	}
	for _, h := range d.Headlines {
		b.WriteString(wrap(h.Text, TextWidth, "    "))
	}
	for i, c := range changes {
		if i == 0 && !d.hardwareLeads() {
			c = d.Kernel + ": " + strings.ToLower(c[:1]) + c[1:]
		}
		b.WriteString(wrap(c, TextWidth, "  "))
		if strings.HasPrefix(c, "Assembly per variant") {
			b.WriteString(d.asmDiffText())
		}
	}
	b.WriteString(wrap(d.Verdict, TextWidth, "  "))
	b.WriteString("\n" + fit(d.seriesTable(), TextWidth))
	if ft := fingerprintTable(d.Hardware); ft != nil {
		b.WriteString("\n" + fit(ft, TextWidth))
	}
	b.WriteString("\n" + fit(d.conditionTable(), TextWidth))
	return b.String()
}

// fingerprintTable sets the measured entries side by side, the differing
// ones first; nil when a side has none.
func fingerprintTable(hw machine.FingerprintDiff) *table {
	if len(hw.Entries) == 0 {
		return nil
	}
	t := &table{head: []string{"fingerprint", "before", "after", "noise", "hardware"}}
	for _, e := range hw.Entries {
		judged := "agrees"
		switch {
		case e.Shared && e.Differs:
			judged = "differs (shared: not counted)"
		case e.Shared:
			judged = "agrees (shared)"
		case !e.Identity:
			judged = "the clock, not compared"
		case e.Differs:
			judged = "DIFFERS"
		}
		t.add(e.Name, machine.FormatEntryValue(e.A, e.Unit), machine.FormatEntryValue(e.B, e.Unit),
			"± "+strings.TrimSuffix(strings.TrimSuffix(machine.FormatEntryValue(e.NoiseA+e.NoiseB, e.Unit), " cycles"), " ns"), judged)
	}
	return t
}

// asmDiffLines is how many lines of each variant's assembly diff Text shows.
const asmDiffLines = 24

// asmDiffText is the normalised assembly diff of each variant that changed,
// indented, without its file headers, at most asmDiffLines lines each.
func (d Diff) asmDiffText() string {
	var b strings.Builder
	for _, v := range d.Variants {
		if v.AsmSame || v.OnlyIn != "" {
			continue
		}
		b.WriteString("  " + v.Variant + ":\n")
		var lines []string
		for _, l := range strings.Split(strings.TrimRight(v.AsmDiff, "\n"), "\n") {
			if !strings.HasPrefix(l, "--- ") && !strings.HasPrefix(l, "+++ ") {
				lines = append(lines, l)
			}
		}
		for i, l := range lines {
			if i == asmDiffLines {
				fmt.Fprintf(&b, "    ... %d more lines\n", len(lines)-i)
				break
			}
			b.WriteString(wrap("    "+l, TextWidth, "        "))
		}
	}
	return b.String()
}

func (v VariantChange) line() string {
	switch {
	case v.OnlyIn != "":
		return fmt.Sprintf("%s only in the %s run", v.Variant, v.OnlyIn)
	case v.AsmSame:
		return fmt.Sprintf("%s identical", v.Variant)
	}
	if v.AsmLinesChanged == 1 {
		return fmt.Sprintf("%s 1 line differs%s", v.Variant, deadChange(v))
	}
	return fmt.Sprintf("%s %d lines differ%s", v.Variant, v.AsmLinesChanged, deadChange(v))
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
	t := &table{head: []string{"variant / series", "median before", "median after", "after/before", fmt.Sprintf("floor %.0f%%", d.Floor*100)}}
	for _, v := range d.Variants {
		for _, s := range v.Series {
			ratio, judged := numtext.FormatRatio(s.Ratio), "within"
			switch {
			case s.Err != "":
				ratio, judged = "undefined", s.Err
			case s.Meaningless != "":
				judged = "n/a, dead code"
			case s.Beyond:
				judged = "BEYOND"
			}
			t.add(v.Variant+" / "+strings.ReplaceAll(s.Series, "_", "-"), ns(s.Before), ns(s.After), ratio, judged)
		}
	}
	return t
}

func (d Diff) conditionTable() *table {
	t := &table{head: []string{"condition", "before", "after"}}
	for _, c := range d.Conditions {
		t.add(c[0], c[1], c[2])
	}
	for _, c := range d.StoredConditions {
		t.add(c[0], c[1], c[2])
	}
	return t
}

// wrap breaks s into lines of at most width runes at spaces, the lines after
// the first indented; a word wider than a line is cut.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	line := s[:len(s)-len(strings.TrimLeft(s, " "))] // a leading indent is kept
	flush := func() {
		b.WriteString(line + "\n")
		line = indent
	}
	for _, w := range strings.Fields(s) {
		for utf8.RuneCountInString(w) > width-utf8.RuneCountInString(indent) {
			if strings.TrimSpace(line) != "" {
				flush()
			}
			r := []rune(w)
			n := width - utf8.RuneCountInString(line)
			line += string(r[:n])
			w = string(r[n:])
			flush()
		}
		switch {
		case strings.TrimSpace(line) == "":
			line += w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= width:
			line += " " + w
		default:
			flush()
			line += w
		}
	}
	if strings.TrimSpace(line) != "" {
		flush()
	}
	return b.String()
}

// fit is t as aligned columns when they fit in width, else stacked: each
// row's first cell on a line, then one wrapped line per other cell.
func fit(t *table, width int) string {
	text := t.text()
	fits := true
	for _, l := range strings.Split(text, "\n") {
		fits = fits && utf8.RuneCountInString(strings.TrimRight(l, " ")) <= width
	}
	if fits {
		return text
	}
	var b strings.Builder
	for _, r := range t.rows {
		if len(r) == 3 && r[1] == r[2] {
			b.WriteString(wrap(r[0]+", both: "+r[1], width, "    "))
			continue
		}
		b.WriteString(wrap(r[0], width, "  "))
		for i := 1; i < len(r) && i < len(t.head); i++ {
			b.WriteString(wrap("  "+t.head[i]+": "+r[i], width, "      "))
		}
	}
	return b.String()
}

// Bundle renders the comparison as HTML with the assembly diffs, and text.
func (d Diff) Bundle() map[string]any {
	var h strings.Builder
	fmt.Fprintf(&h, `<div class="benchbook-compare" style="font-family:sans-serif"><p><b>Before / after: %s, across runs.</b></p>`,
		html.EscapeString(d.Kernel))
	changes := d.Changes
	if d.hardwareLeads() {
		fmt.Fprintf(&h, `<p style="font-size:13px;margin:2px 0"><b>%s</b></p>`, html.EscapeString(changes[0]))
		changes = changes[1:]
	}
	for _, hl := range d.Headlines {
		fmt.Fprintf(&h, `<p style="font-size:13px;margin:2px 0"><b>%s</b></p>`, html.EscapeString(hl.Text))
	}
	h.WriteString(`<ul style="font-size:12px">`)
	for _, c := range changes {
		fmt.Fprintf(&h, "<li>%s</li>", html.EscapeString(c))
	}
	h.WriteString("</ul>")
	for _, v := range d.Variants {
		if !v.AsmSame && v.OnlyIn == "" {
			fmt.Fprintf(&h, `<details style="font-size:12px"><summary>assembly of %s: %d lines differ</summary><pre style="font-size:11px">%s</pre></details>`,
				html.EscapeString(v.Variant), v.AsmLinesChanged, html.EscapeString(v.AsmDiff))
		}
	}
	fmt.Fprintf(&h, `<p style="font-size:12px">%s</p>`, html.EscapeString(d.Verdict))
	h.WriteString(d.seriesTable().html())
	if ft := fingerprintTable(d.Hardware); ft != nil {
		h.WriteString(ft.html())
	}
	h.WriteString(d.conditionTable().html() + "</div>")
	return map[string]any{display.MIMEHTML: h.String(), display.MIMEText: d.Text()}
}
