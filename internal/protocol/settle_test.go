package protocol

import (
	"slices"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/harness"
)

// argOf returns the value after name in args, or "" if there is none.
func argOf(args []string, name string) string {
	if i := slices.Index(args, name); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// The warmup counts toward the settle (settleCountsWarmup): a process settles only
// for what its warmup round is not expected to last, and not at all when
// the warmup alone lasts the bound; the floor of the adaptive settle
// shrinks the same way, for every binary of the run alike (the two sides
// of a before/after settle alike). Without the calibration's pass times
// the settle is the option's.
func TestSettleCountsWarmup(t *testing.T) {
	opt := DefaultOptions() // settle=100ms, floor 10ms, warmup 1
	r := &runner{k: &harness.Kernel{Binary: "/k"}, opt: opt, data: newCollected(), dir: t.TempDir()}
	r.data.passNS["short"] = 1e6 // 1 ms
	r.data.passNS["long"] = 60e6 // 60 ms
	args := func(slots []string, batch []int64, warm int) harness.Args {
		return harness.Args{Slots: slots, Batch: batch, SettleMS: 100, Warmup: warm, Rounds: 1}
	}
	r.data.passNS["mid"] = 30e6 // 30 ms
	cold := func(a harness.Args, v string) harness.Args { a.Cold = v; return a }
	one, two := []string{"long"}, []string{"long", "long"}
	cases := []struct {
		name, bin     string
		args          harness.Args
		settle, floor string
	}{
		{"a 1 ms pass", "/k", args([]string{"short"}, []int64{1}, 1), "99", "9"},
		{"batched 10 passes of 1 ms, two warmup rounds", "/k", args([]string{"short"}, []int64{10}, 2), "80", "0"},
		{"a 60 ms pass: the 40 ms left is less than a round", "/k", args(one, []int64{1}, 1), "0", "0"},
		{"a 30 ms pass: one 30 ms round fits in the 70 ms left", "/k", args([]string{"mid"}, []int64{1}, 1), "70", "0"},
		{"a 30 ms pass after its cold pass: 40 ms left", "/k", cold(args([]string{"mid"}, []int64{1}, 1), "mid"), "40", "0"},
		{"a 1 ms pass after its cold pass", "/k", cold(args([]string{"short"}, []int64{1}, 1), "short"), "98", "8"},
		{"a cold pass of a variant the calibration did not time", "/k", cold(args([]string{"short"}, []int64{1}, 1), "other"), "100", "10"},
		{"two 30 ms slots after a cold pass: the 10 ms left is less than a round", "/k", cold(args([]string{"mid", "mid"}, []int64{1, 1}, 1), "mid"), "0", "0"},
		{"a 30 ms and a 1 ms slot after a cold pass: 39 ms left, a round is 31", "/k", cold(args([]string{"mid", "short"}, []int64{1, 1}, 1), "mid"), "39", "0"},
		{"two slots whose round lasts the bound", "/k", args(two, []int64{1, 1}, 1), "0", "0"},
		{"no warmup", "/k", args(one, []int64{1}, 0), "100", "10"},
		{"a slot the calibration did not time", "/k", args([]string{"long", "other"}, []int64{1, 1}, 1), "100", "10"},
		{"the previous build of a before/after: the same settle as the new one", "/base", args(two, []int64{1, 1}, 1), "0", "0"},
		{"no -batch (the first execution)", "/k", harness.Args{Slots: one, SettleMS: 100, Warmup: 1}, "100", "10"},
	}
	for _, c := range cases {
		_, cmd := r.newProc(c.bin, "fresh", c.args)
		if got := argOf(cmd.Args, "-settle-ms"); got != c.settle {
			t.Errorf("%s: -settle-ms %s, want %s (%v)", c.name, got, c.settle, cmd.Args)
		}
		if got := argOf(cmd.Args, "-settle-min-ms"); got != c.floor {
			t.Errorf("%s: -settle-min-ms %s, want %s (%v)", c.name, got, c.floor, cmd.Args)
		}
	}
	if opt.Settle != 100*time.Millisecond || opt.SettleFloor() != 10*time.Millisecond || opt.Warmup != 1 {
		t.Fatalf("the defaults this test assumes changed: %v %v %d", opt.Settle, opt.SettleFloor(), opt.Warmup)
	}
}
