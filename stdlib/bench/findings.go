package bench

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// Finding kinds.
const (
	KindDeadCode    = "dead_code"
	KindImplausible = "implausible"
	KindChecksum    = "checksum"
	KindLoad        = "load"
	KindSpread      = "spread"
	KindFirstTouch  = "first_touch"
	KindResolution  = "resolution"
	KindBatch       = "batch"
	KindPartial     = "partial"
	KindPrediction  = "prediction"
	KindGaps        = "interruptions"
)

// SpreadLimit is the cv above which a series is too noisy to compare (seed 003).
const SpreadLimit = 5.0

// Findings says what a result shows, each finding in words made from its
// own numbers. It reads only the result, so anyone can recompute it.
func Findings(r *Result) []Finding {
	var out []Finding
	add := func(kind, variant, text string) {
		f := Finding{Kind: kind, Text: text}
		if variant != "" {
			v := variant
			f.Variant = &v
		}
		out = append(out, f)
	}
	if r.Partial {
		add(KindPartial, "", "the run did not finish ("+r.Error+"): every figure is from the samples measured before it stopped")
	}
	ref := referenceVariant(r)
	for i := range r.Variants {
		v := &r.Variants[i]
		if t := deadText(r, v, ref); t != "" {
			add(KindDeadCode, v.Name, t)
		}
		if t := implausibleText(r, v); t != "" {
			add(KindImplausible, v.Name, t)
		}
		if t := checksumText(v); t != "" {
			add(KindChecksum, v.Name, t)
		}
		if t := batchText(r, v); t != "" {
			add(KindBatch, v.Name, t)
		}
		for _, t := range spreadTexts(v) {
			add(KindSpread, v.Name, t)
		}
		if t := firstTouchText(v); t != "" {
			add(KindFirstTouch, v.Name, t)
		}
	}
	if t := loadText(r); t != "" {
		add(KindLoad, "", t)
	}
	if t := GapsText(r, ref); t != "" {
		add(KindGaps, "", t)
	}
	if t := resolutionText(r, ref); t != "" {
		add(KindResolution, ref, t)
	}
	if t := PredictionText(r); t != "" {
		add(KindPrediction, "", t)
	}
	return out
}

// referenceVariant is the live variant with the most series: the one the
// resolution is read from (the A/A variant when there is one).
func referenceVariant(r *Result) string {
	if r.AA.Variant != "" {
		return r.AA.Variant
	}
	for _, v := range r.Variants {
		if !v.Dead && !v.Hollow {
			return v.Name
		}
	}
	if len(r.Variants) > 0 {
		return r.Variants[0].Name
	}
	return ""
}

func median(s *Samples) (float64, bool) {
	if s == nil || s.Summary.N == 0 {
		return 0, false
	}
	return s.Summary.Median, true
}

func deadText(r *Result, v *Variant, ref string) string {
	if !v.Dead && !v.Hollow {
		return ""
	}
	text := v.Finding
	if text == "" {
		text = "the timed region holds none of the body's work"
	}
	m, ok := median(v.Series.Interleaved)
	live := r.Variant(ref)
	if ok && live != nil && live.Name != v.Name {
		if lm, ok := median(live.Series.Interleaved); ok && lm > 0 {
			text += fmt.Sprintf(". Measured: a median of %s per pass, %s of %s's %s", FormatNS(m), FormatPct(m/lm), live.Name, FormatNS(lm))
			if v.Series.Interleaved != nil {
				text += fmt.Sprintf(" and at most %s (%s of it)", FormatNS(v.Series.Interleaved.Summary.Max), FormatPct(v.Series.Interleaved.Summary.Max/lm))
			}
		}
	}
	if c := r.Conditions.Clock.ReadCostNS; ok && c > 0 && v.Dead {
		text += fmt.Sprintf("; one clock read costs %s here (%.2g times the median): the two reads around an empty region are all it times", FormatNS(c), c/m)
	}
	return text
}

