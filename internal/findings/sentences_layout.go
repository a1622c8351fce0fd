package findings

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// LayoutAlpha is the level at which the share of the fresh spread between
// code layouts is called more than chance.
const LayoutAlpha = 0.05

// layoutSentences say how the fresh processes were placed in memory and,
// with layouts=K, how much of the fresh spread of each live variant lies
// between the K code layouts (a one-way analysis of the log times by
// layout): seed 000 warned that one layout's cost hides in the spread, and
// seed 002 saw the same bytes at another address run at another speed.
func layoutSentences(f *facts) []Sentence {
	r := f.r
	var out []Sentence
	where := "each fresh process had its stack and heap shifted by a random 0 to 4080 bytes (recorded per process)"
	if r.Protocol.ASLR == "off" {
		where += ", with address randomisation off"
	} else {
		where += ", on top of the OS's address randomisation"
	}
	if r.Protocol.Layouts > 1 {
		where += fmt.Sprintf(", and the processes took %d builds of the kernel in turn that differ only in code alignment", r.Protocol.Layouts)
	}
	if !hasLayout(r) {
		return nil
	}
	out = append(out, said(ClaimPlacement, "", TopicLayout, "", "", where)...)
	if r.Protocol.Layouts < 2 {
		return out
	}
	for i := range r.Variants {
		v := &r.Variants[i]
		s := v.Series.Fresh
		if !live(v) || s == nil || s.Layout == nil {
			continue
		}
		text, claim := layoutText(v.Name, s)
		out = append(out, said(claim, "", TopicLayout, KindLayout, v.Name, text)...)
	}
	return out
}

func hasLayout(r *result.Result) bool {
	for i := range r.Variants {
		if s := r.Variants[i].Series.Fresh; s != nil && s.Layout != nil {
			return true
		}
	}
	return false
}

// layoutText is the one-way analysis of one variant's fresh series by
// layout, with the median of each layout.
func layoutText(name string, s *result.Samples) (text, claim string) {
	k := 0
	for _, id := range s.Layout.IDs {
		k = max(k, id+1)
	}
	groups := make([][]float64, k)
	raw := make([][]float64, k)
	for i, x := range s.SamplesNS {
		if x > 0 && i < len(s.Layout.IDs) {
			id := s.Layout.IDs[i]
			groups[id] = append(groups[id], math.Log(x))
			raw[id] = append(raw[id], x)
		}
	}
	a, err := stats.OneWay(groups)
	if err != nil {
		return fmt.Sprintf("the fresh series of %s cannot be split by layout: %v", name, err), ClaimLayoutUnsplit
	}
	var meds []string
	for id, g := range raw {
		if len(g) > 0 {
			meds = append(meds, fmt.Sprintf("layout %d %s", id, numtext.FormatNS(stats.Median(g))))
		}
	}
	verdict, claim := "no more than chance would put there", ClaimLayoutChance
	if a.P < LayoutAlpha {
		claim = ClaimLayoutMore
		verdict = "more than chance: the same code placed at another alignment runs at another speed, and a single build measures one draw of it"
	}
	return fmt.Sprintf("of the fresh spread of %s, %s lies between the %d code layouts (one-way analysis of log times, F = %.3g on %d and %d degrees of freedom, p = %.2g), %s; medians: %s",
		name, numtext.FormatPct(a.Between), len(meds), a.F, a.DFBetween, a.DFWithin, a.P, verdict, strings.Join(meds, ", ")), claim
}

// countsSentences give what callgrind counted: instructions per pass of
// each variant and, with a baseline, whether the two builds execute the
// same number.
func countsSentences(f *facts) []Sentence {
	r := f.r
	var out []Sentence
	for i := range r.Variants {
		v := &r.Variants[i]
		if v.Counts == nil {
			continue
		}
		text := fmt.Sprintf("under callgrind, %s executes %d instructions per pass in its timed function", v.Name, v.Counts.InstructionsPerPass)
		if v.Counts.PerElement != nil {
			text += fmt.Sprintf(", %s per element", numtext.Sig(*v.Counts.PerElement))
		}
		text += cacheCountsText(v.Counts)
		if bl := r.Baseline; bl != nil {
			other := "the previous build"
			if _, base := result.ControlName(r); base != "" { // a control: its default side
				other = "the build with " + base
			}
			if prev, ok := bl.Counts[v.Name]; ok {
				switch n := v.Counts.InstructionsPerPass; {
				case prev == n:
					text += "; " + other + " executes exactly as many: an instruction count that did not change says the executed code did not change in amount, whatever the times say"
				case prev > 0:
					text += fmt.Sprintf("; %s executed %d (%s %s): a count does not move with the load, so this difference is the code's", other, prev, result.RatioName(r), numtext.FormatRatio(float64(n)/float64(prev)))
				}
			}
		}
		out = append(out, said(ClaimCounts, "", TopicCounts, KindCounts, v.Name, text)...)
	}
	return out
}

// cacheCountsText is the counts sentence's clause on the simulated misses.
func cacheCountsText(c *result.Counts) string {
	if c.D1MissesPerPass == nil || c.LLMissesPerPass == nil {
		return ""
	}
	text := fmt.Sprintf("; in callgrind's simulated caches a pass misses the first-level data cache %s times and the last level %s times",
		numtext.Sig(*c.D1MissesPerPass), numtext.Sig(*c.LLMissesPerPass))
	if geo := cacheGeometry(c.Cache); geo != "" {
		text += " (" + geo + ")"
	}
	return text
}

// cacheGeometry is the D1 and LL lines of the desc, shortened.
func cacheGeometry(desc []string) string {
	var parts []string
	for _, d := range desc {
		if strings.HasPrefix(d, "D1 ") || strings.HasPrefix(d, "LL ") {
			parts = append(parts, strings.Replace(d, " cache:", ":", 1))
		}
	}
	return strings.Join(parts, "; ")
}
