// Package numtext writes the numbers of a result as its sentences,
// messages and labels print them (nanoseconds, percentages, ratios,
// intervals, counts, byte sizes), and reads a size back (ParseSize). It
// imports nothing of the module: every package that writes a figure can
// use it.
package numtext

import (
	"fmt"
	"math"
	"regexp"
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
		return Sig(ns/1e9) + " s"
	case abs >= 1e6:
		return Sig(ns/1e6) + " ms"
	case abs >= 1e3:
		return Sig(ns/1e3) + " µs"
	}
	return Sig(ns) + " ns"
}

// Sig writes x with three significant digits, no exponent, no trailing zeros.
func Sig(x float64) string {
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
	return Sig1(p) + "%"
}

// Sig1 writes a percentage with one decimal below 100, none above.
func Sig1(x float64) string {
	if math.Abs(x) >= 100 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	s := strconv.FormatFloat(x, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0")
}

// FormatRatio writes a ratio with three decimals below 10, three
// significant digits up to 1000 and a whole number from there: 1.002,
// 0.998, 24.1, 31282.
func FormatRatio(x float64) string {
	if math.Abs(x) < 10 {
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	if math.Abs(x) >= 1000 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return Sig(x)
}

// Plural writes n and the noun, with an s unless n is 1: "1 block", "3 blocks".
func Plural(n int, noun string) string {
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

// JoinAnd lists names in prose: "a", "a and b", "a, b and c".
func JoinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// FormatSize writes n as ParseSize reads it, with the largest exact suffix:
// 4096 is "4K", 1536 is "1536" (FormatBytes writes "1.5K").
func FormatSize(n int64) string { return formatBinary(n, true) }

// FormatBytes writes a byte count with a binary suffix, the quotient to three
// significant digits: 48K, 1M, 1.5M (FormatSize writes 1536K for the last).
func FormatBytes(b int64) string { return formatBinary(b, false) }

// binarySuffixes are the multiples of 1024 that ParseSize reads, largest
// first.
var binarySuffixes = [...]struct {
	s string
	m int64
}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}}

// formatBinary writes n with the largest binary suffix it reaches: exact,
// only a suffix that divides n, with the whole quotient (ParseSize reads it
// back as n); otherwise the quotient to three significant digits. Without a
// suffix it is the decimal integer.
func formatBinary(n int64, exact bool) string {
	for _, u := range binarySuffixes {
		switch {
		case exact && n >= u.m && n%u.m == 0:
			return strconv.FormatInt(n/u.m, 10) + u.s
		case !exact && float64(n) >= float64(u.m):
			return Sig(float64(n)/float64(u.m)) + u.s
		}
	}
	return strconv.FormatInt(n, 10)
}

// ShortHash is the first 12 hex digits of a hash, as messages print it.
func ShortHash(h string) string { return h[:min(len(h), 12)] }

// sizeRE is a sweep value: digits and an optional K, M or G (1024s).
var sizeRE = regexp.MustCompile(`^([0-9]+)([KMG]?)$`)

// ParseSize reads 4096, 4K, 64M or 1G (K, M, G are multiples of 1024).
func ParseSize(s string) (int64, error) {
	m := sizeRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("%q is not a size: write digits with an optional K, M or G (multiples of 1024), e.g. 4K or 64M", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is too large", s)
	}
	mult := map[string]int64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m[2]]
	if n <= 0 {
		return 0, fmt.Errorf("%q: sweep values are positive", s)
	}
	if n > math.MaxInt64/mult/1024 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}

// Bounded says whether [lo, hi] is an interval the samples bounded: a
// verdict whose samples cannot bound it (too few, a sample of zero) keeps
// [0, +Inf], which a result stores as [0, 0].
func Bounded(lo, hi float64) bool { return lo > 0 && hi >= lo }
