package prose_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/result"
)

// sweepPoint is a deep copy of point i of the real sweep name.
func sweepPoint(t *testing.T, name string, i int) *result.Result {
	t.Helper()
	rs, ok := sweeps(t)[name]
	if !ok || i >= len(rs) {
		t.Fatalf("no point %d of sweep %s", i, name)
	}
	b, err := json.Marshal(rs[i])
	if err != nil {
		t.Fatal(err)
	}
	var r result.Result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// withStream gives r a last-level cache of llc (every CPU's caches become
// L1d 48K, L2 2048K and llc, as /sys writes them) and a fingerprint whose
// streaming read through 64 MiB took these trials (GB/s). The corpus's
// sweeps were taken before the stream existed, on a host whose L3 (260M)
// holds all but their largest point: the stream and the caches are put in,
// the points' times are as measured.
func withStream(r *result.Result, llc string, trials ...float64) *result.Result {
	for i := range r.Conditions.Machine.CPUs {
		r.Conditions.Machine.CPUs[i].Caches = []machine.Cache{{Level: 1, Type: "Data", Size: "48K"}, {Level: 1, Type: "Instruction", Size: "32K"},
			{Level: 2, Type: "Unified", Size: "2048K"}, {Level: 3, Type: "Unified", Size: llc}}
	}
	if r.Conditions.Fingerprint == nil {
		r.Conditions.Fingerprint = &machine.Fingerprint{Version: machine.FingerprintVersion}
	}
	st := machine.Entry{Name: machine.StreamEntry, Unit: "GB/s", Value: median(trials), Trials: trials, Bytes: 64 << 20}
	st.Noise = machine.NoiseOf(st)
	if e := r.Conditions.Fingerprint.Entry(machine.StreamEntry); e != nil {
		*e = st // a sweep measured with the stream: its stream replaced
		return r
	}
	r.Conditions.Fingerprint.Entries = append(r.Conditions.Fingerprint.Entries, st)
	return r
}

// bwSentences are r's sentences of the bandwidth ceiling.
func bwSentences(r *result.Result) []findings.Sentence {
	var out []findings.Sentence
	for _, s := range findings.Sentences(r) {
		if s.Claim == findings.ClaimBWOver || s.Claim == findings.ClaimBWAt {
			out = append(out, s)
		}
	}
	return out
}

// onlyBW: r says exactly one bandwidth sentence, of claim and variant, and
// every sentence of r holds.
func onlyBW(t *testing.T, r *result.Result, claim, variant string) findings.Sentence {
	t.Helper()
	got := bwSentences(r)
	if len(got) != 1 || got[0].Claim != claim || got[0].Variant != variant {
		t.Fatalf("bandwidth sentences %+v, want one %s of %s", got, claim, variant)
	}
	sentencesPass(t, r)
	t.Logf("%s", got[0].Text)
	return got[0]
}

// The 64 MiB point of sizes-sweep-72: eight reads 4.36 bytes per ns, chain
// 2.57. Against a stream of about 4.3 GB/s and a 32 MiB last-level cache,
// eight runs at the stream and chain, under it, gets nothing; the at
// sentence called over, or with another stream figure, fails its oracle.
func TestBWCeilingAt(t *testing.T) {
	r := withStream(sweepPoint(t, "sizes-sweep-72.json.gz", 6), "32768K", 4.1, 4.2, 4.3, 4.4, 4.5)
	at := onlyBW(t, r, findings.ClaimBWAt, "eight")
	if !strings.Contains(at.Text, "64MB, its working set") || !strings.Contains(at.Text, "4.36 bytes per ns") || !strings.Contains(at.Text, "(4.3 GB/s through 64MB") {
		t.Errorf("at: %q", at.Text)
	}
	bad := at
	bad.Claim = findings.ClaimBWOver
	mustFail(t, r, bad)
	bad = at
	bad.Text = strings.Replace(at.Text, "(4.3 GB/s", "(4.4 GB/s", 1)
	mustFail(t, r, bad)
	bad = at
	bad.Text = strings.Replace(at.Text, "the 32MB last-level", "the 16MB last-level", 1)
	mustFail(t, r, bad)

	// A stream that moved while it was measured (the trials of a real run
	// under other work), its median at eight's speed: nothing is called at
	// it, and the at sentence fails.
	moved := withStream(sweepPoint(t, "sizes-sweep-72.json.gz", 6), "32768K", 2.2, 4.3, 4.3, 5.8, 6.0)
	if got := bwSentences(moved); len(got) != 0 {
		t.Errorf("at a stream that moved: %+v", got)
	}
	mustFail(t, moved, at)

	// The stream 1.3x faster: eight is neither at it nor over it.
	far := withStream(sweepPoint(t, "sizes-sweep-72.json.gz", 6), "32768K", 5.5, 5.6, 5.7, 5.8, 5.9)
	if got := bwSentences(far); len(got) != 0 {
		t.Errorf("a variant at 0.77 of the stream: %+v", got)
	}
	mustFail(t, far, at)
}

// Against a stream of 2 GB/s, eight (4.36) reads more than memory delivered
// and chain (2.57, 1.29x the fastest trial) too; called at, either fails.
// A stream with one fast trial (4.2 GB/s) is its ceiling: eight is then
// within 1.1x of it and not over, and the over sentence fails.
func TestBWCeilingOver(t *testing.T) {
	r := withStream(sweepPoint(t, "sizes-sweep-72.json.gz", 6), "32768K", 1.9, 1.95, 2, 2, 2)
	got := bwSentences(r)
	if len(got) != 2 || got[0].Claim != findings.ClaimBWOver || got[1].Claim != findings.ClaimBWOver {
		t.Fatalf("bandwidth sentences %+v, want two over", got)
	}
	sentencesPass(t, r)
	over := got[0]
	if over.Variant == "chain" {
		over = got[1]
	}
	t.Logf("%s", over.Text)
	if !strings.Contains(over.Text, "2.179x the fastest streaming read") || !strings.Contains(over.Text, "not read, or it sits in a cache") {
		t.Errorf("over: %q", over.Text)
	}
	bad := over
	bad.Claim = findings.ClaimBWAt
	mustFail(t, r, bad)

	fast := withStream(sweepPoint(t, "sizes-sweep-72.json.gz", 6), "32768K", 1.9, 1.95, 2, 2, 4.2)
	for _, s := range bwSentences(fast) {
		if s.Variant == "eight" {
			t.Errorf("eight at 1.04x the fastest trial: %q", s.Text)
		}
	}
	mustFail(t, fast, over)
}

// Where it is not decidable nothing is said, and a sentence put there
// fails: a working set the last-level cache holds (the 16 MiB point, or
// the 64 MiB point under the corpus host's 260 MiB L3), a stream the cache
// holds, no stream (a result from before it, or fingerprint=off), no cache
// sizes, no working set in bytes, a dead variant.
func TestBWCeilingUndecidable(t *testing.T) {
	base := withStream(sweepPoint(t, "sizes-sweep-72.json.gz", 6), "32768K", 1.9, 1.95, 2, 2, 2)
	var over findings.Sentence
	for _, s := range bwSentences(base) {
		if s.Variant == "eight" {
			over = s
		}
	}
	cases := map[string]func(r *result.Result){
		"the last-level cache holds the working set": func(r *result.Result) {
			for i := range r.Conditions.Machine.CPUs {
				r.Conditions.Machine.CPUs[i].Caches[3].Size = "266240K"
			}
		},
		"the working set is the cache's size": func(r *result.Result) {
			for i := range r.Conditions.Machine.CPUs {
				r.Conditions.Machine.CPUs[i].Caches[3].Size = "64M"
			}
		},
		"no cache sizes": func(r *result.Result) {
			for i := range r.Conditions.Machine.CPUs {
				r.Conditions.Machine.CPUs[i].Caches = nil
			}
		},
		"no stream": func(r *result.Result) {
			es := r.Conditions.Fingerprint.Entries
			r.Conditions.Fingerprint.Entries = es[:len(es)-1]
		},
		"a stream_read in another unit": func(r *result.Result) {
			r.Conditions.Fingerprint.Entry(machine.StreamEntry).Unit = "ns"
		},
		"hollow": func(r *result.Result) { r.Variant("eight").Hollow = true },
		"fingerprint=off": func(r *result.Result) {
			r.Conditions.Fingerprint.Entries, r.Conditions.Fingerprint.Skipped = []machine.Entry{}, "fingerprint=off"
		},
		"no fingerprint": func(r *result.Result) { r.Conditions.Fingerprint = nil },
		"a stream within the cache": func(r *result.Result) {
			r.Conditions.Fingerprint.Entry(machine.StreamEntry).Bytes = 16 << 20
		},
		"a stream of unknown size (no bytes)": func(r *result.Result) {
			r.Conditions.Fingerprint.Entry(machine.StreamEntry).Bytes = 0
		},
		"no working set in bytes": func(r *result.Result) { r.Sweep.Bytes = nil },
		"no sweep":                func(r *result.Result) { r.Sweep = nil },
		"dead":                    func(r *result.Result) { r.Variant("eight").Dead = true },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			r := withStream(sweepPoint(t, "sizes-sweep-72.json.gz", 6), "32768K", 1.9, 1.95, 2, 2, 2)
			edit(r)
			for _, s := range bwSentences(r) {
				if s.Variant == "eight" {
					t.Errorf("said: %q", s.Text)
				}
			}
			mustFail(t, r, over)
		})
	}
	// The 16 MiB point is within a 32 MiB cache.
	if got := bwSentences(withStream(sweepPoint(t, "sizes-sweep-72.json.gz", 5), "32768K", 1.9, 1.95, 2, 2, 2)); len(got) != 0 {
		t.Errorf("a cache-resident working set: %+v", got)
	}
}

