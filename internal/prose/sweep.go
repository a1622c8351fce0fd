package prose

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose/ceilings"
	"github.com/benchbook/benchbook/internal/prose/figures"
	"github.com/benchbook/benchbook/internal/result"
)

// The sweep's rule, restated (docs/sweep.md): a step is a rise of the
// median time per element of at least stepRatio between consecutive points
// beyond both interquartile ranges, on the interleaved rounds, that the
// fresh processes confirm by at least checkRatio; a fall is its mirror; a
// prediction interval wider than uninformative cannot hold a value
// inside it (it can exclude one).
const (
	stepRatio     = 1.3
	checkRatio    = 1.15
	uninformative = 4.0
	minFresh      = 10
)

// SweepOracle says whether a sentence about a sweep holds for the sweep's
// results (every point): nil when it does, else why not.
type SweepOracle func(rs []*result.Result, s findings.Sentence) error

var sweepOracles = map[string]SweepOracle{
	findings.ClaimSweepCaches:       sweepCaches,
	findings.ClaimSweepBytesUnknown: sweepBytesUnknown,
	findings.ClaimSweepSpan:         sweepSpan,
	findings.ClaimSweepStep:         sweepStep,
	findings.ClaimSweepUnchecked:    sweepUnchecked,
	findings.ClaimSweepNoStep:       sweepNoStep,
	findings.ClaimSweepFall:         sweepFall,
	findings.ClaimSweepPrediction:   sweepPrediction,
	findings.ClaimBWOver:            sweepBWOf(ceilings.BWOver),
	findings.ClaimBWAt:              sweepBWOf(ceilings.BWAt),

	findings.ClaimSweepHeadline:        sweepHeadline,
	findings.ClaimSweepHeadlineNotLive: sweepHeadlineNotLive,
	// A quick sweep's headline says so, as a result's: every point quick.
	findings.ClaimHeadlineQuick: func(rs []*result.Result, s findings.Sentence) error {
		for _, r := range rs {
			if err := headlineQuick(r, s); err != nil {
				return fmt.Errorf("point %s: %w", result.PointLabel(r), err)
			}
		}
		return nil
	},
}

// SweepClaims lists every claim a sweep oracle checks.
func SweepClaims() []string {
	out := make([]string, 0, len(sweepOracles))
	for c := range sweepOracles {
		out = append(out, c)
	}
	return out
}

// CheckSweep runs the oracle of s's claim on a sweep's results.
func CheckSweep(rs []*result.Result, s findings.Sentence) error {
	o, ok := sweepOracles[s.Claim]
	if !ok {
		return fmt.Errorf("claim %q: %w", s.Claim, ErrNoOracle)
	}
	return o(rs, s)
}

// CheckSweepAll runs the oracle of every sentence bench.SweepSentences
// writes for a sweep and of every line of its headline
// (bench.SweepHeadline), and says which fall they leave unsaid.
func CheckSweepAll(rs []*result.Result) []Failure {
	ss := findings.SweepSentences(rs)
	for _, l := range findings.SweepHeadline(rs) {
		ss = append(ss, l.Sentence())
	}
	return CheckSweepSentences(rs, ss)
}

// CheckSweepSentences runs the oracle of each sentence of ss on the sweep,
// then looks for what they leave out: a point slower than the larger one
// after it that no sentence flags (seen: a 4 KiB point slower than 16 KiB,
// its calibration disturbed, unflagged).
func CheckSweepSentences(rs []*result.Result, ss []findings.Sentence) []Failure {
	var out []Failure
	flagged := map[string]bool{}
	for _, s := range ss {
		if err := CheckSweep(rs, s); err != nil {
			out = append(out, Failure{Sentence: s, Err: err})
		}
		if s.Claim == findings.ClaimSweepFall {
			flagged[s.Variant+"|"+s.Key] = true
		}
	}
	for _, variant := range findings.SweepVariants(rs) {
		_, curves := findings.Curves(rs, variant)
		for _, c := range curves {
			for i := 0; i+1 < len(c); i++ {
				key := fmt.Sprintf("%d,%d", c[i].Index, c[i+1].Index)
				s := findings.Sentence{Claim: findings.ClaimSweepFall, Variant: variant, Key: key}
				if sweepFallData(rs, s) == nil && !flagged[variant+"|"+key] {
					out = append(out, Failure{Sentence: s, Err: fail("%s: point %s is slower than the larger one after it and no sentence says so", variant, key)})
				}
			}
		}
	}
	return out
}

