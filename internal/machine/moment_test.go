package machine

import (
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"
)

func TestNowVMEstimates(t *testing.T) {
	at := time.Date(2026, 9, 1, 12, 0, 0, 123456789, time.UTC)
	calls := 0
	m := nowFS(fixture(t, "vm"), at, func() (float64, error) { calls++; return 2345.6, nil })
	if m.Time != "2026-09-01T12:00:00.123456789Z" {
		t.Errorf("time %q", m.Time)
	}
	if m.Loadavg != [3]float64{0.74, 0.52, 0.25} {
		t.Errorf("loadavg %v", m.Loadavg)
	}
	if m.FreqKHz != nil || calls != 1 || m.FreqEstimateMHz != 2345.6 {
		t.Errorf("no cpufreq: FreqKHz %v, %d estimates, estimate %v; want nil, 1, 2345.6", m.FreqKHz, calls, m.FreqEstimateMHz)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"freq_khz":null`) {
		t.Errorf("JSON %s should carry freq_khz null", b)
	}
}

func TestNowLaptopReadsCpufreq(t *testing.T) {
	m := nowFS(fixture(t, "laptop"), time.Now(), func() (float64, error) {
		t.Error("estimated although cpufreq is there")
		return 0, nil
	})
	want := map[string]float64{"0": 3288160, "1": 3863518, "2": 1201693, "3": 400000}
	if !maps.Equal(m.FreqKHz, want) {
		t.Errorf("FreqKHz %v, want %v", m.FreqKHz, want)
	}
	if m.Loadavg != [3]float64{3.20, 9.11, 8.37} || m.FreqEstimateMHz != 0 || m.Notes != nil {
		t.Errorf("moment %+v", m)
	}
}

func TestNowNotes(t *testing.T) {
	m := nowFS(fixture(t, "empty"), time.Now(), func() (float64, error) { return 0, errors.New("estimate broke") })
	text := strings.Join(m.Notes, "; ")
	for _, want := range []string{"/proc/loadavg", "estimate broke"} {
		if !strings.Contains(text, want) {
			t.Errorf("notes %q lack %q", text, want)
		}
	}
}

func TestParseLoadavg(t *testing.T) {
	if _, err := parseLoadavg([]byte("0.5 0.4\n")); err == nil || !strings.Contains(err.Error(), "fewer than 3") {
		t.Errorf("two values: %v", err)
	}
	if _, err := parseLoadavg([]byte("0.5 x 0.3 1/2 3\n")); err == nil || !strings.Contains(err.Error(), `load average 2: "x"`) {
		t.Errorf("bad value: %v", err)
	}
}

func TestNowLive(t *testing.T) {
	m := Now()
	if _, err := time.Parse(time.RFC3339Nano, m.Time); err != nil {
		t.Errorf("time %q: %v", m.Time, err)
	}
	if m.FreqKHz == nil && m.FreqEstimateMHz == 0 {
		t.Errorf("no cpufreq and no estimate: %+v", m)
	}
	t.Logf("moment: %+v", m)
}