// FrequencyMHz is the clock the run saw: the cpufreq reading, else the
// estimate from a chain of dependent adds; 0 when neither is known.
func FrequencyMHz(r *Result) (mhz float64, estimated bool) {
	for _, m := range []map[string]float64{r.Conditions.Before.FreqKHz, r.Conditions.After.FreqKHz} {
		for _, khz := range m {
			mhz = math.Max(mhz, khz/1000)
		}
	}
	if mhz > 0 {
		return mhz, false
	}
	est := math.Max(r.Conditions.Before.FreqEstimateMHz, r.Conditions.After.FreqEstimateMHz)
	return est, est > 0
}

func implausibleText(r *Result, v *Variant) string {
	m, ok := median(v.Series.Interleaved)
	if !ok {
		return ""
	}
	clock := r.Conditions.Clock
	var why []string
	if clock.ResolutionNS > 0 && v.Series.Interleaved.Summary.Min < clock.ResolutionNS && v.Batch == 1 {
		why = append(why, fmt.Sprintf("its fastest pass, %s, is below the clock's smallest step (%s)",
			FormatNS(v.Series.Interleaved.Summary.Min), FormatNS(clock.ResolutionNS)))
	}
	if clock.ReadCostNS > 0 && m <= 2*clock.ReadCostNS && v.Batch == 1 {
		why = append(why, fmt.Sprintf("its median, %s, is within twice the cost of one clock read (%s): it times the clock", FormatNS(m), FormatNS(clock.ReadCostNS)))
	}
	if e := r.Protocol.Elements; e != nil && *e > 0 {
		mhz, est := FrequencyMHz(r)
		if mhz > 0 {
			perElem := m / float64(*e)
			cycles := perElem * mhz / 1000
			if cycles < 1 {
				label := "measured"
				if est {
					label = "estimated"
				}
				why = append(why, fmt.Sprintf("%s ns per element is %.3g cycles per element at the %s %.0f MHz: "+
					"less than one cycle per element is possible only if the loop is vectorised (check the assembly) or the work was removed",
					sig(perElem), cycles, label, mhz))
			}
		}
	}
	if len(why) == 0 {
		return ""
	}
	return v.Name + " is faster than this machine allows for the work: " + strings.Join(why, "; ")
}

func checksumText(v *Variant) string {
	c := v.Checksum
	if c == nil {
		return ""
	}
	want := c.Want * float64(c.Passes)
	if c.OK {
		return fmt.Sprintf("checksum %s over %d passes, expected %s (%s per pass): ok", g(c.Got), c.Passes, g(want), g(c.Want))
	}
	return fmt.Sprintf("checksum MISMATCH: got %s over %d passes, expected %s (%s per pass): the variant does not compute what it claims",
		g(c.Got), c.Passes, g(want), g(c.Want))
}

func g(x float64) string { return strings.TrimSuffix(fmt.Sprintf("%.10g", x), ".0") }

func batchText(r *Result, v *Variant) string {
	if v.Batch <= 1 {
		return ""
	}
	cost := r.Conditions.Clock.ReadCostNS
	return fmt.Sprintf("%s was timed in batches of %d passes: one pass is shorter than %d clock reads (%s each), "+
		"too short for two reads around it to mean anything; each sample is a batch divided by %d, "+
		"which hides the single slow pass that per-pass timing would show", v.Name, v.Batch, r.Protocol.ReadsPerPass, FormatNS(cost), v.Batch)
}

func spreadTexts(v *Variant) []string {
	var out []string
	for _, name := range []string{"interleaved", "in_process", "fresh"} {
		s := v.Get(name)
		if s == nil || s.Summary.CVPct <= SpreadLimit || v.Dead {
			continue
		}
		out = append(out, fmt.Sprintf("%s, %s series: cv %s%% (above %.0f%%), max/min %s: this series is too noisy to compare variants with",
			v.Name, name, sig1(s.Summary.CVPct), SpreadLimit, maxOverMin(s.Summary)))
	}
	return out
}