// point is a sweep point as the oracles read it: time per element of the
// sentence's variant, interleaved and fresh, from the raw samples.
type point struct {
	r            *result.Result
	perEl, fresh []float64
	bytes        *int64
	batch        int
}

func pointsOf(rs []*result.Result, s findings.Sentence) ([]point, error) {
	var out []point
	for _, f := range strings.Split(s.Key, ",") {
		i, err := strconv.Atoi(f)
		if err != nil {
			return nil, fail("key %q: not a list of point indices", s.Key)
		}
		var r *result.Result
		for _, x := range rs {
			if x.Sweep != nil && x.Sweep.Index == i {
				r = x
			}
		}
		if r == nil {
			return nil, fail("key %q: no point %d", s.Key, i)
		}
		v := r.Variant(s.Variant)
		if v == nil {
			return nil, fail("point %d has no variant %s", i, s.Variant)
		}
		el := float64(max(r.Sweep.Elements, 1))
		p := point{r: r, bytes: r.Sweep.Bytes, batch: v.Batch}
		if v.Series.Interleaved != nil {
			for _, ns := range v.Series.Interleaved.SamplesNS {
				p.perEl = append(p.perEl, ns/el)
			}
		}
		if v.Series.Fresh != nil && len(v.Series.Fresh.SamplesNS) >= minFresh {
			for _, ns := range v.Series.Fresh.SamplesNS {
				p.fresh = append(p.fresh, ns/el)
			}
		}
		out = append(out, p)
	}
	for i := 1; i < len(out); i++ {
		if out[i-1].bytes != nil && out[i].bytes != nil && *out[i-1].bytes > *out[i].bytes {
			return nil, fail("key %q: points not in the order of their working sets", s.Key)
		}
	}
	return out, nil
}

// quantile is the p-quantile of x by linear interpolation between order
// statistics (the definition docs/sweep.md states).
func quantile(x []float64, p float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s) == 0 {
		return math.NaN()
	}
	h := p * float64(len(s)-1)
	lo := int(math.Floor(h))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// rises: b's median over a's is at least stepRatio and a's upper quartile
// lies below b's lower.
func rises(a, b []float64) bool {
	ma, mb := figures.Median(a), figures.Median(b)
	return ma > 0 && mb/ma >= stepRatio && quantile(a, 0.75) < quantile(b, 0.25)
}

// confirmed: the fresh processes rise by checkRatio, or there are too few
// of them to check.
func confirmed(a, b point) bool {
	if len(a.fresh) == 0 || len(b.fresh) == 0 {
		return true
	}
	ma, mb := figures.Median(a.fresh), figures.Median(b.fresh)
	return ma > 0 && mb/ma >= checkRatio
}

func pair(rs []*result.Result, s findings.Sentence) (point, point, error) {
	ps, err := pointsOf(rs, s)
	if err != nil {
		return point{}, point{}, err
	}
	if len(ps) != 2 {
		return point{}, point{}, fail("key %q: want two points", s.Key)
	}
	return ps[0], ps[1], nil
}

func sweepStep(rs []*result.Result, s findings.Sentence) error {
	a, b, err := pair(rs, s)
	if err != nil {
		return err
	}
	if !rises(a.perEl, b.perEl) {
		return fail("%s: a step from point %s, yet its interleaved medians %.4g -> %.4g ns per element do not rise %gx beyond their spread",
			s.Variant, s.Key, figures.Median(a.perEl), figures.Median(b.perEl), stepRatio)
	}
	if !confirmed(a, b) {
		return fail("%s: a step from point %s, yet the fresh processes rise only %.3gx", s.Variant, s.Key, figures.Median(b.fresh)/figures.Median(a.fresh))
	}
	return levelsNamed(rs, a, b, s)
}

