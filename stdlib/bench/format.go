package bench

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatNS writes a duration in the unit that suits it: 21 ns, 498 µs, 1.41 ms.
// The unit is chosen after rounding to three significant digits, so that
// 999,999 ns reads 1 ms, not 1000 µs.
func FormatNS(ns float64) string {
	if ns != 0 && !math.IsInf(ns, 0) && !math.IsNaN(ns) {
		p := math.Pow(10, math.Floor(math.Log10(math.Abs(ns)))-2)
		ns = math.Round(ns/p) * p
	}
	abs := math.Abs(ns)
	switch {
	case abs >= 1e9:
		return sig(ns/1e9) + " s"
	case abs >= 1e6:
		return sig(ns/1e6) + " ms"
	case abs >= 1e3:
		return sig(ns/1e3) + " µs"
	}
	return sig(ns) + " ns"
}

// sig writes x with three significant digits, no exponent, no trailing zeros.
func sig(x float64) string {
	if x == 0 {
		return "0"
	}
	digits := 3 - int(math.Floor(math.Log10(math.Abs(x)))) - 1
	if digits < 0 {
		digits = 0
	}
	s := strconv.FormatFloat(x, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// FormatPct writes a fraction as a percentage: 0.239 -> "23.9%"; below
// 0.1% with two significant digits (0.0029%), so a small share never reads 0%.
func FormatPct(frac float64) string {
	p := frac * 100
	if p != 0 && math.Abs(p) < 0.1 {
		return strconv.FormatFloat(p, 'g', 2, 64) + "%"
	}
	return sig1(p) + "%"
}

// sig1 writes a percentage with one decimal below 100, none above.
func sig1(x float64) string {
	if math.Abs(x) >= 100 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	s := strconv.FormatFloat(x, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0")
}

// FormatRatio writes a ratio with three decimals below 10 and three
// significant digits above: 1.002, 0.998, 24100.
func FormatRatio(x float64) string {
	if math.Abs(x) < 10 {
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	if math.Abs(x) >= 1000 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return sig(x)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// FormatInterval is an interval of ratios, "[lo, hi]", or "none" when the
// samples did not bound it (Bounded).
func FormatInterval(lo, hi float64) string {
	if !Bounded(lo, hi) {
		return "none"
	}
	return fmt.Sprintf("[%s, %s]", FormatRatio(lo), FormatRatio(hi))
}

// FormatCount writes an integer with thousands separators: 1,000,000.
func FormatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// FormatBigRatio writes a ratio as FormatRatio does below 1000 and above with
// three significant digits and thousands separators: 13,800.
func FormatBigRatio(x float64) string {
	if x < 1000 {
		return FormatRatio(x)
	}
	p := math.Pow(10, math.Floor(math.Log10(x))-2)
	return FormatCount(int64(math.Round(x/p) * p))
}

// joinAnd lists names in prose: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
