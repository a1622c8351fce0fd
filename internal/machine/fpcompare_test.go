package machine

import (
	"fmt"
	"strings"
	"testing"
)

// fingerprint is a fingerprint as this project's Intel VM measured it
// (values from a run of bench/fingerprint.sh), with its noises.
func fingerprint() *Fingerprint {
	f := &Fingerprint{Version: FingerprintVersion, Host: "node-a", CPU: -1, Exact: true,
		ZeroPage: &ZeroPage{Mapped: true, Pages: 64, ReadFaults: 64, WriteFaults: 64},
		Boot:     Boot{Cmdline: "console=ttyS0 quiet", PCID: "yes", Mitigations: map[string]string{"meltdown": "Not affected", "retbleed": "Vulnerable"}}}
	for _, e := range []struct {
		name, unit string
		trials     []float64
	}{
		{"int_add", "ns", []float64{0.246, 0.278, 0.278, 0.279, 0.279}},
		{"addss", "cycles", []float64{1.99, 2, 2, 2, 2}},
		{"addsd", "cycles", []float64{1.98, 2, 2, 2.07, 2}},
		{"mulsd", "cycles", []float64{2.98, 3, 3, 3, 3}},
		{"load", "cycles", []float64{4.97, 5, 5.01, 4.86, 5}},
		{"chase_16K", "ns", []float64{1.23, 1.54, 1.39, 1.62, 1.39}},
		{"chase_256K", "ns", []float64{4, 4.47, 4.44, 4.36, 4.48}},
		{"chase_4M", "ns", []float64{65.9, 70.4, 58, 62.9, 64.4}},
		{"chase_64M", "ns", []float64{208, 209, 203, 207, 206}},
		{"clock_grid", "ns", []float64{1, 1, 1, 1, 1}},
		{"clock_read", "ns", []float64{22.9, 22.9, 22.9, 22.9, 22.9}},
	} {
		en := Entry{Name: e.name, Unit: e.unit, Trials: e.trials, Value: Median(e.trials)}
		en.Noise = NoiseOf(en)
		f.Entries = append(f.Entries, en)
	}
	return f
}

// clone is a deep copy of f.
func clone(f *Fingerprint) *Fingerprint {
	g := *f
	g.Entries = append([]Entry{}, f.Entries...)
	z := *f.ZeroPage
	g.ZeroPage = &z
	g.Boot.Mitigations = map[string]string{}
	for k, v := range f.Boot.Mitigations {
		g.Boot.Mitigations[k] = v
	}
	return &g
}

func TestNoiseHasAFloor(t *testing.T) {
	f := fingerprint()
	for _, e := range f.Entries {
		fl := entryFloors[e.Name]
		if e.Noise < fl.rel*e.Value-1e-12 || e.Noise < fl.abs || e.Noise <= 0 {
			t.Errorf("%s: noise %g under its floor %+v of %g", e.Name, e.Noise, fl, e.Value)
		}
	}
	// One wild trial on either side does not widen the noise.
	e := Entry{Name: "addss", Unit: "cycles", Trials: []float64{2, 2, 2, 2, 9}, Value: 2}
	if n := NoiseOf(e); n != 0.1 {
		t.Errorf("noise with one wild trial %g, want the 5%% floor 0.1", n)
	}
	e.Trials = []float64{1.6, 1.8, 2, 2.2, 2.4}
	if n := NoiseOf(e); n < 0.4-1e-9 || n > 0.4+1e-9 {
		t.Errorf("noise of trials spread 1.8-2.2 inside: %g, want 0.4", n)
	}
}

func TestSameHardware(t *testing.T) {
	a := fingerprint()
	for _, tc := range []struct {
		name    string
		edit    func(*Fingerprint)
		want    string
		differs []string // identity entries that differ, in order
	}{
		{"the same fingerprint twice", func(*Fingerprint) {}, HardwareSame, nil},
		// Every value moved by 90% of its own noise, half of them down:
		// within the noise both state.
		{"noise within the stated spread", func(f *Fingerprint) {
			for i := range f.Entries {
				sign := 1.0
				if i%2 == 1 {
					sign = -1
				}
				f.Entries[i].Value += sign * 0.9 * f.Entries[i].Noise
			}
		}, HardwareSame, nil},
		// The published notebook's host against the one before: addss at
		// 3 cycles against 2.
		{"addss 3 cycles against 2", func(f *Fingerprint) { f.Entries[1].Value, f.Entries[1].Trials = 3, []float64{3, 3, 3, 3, 3} }, HardwareDifferent, []string{"addss"}},
		{"a 10 ns clock grid and a slower DRAM", func(f *Fingerprint) {
			f.Entry("clock_grid").Value = 10
			f.Entry("chase_64M").Value = 320
		}, HardwareDifferent, []string{"clock_grid"}},
		// Memory shared with other work: another process on the other
		// vCPU moved the 64 MiB chase from 230 to 661 ns on one host.
		{"only the shared levels differ", func(f *Fingerprint) {
			f.Entry("chase_64M").Value = 661
			f.Entry("chase_4M").Value = 150
		}, HardwareSame, nil},
		// The clock of the moment is not the hardware: a 30% slower
		// integer chain alone is the same hardware, boosted less.
		{"only the clock differs", func(f *Fingerprint) { f.Entry("int_add").Value *= 1.3 }, HardwareSame, nil},
		// The read cost of the clock moves with load: a second run a
		// minute later at load 9 read 37.0 ns against 27.2 on this VM.
		{"only the clock's read cost differs", func(f *Fingerprint) { f.Entry("clock_read").Value *= 1.36 }, HardwareSame, nil},
		// The kernel's conditions are not hardware; they are said apart.
		{"the zero page and a mitigation differ", func(f *Fingerprint) {
			f.ZeroPage.Mapped, f.ZeroPage.WriteFaults = false, 0
			f.Boot.Mitigations["retbleed"] = "Mitigation: IBRS"
		}, HardwareSame, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := clone(a)
			tc.edit(b)
			d := DiffFingerprints(a, b)
			if d.Verdict != tc.want {
				t.Errorf("verdict %q, want %q (%+v)", d.Verdict, tc.want, d.Differing())
			}
			var names []string
			for _, e := range d.Differing() {
				names = append(names, e.Name)
			}
			if strings.Join(names, ",") != strings.Join(tc.differs, ",") {
				t.Errorf("differing %v, want %v", names, tc.differs)
			}
			if tc.name == "only the shared levels differ" && len(d.SharedDiffering()) != 2 {
				t.Errorf("shared differing %+v, want chase_4M and chase_64M", d.SharedDiffering())
			}
			for i, e := range d.Entries {
				if i < len(names) && (!e.Differs || !e.Identity) {
					t.Errorf("entry %d (%s) is not a differing one, yet the differing ones come first", i, e.Name)
				}
			}
		})
	}
}

