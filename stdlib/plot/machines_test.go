package plot

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"testing"
)

func TestMachines(t *testing.T) {
	machines := []string{"node-a", "node-b", "node-c"}
	series := []MachineSeries{
		{Variant: "sink", Points: []MachinePoint{{1e6, 0.96e6, 1.04e6}, {1.9e6, 1.8e6, 2e6}, {1.02e6, 0, 0}}},
		{Variant: "discarded", Points: []MachinePoint{{22, 21, 23}, {0, 0, 0}, {23, 22, 24}}},
		{Variant: "checksum", Points: []MachinePoint{{1e6, 0.95e6, 1.05e6}, {1.85e6, 1.7e6, 2e6}, {1.01e6, 0.99e6, 1.03e6}}},
	}
	f, err := Machines("seed on 3 machines", machines, 0, series)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(f.PNG))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 1000 || b.Dy() < 500 {
		t.Errorf("a %v picture", b)
	}
	if dir := os.Getenv("BENCHBOOK_PLOT_DIR"); dir != "" {
		_ = os.WriteFile(dir+"/machines.png", f.PNG, 0o644)
	}
	for name, tc := range map[string]struct {
		machines []string
		ref      int
		series   []MachineSeries
	}{
		"one machine":      {machines[:1], 0, series},
		"no variants":      {machines, 0, nil},
		"bad reference":    {machines, 3, series},
		"nothing measured": {machines, 0, []MachineSeries{{Variant: "x", Points: make([]MachinePoint, 3)}}},
	} {
		if _, err := Machines("t", tc.machines, tc.ref, tc.series); err == nil {
			t.Errorf("%s: no error", name)
		} else if name != "bad reference" && !errors.Is(err, ErrNoData) {
			t.Errorf("%s: %v, want ErrNoData", name, err)
		}
	}
}
