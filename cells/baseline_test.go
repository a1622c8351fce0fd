package cells

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// A body of dependent float adds over a small array; slow multiplies the
// work by 1.25 exactly (five passes over the array where there were four).
func chainKernel(name string, passes int) string {
	return "%%c " + name + "\n#define N (1 << 15)\nstatic float a[N];\n" +
		"BENCH_SETUP() { for (int i = 0; i < N; i++) a[i] = (i & 7) * 0.25f; }\n" +
		"BENCH(sum) { float s = 0; for (int p = 0; p < " + itoa(passes) + "; p++) for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }\n"
}

func itoa(n int) string { return string(rune('0' + n)) }

func benchResult(t *testing.T, s *Session, label, code string) (*recorder, *protocol.Result) {
	t.Helper()
	rec, _, e := execute(t, s, label, code)
	if e != nil {
		t.Fatalf("%s: %v %v", label, e.Value, e.Traceback)
	}
	for _, b := range rec.displays {
		if r, ok := b.Data[display.MIMEResult].(*protocol.Result); ok {
			return rec, r
		}
	}
	t.Fatalf("%s: no result", label)
	return nil, nil
}

func verdicts(r *protocol.Result, series string) map[string]protocol.BaselineVariant {
	out := map[string]protocol.BaselineVariant{}
	for _, e := range r.Baseline.Variants {
		if e.Series == series {
			out[e.Name] = e
		}
	}
	return out
}

// Editing a kernel and rerunning %bench measures the previous build in the
// same run: a body with 25% more work comes out "slower" near 1.25 in the
// rounds taken in turn, and the same code against itself (baseline=OTHER)
// "no difference".
func TestBeforeAfterInOneRun(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	execute(t, s, "Cell[1]", chainKernel("k", 4))
	_, first := benchResult(t, s, "Cell[2]", "%bench k reps=40 runs=20")
	if first.Baseline != nil {
		t.Fatal("a first bench has a baseline")
	}
	execute(t, s, "Cell[3]", chainKernel("k", 4)) // unchanged: cached, no baseline
	_, same := benchResult(t, s, "Cell[4]", "%bench k reps=40 runs=20")
	if same.Baseline != nil {
		t.Errorf("an unchanged kernel was measured against itself as a baseline")
	}
	// 25% more work must read "slower" near 1.25. A verdict is a 95%
	// claim, and other work on a 2-CPU machine (seen: builds running
	// beside the test widened the interval to [0.953, 1.810]) can hide a
	// difference, so a miss is measured again, up to three times, against
	// the same previous build before it fails the test.
	execute(t, s, "Cell[5]", chainKernel("k", 5))
	var rec *recorder
	var after *protocol.Result
	const tries = 3
	for try := 0; try < tries; try++ {
		if try > 0 {
			s.mu.Lock()
			s.benched["k"] = s.benched["k0"]
			s.mu.Unlock()
		}
		s.mu.Lock()
		if try == 0 {
			s.benched["k0"] = s.benched["k"]
		}
		s.mu.Unlock()
		rec, after = benchResult(t, s, "Cell[6]", "%bench k reps=60 runs=20")
		if after.Baseline == nil || !after.Baseline.SameRun {
			t.Fatalf("no same-run baseline after an edit: %+v", after.Findings)
		}
		e, ok := verdicts(after, "interleaved")["sum"]
		if !ok || len(after.Baseline.Verdicts) != 1 {
			t.Fatalf("no interleaved verdict or headline for sum: %+v", after.Baseline)
		}
		h := after.Baseline.Verdicts[0]
		if h.Verdict == protocol.VerdictSlower && h.Ratio > 1.1 && h.Ratio < 1.45 && h.CILow > 1 &&
			e.Verdict == protocol.VerdictSlower && len(e.SamplesNS) == len(after.RoundBlock) {
			break
		}
		if try == tries-1 {
			t.Errorf("25%% more work, three times: headline %q %.3f [%.3f, %.3f]; interleaved %q ratio %.3f [%.3f, %.3f], %d samples of %d rounds",
				h.Verdict, h.Ratio, h.CILow, h.CIHigh, e.Verdict, e.Ratio, e.CILow, e.CIHigh, len(e.SamplesNS), len(after.RoundBlock))
		}
		t.Logf("try %d: 25%% more work read %q %.3f [%.3f, %.3f]", try+1, h.Verdict, h.Ratio, h.CILow, h.CIHigh)
	}
	if after.Baseline.Blocks < protocol.MinRuns || len(after.RoundBlock) != after.Baseline.Blocks*protocol.BlockRounds {
		t.Errorf("%d blocks, %d rounds", after.Baseline.Blocks, len(after.RoundBlock))
	}
	if len(after.Baseline.NewFirst) != len(after.RoundBlock) {
		t.Errorf("the order of the builds was recorded for %d of %d rounds", len(after.Baseline.NewFirst), len(after.RoundBlock))
	}
	if h := headlineOf(t, rec); !strings.Contains(h, "the previous build runs again beside the new one") ||
		!strings.HasPrefix(h, "sum: ") || !strings.Contains(h, "slower") {
		t.Errorf("the headline does not say sum is slower and how it was measured: %q", h)
	}
	html := ""
	for _, b := range rec.displays {
		if h, ok := b.Data[display.MIMEHTML].(string); ok && strings.Contains(h, "measured in one run") {
			html = h
		}
	}
	if !strings.Contains(html, "slower") {
		t.Errorf("the before/after does not say slower: %.300s", html)
	}

	// The same code against itself must never read as a difference, in
	// the headline or any series ("undefined" is honest when a series is
	// too noisy to resolve 2%), and the headline must resolve it: "no
	// difference". Each verdict is a 95% claim (Holm over each family), so
	// one run in twenty may say otherwise by chance: a failure is taken
	// again, and only two in a row (one in 400) fail the test.
	execute(t, s, "Cell[7]", chainKernel("twin", 5))
	var wrong []string
	for try := 0; try < 2; try++ {
		_, aa := benchResult(t, s, "Cell[8]", "%bench k reps=40 runs=20 baseline=twin")
		if aa.Baseline == nil || aa.Baseline.Other != "twin" || len(aa.Baseline.Variants) != 3 {
			t.Fatalf("baseline=twin not recorded with three series: %+v", aa.Baseline)
		}
		wrong = nil
		for _, e := range aa.Baseline.Variants {
			if e.Verdict == protocol.VerdictSlower || e.Verdict == protocol.VerdictFaster {
				wrong = append(wrong, fmt.Sprintf("%s/%s: %q, ratio %.4f [%.4f, %.4f]", e.Name, e.Series, e.Verdict, e.Ratio, e.CILow, e.CIHigh))
			}
		}
		for _, h := range aa.Baseline.Verdicts {
			if h.Verdict != protocol.VerdictNoDifference {
				wrong = append(wrong, fmt.Sprintf("headline %s: %q, ratio %.4f [%.4f, %.4f]", h.Name, h.Verdict, h.Ratio, h.CILow, h.CIHigh))
			}
		}
		if len(wrong) == 0 {
			break
		}
		t.Logf("try %d: the same code as its own baseline: %s", try+1, strings.Join(wrong, "; "))
	}
	if len(wrong) > 0 {
		t.Errorf("the same code as its own baseline, twice: %s", strings.Join(wrong, "; "))
	}
}

