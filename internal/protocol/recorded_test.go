package protocol

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// recording is a before/after measured on this project's machine (a
// 2-vCPU VM, load average 2-3 from other work, see conditions) with
// pairs=40, kept as taken: testdata/recorded/*.json.
type recording struct {
	What                  string         `json:"what"`
	Truth                 float64        `json:"truth"`
	Conditions            map[string]any `json:"conditions"`
	RoundBlock            []int          `json:"round_block"`
	Now, Before           []float64
	NowFresh, BeforeFresh []float64
}

func (r *recording) UnmarshalJSON(b []byte) error {
	type plain recording
	var aux struct {
		plain
		Now         []float64 `json:"now"`
		Before      []float64 `json:"before"`
		NowFresh    []float64 `json:"now_fresh"`
		BeforeFresh []float64 `json:"before_fresh"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*r = recording(aux.plain)
	r.Now, r.Before, r.NowFresh, r.BeforeFresh = aux.Now, aux.Before, aux.NowFresh, aux.BeforeFresh
	return nil
}

// window is blocks [from, to) of the recording as a headline input.
func (r *recording) window(from, to int, resolve float64) HeadlineInput {
	in := HeadlineInput{Alpha: 0.05, Resolve: resolve}
	s := HeadlineSeries{Name: "sum"}
	for i, j := range r.RoundBlock {
		if j >= from && j < to {
			in.RoundBlock = append(in.RoundBlock, j-from)
			s.Now, s.Before = append(s.Now, r.Now[i]), append(s.Before, r.Before[i])
		}
	}
	s.NowFresh, s.BeforeFresh = r.NowFresh[from:to], r.BeforeFresh[from:to]
	in.Series = []HeadlineSeries{s}
	return in
}

// recordings reads testdata/recorded/*.json (at least four), by file.
func recordings(t *testing.T) map[string]recording {
	t.Helper()
	files, _ := filepath.Glob("testdata/recorded/*.json")
	if len(files) < 4 {
		t.Fatalf("recordings: %v", files)
	}
	recs := map[string]recording{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rec recording
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		recs[f] = rec
	}
	return recs
}

// TestRecordedBeforeAfters judges real series whose answer is known by
// construction: the same binary against itself, and a chain of 5n
// dependent adds against 4n (exactly 1.25x the work), quiet and with a
// busy thread on the other CPU (load=1). Every window of 10 consecutive
// blocks, the size a run stops at first, is judged as a run of its own
// would be: the A/A never reads slower or faster in more than one window
// in ten (the windows overlap, so they are not independent trials; the
// simulation in TestCalibrationBeforeAfter measures the rate), and the
// 1.25x change reads slower with an interval holding 1.25 in at least 9
// windows in ten, and slower over all 40 blocks.
func TestRecordedBeforeAfters(t *testing.T) {
	for f, rec := range recordings(t) {
		blocks := len(rec.NowFresh)
		wrong, windows := 0, 0
		for from := 0; from+MinRuns <= blocks; from++ {
			v := JudgeHeadline(rec.window(from, from+MinRuns, 0.02))[0]
			windows++
			switch {
			case rec.Truth == 1 && (v.Verdict == VerdictSlower || v.Verdict == VerdictFaster):
				wrong++
				t.Logf("%s blocks %d-%d: %s %.4f [%.4f, %.4f]", filepath.Base(f), from, from+MinRuns-1, v.Verdict, v.Ratio, v.CILow, v.CIHigh)
			case rec.Truth != 1 && !(v.Verdict == VerdictSlower && v.CILow <= rec.Truth && rec.Truth <= v.CIHigh):
				wrong++
				t.Logf("%s blocks %d-%d: %s %.4f [%.4f, %.4f]", filepath.Base(f), from, from+MinRuns-1, v.Verdict, v.Ratio, v.CILow, v.CIHigh)
			}
		}
		all := JudgeHeadline(rec.window(0, blocks, 0.02))[0]
		t.Logf("%s (%s; %v): %d of %d windows wrong; all %d blocks: %s %.4f [%.4f, %.4f]", filepath.Base(f), rec.What, rec.Conditions,
			wrong, windows, blocks, all.Verdict, all.Ratio, all.CILow, all.CIHigh)
		if wrong*10 > windows {
			t.Errorf("%s: %d of %d windows of %d blocks judged wrong", f, wrong, windows, MinRuns)
		}
		if rec.Truth != 1 && all.Verdict != VerdictSlower || rec.Truth == 1 && all.Verdict != VerdictNoDifference && all.Verdict != VerdictUndefined {
			t.Errorf("%s: all %d blocks read %s", f, blocks, all.Verdict)
		}
	}
}

// TestRecordedFirstLook judges every window of stats.SeqFirst blocks of the
// recordings, the sequential test's first look (a headline judged that
// soon, as it would be if a run stopped there): the A/A must never read
// slower or faster, and the 1.25x change must never read faster, and
// whenever it reads slower its interval must hold 1.25.
func TestRecordedFirstLook(t *testing.T) {
	for f, rec := range recordings(t) {
		decided, windows := 0, 0
		for from := 0; from+stats.SeqFirst <= len(rec.NowFresh); from++ {
			v := JudgeHeadline(rec.window(from, from+stats.SeqFirst, 0.02))[0]
			windows++
			called := v.Verdict == VerdictSlower || v.Verdict == VerdictFaster
			if called {
				decided++
			}
			switch {
			case rec.Truth == 1 && called,
				rec.Truth != 1 && v.Verdict == VerdictFaster,
				rec.Truth != 1 && v.Verdict == VerdictSlower && !(v.CILow <= rec.Truth && rec.Truth <= v.CIHigh):
				t.Errorf("%s blocks %d-%d: %s %.4f [%.4f, %.4f] (truth %.2f)", filepath.Base(f), from, from+stats.SeqFirst-1,
					v.Verdict, v.Ratio, v.CILow, v.CIHigh, rec.Truth)
			}
		}
		t.Logf("%s: %d of %d windows of %d blocks decided", filepath.Base(f), decided, windows, stats.SeqFirst)
		if rec.Truth != 1 && decided == 0 {
			t.Errorf("%s: no window of %d blocks reads the 1.25x change", f, stats.SeqFirst)
		}
	}
}

// TestBlockStop holds the stopping rule: pairs= stops at its count and
// nothing else stops it; otherwise nothing stops a run before MinRuns
// blocks, even a known verdict (the table's Holm-adjusted series verdicts
// need them), and from there a known verdict or the budget does.
func TestBlockStop(t *testing.T) {
	yes, no := func() bool { return true }, func() bool { return false }
	cases := []struct {
		n, limit    int
		fixed       bool
		known, over func() bool
		want        string
	}{
		{stats.SeqFirst - 1, MaxPairs, false, yes, yes, ""},
		{stats.SeqFirst, MaxPairs, false, yes, yes, ""},
		{MinRuns - 1, MaxPairs, false, yes, yes, ""},
		{stats.SeqFirst, MaxPairs, false, no, yes, ""},
		{MinRuns - 1, MaxPairs, false, no, yes, ""},
		{MinRuns, MaxPairs, false, no, yes, StopBudget},
		{MinRuns, MaxPairs, false, yes, yes, StopDecided},
		{MinRuns, MaxPairs, false, no, no, ""},
		{stats.SeqFirst, 12, true, yes, yes, ""},
		{12, 12, true, no, no, StopPairs},
		{MaxPairs, MaxPairs, false, no, no, StopPairs},
	}
	for _, c := range cases {
		if got := BlockStop(c.n, c.limit, c.fixed, c.known, c.over); got != c.want {
			t.Errorf("BlockStop(n=%d, limit=%d, fixed=%v, known=%v, over=%v) = %q, want %q", c.n, c.limit, c.fixed, c.known(), c.over(), got, c.want)
		}
	}
}