var levelRE = regexp.MustCompile(`(L1d|L2|L3) \(([0-9.]+)([KMG]?)B\)`)

// levelsNamed: every level the sentence names lies at or between the two
// working sets, none that does is left out, and none comes from CPUID.
func levelsNamed(rs []*result.Result, a, b point, s findings.Sentence) error {
	caches := sweepCachesOf(rs)
	fromCPUID := len(caches) > 0 && strings.HasPrefix(caches[0].Source, "getconf")
	var between []string
	if a.bytes != nil && b.bytes != nil && !fromCPUID {
		for _, c := range caches {
			if *a.bytes <= c.Bytes && c.Bytes <= *b.bytes {
				between = append(between, c.Name)
			}
		}
	}
	var named []string
	if i := strings.Index(s.Text, "reaches or crosses"); i >= 0 {
		for _, m := range levelRE.FindAllStringSubmatch(s.Text[i:], -1) {
			named = append(named, m[1])
		}
	}
	if fromCPUID && len(named) > 0 {
		return fail("%s: names %v from CPUID's sizes", s.Variant, named)
	}
	if strings.Join(named, ",") != strings.Join(between, ",") {
		return fail("%s: names levels %v between points %s, the working sets hold %v", s.Variant, named, s.Key, between)
	}
	return nil
}

func sweepCachesOf(rs []*result.Result) []result.CacheMark {
	if sum := findings.SweepOf(rs); sum != nil {
		return sum.Caches
	}
	return nil
}

func sweepUnchecked(rs []*result.Result, s findings.Sentence) error {
	a, b, err := pair(rs, s)
	if err != nil {
		return err
	}
	if !rises(a.perEl, b.perEl) || len(a.fresh) == 0 || len(b.fresh) == 0 || confirmed(a, b) {
		return fail("%s: says the interleaved rounds rise from point %s and the fresh ones do not: interleaved %.4g -> %.4g, fresh %d and %d samples",
			s.Variant, s.Key, figures.Median(a.perEl), figures.Median(b.perEl), len(a.fresh), len(b.fresh))
	}
	return nil
}

// sweepFallData: the first point is slower per element than the second,
// larger one, by stepRatio beyond both spreads.
func sweepFallData(rs []*result.Result, s findings.Sentence) error {
	a, b, err := pair(rs, s)
	if err != nil {
		return err
	}
	ma, mb := figures.Median(a.perEl), figures.Median(b.perEl)
	if !(mb > 0 && ma/mb >= stepRatio && quantile(a.perEl, 0.25) > quantile(b.perEl, 0.75)) {
		return fail("%s: says point %s is slower than the larger one after it: medians %.4g and %.4g ns per element", s.Variant, s.Key, ma, mb)
	}
	return nil
}

func sweepFall(rs []*result.Result, s findings.Sentence) error {
	if err := sweepFallData(rs, s); err != nil {
		return err
	}
	a, b, _ := pair(rs, s)
	if strings.Contains(s.Text, "batches of") != (max(a.batch, 1) != max(b.batch, 1)) {
		return fail("%s: says the batches differ (%v), they are %d and %d", s.Variant, strings.Contains(s.Text, "batches of"), a.batch, b.batch)
	}
	return nil
}

var spanRE = regexp.MustCompile(`\(([0-9.]+)x\)$`)

func sweepSpan(rs []*result.Result, s findings.Sentence) error {
	a, b, err := pair(rs, s)
	if err != nil {
		return err
	}
	m := spanRE.FindStringSubmatch(s.Text)
	if m == nil {
		return fail("no ratio at the end of %q", s.Text)
	}
	said, _ := strconv.ParseFloat(m[1], 64)
	if got := figures.Median(b.perEl) / figures.Median(a.perEl); !figures.Near(said, got, 0.005) {
		return fail("%s: says %gx from first to last point, the medians give %.4g", s.Variant, said, got)
	}
	return nil
}

