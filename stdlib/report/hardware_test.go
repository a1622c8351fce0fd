package report

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/result"
)

// fp is a fingerprint as the Intel VM of this session measured it, each
// entry's trials spread by spread (a fraction) around its value, the
// noise from the trials as MeasureFingerprint would state it.
func fp(spread float64, values map[string]float64) *machine.Fingerprint {
	f := &machine.Fingerprint{Version: machine.FingerprintVersion, Host: "vm", CPU: -1, Exact: true, MS: 130,
		ZeroPage: &machine.ZeroPage{Mapped: true, Pages: 64, ReadFaults: 64, WriteFaults: 64},
		Boot:     machine.Boot{Cmdline: "console=ttyS0", PCID: "yes", Mitigations: map[string]string{"meltdown": "Not affected"}}}
	base := []struct {
		name, unit string
		v          float64
	}{{"int_add", "ns", 0.278}, {"addss", "cycles", 2}, {"addsd", "cycles", 2}, {"mulsd", "cycles", 3}, {"load", "cycles", 5},
		{"chase_16K", "ns", 1.39}, {"chase_256K", "ns", 4.44}, {"chase_4M", "ns", 64.4}, {"chase_64M", "ns", 207},
		{"clock_grid", "ns", 1}, {"clock_read", "ns", 22.9}}
	for _, b := range base {
		v := b.v
		if x, ok := values[b.name]; ok {
			v = x
		}
		e := machine.Entry{Name: b.name, Unit: b.unit, Value: v,
			Trials: []float64{v * (1 - spread), v * (1 - spread/2), v, v * (1 + spread/2), v * (1 + spread)}}
		f.Entries = append(f.Entries, e)
	}
	for i := range f.Entries {
		f.Entries[i].Noise = machine.NoiseOf(f.Entries[i])
	}
	return f
}

func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// "Same hardware" is tested both ways: the same fingerprint twice, noise
// within the spread both state, and a planted copy whose addss takes 3
// cycles against 2.
func TestCompareHardware(t *testing.T) {
	for _, tc := range []struct {
		name       string
		after      *machine.Fingerprint
		scale      float64
		want       []string
		notWant    []string
		slowerLead string
	}{
		// The entries that decide: addss, addsd, mulsd, load and clock_grid
		// (the chases and the stream are shared, int_add and clock_read state).
		{"the same fingerprint twice", fp(0.01, nil), 1,
			[]string{"seed: same hardware: Synthetic CPU", "the fingerprints agree within their noise (5 entries)"},
			[]string{"Different hardware"}, ""},
		{"noise within the stated spread", fp(0.03, map[string]float64{"addss": 2.08, "chase_64M": 225, "clock_read": 24, "int_add": 0.35}), 1,
			[]string{"seed: same hardware:"}, []string{"Different hardware"}, ""},
		{"addss 3 cycles against 2", fp(0.01, map[string]float64{"addss": 3}), 1.9,
			[]string{"seed: different hardware behind the same description: on the host of this run addss takes 3 cycles against 2",
				"ratios across the two compare hardware, not code"},
			[]string{"Same hardware", "same machine description"},
			"x slower in this run than in the previous run (interleaved medians"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, after := run(1, 1, 0.04), run(2, tc.scale, 0.04)
			before.Conditions.Fingerprint, after.Conditions.Fingerprint = fp(0.01, nil), tc.after
			d := Compare(before, after)
			text := flat(d.Text())
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("lacks %q:\n%s", w, d.Text())
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(text, w) {
					t.Errorf("says %q:\n%s", w, d.Text())
				}
			}
			if tc.slowerLead != "" {
				// The hardware leads (every ratio then compares hardware),
				// then the headline says slower where addss differs.
				hw := "seed: different hardware behind the same description: on the host of this run addss takes 3 cycles against 2"
				rest := strings.TrimPrefix(text, hw)
				if !strings.HasPrefix(text, hw) || !strings.Contains(rest, "ratios across the two compare hardware, not code. sink: 1.") ||
					!strings.Contains(rest, tc.slowerLead) || !strings.Contains(text, "across runs), where addss takes 3 cycles against 2") {
					t.Errorf("the comparison does not lead with addss, then say slower where it differs:\n%s", d.Text())
				}
				if !AnySlower(d.Headlines) {
					t.Errorf("no headline says slower: %+v", d.Headlines)
				}
			} else if AnySlower(d.Headlines) {
				t.Errorf("a headline says slower: %+v", d.Headlines)
			}
		})
	}
}

