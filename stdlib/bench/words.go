package bench

import (
	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
)

// Sentence is one thing a result shows, written once from its numbers:
// its Topic (TopicControl, ...), the Variant it is about ("" for the whole
// run), its Text, and the Claim it makes.
type Sentence = findings.Sentence

// HeadlineLine is the answer of a run for one variant, in one line: the
// first output of %bench. Verdict is the verdict word.
type HeadlineLine = findings.HeadlineLine

// CurvePoint is one point of a sweep's curve: its working set X, its time
// per element samples and the fresh processes' as a check.
type CurvePoint = findings.CurvePoint

// Fall is a point of a curve slower than the next, larger one (FindFalls).
type Fall = findings.Fall

// TopicControl is the topic of the sentences that say what a control
// (pages=, pad=) showed.
const TopicControl = findings.TopicControl

// StepRatio is the least rise of the median time per element between two
// consecutive points of a sweep that is called a step (besides, the two
// points' interquartile ranges must not overlap).
const StepRatio = findings.StepRatio

// CheckRatio is the least ratio of the fresh processes' medians that
// confirms a step: half of StepRatio's rise.
const CheckRatio = findings.CheckRatio

// Sentences writes every sentence about a result, topic by topic: the
// findings and the commentary.
func Sentences(r *Result) []Sentence { return findings.Sentences(r) }

// Headline is one line per measured variant, the verdict first, then the
// lines about the run: what the first output of %bench shows.
func Headline(r *Result) []HeadlineLine { return findings.Headline(r) }

// SweepSentences writes the sentences about a sweep from its points' results:
// the caches, each step and the cache level it crosses, the prediction.
func SweepSentences(rs []*Result) []Sentence { return findings.SweepSentences(rs) }

// SweepHeadline is the answer of a sweep, one line per live variant: its
// time per element from the first point to the last and where it steps.
func SweepHeadline(rs []*Result) []HeadlineLine { return findings.SweepHeadline(rs) }

// FindFalls finds where a curve ordered by X falls between consecutive
// points by StepRatio or more, beyond both points' spread: one of the two
// points was disturbed, and the curve there says nothing.
func FindFalls(curve []CurvePoint) []Fall { return findings.FindFalls(curve) }

// FormatNS writes a duration in the unit that suits it: 21 ns, 498 µs,
// 1.41 ms, to three significant digits.
func FormatNS(ns float64) string { return numtext.FormatNS(ns) }

// FormatRatio writes a ratio with three decimals below 10, three
// significant digits up to 1000 and a whole number from there: 1.002,
// 0.998, 24.1, 31282.
func FormatRatio(x float64) string { return numtext.FormatRatio(x) }

// FormatPct writes a fraction as a percentage: 0.239 -> "23.9%"; below 0.1%
// with two significant digits, so a small share never reads 0%.
func FormatPct(frac float64) string { return numtext.FormatPct(frac) }

// FormatBytes writes a byte count with a binary suffix, to three
// significant digits: 48K, 1M, 1.5M.
func FormatBytes(b int64) string { return numtext.FormatBytes(b) }