func TestDiffNamesTheDifference(t *testing.T) {
	a, b := fingerprint(), fingerprint()
	b.Entries[1].Value = 3
	b.ZeroPage.Mapped, b.ZeroPage.WriteFaults = false, 0
	b.Boot.Mitigations["retbleed"] = "Mitigation: IBRS"
	delete(b.Boot.Mitigations, "meltdown")
	d := DiffFingerprints(a, b)
	if got := d.Differing()[0].Phrase(); got != "addss takes 3 cycles against 2" {
		t.Errorf("phrase %q", got)
	}
	if got := (EntryDiff{Name: StreamEntry, Unit: "GB/s", A: 23.1, B: 11.2}).Phrase(); got != "stream_read reads 11.2 GB/s against 23.1" {
		t.Errorf("phrase %q", got)
	}
	want := [][3]string{
		{"anonymous read", "maps the zero page (of 64 pages read then written, the writes faulted 64)", "allocates (of 64 pages read then written, the writes faulted 0)"},
		{"mitigation meltdown", "Not affected", "(none)"},
		{"mitigation retbleed", "Vulnerable", "Mitigation: IBRS"},
	}
	if len(d.Conditions) != len(want) {
		t.Fatalf("conditions %q, want %q", d.Conditions, want)
	}
	for i := range want {
		if d.Conditions[i] != want[i] {
			t.Errorf("condition %d: %q, want %q", i, d.Conditions[i], want[i])
		}
	}
}

func TestDiffWithoutFingerprint(t *testing.T) {
	a := fingerprint()
	off := &Fingerprint{Version: FingerprintVersion, Skipped: "fingerprint=off", Boot: a.Boot}
	other := clone(a)
	other.Version++
	for _, tc := range []struct {
		name string
		b    *Fingerprint
		why  string
	}{
		{"none", nil, "has no fingerprint"},
		{"skipped", off, "fingerprint=off"},
		{"another version", other, fmt.Sprintf("versions %d and %d", FingerprintVersion, FingerprintVersion+1)},
	} {
		d := DiffFingerprints(a, tc.b)
		if d.Verdict != HardwareUnknown || !strings.Contains(d.Why, tc.why) {
			t.Errorf("%s: verdict %q (%s), want unknown saying %q", tc.name, d.Verdict, d.Why, tc.why)
		}
	}
}

func TestFormatEntryValue(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		unit string
		want string
	}{{2.02, "cycles", "2 cycles"}, {3.1, "cycles", "3.1 cycles"}, {741.9, "cycles", "742 cycles"}, {207.3, "ns", "207 ns"}, {1.392, "ns", "1.39 ns"}} {
		if got := FormatEntryValue(tc.v, tc.unit); got != tc.want {
			t.Errorf("FormatEntryValue(%g, %s) = %q, want %q", tc.v, tc.unit, got, tc.want)
		}
	}
}

// A fingerprint with the stream beside one from before it (the same
// version: the stream is one more entry, the others measured as before)
// is the same hardware, compared on the entries both have; two streams
// apart are said and decide nothing (memory is shared).
func TestDiffWithTheStream(t *testing.T) {
	old, now := fingerprint(), fingerprint()
	st := Entry{Name: StreamEntry, Unit: "GB/s", Value: 23, Trials: []float64{22, 23, 23, 24, 25}, Bytes: 64 << 20}
	st.Noise = NoiseOf(st)
	now.Entries = append(now.Entries, st)
	for _, d := range []FingerprintDiff{DiffFingerprints(old, now), DiffFingerprints(now, old)} {
		if d.Verdict != HardwareSame || len(d.Entries) != len(old.Entries) {
			t.Errorf("with and without the stream: %q, %d entries", d.Verdict, len(d.Entries))
		}
	}
	slow := fingerprint()
	st2 := st
	st2.Trials = []float64{10, 11, 11, 11, 12}
	st2.Value, st2.Noise = 11, 0
	st2.Noise = NoiseOf(st2)
	slow.Entries = append(slow.Entries, st2)
	d := DiffFingerprints(now, slow)
	if d.Verdict != HardwareSame || len(d.SharedDiffering()) != 1 || d.SharedDiffering()[0].Phrase() != "stream_read reads 11 GB/s against 23" {
		t.Errorf("two streams apart: %q, shared differing %+v", d.Verdict, d.SharedDiffering())
	}
}