// Every point of every real sweep, given a 32 MiB last-level cache and a
// stream slow enough that the largest points are over it and one at their
// speed: whatever bandwidth sentence is written holds, with all the
// others.
func TestBWCeilingSweeps(t *testing.T) {
	seen := map[string]int{}
	for name, rs := range sweeps(t) {
		for i := range rs {
			for _, gbs := range []float64{0.25, 2, 4.4, 16} {
				r := withStream(sweepPoint(t, name, i), "32768K", gbs*0.95, gbs, gbs, gbs*1.02, gbs*1.05)
				for _, s := range bwSentences(r) {
					seen[s.Claim]++
				}
				for _, f := range prose.CheckAll(r) {
					t.Errorf("%s point %d, stream %g: %s %q: %v", name, i, gbs, prose.ClaimOf(f.Sentence), f.Sentence.Text, f.Err)
				}
			}
		}
	}
	if seen[findings.ClaimBWOver] == 0 || seen[findings.ClaimBWAt] == 0 {
		t.Errorf("bandwidth claims seen %v, want both", seen)
	}
	t.Logf("bandwidth claims seen: %v", seen)
}

// A whole real sweep given the stream and the caches: its commentary says
// each point's bandwidth sentences, keyed by the point, and they hold by
// the sweep's oracles; one keyed by another point fails.
func TestBWCeilingInTheSweepCommentary(t *testing.T) {
	var rs []*result.Result
	for i := range sweeps(t)["sizes-sweep-72.json.gz"] {
		rs = append(rs, withStream(sweepPoint(t, "sizes-sweep-72.json.gz", i), "32768K", 1.9, 1.95, 2, 2, 2))
	}
	var want, got []findings.Sentence
	for _, r := range rs {
		want = append(want, findings.BWSentences(r)...)
	}
	for _, s := range findings.SweepSentences(rs) {
		if s.Claim == findings.ClaimBWOver || s.Claim == findings.ClaimBWAt {
			got = append(got, s)
		}
	}
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("the sweep says %d bandwidth sentences, its points %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Text != want[i].Text || got[i].Topic != findings.TopicSweep || got[i].Key == "" {
			t.Errorf("sentence %d: %+v, want %q", i, got[i], want[i].Text)
		}
	}
	for _, f := range prose.CheckSweepAll(rs) {
		t.Errorf("%s %q: %v", f.Sentence.Claim, f.Sentence.Text, f.Err)
	}
	bad := got[0]
	bad.Key = "0" // the 16 KiB point, which the cache holds
	if err := prose.CheckSweep(rs, bad); err == nil {
		t.Errorf("a bandwidth sentence keyed by the wrong point passed: %+v", bad)
	}
}

