package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchbook/benchbook/stdlib/bench"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// Commentary explains a result in Markdown: one short paragraph per thing
// the run shows, every number taken from the result, so that two results
// give two different texts.
func Commentary(r *bench.Result) string {
	var paras []string
	for _, f := range []func(*bench.Result) string{partialPara, predictionPara, deadPara, plausibilityPara,
		firstTouchPara, resolutionPara, gapsPara, spreadPara, batchPara, loadPara} {
		if p := f(r); p != "" {
			paras = append(paras, p)
		}
	}
	return strings.Join(paras, "\n\n")
}

// CommentaryBundle is the commentary as a display bundle.
func CommentaryBundle(r *bench.Result) map[string]any {
	md := Commentary(r)
	return map[string]any{display.MIMEMarkdown: md, display.MIMEText: md}
}

func live(v bench.Variant) bool { return !v.Dead && !v.Hollow }

func med(s *bench.Samples) float64 {
	if s == nil {
		return math.NaN()
	}
	return s.Summary.Median
}

func ns(x float64) string { return bench.FormatNS(x) }

// refLive is the live variant the other paragraphs refer to.
func refLive(r *bench.Result) *bench.Variant {
	if r.AA.Variant != "" {
		if v := r.Variant(r.AA.Variant); v != nil && live(*v) {
			return v
		}
	}
	for i := range r.Variants {
		if live(r.Variants[i]) {
			return &r.Variants[i]
		}
	}
	return nil
}

func partialPara(r *bench.Result) string {
	if !r.Partial {
		return ""
	}
	n := 0
	for _, v := range r.Variants {
		for _, s := range bench.SeriesNames {
			if x := v.Get(s); x != nil {
				n += len(x.SamplesNS)
			}
		}
	}
	return fmt.Sprintf("**Partial run.** The run stopped early (%s). The %d samples measured before that are kept, in the result and on disk, and everything below is computed from them alone.", r.Error, n)
}

func predictionPara(r *bench.Result) string {
	t := bench.PredictionText(r)
	if t == "" {
		return ""
	}
	return "**Prediction.** " + strings.ToUpper(t[:1]) + t[1:] + "."
}

func deadPara(r *bench.Result) string {
	ref := refLive(r)
	var parts []string
	for _, v := range r.Variants {
		if live(v) {
			continue
		}
		m := med(v.Series.Interleaved)
		s := fmt.Sprintf("`%s` reads a median of %s per pass", v.Name, ns(m))
		if ref != nil {
			lm := med(ref.Series.Interleaved)
			s += fmt.Sprintf(", %s of `%s`'s %s", bench.FormatPct(m/lm), ref.Name, ns(lm))
		}
		if v.Dead {
			s += fmt.Sprintf(". Its timed function, read in the assembly above, has %s between the two clock reads and no loop: "+
				"the value it computes is never used, so the compiler was free to delete the work, and did", regionText(v))
			if c := r.Conditions.Clock.ReadCostNS; c > 0 {
				s += fmt.Sprintf(". What is left times the clock: one read costs %s on this machine", ns(c))
			}
		} else {
			s += ". Its timed region keeps a loop that only counts: the compiler removed the arithmetic and kept the loop counter, so this variant times an empty loop, not the work"
		}
		parts = append(parts, s+".")
	}
	if len(parts) == 0 {
		return ""
	}
	if c := liveComparison(r); c != nil {
		parts = append(parts, fmt.Sprintf("The variants that consume their result keep the work: `%s`/`%s` = %s, 95%% interval [%s, %s], Mann-Whitney p = %.2g: %s.",
			c.A, c.B, bench.FormatRatio(c.Ratio), bench.FormatRatio(c.CILow), bench.FormatRatio(c.CIHigh), c.PValue, agreeText(*c)))
	}
	return "**Dead code.** " + strings.Join(parts, " ")
}