// compare names every stored condition that differs (it used to say "same
// machine description" when the clocksource, microcode and cache lists
// differed).
func TestCompareNamesEveryCondition(t *testing.T) {
	before, after := run(1, 1, 0.04), run(2, 1, 0.04)
	before.Conditions.Fingerprint, after.Conditions.Fingerprint = fp(0.01, nil), fp(0.01, nil)
	for _, r := range []*result.Result{before, after} {
		r.Conditions.Machine.Clocksource, r.Conditions.Machine.Microcode = "tsc", "0x1"
		for id := range 2 {
			r.Conditions.Machine.CPUs = append(r.Conditions.Machine.CPUs, machine.CPU{ID: id, Governor: "unknown",
				Caches: []machine.Cache{{Level: 1, Type: "Data", Size: "32K", Shared: "0"}, {Level: 2, Type: "Unified", Size: "512K", Shared: "0"}}})
		}
	}
	m := &after.Conditions.Machine
	m.Clocksource, m.Microcode = "kvm-clock", "0xdeadbeef"
	for i := range m.CPUs {
		m.CPUs[i].Caches = nil
	}
	after.Conditions.Fingerprint.ZeroPage.Mapped, after.Conditions.Fingerprint.ZeroPage.WriteFaults = false, 0
	after.Conditions.Fingerprint.Boot.Cmdline = "console=ttyS0 nopcid"
	if len(before.Conditions.Machine.CPUs) == 0 || len(before.Conditions.Machine.CPUs[0].Caches) == 0 {
		t.Fatal("the synthetic result lists no caches to remove")
	}
	d := Compare(before, after)
	text := flat(d.Text())
	for _, w := range []string{"Stored conditions that differ:", "clocksource tsc vs kvm-clock", "microcode 0x",
		"caches L1d", "vs none", "anonymous read maps the zero page", "vs allocates", "boot command line console=ttyS0 vs console=ttyS0 nopcid"} {
		if !strings.Contains(text, w) {
			t.Errorf("lacks %q:\n%s", w, d.Text())
		}
	}
	if strings.Contains(text, "Same machine description") || !strings.Contains(text, "seed: same hardware") {
		t.Errorf("the hardware is the same (the fingerprints agree) and the conditions differ:\n%s", d.Text())
	}
	for _, l := range strings.Split(d.Text(), "\n") {
		if len([]rune(l)) > TextWidth {
			t.Errorf("a line of %d runes: %q", len([]rune(l)), l)
		}
	}
}

// Headlines: one per variant, first; within the floor is not slower.
func TestCompareHeadlines(t *testing.T) {
	for _, tc := range []struct {
		scale float64
		want  string
	}{{1.3, "sink: 1.3"}, {0.5, "sink: 2.0"}, {1.03, "sink: no change beyond the run-to-run floor of 10.0% (1.0"}} {
		d := Compare(run(1, 1, 0.04), run(2, tc.scale, 0.04))
		verdict := map[bool]string{true: result.VerdictSlower, false: result.VerdictFaster}[tc.scale > 1]
		if tc.scale < 1.1 && tc.scale > 0.9 {
			verdict = VerdictWithin
		}
		if len(d.Headlines) != 2 || !strings.HasPrefix(flat(d.Text()), tc.want) || d.Headlines[0].Verdict != verdict {
			t.Errorf("scale %g: %d headlines, text starts\n%s", tc.scale, len(d.Headlines), d.Text())
		}
		if AnySlower(d.Headlines) != (tc.scale > 1.1) {
			t.Errorf("scale %g: AnySlower %t", tc.scale, AnySlower(d.Headlines))
		}
		if h := d.Headlines[1]; h.Variant != "discarded" || h.Verdict != result.VerdictDead {
			t.Errorf("the dead variant's headline: %+v", h)
		}
	}
}
