package bench

import "testing"

// predictK is testing.B's predictN; the C driver's predict_k is the same
// arithmetic. Each case is computed by hand in its reason.
func TestPredictK(t *testing.T) {
	tests := []struct {
		name, reason              string
		goal, prevK, prevNS, last int64
		want                      int64
	}{
		{"growth cap", "1 pass of 1 us for a 1 ms goal: 1000, +20% = 1200, but at most 100x of 1", 1e6, 1, 1000, 1, 100},
		{"aim 20% over", "100 passes in 100 us: 1e6*100/1e5 = 1000, + 1000/5 = 1200", 1e6, 100, 1e5, 100, 1200},
		{"integer steps", "100*3/7 = 42 (truncated), + 42/5 = 8 (truncated) = 50", 100, 3, 7, 3, 50},
		{"at least one more", "already over the goal: 1e6*10/2e6 = 5, + 1 = 6, raised to 10+1", 1e6, 10, 2e6, 10, 11},
		{"zero time", "a batch below the clock's step counts as 1 ns: 1.2e6, capped at 100x", 1e6, 1, 0, 1, 100},
		{"cap", "5e8 passes in 1 ns: 100x would be 5e10; never above 1e9", 1e9, 5e8, 1, 5e8, 1e9},
	}
	for _, tc := range tests {
		if got := predictK(tc.goal, tc.prevK, tc.prevNS, tc.last); got != tc.want {
			t.Errorf("%s: predictK = %d, want %d: %s", tc.name, got, tc.want, tc.reason)
		}
	}
}

// The order of a round, by hand for seed 0 and 3 slots: the first draw of
// splitmix64 is 0xE220A8397B1DCDAF, 0.88 of 2^64, times 3 is 2: slot 2
// stays; the second, 0x6E789E6AA1B965F4, is 0.43, times 2 is 0: slots 0 and
// 1 swap. Without a seed the order is the slot order.
func TestRoundOrder(t *testing.T) {
	d := &driver{slots: make([]*slot, 3), shuffle: true}
	d.roundOrder()
	if got := d.order; got[0] != 1 || got[1] != 0 || got[2] != 2 {
		t.Errorf("seed 0, 3 slots: %v, want [1 0 2]", got)
	}
	d = &driver{slots: make([]*slot, 3)}
	d.roundOrder()
	if got := d.order; got[0] != 0 || got[1] != 1 || got[2] != 2 {
		t.Errorf("no seed: %v, want [0 1 2]", got)
	}
}