// liveComparison is the comparison between two live variants, if any.
func liveComparison(r *bench.Result) *bench.Comparison {
	for i, c := range r.Comparisons {
		a, b := r.Variant(c.A), r.Variant(c.B)
		if a != nil && b != nil && live(*a) && live(*b) {
			return &r.Comparisons[i]
		}
	}
	return nil
}

func agreeText(c bench.Comparison) string {
	if c.Significant {
		return fmt.Sprintf("they differ by %s, a difference this run resolves", bench.FormatPct(math.Abs(c.Ratio-1)))
	}
	return "the way the result is consumed makes no difference this run can resolve"
}

func plausibilityPara(r *bench.Result) string {
	e := r.Protocol.Elements
	mhz, est := bench.FrequencyMHz(r)
	if e == nil || *e <= 0 {
		if ref := refLive(r); ref != nil {
			return fmt.Sprintf("**Plausibility.** `%s` takes %s per pass. Give `elements=` (the work per pass) to see the time and cycles per element and whether a number is possible on this machine.", ref.Name, ns(med(ref.Series.Interleaved)))
		}
		return ""
	}
	clock := "measured"
	if est {
		clock = "estimated (no cpufreq here; timed chain of dependent adds)"
	}
	var parts []string
	for _, v := range r.Variants {
		m := med(v.Series.Interleaved)
		per := m / float64(*e)
		s := fmt.Sprintf("`%s`: %s ns per element", v.Name, trimFloat(per))
		if mhz > 0 {
			cyc := per * mhz / 1000
			s += fmt.Sprintf(", %s cycles", trimFloat(cyc))
			if cyc < 1 {
				s += " (less than one cycle per element: impossible for scalar work, so either the loop is vectorised or the work is gone)"
			}
		}
		parts = append(parts, s)
	}
	text := fmt.Sprintf("**Plausibility.** Per element of the %d in a pass, at the %s clock of %.0f MHz: %s.", *e, clock, mhz, strings.Join(parts, "; "))
	return text
}

