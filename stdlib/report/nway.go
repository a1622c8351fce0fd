package report

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// MachineRun is one machine's result of a kernel, under a label (the host,
// or the notebook it came from).
type MachineRun struct {
	Label  string
	Result *result.Result
}

// NWay sets the results of one kernel on several machines side by side:
// per variant and series the median on each machine and its ratio to the
// reference machine's. Across machines nothing is paired (each run is its
// own processes at its own moment): a ratio is judged against the larger
// of the two runs' own A/A floors and RunToRunDrift, as across runs.
type NWay struct {
	Kernel    string            `json:"kernel"`
	Ref       int               `json:"ref"` // index into Machines
	Machines  []NWayMachine     `json:"machines"`
	Headlines []CompareHeadline `json:"headlines"`
	Rows      []NWayRow         `json:"rows"`
}

// NWayMachine is one machine of an N-way comparison, against the reference.
type NWayMachine struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	// Hardware is "reference" for the reference, else machine.HardwareSame,
	// HardwareDifferent or HardwareUnknown against it (Why says why).
	Hardware string          `json:"hardware"`
	Why      string          `json:"hardware_why,omitempty"`
	Differs  []NWayEntryDiff `json:"fingerprint_differs,omitempty"`
	// SharedDiffers are the entries of the shared caches and memory that
	// differ: said, not counted (machine.Entry.Shared).
	SharedDiffers []NWayEntryDiff `json:"shared_differs,omitempty"`
	// Conditions are the stored conditions that differ from the
	// reference's: what, the reference's value, this machine's.
	Conditions [][3]string `json:"conditions_differ,omitempty"`
	// Floor is the run-to-run floor of this machine against the
	// reference, a fraction; AALow and AAHigh its own A/A interval.
	Floor    float64 `json:"floor"`
	FloorWhy string  `json:"floor_why,omitempty"`
	AALow    float64 `json:"aa_low,omitempty"`
	AAHigh   float64 `json:"aa_high,omitempty"`
}

// NWayEntryDiff is a fingerprint entry that differs from the reference's.
type NWayEntryDiff struct {
	Name     string  `json:"name"`
	Unit     string  `json:"unit"`
	Value    float64 `json:"value"`
	RefValue float64 `json:"ref_value"`
	Noise    float64 `json:"noise"`
	RefNoise float64 `json:"ref_noise"`
	Phrase   string  `json:"phrase"`
}

// NWayRow is one variant and series on every machine.
type NWayRow struct {
	Variant string     `json:"variant"`
	Series  string     `json:"series"`
	Dead    bool       `json:"dead"` // dead code on some machine: the ratio of clock reads
	Cells   []NWayCell `json:"cells"`
}

// NWayCell is one machine's median of a row, its ratio to the reference's
// and the verdict of that ratio against the machine's floor; Low and High
// are the run's own interval around its median (the median times its A/A
// interval: how far this code moved against itself in that run), 0 when
// the run has none. A machine without the row has Missing set.
type NWayCell struct {
	MedianNS float64 `json:"median_ns,omitempty"`
	Ratio    float64 `json:"ratio,omitempty"`
	Verdict  string  `json:"verdict,omitempty"`
	LowNS    float64 `json:"low_ns,omitempty"`
	HighNS   float64 `json:"high_ns,omitempty"`
	Missing  bool    `json:"missing,omitempty"`
}

// ErrTooFew is returned by CompareN for fewer than two machines.
var ErrTooFew = errors.New("an N-way comparison needs at least two machines")

// CompareN compares the results of one kernel on several machines against
// the machine at index ref.
func CompareN(runs []MachineRun, ref int) (NWay, error) {
	if len(runs) < 2 {
		return NWay{}, ErrTooFew
	}
	if ref < 0 || ref >= len(runs) {
		return NWay{}, fmt.Errorf("the reference %d is not one of the %d machines", ref, len(runs))
	}
	rr := runs[ref].Result
	n := NWay{Kernel: rr.Kernel.Name, Ref: ref}
	for i, m := range runs {
		r := m.Result
		nm := NWayMachine{Label: m.Label, Description: machineLine(r.Conditions.Machine), Hardware: "reference"}
		if numtext.Bounded(r.AA.CILow, r.AA.CIHigh) {
			nm.AALow, nm.AAHigh = r.AA.CILow, r.AA.CIHigh
		}
		if i != ref {
			hw := machine.DiffFingerprints(rr.Conditions.Fingerprint, r.Conditions.Fingerprint)
			nm.Hardware, nm.Why = hw.Verdict, hw.Why
			for _, e := range hw.Differing() {
				nm.Differs = append(nm.Differs, entryDiffOf(e))
			}
			for _, e := range hw.SharedDiffering() {
				nm.SharedDiffers = append(nm.SharedDiffers, entryDiffOf(e))
			}
			nm.Conditions = storedConditions(rr, r)
			if d := machineDiff(rr.Conditions.Machine, r.Conditions.Machine); d != "" {
				nm.Conditions = append([][3]string{{"machine", machineLine(rr.Conditions.Machine), machineLine(r.Conditions.Machine)}}, nm.Conditions...)
			}
			nm.Floor, nm.FloorWhy = runFloor(rr, r)
		}
		n.Machines = append(n.Machines, nm)
	}
	n.Rows = nwayRows(runs, ref, n.Machines)
	n.Headlines = n.headlines()
	return n, nil
}

func entryDiffOf(e machine.EntryDiff) NWayEntryDiff {
	return NWayEntryDiff{Name: e.Name, Unit: e.Unit, Value: e.B, RefValue: e.A, Noise: e.NoiseB, RefNoise: e.NoiseA, Phrase: e.Phrase()}
}

