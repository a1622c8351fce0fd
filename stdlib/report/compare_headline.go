package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/result"
)

// Verdicts of a headline across runs besides bench's slower, faster,
// dead and undefined: a ratio within the run-to-run floor, and a variant
// that one side did not measure.
const (
	VerdictWithin  = "within the floor"
	VerdictMissing = "missing"
)

// The verdict words across runs that mean what they mean in one run.
const (
	verdictSlower    = result.VerdictSlower
	verdictFaster    = result.VerdictFaster
	verdictDead      = result.VerdictDead
	verdictUndefined = result.VerdictUndefined
)

// CompareHeadline is one variant's answer in one line, the first thing compare
// says: its verdict against the run-to-run floor, the ratio of medians and
// what it was measured against.
type CompareHeadline struct {
	Variant string  `json:"variant"`
	Verdict string  `json:"verdict"` // slower, faster, within the floor, dead, undefined or missing
	Series  string  `json:"series,omitempty"`
	Ratio   float64 `json:"ratio,omitempty"` // after / before (N-way: the largest change)
	Text    string  `json:"text"`
	// Machines, in an N-way headline, are the verdicts per machine against
	// the reference, in the order of the table's columns.
	Machines []MachineVerdict `json:"machines,omitempty"`
}

// MachineVerdict is one machine's verdict in an N-way headline.
type MachineVerdict struct {
	Label   string  `json:"label"`
	Verdict string  `json:"verdict"`
	Ratio   float64 `json:"ratio,omitempty"`
	Floor   float64 `json:"floor"`
}

// AnySlower reports whether a headline says slower (for --fail-on slower).
func AnySlower(hs []CompareHeadline) bool {
	for _, h := range hs {
		if h.Verdict == verdictSlower {
			return true
		}
		for _, m := range h.Machines {
			if m.Verdict == verdictSlower {
				return true
			}
		}
	}
	return false
}

// judge is the verdict of a ratio of medians (after / before) against a
// floor: slower or faster beyond it, else within.
func judge(ratio, floor float64) string {
	switch {
	case ratio <= 0 || math.IsNaN(ratio) || math.IsInf(ratio, 0):
		return verdictUndefined
	case ratio-1 > floor:
		return verdictSlower
	case 1-ratio > floor && 1/ratio-1 > floor:
		return verdictFaster
	}
	return VerdictWithin
}

// times says a ratio as a change: "1.25x slower", "2.00x faster", or the
// ratio itself ("1.02x") within the floor.
func times(ratio float64, verdict string) string {
	switch verdict {
	case verdictSlower:
		return fmt.Sprintf("%.2fx slower", ratio)
	case verdictFaster:
		return fmt.Sprintf("%.2fx faster", 1/ratio)
	}
	return fmt.Sprintf("%.2fx", ratio)
}

// headlineSeries is the series a headline is read from: the interleaved
// one (every variant in one process, round robin) when it has a ratio,
// else the first that has one.
func headlineSeries(v VariantChange) *SeriesChange {
	var first *SeriesChange
	for i := range v.Series {
		s := &v.Series[i]
		if s.Err != "" || s.Meaningless != "" {
			continue
		}
		if s.Series == "interleaved" {
			return s
		}
		if first == nil {
			first = s
		}
	}
	return first
}

// headlines are the two-way comparison's lines, one per variant, in the
// order of the variants: "sink: 1.25x slower in the rerun than in the
// published run (interleaved medians 1.25 ms against 1.00 ms; beyond the
// run-to-run floor of 10.0%, across runs), where addss takes 3 cycles
// against 2".
func (d Diff) headlines() []CompareHeadline {
	var out []CompareHeadline
	where := ""
	if diff := d.Hardware.Differing(); len(diff) > 0 {
		where = ", where " + diff[0].Phrase()
	}
	for _, v := range d.Variants {
		h := CompareHeadline{Variant: v.Variant}
		switch s := headlineSeries(v); {
		case v.OnlyIn != "":
			h.Verdict = VerdictMissing
			h.Text = fmt.Sprintf("%s: only in %s", v.Variant, map[string]string{"before": d.BeforeLabel, "after": d.AfterLabel}[v.OnlyIn])
		case v.DeadBefore || v.DeadAfter:
			h.Verdict = verdictDead
			h.Text = fmt.Sprintf("%s: dead code %s: it times the clock, not compared", v.Variant, deadWhere(v, d))
		case s == nil:
			h.Verdict = verdictUndefined
			h.Text = fmt.Sprintf("%s: undefined: no series with a median on both sides", v.Variant)
		default:
			h.Series, h.Ratio = s.Series, s.Ratio
			h.Verdict = judge(s.Ratio, d.Floor)
			against := fmt.Sprintf("%s medians %s against %s; ", strings.ReplaceAll(s.Series, "_", "-"), ns(s.After), ns(s.Before))
			if h.Verdict == VerdictWithin {
				h.Text = fmt.Sprintf("%s: no change beyond the run-to-run floor of %.1f%% (%s, %sacross runs)", v.Variant, d.Floor*100, times(s.Ratio, h.Verdict), against)
			} else {
				h.Text = fmt.Sprintf("%s: %s in %s than in %s (%sbeyond the run-to-run floor of %.1f%%, across runs)%s",
					v.Variant, times(s.Ratio, h.Verdict), d.AfterLabel, d.BeforeLabel, against, d.Floor*100, where)
			}
		}
		out = append(out, h)
	}
	return out
}