func trimFloat(x float64) string {
	if x == 0 {
		return "0"
	}
	if math.Abs(x) >= 100 {
		return fmt.Sprintf("%.0f", x)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3g", x), "0"), ".")
}

func firstTouchPara(r *bench.Result) string {
	v := refLive(r)
	if v == nil || v.Series.Cold == nil || v.Series.Cold.Summary.N == 0 {
		return ""
	}
	c := v.Series.Cold
	warm := med(v.Series.InProcess)
	if math.IsNaN(warm) {
		warm = med(v.Series.Fresh)
	}
	faults := c.MedianMinFlt()
	s := fmt.Sprintf("**First touch.** The first pass a process makes over its data is the cold pass. Over %d fresh processes `%s`'s cold pass has a median of %s, %s times the warm median of %s, and takes a median of %.0f minor page faults",
		c.Summary.N, v.Name, ns(c.Summary.Median), bench.FormatRatio(c.Summary.Median/warm), ns(warm), faults)
	if c.WarmMinFltPerPass != nil {
		s += fmt.Sprintf(" against %s per warm pass", trimFloat(*c.WarmMinFltPerPass))
	}
	s += ": the pages are mapped by the kernel on first touch, inside the timed region."
	if faults > 0 && c.Summary.Median > warm {
		s += fmt.Sprintf(" If the whole difference is page faults, each costs about %s.", ns((c.Summary.Median-warm)/faults))
	}
	if x := c.InProcessColdNS; x != nil {
		s += fmt.Sprintf(" The in-process run can only give the cold pass as one number, %s; the fresh processes show the distribution it is one sample of, from %s to %s (cv %.1f%%, max/min %s): the single shot sits at %s of their median and %s of their minimum, and nothing in one number says where in that span it fell.",
			ns(*x), ns(c.Summary.Min), ns(c.Summary.Max), c.Summary.CVPct, momText(c.Summary), bench.FormatRatio(*x/c.Summary.Median), bench.FormatRatio(*x/c.Summary.Min))
	}
	return s
}

func momText(s stats.Summary) string {
	if s.MaxOverMin == nil {
		return "undefined"
	}
	return bench.FormatRatio(*s.MaxOverMin)
}

// resolvable returns the smallest of 2, 5, 10 percent that fewer than 5% of
// pairs of single passes exceed, or 0 when none is.
func resolvable(s stats.Summary) float64 {
	for _, t := range []struct{ pct, share float64 }{{2, s.PairsOver2Pct}, {5, s.PairsOver5Pct}, {10, s.PairsOver10Pct}} {
		if t.share < 0.05 {
			return t.pct
		}
	}
	return 0
}

func resolutionPara(r *bench.Result) string {
	v := refLive(r)
	if v == nil {
		return ""
	}
	var parts []string
	for _, name := range []string{"in_process", "fresh", "interleaved"} {
		s := v.Get(name)
		if s == nil || s.Summary.N < 2 {
			continue
		}
		sum := s.Summary
		p := fmt.Sprintf("in the %s series, %s of the %d pairs of single passes differ by more than 2%%, %s by more than 5%%, %s by more than 10%%",
			strings.ReplaceAll(name, "_", "-"), bench.FormatPct(sum.PairsOver2Pct), sum.N*(sum.N-1)/2, bench.FormatPct(sum.PairsOver5Pct), bench.FormatPct(sum.PairsOver10Pct))
		if t := resolvable(sum); t > 0 {
			p += fmt.Sprintf(" (a %g%% difference between two single runs is rarely noise here, under 5%% of pairs; anything smaller often is)", t)
		} else {
			p += fmt.Sprintf(" (so two single runs of the same code show a 10%% difference that is not there in %s of pairs)", bench.FormatPct(sum.PairsOver10Pct))
		}
		parts = append(parts, p)
	}
	text := fmt.Sprintf("**What one run can resolve.** For `%s`, %s.", v.Name, strings.Join(parts, "; "))
	if aa := r.AA; aa.Variant != "" && aa.Ratio > 0 {
		w := math.Max(aa.CIHigh-1, 1-aa.CILow)
		text += fmt.Sprintf(" The A/A control ran `%s` twice in the same round robin: identical code reads %s, with a 95%% interval of [%s, %s]. That is the floor of this run: a ratio of medians closer to 1 than about %s cannot be told from no difference, whatever the code.",
			aa.Variant, bench.FormatRatio(aa.Ratio), bench.FormatRatio(aa.CILow), bench.FormatRatio(aa.CIHigh), bench.FormatPct(w))
	}
	return text
}

func spreadPara(r *bench.Result) string {
	var noisy []string
	worst, worstName := 0.0, ""
	for _, v := range r.Variants {
		if !live(v) {
			continue
		}
		for _, name := range []string{"interleaved", "in_process", "fresh"} {
			s := v.Get(name)
			if s == nil {
				continue
			}
			if s.Summary.CVPct > worst {
				worst, worstName = s.Summary.CVPct, v.Name+" "+strings.ReplaceAll(name, "_", "-")
			}
			if s.Summary.CVPct > bench.SpreadLimit {
				noisy = append(noisy, fmt.Sprintf("%s %s (cv %.1f%%)", v.Name, strings.ReplaceAll(name, "_", "-"), s.Summary.CVPct))
			}
		}
	}
	if worstName == "" {
		return ""
	}
	if len(noisy) == 0 {
		return fmt.Sprintf("**Spread.** Every series of a live variant has a cv of at most %.1f%% (%s), under the %.0f%% limit: the repetitions agree well enough to compare variants.", worst, worstName, bench.SpreadLimit)
	}
	return fmt.Sprintf("**Spread.** %s above %.0f%%: %s. A series this wide is too noisy to compare variants with; rerun when the machine is quieter, pinned, or with more passes.",
		plural(len(noisy), "series is", "series are"), bench.SpreadLimit, strings.Join(noisy, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func batchPara(r *bench.Result) string {
	var parts []string
	for _, v := range r.Variants {
		if v.Batch > 1 {
			parts = append(parts, fmt.Sprintf("`%s` in batches of %d", v.Name, v.Batch))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("**Short passes.** A pass shorter than %d clock reads (%s each) is too short to time alone, so %s were timed as batches and divided. A batch averages its passes: the single slow pass that per-pass timing would show is hidden in it.",
		r.Protocol.ReadsPerPass, ns(r.Conditions.Clock.ReadCostNS), strings.Join(parts, ", "))
}

func loadPara(r *bench.Result) string {
	b, a := r.Conditions.Before.Loadavg[0], r.Conditions.After.Loadavg[0]
	s := fmt.Sprintf("**Load.** The 1-minute load average was %.2f before the run and %.2f after it", b, a)
	if n := r.Conditions.Machine.LogicalCPUs; n > 0 {
		s += fmt.Sprintf(", on %d CPUs", n)
	}
	if r.Protocol.Load > 0 {
		s += fmt.Sprintf("; the run itself started %s", plural(r.Protocol.Load, "busy thread", "busy threads"))
		if len(r.Protocol.LoadCPUs) > 0 {
			s += fmt.Sprintf(" on CPU %s", intsText(r.Protocol.LoadCPUs))
		}
		s += " for its whole duration, to show what load does: the spreads above include that load"
		if d := r.Conditions.During; d != nil {
			s += fmt.Sprintf(". During the %.1f s of the run: %s busy", d.Seconds, busyText(d.BusyPct))
		}
		return s + "."
	}
	if b > 1 || a > 1 {
		s += ". Above 1, other work shares the machine, and a run measures that work as well as the code: the spreads above include it"
	} else {
		s += ". Below 1, little else ran, so the spreads above are the code and the machine"
	}
	if d := r.Conditions.During; d != nil {
		if len(d.BusyPct) > 0 {
			s += fmt.Sprintf(". During the %.1f s of the run: %s busy", d.Seconds, busyText(d.BusyPct))
		}
		var procs []string
		for _, p := range d.Busiest {
			if p.BusyPct >= 5 {
				procs = append(procs, fmt.Sprintf("%s (%.0f%% of a CPU, last on CPU %d)", p.Command, p.BusyPct, p.CPU))
			}
		}
		if len(procs) > 0 {
			s += "; besides the benchmark, the busiest processes were " + strings.Join(procs, ", ")
		}
	}
	return s + "."
}

func intsText(x []int) string {
	parts := make([]string, len(x))
	for i, v := range x {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

func busyText(busy []float64) string {
	parts := make([]string, len(busy))
	for i, p := range busy {
		parts[i] = fmt.Sprintf("CPU %d %.0f%%", i, p)
	}
	return strings.Join(parts, ", ")
}

func gapsPara(r *bench.Result) string {
	ref := refLive(r)
	name := ""
	if ref != nil {
		name = ref.Name
	}
	t := bench.GapsText(r, name)
	if t == "" {
		return ""
	}
	s := "**Interruptions.** " + strings.ToUpper(t[:1]) + t[1:] + "."
	if c := r.Conditions.Clock; c.GapCount > 0 && ref != nil && ref.Series.Interleaved != nil {
		s += fmt.Sprintf(" A pass that meets one is slower by up to %s (%s of the median) for a reason that is not the code: this is part of the spread the pair shares count.",
			ns(c.GapMaxNS), bench.FormatPct(c.GapMaxNS/ref.Series.Interleaved.Summary.Median))
	}
	return s
}

// regionText is how many instructions the timed region of a dead variant holds.
func regionText(v bench.Variant) string {
	if v.RegionInstructions > 0 {
		return plural(v.RegionInstructions, "instruction", "instructions")
	}
	return "nothing but the moves of the second clock read's arguments"
}
