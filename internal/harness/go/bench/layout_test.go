package bench

import "testing"

// Byte counts parse as the C driver's parse_u64 does: decimal digits only,
// so "0100" is 100 in both drivers (flag.Int64 would read it as octal).
func TestDecimal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{{"0", 0, true}, {"0100", 100, true}, {"67108864", 64 << 20, true}, {"-1", 0, false}, {"0x10", 0, false}, {"+5", 0, false}, {"", 0, false}} {
		var n int64
		err := decimal(&n)(tc.in)
		if (err == nil) != tc.ok || (tc.ok && n != tc.want) {
			t.Errorf("%q: %d, %v; want %d, ok=%v", tc.in, n, err, tc.want, tc.ok)
		}
	}
}

// padStack runs f once, at any pad; padFrame's frame is measured the same
// every time.
func TestPadStack(t *testing.T) {
	for _, n := range []int64{0, 1, 1000, 100000} {
		calls := 0
		padStack(n, func() { calls++ })
		if calls != 1 {
			t.Errorf("pad %d: f ran %d times", n, calls)
		}
	}
	if a, b := frameSize(), frameSize(); a != b || a == 0 {
		t.Errorf("frame sizes %d and %d", a, b)
	}
}
