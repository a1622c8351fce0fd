package protocol

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/result"
)

// clockRun is a synthetic run of two variants, a and b: one interleaved
// process, one in-process series each, runs fresh processes each. clock
// gives the true clock of the i-th process in the order the protocol runs
// them (clockTimeline's order) and whether it is the estimate after the
// measured passes; each estimate reads it with a relative noise of noise
// (normal), and its middle trial is 0.3% slower than its fastest. A pass
// takes 1e6 cycles at the clock of its process.
func clockRun(rng *rand.Rand, runs int, noise float64, clock func(i int, after bool) float64) *Result {
	est := func(mhz float64) *FreqEstimate {
		got := mhz * (1 + noise*rng.NormFloat64())
		ns := int64(1e6)
		return &FreqEstimate{MHz: got, NS: ns, MedianNS: ns + 3000, WorstNS: ns + 9000, Iterations: int64(got * 1e6 / 64 / 1000), Adds: 64}
	}
	proc := func(i, samples int) FreqProcess {
		return FreqProcess{Before: est(clock(i, false)), After: est(clock(i, true)), Samples: samples}
	}
	pass := func(i int) float64 { return 1e6 / (clock(i, false) / 1000) * (1 + 0.002*rng.NormFloat64()) }
	elements := int64(1 << 20)
	r := &Result{Protocol: Protocol{Reps: 30, Runs: runs, Elements: &elements}}
	names := []string{"a", "b"}
	inter := proc(0, 30)
	for vi, name := range names {
		v := Variant{Name: name, Batch: 1}
		ns := make([]float64, 30)
		for j := range ns {
			ns[j] = pass(0)
		}
		v.Series.Interleaved = NewSamples(ns)
		setFreq(v.Series.Interleaved, []FreqProcess{inter}, &elements)
		ip := 1 + vi
		for j := range ns {
			ns[j] = pass(ip)
		}
		v.Series.InProcess = NewSamples(append([]float64{}, ns...))
		setFreq(v.Series.InProcess, []FreqProcess{proc(ip, 30)}, &elements)
		var fresh []float64
		var ps []FreqProcess
		for run := range runs {
			i := 1 + len(names) + run*len(names) + vi
			fresh = append(fresh, pass(i))
			ps = append(ps, proc(i, 1))
		}
		v.Series.Fresh = NewSamples(fresh)
		setFreq(v.Series.Fresh, ps, &elements)
		r.Variants = append(r.Variants, v)
	}
	return r
}

// A clock that does not move, read with 0.5% noise, is said not to move
// in nearly every run (false alarms below 1% of 500 runs).
func TestClockSteadyIsNotMoved(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	alarms := 0
	const trials = 500
	for range trials {
		r := clockRun(rng, 30, 0.005, func(int, bool) float64 { return 3000 })
		m, ok := findings.JudgeClock(result.ClockTimeline(r))
		if !ok || m.Processes != 1+2+60 || m.Estimates != 2*63 {
			t.Fatalf("judged %+v %v, want 63 processes and 126 estimates", m, ok)
		}
		if m.Moved() {
			alarms++
		}
	}
	if alarms > trials/100 {
		t.Errorf("a steady clock was said to move in %d of %d runs", alarms, trials)
	}
	r := clockRun(rng, 30, 0.005, func(int, bool) float64 { return 3000 })
	text := sentenceOf(t, r, TopicClock, "")
	if !strings.HasPrefix(text, "the clock did not move during the run") || !strings.Contains(text, "126 estimates in 63 processes") {
		t.Errorf("steady clock: %q", text)
	}
	for _, f := range Findings(r) {
		if f.Kind == KindClock {
			t.Errorf("steady clock gives a finding: %q", f.Text)
		}
	}
}

