package protocol

import (
	"github.com/benchbook/benchbook/internal/numtext"
)

// The names of internal/numtext (how numbers are written): protocol.X is
// numtext.X.
// FormatNS is numtext.FormatNS.
func FormatNS(ns float64) string { return numtext.FormatNS(ns) }

// FormatPct is numtext.FormatPct.
func FormatPct(frac float64) string { return numtext.FormatPct(frac) }

// FormatRatio is numtext.FormatRatio.
func FormatRatio(x float64) string { return numtext.FormatRatio(x) }

// FormatInterval is numtext.FormatInterval.
func FormatInterval(lo, hi float64) string { return numtext.FormatInterval(lo, hi) }

// FormatCount is numtext.FormatCount.
func FormatCount(n int64) string { return numtext.FormatCount(n) }

// FormatBigRatio is numtext.FormatBigRatio.
func FormatBigRatio(x float64) string { return numtext.FormatBigRatio(x) }

// FormatSize is numtext.FormatSize.
func FormatSize(n int64) string { return numtext.FormatSize(n) }

// FormatBytes is numtext.FormatBytes.
func FormatBytes(b int64) string { return numtext.FormatBytes(b) }

// ParseSize is numtext.ParseSize.
func ParseSize(s string) (int64, error) { return numtext.ParseSize(s) }

// Bounded is numtext.Bounded.
func Bounded(lo, hi float64) bool { return numtext.Bounded(lo, hi) }
