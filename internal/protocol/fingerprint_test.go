package protocol

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/measuretest"
)

func TestFingerprintOption(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		off  bool
		fail string
	}{{"fingerprint=off", true, ""}, {"fingerprint=on", false, ""}, {"fingerprint=no", false, "want fingerprint=off or fingerprint=on"}} {
		o, err := ParseOptions([]string{tc.arg})
		if tc.fail != "" {
			if err == nil || !strings.Contains(err.Error(), tc.fail) {
				t.Errorf("%s: %v, want an error saying %q", tc.arg, err, tc.fail)
			}
			continue
		}
		if err != nil || o.NoFingerprint != tc.off {
			t.Errorf("%s: NoFingerprint %t (%v), want %t", tc.arg, o.NoFingerprint, err, tc.off)
		}
	}
	if o := DefaultOptions(); o.NoFingerprint {
		t.Error("the fingerprint is off by default")
	}
}

// A real run records the fingerprint, and fingerprint=off records the
// boot conditions only, saying why.
func TestRunRecordsFingerprint(t *testing.T) {
	measuretest.Gate(t)
	k := seedKernel(t, "c")
	r := quickRun(t, k, "fingerprint=off", "variants=sink", "runs=10")
	f := r.Conditions.Fingerprint
	if f == nil || f.Skipped != "fingerprint=off" || len(f.Entries) != 0 || f.Boot.Cmdline == "" {
		t.Fatalf("fingerprint=off: %+v", f)
	}
	checkResult(t, r)
	r = quickRun(t, k, "variants=sink", "pin=0")
	if f := r.Conditions.Fingerprint; f == nil || f.Entry("addss") == nil || f.CPU != 0 || f.ZeroPage == nil {
		t.Fatalf("fingerprint: %+v", f)
	}
	checkResult(t, r)
	// The clock measured right (issue 20): the granularity from the spaced
	// runs, the read cost a median, both kept, and two different numbers.
	c := r.Conditions.Clock
	if c.Spaced == "" || c.ResolutionNS != ClockResolution(c.Spaced, c.MinStepNS) || c.ReadCostNS <= 0 || c.ReadCostMeanNS <= 0 ||
		c.MinStepNS < 1 || c.ResolutionNS == c.ReadCostNS {
		t.Errorf("clock %+v", c)
	}
}
