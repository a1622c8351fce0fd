package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/numtext"
)

// Text is the N-way comparison for a terminal, in lines of at most
// TextWidth: the headlines, the hardware of each machine against the
// reference (the fingerprint entries that differ first), the conditions
// that differ, the table of medians and ratios (its machine columns split
// over several tables when they do not fit), and how the ratios were
// judged.
func (n NWay) Text() string {
	var b strings.Builder
	ref := n.Machines[n.Ref]
	fmt.Fprintf(&b, "%s on %d machines, against %s:\n", n.Kernel, len(n.Machines), ref.Label)
	for _, h := range n.Headlines {
		b.WriteString(wrap(h.Text, TextWidth, "    "))
	}
	for _, s := range n.hardwareSentences() {
		b.WriteString(wrap(s, TextWidth, "    "))
	}
	b.WriteString(wrap(n.floorSentence(), TextWidth, "  "))
	for _, t := range n.tables() {
		b.WriteString("\n" + fit(t, TextWidth))
	}
	b.WriteString(wrap(TableLegend, TextWidth, "  "))
	b.WriteString("\n")
	for _, m := range n.Machines {
		b.WriteString(wrap(m.Label+": "+m.Description, TextWidth, "    "))
	}
	return b.String()
}

// hardwareSentences say, per machine other than the reference, whether it
// is the same hardware, the differing fingerprint entries first, and the
// stored conditions that differ.
func (n NWay) hardwareSentences() []string {
	ref := n.Machines[n.Ref]
	var out []string
	for i, m := range n.Machines {
		if i == n.Ref {
			continue
		}
		var s string
		sameDesc := m.Description == ref.Description
		switch m.Hardware {
		case machine.HardwareDifferent:
			var ph []string
			for _, d := range m.Differs {
				ph = append(ph, d.Phrase)
			}
			what := "different hardware"
			if sameDesc {
				what = "different hardware behind the same description"
			}
			s = fmt.Sprintf("%s: %s as %s: %s.", m.Label, what, ref.Label, strings.Join(ph, ", "))
		case machine.HardwareSame:
			s = fmt.Sprintf("%s: same hardware as %s (the fingerprints agree within their noise).", m.Label, ref.Label)
			if !sameDesc {
				s = strings.TrimSuffix(s, ".") + ", though the description differs."
			}
		default:
			desc := "the same machine description as"
			if !sameDesc {
				desc = "another machine description than"
			}
			s = fmt.Sprintf("%s: %s %s; whether it is the same hardware was not measured: %s.", m.Label, desc, ref.Label, m.Why)
		}
		if len(m.SharedDiffers) > 0 {
			var sh []machine.EntryDiff
			for _, e := range m.SharedDiffers {
				sh = append(sh, machine.EntryDiff{Name: e.Name, Unit: e.Unit, A: e.RefValue, B: e.Value})
			}
			s += sharedSentence(sh)
		}
		if c := conditionsSentence(m.Conditions); c != "" {
			s += " " + c
		}
		out = append(out, s)
	}
	return out
}

// floorSentence says how the ratios were judged.
func (n NWay) floorSentence() string {
	var parts []string
	for i, m := range n.Machines {
		if i != n.Ref {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", m.Label, m.Floor*100))
		}
	}
	return fmt.Sprintf("Across machines there is no paired test (each run is its own processes at its own moment): "+
		"every ratio is a ratio of medians, judged against the larger of the two runs' own A/A floors and %.0f%% "+
		"(floors: %s), as across runs; an interval is the run's median times its own A/A interval.",
		RunToRunDrift*100, strings.Join(parts, ", "))
}

// tables are the medians table, its machine columns split so that each
// fits TextWidth: the reference's column in every one.
func (n NWay) tables() []*table {
	labelW := utf8.RuneCountInString("variant / series")
	for _, r := range n.Rows {
		labelW = max(labelW, utf8.RuneCountInString(rowLabel(r)))
	}
	const colW = 20 // "1.234 ms 12.34x DEAD" and two spaces
	others := []int{}
	for i := range n.Machines {
		if i != n.Ref {
			others = append(others, i)
		}
	}
	per := max(1, (TextWidth-labelW)/colW-1)
	var out []*table
	for start := 0; start < len(others); start += per {
		cols := append([]int{n.Ref}, others[start:min(start+per, len(others))]...)
		t := &table{head: []string{"variant / series"}}
		for _, i := range cols {
			h := n.Machines[i].Label
			if i == n.Ref {
				h += " (ref)"
			}
			t.head = append(t.head, h)
		}
		for _, r := range n.Rows {
			cells := []string{rowLabel(r)}
			for _, i := range cols {
				cells = append(cells, cellText(r.Cells[i], i == n.Ref))
			}
			t.add(cells...)
		}
		out = append(out, t)
	}
	return out
}

func rowLabel(r NWayRow) string {
	return r.Variant + " / " + strings.ReplaceAll(r.Series, "_", "-")
}

// cellText is a median and, off the reference, its ratio and a mark: "+"
// slower beyond the floor, "-" faster beyond it, "~" dead code.
func cellText(c NWayCell, ref bool) string {
	if c.Missing {
		return "-"
	}
	s := numtext.FormatNS(c.MedianNS)
	if ref || c.Ratio == 0 {
		return s
	}
	mark := map[string]string{verdictSlower: " +", verdictFaster: " -", verdictDead: " ~"}[c.Verdict]
	return fmt.Sprintf("%s %sx%s", s, numtext.FormatRatio(c.Ratio), mark)
}

// TableLegend says what the marks of the table mean.
const TableLegend = "+ slower and - faster beyond the floor; ~ dead code (a ratio of clock reads); - alone: not measured there"

// Sentences are what the N-way comparison says of the times, each with its
// claim: the headline of every variant, then how the ratios were judged.
func (n NWay) Sentences() []findings.Sentence {
	var out []findings.Sentence
	for _, h := range n.Headlines {
		out = append(out, findings.Sentence{Topic: "across", Variant: h.Variant, Claim: findings.ClaimAcrossNWay, Text: h.Text})
	}
	return append(out, findings.Sentence{Topic: "across", Claim: findings.ClaimAcrossFloors, Text: n.floorSentence()})
}