func deadWhere(v VariantChange, d Diff) string {
	switch {
	case v.DeadBefore && v.DeadAfter:
		return "on both sides"
	case v.DeadAfter:
		return "in " + d.AfterLabel + " only (the work was removed)"
	}
	return "in " + d.BeforeLabel + " only"
}

// hardwareSentence says whether the two runs ran on the same hardware,
// from the description and the measured fingerprints, the entries that
// differ first.
func (d Diff) hardwareSentence(b, a *result.Result) string {
	return d.hardwareVerdict(b, a) + sharedSentence(d.Hardware.SharedDiffering())
}

// sharedSentence says the shared levels of the memory that differ, which
// decide nothing ("" when none does).
func sharedSentence(es []machine.EntryDiff) string {
	if len(es) == 0 {
		return ""
	}
	var ph []string
	for _, e := range es {
		ph = append(ph, e.Phrase())
	}
	return " The shared caches and memory read otherwise (" + strings.Join(ph, ", ") +
		"): other hardware, or other work using memory during a run (seen here: 230 against 661 ns on one host); not counted."
}

func (d Diff) hardwareVerdict(b, a *result.Result) string {
	hw := d.Hardware
	var phrases []string
	for _, e := range hw.Differing() {
		phrases = append(phrases, e.Phrase())
	}
	measured := fmt.Sprintf("on the host of %s %s", d.AfterLabel, strings.Join(phrases, ", "))
	switch {
	case hw.Verdict == machine.HardwareDifferent && d.MachineSame:
		return fmt.Sprintf("Different hardware behind the same description: %s (the fingerprints differ beyond their noise); %s; ratios across the two compare hardware, not code.",
			measured, d.MachineAfter)
	case hw.Verdict == machine.HardwareDifferent:
		return fmt.Sprintf("The machine differs: %s; measured, %s; ratios across machines compare hardware, not code.",
			machineDiff(b.Conditions.Machine, a.Conditions.Machine), measured)
	case hw.Verdict == machine.HardwareSame && d.MachineSame:
		return fmt.Sprintf("Same hardware: %s; the fingerprints agree within their noise (%d entries).", d.MachineAfter, identityCount(hw))
	case hw.Verdict == machine.HardwareSame:
		return fmt.Sprintf("Same hardware as measured (the fingerprints agree within their noise, %d entries), though the description differs: %s.",
			identityCount(hw), machineDiff(b.Conditions.Machine, a.Conditions.Machine))
	}
	unmeasured := " Whether it is the same hardware was not measured: " + hw.Why + "."
	if d.MachineSame {
		return fmt.Sprintf("Same machine description: %s; a description can stay the same on other hardware (seen here: one dependent addss took 2 cycles on one \"AMD EPYC\" and 3 on another).", d.MachineAfter) + unmeasured
	}
	return fmt.Sprintf("The machine differs: %s; ratios across machines compare hardware, not code.",
		machineDiff(b.Conditions.Machine, a.Conditions.Machine)) + unmeasured
}

func identityCount(hw machine.FingerprintDiff) int {
	n := 0
	for _, e := range hw.Entries {
		if e.Identity {
			n++
		}
	}
	return n
}

// storedConditions are every stored condition of the two runs that
// differs: the description's facts (but the CPU model, core counts and OS
// kernel, which the machine sentence says) and the fingerprint's boot
// conditions and zero-page behaviour.
func storedConditions(b, a *result.Result) [][3]string {
	var out [][3]string
	for _, c := range machine.DiffFacts(b.Conditions.Machine.Facts(), a.Conditions.Machine.Facts()) {
		switch c[0] {
		case "cpu_model", "logical_cpus", "physical_cores", "kernel":
			continue
		}
		out = append(out, c)
	}
	fb, fa := b.Conditions.Fingerprint, a.Conditions.Fingerprint
	switch {
	case fb != nil && fa != nil:
		out = append(out, machine.DiffFacts(fb.Conditions(), fa.Conditions())...)
	case fb != nil:
		out = append(out, [3]string{"boot conditions", "recorded", "not recorded"})
	case fa != nil:
		out = append(out, [3]string{"boot conditions", "not recorded", "recorded"})
	}
	return out
}

// conditionsSentence names every stored condition that differs.
func conditionsSentence(cs [][3]string) string {
	if len(cs) == 0 {
		return ""
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s %s vs %s", c[0], orUnknown(c[1]), orUnknown(c[2]))
	}
	return "Stored conditions that differ: " + strings.Join(parts, "; ") + "."
}

// Sentences are what the comparison says of the two runs' times, each with
// its claim (internal/prose's oracles recompute the floor and every ratio
// from the two results): the headline of every variant, then the verdict.
func (d Diff) Sentences() []findings.Sentence {
	var out []findings.Sentence
	for _, h := range d.Headlines {
		out = append(out, findings.Sentence{Topic: "across", Variant: h.Variant, Claim: findings.ClaimAcrossHeadline, Text: h.Text})
	}
	return append(out, findings.Sentence{Topic: "across", Claim: findings.ClaimAcrossVerdict, Text: d.Verdict})
}
