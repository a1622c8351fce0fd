package prose

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/prose/figures"
	"github.com/benchbook/benchbook/internal/result"
)

// The oracles of what compare says across two runs (stdlib/report's Diff
// and its N-way comparison): every ratio is a ratio of medians judged
// against the run-to-run floor, the larger of each run's own A/A floor
// and the drift of reruns (10%, seed 002). They recompute the floor from
// the two results' A/A intervals and every ratio from the raw samples.

// runToRun is how far reruns of the same code on one machine moved
// (seed 002), restated.
const runToRun = 0.10

// AcrossOracle says whether a sentence about two runs holds.
type AcrossOracle func(before, after *result.Result, s findings.Sentence) error

var acrossOracles = map[string]AcrossOracle{
	findings.ClaimAcrossVerdict:  acrossVerdict,
	findings.ClaimAcrossHeadline: acrossHeadline,
}

// CheckAcross runs the oracle of a sentence about two runs.
func CheckAcross(before, after *result.Result, s findings.Sentence) error {
	o, ok := acrossOracles[s.Claim]
	if !ok {
		return fmt.Errorf("claim %q: %w", s.Claim, ErrNoOracle)
	}
	return o(before, after, s)
}

// aaSpread is how far a run's own A/A interval reaches from 1; false when
// the run has no bounded, finite interval.
func aaSpread(r *result.Result) (float64, bool) {
	lo, hi := r.AA.CILow, r.AA.CIHigh
	if !figures.Bounded(lo, hi) || math.IsInf(hi, 0) {
		return 0, false
	}
	return math.Max(1-lo, hi-1), true
}

// runFloorOf is the floor of two runs, recomputed: the farther reach of
// either run's A/A interval, never below runToRun.
func runFloorOf(runs ...*result.Result) float64 {
	f := runToRun
	for _, r := range runs {
		if s, ok := aaSpread(r); ok {
			f = math.Max(f, s)
		}
	}
	return f
}

// acrossChange is a variant's series after over before, from the samples;
// ok false when a side lacks it or a variant is dead on a side (a ratio of
// clock reads).
func acrossChange(before, after *result.Result, variant, ser string) (float64, bool) {
	bv, av := before.Variant(variant), after.Variant(variant)
	if bv == nil || av == nil || bv.Dead || av.Dead {
		return 0, false
	}
	b, a := figures.Median(figures.Series(before, variant, ser)), figures.Median(figures.Series(after, variant, ser))
	if !(b > 0 && a > 0) {
		return 0, false
	}
	return a / b, true
}

var (
	floorPct  = regexp.MustCompile(`floor of ([0-9.]+)%`)
	changeOf  = regexp.MustCompile(`([a-z-]+) ([+-][0-9.]+)%`)
	aaSideRE  = regexp.MustCompile(`A/A ([0-9.]+)% (before|after)`)
	beyondRE  = regexp.MustCompile(`beyond the floor of [0-9.]+%: (.*); measure both in one run`)
	withinRE  = regexp.MustCompile(`within the run-to-run floor of [0-9.]+% \(interleaved: (.*?)\)\.`)
	variantRE = regexp.MustCompile(`(\S+) \(([^()]*)\)`)
)

func pct1(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) }

// floorSaid checks the floor a sentence states, and the A/A reach it says
// of each side, against the recomputed ones.
func floorSaid(before, after *result.Result, text string) (float64, error) {
	floor := runFloorOf(before, after)
	m := floorPct.FindStringSubmatch(text)
	if m == nil || m[1] != pct1(floor) {
		return 0, fail("the floor said is not %s%%, the larger of both runs' A/A reach and %g%%", pct1(floor), runToRun*100)
	}
	for _, a := range aaSideRE.FindAllStringSubmatch(text, -1) {
		r := map[string]*result.Result{"before": before, "after": after}[a[2]]
		if s, ok := aaSpread(r); !ok || a[1] != pct1(s) {
			return 0, fail("says the A/A control of the %s run reached %s%%; its interval [%g, %g]", a[2], a[1], r.AA.CILow, r.AA.CIHigh)
		}
	}
	return floor, nil
}