// A previous build whose binary is gone is reported and the run goes on.
func TestBaselineGoneFromTheCache(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	execute(t, s, "Cell[1]", chainKernel("k", 4))
	benchResult(t, s, "Cell[2]", "%bench k")
	s.mu.Lock()
	prev := s.benched["k"]
	s.mu.Unlock()
	if err := os.Remove(prev.Binary); err != nil {
		t.Fatal(err)
	}
	execute(t, s, "Cell[3]", chainKernel("k", 5))
	rec, r := benchResult(t, s, "Cell[4]", "%bench k")
	if r.Baseline != nil {
		t.Error("a baseline without its binary")
	}
	if h := headlineOf(t, rec); !strings.Contains(h, "the previous build of k is not in the cache") {
		t.Errorf("not reported: %q", h)
	}
	if _, _, e := execute(t, s, "Cell[5]", "%bench k baseline=nothere"); e == nil || !strings.Contains(e.Value+strings.Join(e.Traceback, ""), "baseline=nothere") {
		t.Errorf("an unknown baseline kernel: %+v", e)
	}
}

// headlineOf is the text of a %bench cell's first output, which must be
// its headline.
func headlineOf(t *testing.T, rec *recorder) string {
	t.Helper()
	if len(rec.displays) == 0 || report.RoleOf(rec.displays[0].Metadata) != report.RoleHeadline {
		t.Fatalf("the first output is not the headline: %+v", rec.displays)
	}
	return rec.displays[0].Data[display.MIMEText].(string)
}

// The loop of a variant becomes dead (its sum no longer reaches
// bench_sink): the headline says DEAD, not a speed-up, though its time
// fell a thousandfold.
func TestBeforeAfterDeadHeadline(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	execute(t, s, "Cell[1]", chainKernel("k", 4))
	benchResult(t, s, "Cell[2]", "%bench k quick")
	dead := strings.Replace(chainKernel("k", 4), "bench_sink(s);", "", 1)
	execute(t, s, "Cell[3]", dead)
	rec, r := benchResult(t, s, "Cell[4]", "%bench k quick")
	if r.Baseline == nil || len(r.Baseline.Verdicts) != 1 {
		t.Fatalf("no before/after: %+v", r.Baseline)
	}
	v := r.Baseline.Verdicts[0]
	h := headlineOf(t, rec)
	if v.Verdict != protocol.VerdictDead || v.New != protocol.VerdictDead || v.Previous != "" ||
		!strings.Contains(h, "sum: DEAD now: it times the clock") || !strings.Contains(h, "not a speed-up") || strings.Contains(h, "faster") {
		t.Errorf("verdict %+v, headline %q", v, h)
	}
}

// A rebuild that gives a byte-identical binary (a comment at the end of a
// line moves no line number) is not measured against itself, and the
// headline says why.
func TestSameBinaryNotRemeasured(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	execute(t, s, "Cell[1]", chainKernel("k", 4))
	benchResult(t, s, "Cell[2]", "%bench k quick")
	execute(t, s, "Cell[3]", strings.Replace(chainKernel("k", 4), "static float a[N];", "static float a[N]; // the same", 1))
	rec, r := benchResult(t, s, "Cell[4]", "%bench k quick")
	if r.Baseline != nil {
		t.Errorf("a byte-identical binary was measured against itself")
	}
	if h := headlineOf(t, rec); !strings.Contains(h, "byte for byte the same") || !strings.Contains(h, "nothing to measure before and after") {
		t.Errorf("headline %q", h)
	}
}
