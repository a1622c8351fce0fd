package protocol

import "testing"

func TestFormat(t *testing.T) {
	cases := []struct{ got, want string }{
		{FormatNS(21.5), "21.5 ns"},
		{FormatNS(498374), "498 µs"},
		{FormatNS(1.414351e6), "1.41 ms"},
		{FormatNS(3e9), "3 s"},
		{FormatNS(999999), "1 ms"}, // the unit after rounding, not "1000 µs"
		{FormatNS(999.6), "1 µs"},
		{FormatNS(999.4), "999 ns"},
		{FormatNS(-999999), "-1 ms"},
		{FormatNS(0), "0 ns"},
		{FormatPct(0.239), "23.9%"},
		{FormatPct(21.5 / 724288), "0.003%"},
		{FormatPct(0), "0%"},
		{FormatRatio(1.0021), "1.002"},
		{FormatRatio(33687.8), "33688"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