// acrossVerdict: "Across runs, every median is within the run-to-run
// floor of F% (interleaved: v +x%, ...)" or "beyond the floor of F%: v
// (series +x%, ...)": the floor recomputed, every change named is the
// recomputed one on the side of the floor it is said to be, and every
// series beyond the floor is named.
func acrossVerdict(before, after *result.Result, s findings.Sentence) error {
	floor, err := floorSaid(before, after, s.Text)
	if err != nil {
		return err
	}
	named := map[string]bool{}
	check := func(variant, ser, change string, beyond bool) error {
		ratio, ok := acrossChange(before, after, variant, ser)
		if !ok {
			return fail("%s %s: a change across runs of a series that has none", variant, ser)
		}
		if want := fmt.Sprintf("%+.1f", (ratio-1)*100); change != want {
			return fail("%s %s: says %s%%, the medians recomputed give %s%%", variant, ser, change, want)
		}
		if (math.Abs(ratio-1) > floor) != beyond {
			return fail("%s %s: says %s the floor of %g, its ratio is %g", variant, ser, map[bool]string{true: "beyond", false: "within"}[beyond], floor, ratio)
		}
		named[variant+"/"+ser] = true
		return nil
	}
	if m := withinRE.FindStringSubmatch(s.Text); m != nil {
		for _, part := range strings.Split(m[1], ", ") {
			name, change, ok := strings.Cut(part, " ")
			if !ok {
				return fail("cannot read %q", part)
			}
			if err := check(name, "interleaved", strings.TrimSuffix(change, "%"), false); err != nil {
				return err
			}
		}
	} else if m := beyondRE.FindStringSubmatch(s.Text); m != nil {
		for _, v := range variantRE.FindAllStringSubmatch(m[1], -1) {
			for _, c := range changeOf.FindAllStringSubmatch(v[2], -1) {
				if err := check(v[1], strings.ReplaceAll(c[1], "-", "_"), c[2], true); err != nil {
					return err
				}
			}
		}
	} else if !strings.HasPrefix(s.Text, "Across runs: no live series to compare.") {
		return fail("a verdict across runs the oracle cannot read: %q", s.Text)
	}
	// Every series beyond the floor is named.
	for i := range after.Variants {
		v := after.Variants[i].Name
		for _, ser := range []string{"interleaved", "in_process", "fresh"} {
			if ratio, ok := acrossChange(before, after, v, ser); ok && math.Abs(ratio-1) > floor && !named[v+"/"+ser] {
				return fail("%s %s moved %+.1f%%, beyond the floor of %g, and is not named", v, ser, (ratio-1)*100, floor)
			}
		}
	}
	return nil
}

var (
	acrossWithin = regexp.MustCompile(`^(.+?): no change beyond the run-to-run floor of [0-9.]+% \(([0-9.]+)x, ([a-z-]+) medians`)
	acrossMoved  = regexp.MustCompile(`^(.+?): ([0-9.]+)x (slower|faster) in .+? \(([a-z-]+) medians .*beyond the run-to-run floor of [0-9.]+%`)
)

// acrossHeadline: a variant's line across runs: within the floor, or
// slower or faster beyond it, by the recomputed ratio of the series named
// (the interleaved one when it has a ratio).
func acrossHeadline(before, after *result.Result, s findings.Sentence) error {
	bv, av := before.Variant(s.Variant), after.Variant(s.Variant)
	switch {
	case bv == nil || av == nil:
		if !strings.HasPrefix(s.Text, s.Variant+": only in ") {
			return fail("%s: measured on one side only, the line says %q", s.Variant, s.Text)
		}
		return nil
	case bv.Dead || av.Dead:
		if !strings.Contains(s.Text, ": dead code ") {
			return fail("%s: dead on a side, the line says %q", s.Variant, s.Text)
		}
		return nil
	}
	floor, err := floorSaid(before, after, s.Text)
	if err != nil {
		return err
	}
	ser, ratioSaid, word := "", "", ""
	if m := acrossWithin.FindStringSubmatch(s.Text); m != nil {
		ser, ratioSaid, word = m[3], m[2], "within"
	} else if m := acrossMoved.FindStringSubmatch(s.Text); m != nil {
		ser, ratioSaid, word = m[4], m[2], m[3]
	} else {
		return fail("%s: a line across runs the oracle cannot read: %q", s.Variant, s.Text)
	}
	ser = strings.ReplaceAll(ser, "-", "_")
	if _, ok := acrossChange(before, after, s.Variant, "interleaved"); ok && ser != "interleaved" {
		return fail("%s: read from the %s series, though the interleaved one has a ratio", s.Variant, ser)
	}
	ratio, ok := acrossChange(before, after, s.Variant, ser)
	if !ok {
		return fail("%s: no %s ratio across the runs", s.Variant, ser)
	}
	want, shown := "within", fmt.Sprintf("%.2f", ratio)
	switch {
	case ratio-1 > floor:
		want = result.VerdictSlower
	case 1/ratio-1 > floor && 1-ratio > floor:
		want, shown = result.VerdictFaster, fmt.Sprintf("%.2f", 1/ratio)
	}
	if word != want || ratioSaid != shown {
		return fail("%s: says %sx %s, the %s medians give %g against the floor of %g: %sx %s", s.Variant, ratioSaid, word, ser, ratio, floor, shown, want)
	}
	return nil
}

