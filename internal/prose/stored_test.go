package prose_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/prose"
)

// The corpus results carry the findings the renderer wrote before this
// package existed (their findings field). The ones of issue 20's list, read
// back with the claim they make, must fail their oracle where the numbers
// contradict them: the counter-examples, on real results.
func TestStoredFindingsOfTheOldWording(t *testing.T) {
	series := map[string]string{"interleaved": "interleaved", "in-process": "in_process", "fresh": "fresh"}
	noisyRe := regexp.MustCompile(`^(\S+), (\S+) series: cv`)
	cmpRe := regexp.MustCompile(`^the live variants (\S+) and (\S+) differ: .* in the (\S+) series`)
	patterns := []struct {
		phrase, claim string
		key           func(text string) (variant, key string)
		wantFalse     bool // the issue found it false in real results
	}{
		{"too noisy to compare variants with", findings.ClaimNoisy, func(s string) (string, string) {
			m := noisyRe.FindStringSubmatch(s)
			if m == nil {
				return "", ""
			}
			return m[1], series[m[2]]
		}, true},
		{"identical code read as far apart", findings.ClaimDifferAsAA, func(s string) (string, string) {
			m := cmpRe.FindStringSubmatch(s)
			if m == nil {
				return "", ""
			}
			return "", m[1] + "/" + m[2] + "/" + series[m[3]]
		}, false},
		{"cannot be told from no difference", findings.ClaimAAFloor, func(string) (string, string) { return "", "" }, true},
	}
	rs := corpus(t)
	names := make([]string, 0, len(rs))
	for n := range rs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, p := range patterns {
		seen, false_ := 0, 0
		for _, n := range names {
			r := rs[n]
			for _, f := range r.Findings {
				if !strings.Contains(f.Text, p.phrase) {
					continue
				}
				variant, key := p.key(f.Text)
				if f.Variant != nil {
					variant = *f.Variant
				}
				seen++
				s := findings.Sentence{Kind: f.Kind, Variant: variant, Claim: p.claim, Key: key, Text: f.Text}
				if err := prose.Check(r, s); err != nil {
					false_++
					if false_ <= 2 {
						t.Logf("%s: %v", n, err)
					}
				}
			}
		}
		t.Logf("%q: %d stored, %d false by their oracle", p.phrase, seen, false_)
		if p.wantFalse && seen > 0 && false_ == 0 {
			t.Errorf("%q: none of the %d stored sentences fails its oracle", p.phrase, seen)
		}
	}
}