func maxOverMin(s stats.Summary) string {
	if s.MaxOverMin == nil {
		return "undefined (min 0)"
	}
	return FormatRatio(*s.MaxOverMin)
}

func firstTouchText(v *Variant) string {
	c := v.Series.Cold
	warm, ok := median(v.Series.InProcess)
	if !ok {
		warm, ok = median(v.Series.Fresh)
	}
	if c == nil || c.Summary.N == 0 || !ok || warm <= 0 || v.Dead {
		return ""
	}
	faults := c.MedianMinFlt()
	text := fmt.Sprintf("the cold pass of %s, the first each process makes over freshly mapped memory, has a median of %s over %d fresh processes, %s times the warm median (%s), with a median of %.0f minor page faults against ",
		v.Name, FormatNS(c.Summary.Median), c.Summary.N, FormatRatio(c.Summary.Median/warm), FormatNS(warm), faults)
	if c.WarmMinFltPerPass != nil {
		text += fmt.Sprintf("%.3g per warm pass", *c.WarmMinFltPerPass)
	} else {
		text += "none measured for warm passes"
	}
	if faults > 0 && c.Summary.Median > warm {
		text += fmt.Sprintf("; if the difference is all page faults, one costs about %s", FormatNS((c.Summary.Median-warm)/faults))
	}
	if c.InProcessColdNS != nil {
		x := *c.InProcessColdNS
		text += fmt.Sprintf(". The in-process run has one number for it, %s: %s of the cold median and %s of the cold minimum; the fresh processes spread from %s to %s, and one number cannot say where in that span it fell",
			FormatNS(x), FormatRatio(x/c.Summary.Median), FormatRatio(x/c.Summary.Min), FormatNS(c.Summary.Min), FormatNS(c.Summary.Max))
	}
	return text
}

func loadText(r *Result) string {
	b, a := r.Conditions.Before.Loadavg[0], r.Conditions.After.Loadavg[0]
	if b <= 1 && a <= 1 && r.Protocol.Load == 0 {
		return ""
	}
	cpus := r.Conditions.Machine.LogicalCPUs
	text := fmt.Sprintf("the 1-minute load average was %.2f before the run and %.2f after it", b, a)
	if cpus > 0 {
		text += fmt.Sprintf(" on this %d-CPU machine", cpus)
	}
	if r.Protocol.Load > 0 {
		text += fmt.Sprintf("; the run started %s on purpose", plural(r.Protocol.Load, "busy thread"))
		if len(r.Protocol.LoadCPUs) > 0 {
			text += fmt.Sprintf(" on CPU %v", r.Protocol.LoadCPUs)
		}
	}
	if r.Protocol.Load > 0 {
		text += ": the spreads include that load, on purpose"
	} else if b > 1 || a > 1 {
		text += ": other work was running, so the spreads include whatever of it reached the benchmark's CPU; compare against a run at a load below 1"
	}
	if d := r.Conditions.During; d != nil {
		if busy := busiestText(d.BusyPct); busy != "" {
			text += "; during the run " + busy
		}
		var procs []string
		for _, p := range d.Busiest {
			if p.BusyPct >= 1 {
				procs = append(procs, fmt.Sprintf("%s (pid %d, %.0f%% of a CPU, last on CPU %d)", p.Command, p.PID, p.BusyPct, p.CPU))
			}
		}
		if len(procs) > 0 {
			text += "; the busiest other processes: " + strings.Join(procs, ", ")
		}
	}
	return text
}

func busiestText(busy []float64) string {
	var parts []string
	for i, b := range busy {
		parts = append(parts, fmt.Sprintf("CPU %d was %.0f%% busy", i, b))
	}
	return strings.Join(parts, ", ")
}