func sweepNoStep(rs []*result.Result, s findings.Sentence) error {
	ps, err := pointsOf(rs, s)
	if err != nil {
		return err
	}
	unchecked := false
	for i := 0; i+1 < len(ps); i++ {
		if rises(ps[i].perEl, ps[i+1].perEl) {
			if confirmed(ps[i], ps[i+1]) {
				return fail("%s: says no step, points %d and %d rise %.3gx beyond their spread, confirmed", s.Variant, i, i+1,
					figures.Median(ps[i+1].perEl)/figures.Median(ps[i].perEl))
			}
			unchecked = true
		}
	}
	if strings.Contains(s.Text, "is spread over") {
		first, last := ps[0], ps[len(ps)-1]
		if unchecked || figures.Median(last.perEl)/figures.Median(first.perEl) < stepRatio {
			return fail("%s: says a rise is spread over the points, yet an unconfirmed rise lies between two of them or the whole rise is %.3gx",
				s.Variant, figures.Median(last.perEl)/figures.Median(first.perEl))
		}
	}
	return nil
}

func sweepCaches(rs []*result.Result, s findings.Sentence) error {
	cs := sweepCachesOf(rs)
	if len(cs) == 0 {
		if !strings.Contains(s.Text, "not known") {
			return fail("no cache sizes are stored, the sentence names some")
		}
		return nil
	}
	for _, c := range cs {
		if !strings.Contains(s.Text, c.Name+" "+numtext.FormatBytes(c.Bytes)+"B") {
			return fail("caches: %s of %d bytes not in %q", c.Name, c.Bytes, s.Text)
		}
	}
	if !strings.Contains(s.Text, "("+cs[0].Source+")") {
		return fail("caches: the source %q is not said", cs[0].Source)
	}
	return nil
}

func sweepBytesUnknown(rs []*result.Result, s findings.Sentence) error {
	if rs[0].Sweep == nil || rs[0].Sweep.Bytes != nil {
		return fail("says the working sets are not known, the first point's is stored")
	}
	return nil
}

// sweepPrediction: the verdict the sentence ends with is the one the
// stored interval gives against the predicted value (the interval itself
// verify recomputes from the two points' samples).
func sweepPrediction(rs []*result.Result, s findings.Sentence) error {
	sum := findings.SweepOf(rs)
	if sum == nil || sum.Prediction == nil {
		return fail("a prediction sentence without a prediction")
	}
	p := sum.Prediction
	if p.Observed == nil {
		if !strings.Contains(s.Text, "could not be judged") {
			return fail("prediction not judged, the sentence judges it")
		}
		return nil
	}
	lo, hi, v := *p.CILow, *p.CIHigh, p.Value
	want := "undecided"
	switch {
	case !figures.Bounded(lo, hi):
	case p.Op == "~" && v >= lo && v <= hi && hi > uninformative*lo:
		want = "uninformative"
	case p.Op == "~" && v >= lo && v <= hi:
		want = "inside"
	case p.Op == "~":
		want = "outside"
	case (p.Op == ">" && lo > v) || (p.Op == ">=" && lo >= v) || (p.Op == "<" && hi < v) || (p.Op == "<=" && hi <= v):
		want = "held"
	case (p.Op == ">" && hi <= v) || (p.Op == ">=" && hi < v) || (p.Op == "<" && lo >= v) || (p.Op == "<=" && lo > v):
		want = "not held"
	}
	if !strings.HasSuffix(strings.TrimSuffix(s.Text, ", judged on "+sum.Variant), ", "+want) {
		return fail("prediction %s%g with [%g, %g]: the sentence says %q, the interval gives %s", p.Op, v, lo, hi, s.Text, want)
	}
	return nil
}

var headlineSpanRE = regexp.MustCompile(`\(([0-9.]+)x\), (no step|a step from|(\d+) steps: from) `)

