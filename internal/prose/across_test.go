package prose_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/report"
)

// pairs are the corpus results of the same kernel, two by two, in name
// order: what compare sets side by side.
func pairs(t *testing.T) [][2]*result.Result {
	rs := corpus(t)
	names := make([]string, 0, len(rs))
	for n := range rs {
		names = append(names, n)
	}
	sort.Strings(names)
	var out [][2]*result.Result
	for i, a := range names {
		for _, b := range names[i+1:] {
			if rs[a].Kernel.Name == rs[b].Kernel.Name {
				out = append(out, [2]*result.Result{rs[a], rs[b]})
			}
		}
	}
	return out
}

// TestAcrossCorpus runs the oracles of compare's sentences over every pair
// of corpus results of one kernel.
func TestAcrossCorpus(t *testing.T) {
	ps := pairs(t)
	if len(ps) < 20 {
		t.Fatalf("%d pairs of one kernel in the corpus, want at least 20", len(ps))
	}
	seen := map[string]int{}
	for _, p := range ps {
		d := report.Compare(p[0], p[1])
		for _, s := range d.Sentences() {
			seen[s.Claim]++
			if err := prose.CheckAcross(p[0], p[1], s); err != nil {
				t.Errorf("%s: %s %q: %v", p[0].Kernel.Name, s.Claim, s.Text, err)
			}
		}
	}
	t.Logf("across runs, seen: %v", seen)
}

// False sentences across runs fail: a floor that leaves out a run's wide
// A/A interval, a change misstated, a ratio beyond the floor called
// within, within called slower.
func TestCounterAcross(t *testing.T) {
	var within, beyond [2]*result.Result
	for _, p := range pairs(t) {
		d := report.Compare(p[0], p[1])
		if strings.HasPrefix(d.Verdict, "Across runs, every median is within the run-to-run floor of 10.0%") && within[0] == nil {
			within = p
		}
		for _, h := range d.Headlines {
			if (h.Verdict == result.VerdictSlower || h.Verdict == result.VerdictFaster) && beyond[0] == nil {
				beyond = p
			}
		}
	}
	if within[0] == nil || beyond[0] == nil {
		t.Fatal("the corpus lacks a pair within the floor or one beyond it")
	}
	d := report.Compare(within[0], within[1])
	v := findings.Sentence{Claim: findings.ClaimAcrossVerdict, Text: d.Verdict}
	if err := prose.CheckAcross(within[0], within[1], v); err != nil {
		t.Fatal(err)
	}
	// A change within the floor called beyond it.
	_, first, _ := strings.Cut(v.Text, "(interleaved: ")
	name, change, _ := strings.Cut(strings.FieldsFunc(first, func(r rune) bool { return r == ',' || r == ')' })[0], " ")
	bad := v
	bad.Text = "Across runs, beyond the floor of 10.0%: " + name + " (interleaved " + change + "); measure both in one run to tell."
	mustFailAcross(t, within[0], within[1], bad)
	// The change misstated.
	bad.Text = strings.Replace(v.Text, name+" "+change, name+" +0.0%", 1)
	if change != "+0.0%" {
		mustFailAcross(t, within[0], within[1], bad)
	}
	// A floor of 5%: below the rerun drift, the least a floor can be.
	bad = v
	bad.Text = strings.Replace(v.Text, "floor of "+floorOf(v.Text)+"%", "floor of 5.0%", 1)
	mustFailAcross(t, within[0], within[1], bad)

	// A run whose A/A interval reaches 30%: the floor must follow it.
	wide := *within[1]
	wide.AA.CILow, wide.AA.CIHigh = 0.7, 1.3
	mustFailAcross(t, within[0], &wide, v)

	// Beyond the floor, the headline called within.
	d = report.Compare(beyond[0], beyond[1])
	for _, s := range d.Sentences() {
		if s.Claim == findings.ClaimAcrossHeadline && (strings.Contains(s.Text, "x slower in") || strings.Contains(s.Text, "x faster in")) {
			bad := s
			bad.Text = s.Variant + ": no change beyond the run-to-run floor of " + floorOf(s.Text) + "% (1.00x, interleaved medians 1 ns against 1 ns; across runs)"
			mustFailAcross(t, beyond[0], beyond[1], bad)
			bad.Text = strings.Replace(s.Text, "x slower in", "x faster in", 1)
			if bad.Text == s.Text {
				bad.Text = strings.Replace(s.Text, "x faster in", "x slower in", 1)
			}
			mustFailAcross(t, beyond[0], beyond[1], bad)
			return
		}
	}
	t.Fatal("no headline beyond the floor")
}

func mustFailAcross(t *testing.T, before, after *result.Result, s findings.Sentence) {
	t.Helper()
	err := prose.CheckAcross(before, after, s)
	if err == nil {
		t.Fatalf("the oracle of %s passed a false sentence: %q", s.Claim, s.Text)
	}
	t.Logf("caught: %v", err)
}

// floorOf is the floor a sentence states, as written ("10.0").
func floorOf(text string) string {
	_, rest, _ := strings.Cut(text, "floor of ")
	n, _, _ := strings.Cut(rest, "%")
	return n
}

// TestNWayCorpus: the N-way comparison of every kernel of the corpus with
// three results or more, the first as the reference: each machine's floor
// and each variant's clauses hold; a floor left at the drift for a run
// whose A/A reaches farther, and a clause turned, fail.
func TestNWayCorpus(t *testing.T) {
	rs := corpus(t)
	names := make([]string, 0, len(rs))
	for n := range rs {
		names = append(names, n)
	}
	sort.Strings(names)
	groups := map[string][]string{}
	for _, n := range names {
		groups[rs[n].Kernel.Name] = append(groups[rs[n].Kernel.Name], n)
	}
	checked, caught := 0, 0
	for _, g := range groups {
		if len(g) < 3 {
			continue
		}
		var mr []report.MachineRun
		var runs []*result.Result
		for _, n := range g {
			mr = append(mr, report.MachineRun{Label: n, Result: rs[n]})
			runs = append(runs, rs[n])
		}
		nw, err := report.CompareN(mr, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range nw.Sentences() {
			checked++
			if err := prose.CheckNWay(g, runs, 0, s); err != nil {
				t.Errorf("%s: %s %q: %v", g[0], s.Claim, s.Text, err)
			}
			if s.Claim == findings.ClaimAcrossFloors {
				// The second machine's run read 10x from itself: its floor must follow.
				wide := *runs[1]
				wide.AA.CILow, wide.AA.CIHigh = 0.5, 10
				w := append([]*result.Result{runs[0], &wide}, runs[2:]...)
				if prose.CheckNWay(g, w, 0, s) == nil {
					t.Errorf("%s: a floor not raised by an A/A interval reaching 10x passed", g[0])
				} else {
					caught++
				}
			}
			if s.Claim == findings.ClaimAcrossNWay && strings.Contains(s.Text, "x slower on ") {
				bad := s
				bad.Text = strings.Replace(s.Text, "x slower on ", "x faster on ", 1)
				if prose.CheckNWay(g, runs, 0, bad) == nil {
					t.Errorf("%s: %q passed", g[0], bad.Text)
				} else {
					caught++
				}
			}
		}
	}
	if checked < 10 || caught < 2 {
		t.Fatalf("%d N-way sentences checked, %d false ones caught: the corpus does not exercise the oracles", checked, caught)
	}
	t.Logf("%d N-way sentences, %d false ones caught", checked, caught)
}
