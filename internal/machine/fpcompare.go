package machine

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Hardware verdicts of DiffFingerprints.
const (
	HardwareSame      = "same"
	HardwareDifferent = "different"
	HardwareUnknown   = "unknown"
)

// stateEntries are measured but say what state the machine was in, not
// what it is: the integer chain's ns per add is the clock of the moment
// (turbo, a hypervisor's share), so it never decides the verdict. The
// clock's read cost is the same kind: two runs a minute apart on this
// project's VM at load 9 read 27.2 and 37.0 ns (noise 2.7 and 5.9), and a
// real second run was called other hardware for it.
var stateEntries = map[string]bool{"int_add": true, "clock_read": true}

// sharedEntries are measured in what the core shares with other work: the
// last-level cache and memory. Another process using memory on the other
// vCPU of this project's VMs moved the 64 MiB chase from 230 to 661 ns on
// the same host (and the streaming read from 23 to 11 GB/s), so a
// difference there is said but decides nothing: it is other hardware or
// other work, and one run cannot tell which.
//
// On a VM the core's own caches are shared too: the host runs another
// tenant's thread beside the vCPU, on the same physical core. Two tasks a
// minute apart on one VM, under CI's tests, read the 16 KiB chase 1.21 and
// 1.61 ns (fingerprint version 1, in ns) and then 4.1 and 5.6 cycles
// (version 2, in cycles: not the clock), and were called other hardware
// both times. The chains of one register or one line (addss, addsd,
// mulsd, load) did not move: they decide.
var sharedEntries = map[string]bool{"chase_16K": true, "chase_256K": true, "chase_4M": true, "chase_64M": true, StreamEntry: true}

// Identity reports whether the entry counts toward the hardware verdict:
// all but the clock of the moment (int_add, clock_read) and the chases and
// the stream, which other work shares (Shared).
func (e Entry) Identity() bool { return !stateEntries[e.Name] && !sharedEntries[e.Name] }

// Shared reports whether the entry is measured in a cache or memory,
// which other work shares (on a VM, even L1 and L2): said when it
// differs, never decisive.
func (e Entry) Shared() bool { return sharedEntries[e.Name] }

// EntryDiff is one entry of two fingerprints side by side.
type EntryDiff struct {
	Name, Unit     string
	A, B           float64
	NoiseA, NoiseB float64
	// Differs: the two values are further apart than the two noises
	// together (the intervals value ± noise do not overlap).
	Differs bool
	// Identity: the entry counts toward the verdict (Entry.Identity);
	// Shared: it is measured in what other work shares (Entry.Shared).
	Identity, Shared bool
}

// FingerprintDiff compares two fingerprints.
type FingerprintDiff struct {
	// Verdict is HardwareSame when every identity entry agrees within
	// the noise both state (a shared entry that differs is said apart,
	// SharedDiffering), HardwareDifferent when one does not, and
	// HardwareUnknown when a side has no measured fingerprint or the
	// two are of different versions (Why says which).
	Verdict string
	Why     string
	// Entries are the entries both sides measured: the identity entries
	// that differ first, in measurement order, then the others.
	Entries []EntryDiff
	// Conditions are the boot conditions and zero-page behaviour that
	// differ: what, then each side's value.
	Conditions [][3]string
}

// Differing are the identity entries that differ.
func (d FingerprintDiff) Differing() []EntryDiff {
	var out []EntryDiff
	for _, e := range d.Entries {
		if e.Differs && e.Identity {
			out = append(out, e)
		}
	}
	return out
}

// SharedDiffering are the shared entries (the last-level cache and
// memory) that differ: other hardware, or other work during a run.
func (d FingerprintDiff) SharedDiffering() []EntryDiff {
	var out []EntryDiff
	for _, e := range d.Entries {
		if e.Differs && e.Shared {
			out = append(out, e)
		}
	}
	return out
}

// DiffFingerprints compares a and b, either of which may be nil (a
// result made without one).
func DiffFingerprints(a, b *Fingerprint) FingerprintDiff {
	d := FingerprintDiff{Verdict: HardwareUnknown}
	if a != nil && b != nil {
		d.Conditions = DiffFacts(a.Conditions(), b.Conditions())
	}
	switch {
	case a == nil || b == nil:
		d.Why = "a result has no fingerprint (made before benchbook measured one)"
		return d
	case len(a.Entries) == 0 || len(b.Entries) == 0:
		d.Why = "a fingerprint was not measured (" + cmpOr(a.Skipped, b.Skipped, "no entries") + ")"
		return d
	case a.Version != b.Version:
		d.Why = fmt.Sprintf("the fingerprints are of versions %d and %d, which measure different things", a.Version, b.Version)
		return d
	}
	for _, ea := range a.Entries {
		eb := b.Entry(ea.Name)
		if eb == nil || ea.Unit != eb.Unit {
			continue
		}
		d.Entries = append(d.Entries, EntryDiff{Name: ea.Name, Unit: ea.Unit, A: ea.Value, B: eb.Value, NoiseA: ea.Noise, NoiseB: eb.Noise,
			Differs: math.Abs(ea.Value-eb.Value) > ea.Noise+eb.Noise, Identity: ea.Identity(), Shared: ea.Shared()})
	}
	sort.SliceStable(d.Entries, func(i, j int) bool {
		return d.Entries[i].Differs && d.Entries[i].Identity && !(d.Entries[j].Differs && d.Entries[j].Identity)
	})
	d.Verdict = HardwareSame
	if len(d.Differing()) > 0 {
		d.Verdict = HardwareDifferent
	}
	return d
}

