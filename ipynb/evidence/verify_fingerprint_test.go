package evidence

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
)

// A measured fingerprint verifies; one edited to read as other hardware
// without its trials, or a zero page said mapped that allocated, does not.
func TestVerifyFingerprint(t *testing.T) {
	f := machine.MeasureFingerprint(machine.FingerprintOptions{CPU: -1})
	r := benchtest.Seed000(3)
	r.Conditions.Fingerprint = &f
	if ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r))); !ok {
		t.Fatalf("a measured fingerprint: %s", out)
	}
	for _, tc := range []struct {
		name string
		edit func(f *machine.Fingerprint)
		want string
	}{
		{"addss edited to 3 cycles", func(f *machine.Fingerprint) { f.Entry("addss").Value = 3 }, "entry addss: value 3, but the median of its trials"},
		{"a narrower noise", func(f *machine.Fingerprint) { f.Entry("chase_4M").Noise /= 10 }, "entry chase_4M: noise"},
		{"the zero page", func(f *machine.Fingerprint) { f.ZeroPage.Mapped = !f.ZeroPage.Mapped }, "zero_page: mapped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := f
			g.Entries = append([]machine.Entry{}, f.Entries...)
			z := *f.ZeroPage
			g.ZeroPage = &z
			tc.edit(&g)
			r := benchtest.Seed000(3)
			r.Conditions.Fingerprint = &g
			ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r)))
			if ok || !strings.Contains(out, tc.want) {
				t.Errorf("ok %t, want a mismatch saying %q:\n%s", ok, tc.want, out)
			}
		})
	}
}

// The clock's granularity is recomputed from its spaced runs.
func TestVerifyClockGrid(t *testing.T) {
	r := benchtest.Seed000(4)
	r.Conditions.Clock.Spaced, r.Conditions.Clock.MinStepNS, r.Conditions.Clock.ResolutionNS = "20-21,30-31,40", 20, 10
	if ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r))); !ok {
		t.Fatalf("a 10 ns grid: %s", out)
	}
	r = benchtest.Seed000(4)
	r.Conditions.Clock.Spaced, r.Conditions.Clock.MinStepNS, r.Conditions.Clock.ResolutionNS = "20-21,30-31,40", 20, 1
	if ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r))); ok || !strings.Contains(out, "resolution_ns 1, but the grid of its spaced deltas (20-21,30-31,40) is 10") {
		t.Errorf("an edited resolution: ok %t\n%s", ok, out)
	}
}