// A clock that drops by 20% from fresh run 15 on is said to move, the
// step is placed at the first process of the lower clock, and the two
// clocks either side are read within 2%; the finding names the process.
// The slower fresh passes are tied to the slower-clock processes.
func TestClockDropIsMovedAndPlaced(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 14))
	const firstLow = 1 + 2 + 15*2 // fresh run 16 of a, in the order the processes ran
	for trial := range 50 {
		r := clockRun(rng, 30, 0.005, func(i int, _ bool) float64 {
			if i >= firstLow {
				return 2400
			}
			return 3000
		})
		tl := result.ClockTimeline(r)
		m, _ := findings.JudgeClock(tl)
		if !m.Across || m.ChangeAt != firstLow {
			t.Fatalf("trial %d: judged %+v, want a move across processes at %d", trial, m, firstLow)
		}
		if math.Abs(m.FromMHz/3000-1) > 0.02 || math.Abs(m.ToMHz/2400-1) > 0.02 {
			t.Errorf("trial %d: from %v to %v MHz, want 3000 to 2400", trial, m.FromMHz, m.ToMHz)
		}
		if m.Within {
			t.Errorf("trial %d: a clock steady within each process called a move within one: %+v", trial, m)
		}
	}
	r := clockRun(rng, 30, 0.005, func(i int, _ bool) float64 { return map[bool]float64{true: 2400, false: 3000}[i >= firstLow] })
	text := sentenceOf(t, r, TopicClock, "")
	if !strings.HasPrefix(text, "the clock moved during the run") || !strings.Contains(text, "at fresh process 16 of a (process 34 of 63)") {
		t.Errorf("drop: %q", text)
	}
	found := false
	for _, f := range Findings(r) {
		found = found || (f.Kind == KindClock && f.Text == text)
	}
	if !found {
		t.Errorf("the move is no finding: %+v", Findings(r))
	}
	if strings.Contains(text, "the thread did not run") {
		t.Errorf("the load clause without load: %q", text)
	}
	r.Conditions.Before.Loadavg[0] = 3
	if text := sentenceOf(t, r, TopicClock, ""); !strings.Contains(text, "may be time the thread did not run") {
		t.Errorf("a move under load does not say the estimate cannot tell a shared CPU from a lower clock: %q", text)
	}
	if v := sentenceOf(t, r, TopicClock, "a"); !strings.Contains(v, "the slower fresh passes came from the slower-clock processes") {
		t.Errorf("variant a: %q", v)
	}
}

// A clock that drops inside one process (the interleaved one: 3000 before,
// 2400 after) is a move within a process, not across.
func TestClockDropInsideOneProcess(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	r := clockRun(rng, 30, 0.005, func(i int, after bool) float64 {
		if i == 0 && after {
			return 2400
		}
		return 3000
	})
	m, _ := findings.JudgeClock(result.ClockTimeline(r))
	if !m.Within || m.Across || m.WithinAt != 0 {
		t.Fatalf("judged %+v, want a move within the interleaved process only", m)
	}
	text := sentenceOf(t, r, TopicClock, "")
	if !strings.Contains(text, "between before and after (the interleaved process: ") || !strings.Contains(text, "inside a process, not between processes") {
		t.Errorf("%q", text)
	}
}

// The rule widens with the estimates' own repeatability: a 5% step read
// by estimates whose middle trial is 4% slower than the fastest is not a move.
func TestClockRuleFollowsRepeatability(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	r := clockRun(rng, 30, 0.002, func(i int, _ bool) float64 { return map[bool]float64{true: 2850, false: 3000}[i >= 33] })
	m, _ := findings.JudgeClock(result.ClockTimeline(r))
	if !m.Across {
		t.Fatalf("a 5%% step with 0.3%% repeatability: %+v", m)
	}
	for i := range r.Variants {
		for _, s := range []*Samples{r.Variants[i].Series.Interleaved, r.Variants[i].Series.InProcess, r.Variants[i].Series.Fresh} {
			for _, p := range s.FreqProcesses {
				p.Before.MedianNS, p.After.MedianNS = p.Before.NS*104/100, p.After.NS*104/100
			}
		}
	}
	m, _ = findings.JudgeClock(result.ClockTimeline(r))
	if m.Moved() || math.Abs(m.RepeatPct-4) > 0.01 || math.Abs(m.LimitPct-8) > 0.01 {
		t.Errorf("a 5%% step with 4%% repeatability: %+v", m)
	}
}

// sentenceOf is the text of the one sentence of topic about variant ("" the run).
func sentenceOf(t *testing.T, r *Result, topic, variant string) string {
	t.Helper()
	var got []string
	for _, s := range Sentences(r) {
		if s.Topic == topic && s.Variant == variant {
			got = append(got, s.Text)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d sentences of topic %s about %q: %q", len(got), topic, variant, got)
	}
	return got[0]
}