var (
	floorsRE  = regexp.MustCompile(`A/A floors and ([0-9.]+)% \(floors: (.*?)\)`)
	floorOne  = regexp.MustCompile(`(\S+) ([0-9.]+)%`)
	nwaySerRE = regexp.MustCompile(`; against (\S+), ([a-z-]+) medians$`)
)

// CheckNWay runs the oracle of a sentence of an N-way comparison of runs
// (labelled) against the run at index ref.
func CheckNWay(labels []string, runs []*result.Result, ref int, s findings.Sentence) error {
	switch s.Claim {
	case findings.ClaimAcrossFloors:
		return nwayFloors(labels, runs, ref, s)
	case findings.ClaimAcrossNWay:
		return nwayHeadline(labels, runs, ref, s)
	}
	return fmt.Errorf("claim %q: %w", s.Claim, ErrNoOracle)
}

// nwayFloors: every machine but the reference is named with its floor, the
// larger of its own and the reference's A/A reach and the rerun drift.
func nwayFloors(labels []string, runs []*result.Result, ref int, s findings.Sentence) error {
	m := floorsRE.FindStringSubmatch(s.Text)
	if m == nil || m[1] != strconv.FormatFloat(runToRun*100, 'f', 0, 64) {
		return fail("the floors are not said against the rerun drift of %g%%: %q", runToRun*100, s.Text)
	}
	said := map[string]string{}
	for _, f := range floorOne.FindAllStringSubmatch(m[2], -1) {
		said[strings.TrimSuffix(f[1], ",")] = f[2]
	}
	for i, l := range labels {
		if i == ref {
			if _, ok := said[l]; ok {
				return fail("gives the reference %s a floor against itself", l)
			}
			continue
		}
		if want := pct1(runFloorOf(runs[ref], runs[i])); said[l] != want {
			return fail("%s: says a floor of %q%%, its and the reference's A/A intervals and %g%% give %s%%", l, said[l], runToRun*100, want)
		}
	}
	if len(said) != len(labels)-1 {
		return fail("names %d floors for %d machines against the reference", len(said), len(labels)-1)
	}
	return nil
}

// nwayHeadline: a variant on every machine against the reference, from the
// series named: each machine's ratio of medians recomputed and judged
// against its own floor, in the clause the line gives it.
func nwayHeadline(labels []string, runs []*result.Result, ref int, s findings.Sentence) error {
	for _, r := range runs {
		if v := r.Variant(s.Variant); v != nil && v.Dead {
			if !strings.HasPrefix(s.Text, s.Variant+": dead code") {
				return fail("%s: dead on a machine, the line says %q", s.Variant, s.Text)
			}
			return nil
		}
	}
	m := nwaySerRE.FindStringSubmatch(s.Text)
	if m == nil || m[1] != labels[ref] {
		return fail("%s: the line does not say it is against the reference %s: %q", s.Variant, labels[ref], s.Text)
	}
	ser := strings.ReplaceAll(m[2], "-", "_")
	base := figures.Median(figures.Series(runs[ref], s.Variant, ser))
	if !(base > 0) {
		return fail("%s: the reference has no %s median", s.Variant, ser)
	}
	for i, l := range labels {
		if i == ref {
			continue
		}
		x := figures.Median(figures.Series(runs[i], s.Variant, ser))
		if !(x > 0) {
			if !strings.Contains(s.Text, "on "+l) {
				return fail("%s: not measured on %s, and not said", s.Variant, l)
			}
			continue
		}
		ratio, floor := x/base, runFloorOf(runs[ref], runs[i])
		want := fmt.Sprintf("%s (%.2fx)", l, ratio)
		switch {
		case ratio-1 > floor:
			want = fmt.Sprintf("%.2fx slower on %s", ratio, l)
		case 1-ratio > floor && 1/ratio-1 > floor:
			want = fmt.Sprintf("%.2fx faster on %s", 1/ratio, l)
		}
		if !strings.Contains(s.Text, want) {
			return fail("%s: on %s the %s medians give %g against the floor %g, %q, which the line does not say", s.Variant, l, ser, ratio, floor, want)
		}
		if strings.HasPrefix(want, l+" (") && !strings.Contains(s.Text, "within the floor on ") {
			return fail("%s: within the floor on %s, not said so", s.Variant, l)
		}
	}
	return nil
}
