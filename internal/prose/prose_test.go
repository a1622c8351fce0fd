package prose_test

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
)

// corpus reads every real result under testdata/corpus (README.md says how
// they were made and under what load).
func corpus(t *testing.T) map[string]*result.Result {
	t.Helper()
	files, err := filepath.Glob("testdata/corpus/*.json*")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("the corpus holds %d results, want at least 30", len(files))
	}
	out := map[string]*result.Result{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		var rd io.Reader = fh
		if strings.HasSuffix(f, ".gz") {
			if rd, err = gzip.NewReader(fh); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		var r result.Result
		if err := json.NewDecoder(rd).Decode(&r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fh.Close()
		out[filepath.Base(f)] = &r
	}
	return out
}

// TestCorpus runs every oracle over every sentence of every real result.
func TestCorpus(t *testing.T) {
	seen := map[string]int{}
	for name, r := range corpus(t) {
		for _, s := range findings.Sentences(r) {
			seen[prose.ClaimOf(s)]++
			if err := prose.Check(r, s); err != nil {
				t.Errorf("%s: %s sentence %q: %v", name, prose.ClaimOf(s), s.Text, err)
			}
		}
	}
	t.Logf("claims seen in the corpus: %v", seen)
}

// TestSynthetic: the synthetic results of benchtest, made by the same code
// as a real run, hold too.
func TestSynthetic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := benchtest.Seed000(seed)
		for _, f := range prose.CheckAll(r) {
			t.Errorf("seed %d: %s %q: %v", seed, prose.ClaimOf(f.Sentence), f.Sentence.Text, f.Err)
		}
	}
}

// TestEveryClaimHasAnOracle: each claim a generator names has an oracle,
// and each oracle judges a claim some generator names.
func TestEveryClaimHasAnOracle(t *testing.T) {
	known := map[string]bool{}
	for _, c := range findings.Claims {
		known[c] = true
	}
	for _, c := range []string{prose.ClaimLatencyShared, prose.ClaimLatencyWorst, prose.ClaimLatencyOverhead,
		prose.ClaimLatencyAlone, prose.ClaimLatencyRate, prose.ClaimLatencyAcross} {
		known[c] = true
	}
	has := map[string]bool{}
	for _, c := range prose.Claims() {
		has[c] = true
		if !known[c] {
			t.Errorf("an oracle judges %q, which no generator names", c)
		}
	}
	for c := range known {
		if !has[c] {
			t.Errorf("claim %q has no oracle", c)
		}
	}
}

// TestHeadlineCorpus runs the oracle of every headline line of every real
// result (and of the synthetic ones): the verdict, ratio, interval, what it
// was measured against, dead and hollow.
func TestHeadlineCorpus(t *testing.T) {
	seen := map[string]int{}
	check := func(name string, r *result.Result) {
		for _, l := range findings.Headline(r) {
			seen[l.Claim]++
		}
		for _, f := range prose.CheckHeadline(r) {
			t.Errorf("%s: headline %s %q: %v", name, f.Sentence.Claim, f.Sentence.Text, f.Err)
		}
	}
	for name, r := range corpus(t) {
		check(name, r)
	}
	for seed := uint64(1); seed <= 20; seed++ {
		check("seed "+strconv.FormatUint(seed, 10), benchtest.Seed000(seed))
	}
	for _, c := range []string{findings.ClaimHeadlineBaseline, findings.ClaimHeadlineTime, findings.ClaimHeadlineAlone, findings.ClaimHeadlineDead, findings.ClaimHeadlineNotLive} {
		if seen[c] == 0 {
			t.Errorf("no headline of the corpus claims %s: its oracle is never run", c)
		}
	}
	t.Logf("headline claims seen: %v", seen)
}
