package measuretest

import (
	"strings"
	"testing"
	"time"
)

func TestFactorIsBoundedAndScales(t *testing.T) {
	f := Factor()
	if f < 1 || f > maxFactor {
		t.Fatalf("factor %v outside [1, %d]: %s", f, maxFactor, Explain())
	}
	if got := Scale(time.Second); got != time.Duration(float64(time.Second)*f) {
		t.Errorf("Scale(1s) = %v with factor %v", got, f)
	}
	t.Log(Explain())
}

func TestSkipReasonNamesTheTarget(t *testing.T) {
	t.Setenv("CI", "true")
	if r := skipReason(); !strings.Contains(r, "make test-measure") || !strings.Contains(r, "CI") {
		t.Errorf("under CI: %q", r)
	}
	t.Setenv("CI", "")
	if r := skipReason(); !strings.Contains(r, "make test-measure") || !strings.Contains(r, Env+"=1") {
		t.Errorf("outside CI: %q", r)
	}
}

func TestFactorOverride(t *testing.T) {
	t.Setenv(FactorEnv, "2.5")
	if f, s := measure(); f != 2.5 || !strings.Contains(s, FactorEnv) {
		t.Errorf("override: %v %q", f, s)
	}
	t.Setenv(FactorEnv, "0.5") // below 1: measured instead
	if f, _ := measure(); f < 1 {
		t.Errorf("factor %v below 1", f)
	}
}