// sweepHeadline: a curve's headline line gives the ratio of its last
// point's median time per element to its first's, and names exactly the
// pairs of consecutive points that the step rule (rises, confirmed by the
// fresh processes) calls steps, by their labels, in order.
func sweepHeadline(rs []*result.Result, s findings.Sentence) error {
	ps, err := pointsOf(rs, s)
	if err != nil {
		return err
	}
	if len(ps) == 1 {
		want := fmt.Sprintf(": %s per element at ", numtext.FormatNS(figures.Median(ps[0].perEl)))
		if !strings.Contains(s.Text, want) {
			return fail("%s: one point, whose median is %.4g ns per element: %q", s.Variant, figures.Median(ps[0].perEl), s.Text)
		}
		return nil
	}
	m := headlineSpanRE.FindStringSubmatch(s.Text)
	if m == nil {
		return fail("no ratio and steps in %q", s.Text)
	}
	said, _ := strconv.ParseFloat(m[1], 64)
	first, last := ps[0], ps[len(ps)-1]
	if got := figures.Median(last.perEl) / figures.Median(first.perEl); !figures.Near(said, got, 0.005) {
		return fail("%s: says %gx from first to last point, the medians give %.4g", s.Variant, said, got)
	}
	var want []string
	for i := 0; i+1 < len(ps); i++ {
		if rises(ps[i].perEl, ps[i+1].perEl) && confirmed(ps[i], ps[i+1]) {
			want = append(want, labelOf(ps[i])+" to "+labelOf(ps[i+1])+" ")
		}
	}
	var named []string
	if m[2] != "no step" {
		rest := s.Text[strings.Index(s.Text, m[0])+len(m[0]):]
		if j := strings.LastIndex(rest, " ("); j >= 0 {
			rest = rest[:j] // the points and the time
		}
		for _, part := range strings.Split(rest, ", from ") {
			if j := strings.LastIndex(part, " "); j > 0 {
				named = append(named, part[:j+1]) // the ratio is the commentary's to check
			}
		}
	}
	if len(named) != len(want) || strings.Join(named, "|") != strings.Join(want, "|") {
		return fail("%s: names steps %q, the rule finds %q", s.Variant, named, want)
	}
	if m[3] != "" && strconv.Itoa(len(want)) != m[3] {
		return fail("%s: says %s steps, the rule finds %d", s.Variant, m[3], len(want))
	}
	return nil
}

// labelOf is a point as the headline names it: its axes and values.
func labelOf(p point) string { return result.PointLabel(p.r) }

var notLiveRE = regexp.MustCompile(`: (DEAD|HOLLOW) at (every point|(\d+) of (\d+) points): `)

// sweepHeadlineNotLive: a variant said dead (hollow) at every point, or at
// k of n, is so at that many of the sweep's n points, and is not on the
// curves (the first point's verdict decides that).
func sweepHeadlineNotLive(rs []*result.Result, s findings.Sentence) error {
	m := notLiveRE.FindStringSubmatch(s.Text)
	if m == nil {
		return fail("no DEAD or HOLLOW count in %q", s.Text)
	}
	n := 0
	for _, r := range rs {
		if v := r.Variant(s.Variant); v != nil && ((m[1] == "DEAD" && v.Dead) || (m[1] == "HOLLOW" && !v.Dead && v.Hollow)) {
			n++
		}
	}
	want := strconv.Itoa(n) + " of " + strconv.Itoa(len(rs)) + " points"
	if n == len(rs) {
		want = "every point"
	}
	if m[2] != want {
		return fail("%s: says %s at %s, the points give %s", s.Variant, m[1], m[2], want)
	}
	if v := rs[0].Variant(s.Variant); v == nil || (!v.Dead && !v.Hollow) {
		return fail("%s: said not on the curves, yet live at the first point", s.Variant)
	}
	return nil
}

// sweepBWOf is the sweep's point a bandwidth sentence of its commentary is
// keyed by (its index), judged by the result's own oracle o.
func sweepBWOf(o Oracle) SweepOracle {
	return func(rs []*result.Result, s findings.Sentence) error {
		i, err := strconv.Atoi(s.Key)
		if err != nil {
			return fail("key %q: not a point index", s.Key)
		}
		for _, r := range rs {
			if r.Sweep != nil && r.Sweep.Index == i {
				return o(r, s)
			}
		}
		return fail("key %q: no point %d", s.Key, i)
	}
}
