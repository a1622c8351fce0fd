package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
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
	files, _ := filepath.Glob("testdata/recorded/*.json")
	if len(files) < 4 {
		t.Fatalf("recordings: %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rec recording
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
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
