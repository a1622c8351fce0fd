package prose

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose/figures"
	"github.com/benchbook/benchbook/internal/result"
)

// The oracles of the conditions lines (stdlib/report's ConditionSentences):
// each fact is the stored one; the clock's smallest step is the grid
// recomputed from the spaced deltas and its read cost one typical read; a
// fingerprint's zero page is what its write faults say; every process that
// used a CPU is named.

// has fails unless text holds each of want.
func has(what, text string, want ...string) error {
	for _, w := range want {
		if !strings.Contains(text, w) {
			return fail("%s: does not say %q of the stored conditions", what, w)
		}
	}
	return nil
}

func condMachine(r *result.Result, s findings.Sentence) error {
	m := r.Conditions.Machine
	return has("machine", s.Text, m.CPUModel, fmt.Sprintf("%d logical CPUs", m.LogicalCPUs), fmt.Sprintf("%d cores", m.PhysicalCores),
		"SMT "+m.SMT, "hypervisor "+m.Virtualized, "kernel "+m.Kernel)
}

// condFrequency: each CPU's cpufreq reading in MHz, or the two estimates
// from the adds chain, or unknown; and the machine's clocksource, THP and
// ASLR.
func condFrequency(r *result.Result, s findings.Sentence) error {
	c, m := r.Conditions, r.Conditions.Machine
	var want []string
	switch {
	case len(c.Before.FreqKHz) > 0:
		for k, v := range c.Before.FreqKHz {
			want = append(want, "cpu"+k+" "+strconv.FormatFloat(math.Round(v/1000), 'f', 0, 64)+" MHz")
		}
	case c.Before.FreqEstimateMHz > 0:
		want = append(want, strconv.FormatFloat(math.Round(c.Before.FreqEstimateMHz), 'f', 0, 64)+" MHz before",
			strconv.FormatFloat(math.Round(c.After.FreqEstimateMHz), 'f', 0, 64)+" MHz after")
	default:
		want = append(want, "frequency: unknown")
	}
	want = append(want, "clocksource "+m.Clocksource, "THP "+m.THPEnabled, "ASLR "+m.ASLR)
	return has("frequency", s.Text, want...)
}

var clockLine = regexp.MustCompile(`^clock: smallest step (.+?), one read costs (.+?) \((.*)\)$`)

// condClock: the smallest step is the clock's grid (recomputed from the
// spaced deltas where the result records them), the read cost is the
// median read and one typical read (readCost).
func condClock(r *result.Result, s findings.Sentence) error {
	c := r.Conditions.Clock
	m := clockLine.FindStringSubmatch(s.Text)
	if m == nil {
		return fail("a clock line the oracle cannot read: %q", s.Text)
	}
	if want := numtext.FormatNS(figures.ClockStep(c)); m[1] != want {
		return fail("says the smallest step is %s, the grid of the clock's spaced deltas (%s) is %s", m[1], c.Spaced, want)
	}
	if want := numtext.FormatNS(c.ReadCostNS); m[2] != want {
		return fail("says a read costs %s, the stored median read is %s", m[2], want)
	}
	if err := readCost(r); err != nil {
		return err
	}
	if m[3] != c.Source {
		return fail("says the clock is %q, it is %q", m[3], c.Source)
	}
	return nil
}

// condFingerprint: every entry but int_add with its value, the zero page as
// its write faults say (a read maps the zero page when at least half the
// pages written after a read faulted), and PCID.
func condFingerprint(r *result.Result, s findings.Sentence) error {
	f := r.Conditions.Fingerprint
	if f == nil {
		return fail("a fingerprint line without a fingerprint")
	}
	if err := has("fingerprint", s.Text, "PCID "+f.Boot.PCID); err != nil {
		return err
	}
	if len(f.Entries) == 0 {
		return has("fingerprint", s.Text, "not measured")
	}
	for _, e := range f.Entries {
		if e.Name == "int_add" {
			continue
		}
		_, rest, ok := strings.Cut(s.Text, e.Name+" ")
		if !ok {
			return fail("fingerprint: %s is not named", e.Name)
		}
		num, _, _ := strings.Cut(rest, " ")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || !figures.Near(v, e.Value, 0.05) && math.Abs(v-e.Value) > 0.05 {
			return fail("fingerprint: says %s %s, measured %g %s", e.Name, num, e.Value, e.Unit)
		}
	}
	switch z := f.ZeroPage; {
	case z == nil:
		return has("fingerprint", s.Text, "zero page not probed")
	case z.WriteFaults*2 >= int64(z.Pages):
		return has("fingerprint", s.Text, "a read maps the zero page")
	default:
		return has("fingerprint", s.Text, "a read allocates")
	}
}

func loadText(l [3]float64) string {
	return fmt.Sprintf("%.2f %.2f %.2f", l[0], l[1], l[2])
}

func condLoad(r *result.Result, s findings.Sentence) error {
	b, a := r.Conditions.Before, r.Conditions.After
	return has("load", s.Text, loadText(b.Loadavg)+" before ("+b.Time+")", loadText(a.Loadavg)+" after ("+a.Time+")")
}

// condDuring: each CPU's busy share, every other process that used 1% of a
// CPU or more named, and none below.
func condDuring(r *result.Result, s findings.Sentence) error {
	d := r.Conditions.During
	if d == nil {
		return fail("a line of what ran during the run, which was not sampled")
	}
	for i, b := range d.BusyPct {
		if err := has("during", s.Text, fmt.Sprintf("CPU %d %.0f%% busy", i, b)); err != nil {
			return err
		}
	}
	for _, p := range d.Busiest {
		named := strings.Contains(s.Text, fmt.Sprintf("(pid %d)", p.PID))
		if named != (p.BusyPct >= 1) {
			return fail("during: %s (pid %d) used %.2f%% of a CPU, named: %v", p.Command, p.PID, p.BusyPct, named)
		}
	}
	return nil
}

func condProtocol(r *result.Result, s findings.Sentence) error {
	p := r.Protocol
	want := []string{fmt.Sprintf("reps=%d runs=%d", p.Reps, p.Runs), fmt.Sprintf("warmup=%d", p.Warmup)}
	if p.Pin != nil {
		want = append(want, fmt.Sprintf("pin=%d", *p.Pin))
	} else {
		want = append(want, "(not pinned)")
	}
	if p.Elements != nil {
		want = append(want, fmt.Sprintf("elements=%d", *p.Elements))
	}
	if err := has("protocol", s.Text, want...); err != nil {
		return err
	}
	if strings.Contains(s.Text, " load=") != (p.Load > 0) {
		return fail("protocol: load=%d", p.Load)
	}
	// The harness's system calls, as its processes counted them (their
	// syscalls records), or nothing of them.
	if h := p.HarnessSyscalls; h != nil {
		return has("protocol", s.Text, fmt.Sprintf("%d between a discarded pass", h.AfterDiscarded), fmt.Sprintf("at most %d between two measured passes", h.Between))
	}
	if strings.Contains(s.Text, "system calls") {
		return fail("protocol: system calls named where no process counted them")
	}
	return nil
}

func condKernel(r *result.Result, s findings.Sentence) error {
	k := r.Kernel
	bin := k.BinarySHA256
	if len(bin) > 12 {
		bin = bin[:12]
	}
	return has("kernel", s.Text, "kernel: "+k.Name+" ("+k.Lang+")", k.Compiler, "flags "+strings.Join(k.Flags, " "), "binary "+bin)
}
