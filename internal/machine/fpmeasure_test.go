package machine

import (
	"runtime"
	"testing"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// A fingerprint measured here: every entry, with its trials and a noise
// of at least its floor; latencies of at least a cycle; robust properties
// only (the values are the machine's).
func TestMeasureFingerprint(t *testing.T) {
	measuretest.Gate(t)
	f := MeasureFingerprint(FingerprintOptions{CPU: 0})
	want := []string{"int_add", "addss", "addsd", "mulsd", "load", "chase_16K", "chase_256K", "chase_4M", "chase_64M", "stream_read", "clock_grid", "clock_read"}
	if len(f.Entries) != len(want) {
		t.Fatalf("%d entries, want %d: %+v (notes %q)", len(f.Entries), len(want), f.Entries, f.Notes)
	}
	for i, e := range f.Entries {
		fl := entryFloors[e.Name]
		if e.Name != want[i] || len(e.Trials) != fpTrials || e.Value <= 0 || e.Noise < fl.rel*e.Value-1e-12 || e.Noise < fl.abs {
			t.Errorf("entry %d: %+v", i, e)
		}
		if e.Unit == "cycles" && (e.Value < 0.9 || e.Value > 50) {
			t.Errorf("%s: %g cycles for a dependent instruction", e.Name, e.Value)
		}
	}
	// 64 MiB is far beyond any L1: a chase there is slower than one in 16 KiB.
	if f.Entry("chase_64M").Value < 3*f.Entry("chase_16K").NS {
		t.Errorf("chase at 64 MiB %g ns, at 16 KiB %g ns", f.Entry("chase_64M").Value, f.Entry("chase_16K").NS)
	}
	// The private levels in cycles, the shared ones in ns.
	for name, unit := range map[string]string{"chase_16K": "cycles", "chase_256K": "cycles", "chase_4M": "ns", "chase_64M": "ns"} {
		if e := f.Entry(name); e.Unit != unit || e.NS <= 0 || e.Cycles <= 0 {
			t.Errorf("%s: %+v, want it in %s with both ns and cycles", name, e, unit)
		}
	}
	// A stream through 64 MiB moves between a tenth of a byte and a few
	// hundred bytes per ns on any machine; each trial reads all of it.
	if s := f.Entry(StreamEntry); s.Unit != "GB/s" || s.Value < 0.1 || s.Value > 1000 || s.Bytes != 64<<20 || !s.Shared() || s.Identity() {
		t.Errorf("stream %+v", s)
	}
	if f.ZeroPage == nil || f.Boot.Cmdline == "" || f.CPU != 0 || f.Exact != (runtime.GOARCH == "amd64") {
		t.Errorf("fingerprint %+v", f)
	}
	if d := DiffFingerprints(&f, &f); d.Verdict != HardwareSame {
		t.Errorf("a fingerprint against itself: %q", d.Verdict)
	}
}

func TestSkippedFingerprint(t *testing.T) {
	f := MeasureFingerprint(FingerprintOptions{CPU: -1, Skip: "fingerprint=off"})
	if len(f.Entries) != 0 || f.ZeroPage != nil || f.Skipped != "fingerprint=off" || f.Boot.Cmdline == "" {
		t.Errorf("skipped fingerprint %+v", f)
	}
}