// resolutionText says what one run per side can and cannot resolve: the
// pair shares of single passes, and the A/A floor for medians.
func resolutionText(r *Result, ref string) string {
	v := r.Variant(ref)
	if v == nil {
		return ""
	}
	var parts []string
	for _, name := range []string{"in_process", "fresh", "interleaved"} {
		s := v.Get(name)
		if s == nil || s.Summary.N < 2 {
			continue
		}
		p95 := PairDifference(s.SamplesNS, 0.95)
		parts = append(parts, fmt.Sprintf("in the %s series of %s, %s of the %d pairs of single passes differ by more than 2%%, %s by more than 5%% and %s by more than 10%%; 95%% of pairs differ by less than %s, so one run per side cannot resolve a difference smaller than that",
			strings.ReplaceAll(name, "_", "-"), ref, FormatPct(s.Summary.PairsOver2Pct), s.Summary.N*(s.Summary.N-1)/2,
			FormatPct(s.Summary.PairsOver5Pct), FormatPct(s.Summary.PairsOver10Pct), FormatPct(p95)))
	}
	if aa := r.AA; aa.Variant != "" && aa.Ratio > 0 {
		width := math.Max(aa.CIHigh-1, 1-aa.CILow)
		parts = append(parts, fmt.Sprintf("the A/A control, %s against its own copy in the same round robin, reads %s with a 95%% interval of [%s, %s]: a difference of medians smaller than about %s is below what this run can resolve",
			aa.Variant, FormatRatio(aa.Ratio), FormatRatio(aa.CILow), FormatRatio(aa.CIHigh), FormatPct(width)))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ". ")
}

// PairDifference returns the q quantile of the relative differences of all
// pairs of single samples: (larger - smaller) / smaller.
func PairDifference(x []float64, q float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	var diffs []float64
	for i := 0; i < len(s); i++ {
		for j := i + 1; j < len(s); j++ {
			if s[i] > 0 {
				diffs = append(diffs, (s[j]-s[i])/s[i])
			}
		}
	}
	if len(diffs) == 0 {
		return 0
	}
	sort.Float64s(diffs)
	idx := int(math.Ceil(q*float64(len(diffs)))) - 1
	return diffs[max(idx, 0)]
}

// PredictionText says whether the prediction written before the run held,
// with the measured ratio; "" when the run had none.
func PredictionText(r *Result) string {
	p := r.Prediction
	if p == nil {
		return ""
	}
	if p.Held == nil {
		return fmt.Sprintf("the prediction %s, written before the run, could not be judged: the result has no ratio %s/%s", p.Text, p.A, p.B)
	}
	verdict := "held"
	if !*p.Held {
		verdict = "did NOT hold"
	}
	return fmt.Sprintf("the prediction %s, written before the run, %s: the measured ratio of medians %s/%s is %s", p.Text, verdict, p.A, p.B, FormatRatio(*p.Observed))
}

// GapsText says how often the thread did not run while the harness read the
// clock back to back, and how many such gaps a pass of the reference
// variant meets on average; "" when the run did not measure it.
func GapsText(r *Result, ref string) string {
	c := r.Conditions.Clock
	if c.GapWindowNS <= 0 {
		return ""
	}
	perSec := float64(c.GapCount) / (c.GapWindowNS / 1e9)
	text := fmt.Sprintf("reading the clock back to back for %s, the harness saw %d gaps longer than %s (%.0f per second) in which the thread did not run, %s of the time",
		FormatNS(c.GapWindowNS), c.GapCount, FormatNS(c.GapThresholdNS), perSec, FormatPct(c.GapTotalNS/c.GapWindowNS))
	if c.GapCount > 0 {
		text += fmt.Sprintf(", the longest %s", FormatNS(c.GapMaxNS))
	}
	if v := r.Variant(ref); v != nil && v.Series.Interleaved != nil && c.GapCount > 0 {
		pass := v.Series.Interleaved.Summary.Median
		text += fmt.Sprintf("; a pass of %s (%s's median) meets %.2g of them on average, each adding %s on average",
			FormatNS(pass), ref, perSec*pass/1e9, FormatNS(c.GapTotalNS/float64(c.GapCount)))
	}
	return text
}