func cmpOr(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// Phrase says how the entry differs, the second side first, as a clause:
// "addss takes 3 cycles against 2", "chase_64M takes 233 ns against 186",
// "stream_read reads 11.2 GB/s against 23.1".
func (e EntryDiff) Phrase() string {
	verb := "takes"
	if e.Unit == "GB/s" {
		verb = "reads"
	}
	return fmt.Sprintf("%s %s %s against %s", e.Name, verb, FormatEntryValue(e.B, e.Unit), strings.TrimSuffix(FormatEntryValue(e.A, e.Unit), " "+e.Unit))
}

// FormatEntryValue writes a value in its unit: cycles within 0.05 of a
// whole number, or over 100, as a whole number ("3 cycles"), else to one
// decimal; ns to three significant digits.
func FormatEntryValue(v float64, unit string) string {
	if unit == "cycles" {
		if r := math.Round(v); math.Abs(v-r) < 0.05 || v >= 100 {
			return strconv.FormatFloat(r, 'f', 0, 64) + " cycles"
		}
		return strconv.FormatFloat(v, 'f', 1, 64) + " cycles"
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + " " + unit
}

// Conditions are the fingerprint's conditions as what/value pairs, in a
// fixed order: the zero-page behaviour, PCID, the boot command line and
// each mitigation (by name).
func (f *Fingerprint) Conditions() [][2]string {
	zp := "not measured"
	if z := f.ZeroPage; z != nil {
		how := "allocates"
		if z.Mapped {
			how = "maps the zero page"
		}
		zp = fmt.Sprintf("%s (of %d pages read then written, the writes faulted %d)", how, z.Pages, z.WriteFaults)
	}
	out := [][2]string{{"anonymous read", zp}, {"PCID", f.Boot.PCID}, {"boot command line", f.Boot.Cmdline}}
	names := make([]string, 0, len(f.Boot.Mitigations))
	for k := range f.Boot.Mitigations {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		out = append(out, [2]string{"mitigation " + k, f.Boot.Mitigations[k]})
	}
	return out
}

// Lines is the fingerprint for people: one line per entry (its value and
// noise, both units where both apply, its trials), then the zero page,
// PCID, the mitigations that are not "Not affected", and the boot
// command line.
func (f *Fingerprint) Lines() []string {
	head := fmt.Sprintf("fingerprint of %s (version %d), %.0f ms", f.Host, f.Version, f.MS)
	if f.CPU >= 0 {
		head += fmt.Sprintf(", on CPU %d", f.CPU)
	}
	if !f.Exact {
		head += "; the chains are compiled Go on this arch: cycles approximate"
	}
	lines := []string{head}
	if f.Skipped != "" {
		lines = append(lines, "  not measured: "+f.Skipped)
	}
	for _, e := range f.Entries {
		other := ""
		switch {
		case e.Unit == "cycles" && e.NS > 0:
			other = fmt.Sprintf(" (%s)", FormatEntryValue(e.NS, "ns"))
		case e.Unit == "ns" && e.Cycles > 0 && e.Name != "int_add":
			other = fmt.Sprintf(" (%s)", FormatEntryValue(e.Cycles, "cycles"))
		case e.Name == "int_add" && e.Value > 0:
			other = fmt.Sprintf(" (%.0f MHz)", 1000/e.Value)
		}
		trials := make([]string, len(e.Trials))
		for i, t := range e.Trials {
			trials[i] = strconv.FormatFloat(t, 'g', 3, 64)
		}
		role := ""
		switch {
		case e.Shared():
			role = ", shared with other work: said, not decisive"
		case !e.Identity():
			role = ", not compared"
		}
		lines = append(lines, fmt.Sprintf("  %-11s %s ± %s%s; trials %s%s", e.Name, FormatEntryValue(e.Value, e.Unit),
			strings.TrimSuffix(strings.TrimSuffix(FormatEntryValue(e.Noise, e.Unit), " cycles"), " ns"), other, strings.Join(trials, " "), role))
	}
	for _, c := range f.Conditions() {
		if strings.HasPrefix(c[0], "mitigation ") && (c[1] == "Not affected" || c[1] == Unknown) {
			continue
		}
		lines = append(lines, "  "+c[0]+": "+c[1])
	}
	for _, n := range f.Notes {
		lines = append(lines, "  note: "+n)
	}
	return lines
}

// Summary is the fingerprint in one line: each entry's value, the
// zero-page behaviour and PCID, and how long it took (or why it was not
// measured).
func (f *Fingerprint) Summary() string {
	if len(f.Entries) == 0 {
		s := "not measured"
		if f.Skipped != "" {
			s += " (" + f.Skipped + ")"
		}
		return s + "; PCID " + f.Boot.PCID
	}
	var parts []string
	for _, e := range f.Entries {
		if e.Name != "int_add" {
			parts = append(parts, e.Name+" "+FormatEntryValue(e.Value, e.Unit))
		}
	}
	zp := "zero page not probed"
	if z := f.ZeroPage; z != nil {
		zp = "a read allocates"
		if z.Mapped {
			zp = "a read maps the zero page"
		}
	}
	return fmt.Sprintf("%s; %s; PCID %s (%.2f s)", strings.Join(parts, ", "), zp, f.Boot.PCID, f.MS/1000)
}