// nwayRows are the rows of every variant and series that some machine
// has, in the reference's order of variants (then the others'), each
// judged against its machine's floor.
func nwayRows(runs []MachineRun, ref int, ms []NWayMachine) []NWayRow {
	var names []string
	seen := map[string]bool{}
	for _, i := range append([]int{ref}, indices(len(runs))...) {
		for _, v := range runs[i].Result.Variants {
			if !seen[v.Name] {
				seen[v.Name] = true
				names = append(names, v.Name)
			}
		}
	}
	var rows []NWayRow
	for _, name := range names {
		for _, series := range result.SeriesNames {
			row := NWayRow{Variant: name, Series: series}
			any := false
			for _, m := range runs {
				v := m.Result.Variant(name)
				var s *result.Samples
				if v != nil {
					s = v.Get(series)
				}
				if s == nil || !(s.Summary.Median > 0) {
					row.Cells = append(row.Cells, NWayCell{Missing: true})
					continue
				}
				any = true
				row.Dead = row.Dead || v.Dead
				row.Cells = append(row.Cells, NWayCell{MedianNS: s.Summary.Median})
			}
			if !any {
				continue
			}
			refCell := row.Cells[ref]
			for i := range row.Cells {
				c := &row.Cells[i]
				if c.Missing {
					continue
				}
				if ms[i].AALow > 0 {
					c.LowNS, c.HighNS = c.MedianNS*ms[i].AALow, c.MedianNS*ms[i].AAHigh
				}
				if i == ref || refCell.Missing {
					continue
				}
				c.Ratio = c.MedianNS / refCell.MedianNS
				c.Verdict = judge(c.Ratio, ms[i].Floor)
				if row.Dead {
					c.Verdict = verdictDead
				}
			}
			rows = append(rows, row)
		}
	}
	return rows
}

func indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// headlines are one line per variant, from its headline series (the
// interleaved one when the reference has it): "sink: 1.90x slower on
// node-b, where addss takes 3 cycles against 2; within the floor on node-c
// (1.02x); against node-a, interleaved medians".
func (n NWay) headlines() []CompareHeadline {
	var out []CompareHeadline
	refLabel := n.Machines[n.Ref].Label
	for _, row := range n.headlineRows() {
		h := CompareHeadline{Variant: row.Variant, Series: row.Series}
		if row.Dead {
			h.Verdict = verdictDead
			h.Text = fmt.Sprintf("%s: dead code: it times the clock, not compared", row.Variant)
			out = append(out, h)
			continue
		}
		groups := map[string][]string{}
		worst := 1.0
		for i, c := range row.Cells {
			if i == n.Ref {
				continue
			}
			m := n.Machines[i]
			mv := MachineVerdict{Label: m.Label, Verdict: c.Verdict, Ratio: c.Ratio, Floor: m.Floor}
			switch {
			case c.Missing:
				mv.Verdict = VerdictMissing
				groups[VerdictMissing] = append(groups[VerdictMissing], "on "+m.Label)
			case row.Cells[n.Ref].Missing:
				mv.Verdict = verdictUndefined
				groups[verdictUndefined] = append(groups[verdictUndefined], "on "+m.Label)
			case c.Verdict == VerdictWithin:
				groups[VerdictWithin] = append(groups[VerdictWithin], fmt.Sprintf("%s (%.2fx)", m.Label, c.Ratio))
			default:
				clause := fmt.Sprintf("%s on %s", times(c.Ratio, c.Verdict), m.Label)
				if len(m.Differs) > 0 {
					clause += ", where " + m.Differs[0].Phrase
				}
				groups[c.Verdict] = append(groups[c.Verdict], clause)
			}
			if c.Ratio > 0 && math.Abs(math.Log(c.Ratio)) > math.Abs(math.Log(worst)) {
				worst = c.Ratio
			}
			h.Machines = append(h.Machines, mv)
		}
		var parts []string
		for _, v := range []string{verdictSlower, verdictFaster} {
			parts = append(parts, groups[v]...)
		}
		if w := groups[VerdictWithin]; len(w) > 0 {
			parts = append(parts, "within the floor on "+strings.Join(w, ", "))
		}
		if w := groups[VerdictMissing]; len(w) > 0 {
			parts = append(parts, "not measured "+strings.Join(w, ", "))
		}
		if w := groups[verdictUndefined]; len(w) > 0 {
			parts = append(parts, "undefined (the reference has no median) "+strings.Join(w, ", "))
		}
		switch {
		case len(groups[verdictSlower]) > 0:
			h.Verdict = verdictSlower
		case len(groups[verdictFaster]) > 0:
			h.Verdict = verdictFaster
		case len(groups[VerdictWithin]) > 0:
			h.Verdict = VerdictWithin
		default:
			h.Verdict = verdictUndefined
		}
		h.Ratio = worst
		h.Text = fmt.Sprintf("%s: %s; against %s, %s medians", row.Variant, strings.Join(parts, "; "), refLabel, strings.ReplaceAll(row.Series, "_", "-"))
		out = append(out, h)
	}
	return out
}

// headlineRows is each variant's headline row: its interleaved row when
// the reference has it, else its first row the reference has, else its
// first row.
func (n NWay) headlineRows() []NWayRow {
	var out []NWayRow
	idx := map[string]int{}
	for _, r := range n.Rows {
		i, ok := idx[r.Variant]
		if !ok {
			idx[r.Variant] = len(out)
			out = append(out, r)
			continue
		}
		cur := out[i]
		better := !r.Cells[n.Ref].Missing && (cur.Cells[n.Ref].Missing || (r.Series == "interleaved" && cur.Series != "interleaved"))
		if better {
			out[i] = r
		}
	}
	return out
}