// A variant the clock cannot time (its median within two clock reads) is
// called implausible, and nothing is said of its bandwidth.
func TestBWCeilingNotOfAClockBoundVariant(t *testing.T) {
	r := withStream(sweepPoint(t, "sizes-sweep-72.json.gz", 6), "32768K", 1.9, 1.95, 2, 2, 2)
	v := r.Variant("eight")
	v.Batch = 1
	r.Conditions.Clock.ReadCostNS = v.Series.Interleaved.Summary.Median
	for _, s := range bwSentences(r) {
		if s.Variant == "eight" {
			t.Errorf("said of a clock-bound variant: %q", s.Text)
		}
	}
	for _, s := range findings.BWSentences(r) {
		if s.Variant == "eight" {
			t.Errorf("the sweep says of a clock-bound variant: %q", s.Text)
		}
	}
}

// The real sweep of this VM (AMD, 32 MiB L3) with the stream its own
// fingerprint measured while other work ran (trials 9.3-26.4 GB/s):
// quarter, which reads a quarter of its array, reads more than memory
// delivered at 64 and 128 MiB; eight, at the stream's median at 128 MiB,
// is not called at a stream that moved; everything said holds.
func TestBWCeilingRealSweep(t *testing.T) {
	rs := sweeps(t)["bw-sizes-sweep-amd.json.gz"]
	var over []string
	for _, s := range findings.SweepSentences(rs) {
		switch s.Claim {
		case findings.ClaimBWOver:
			over = append(over, s.Variant+"@"+s.Key)
		case findings.ClaimBWAt:
			t.Errorf("at a stream that moved: %q", s.Text)
		}
	}
	if strings.Join(over, " ") != "quarter@2 quarter@3" {
		t.Errorf("over: %v, want quarter at points 2 and 3", over)
	}
	for _, f := range prose.CheckSweepAll(rs) {
		t.Errorf("%s %q: %v", f.Sentence.Claim, f.Sentence.Text, f.Err)
	}
	for _, r := range rs {
		sentencesPass(t, r)
	}
}
