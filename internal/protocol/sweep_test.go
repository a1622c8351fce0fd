package protocol

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestParseSweep(t *testing.T) {
	cases := []struct {
		in    string
		first []int64 // first axis, first and last values
		n     int     // points
	}{
		{"N:4K..64M", []int64{4 << 10, 64 << 20}, 15},
		{"N:4K..64M*4", []int64{4 << 10, 64 << 20}, 8},
		{"N:4K..60M*4", []int64{4 << 10, 16 << 20}, 7},
		{"N:1024,4096,65536", []int64{1024, 65536}, 3},
		{"N:4K..1M;M:1,8", []int64{4 << 10, 1 << 20}, 18},
	}
	for _, c := range cases {
		axes, err := ParseSweep(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		v := axes[0].Values
		if v[0] != c.first[0] || v[len(v)-1] != c.first[1] || len(Points(axes)) != c.n {
			t.Errorf("%s: values %v, %d points; want %v, %d points", c.in, v, len(Points(axes)), c.first, c.n)
		}
	}
	pts := Points([]Axis{{Param: "N", Values: []int64{1, 2}}, {Param: "M", Values: []int64{7, 8}}})
	if len(pts) != 4 || pts[1][0] != 1 || pts[1][1] != 8 || pts[2][0] != 2 {
		t.Errorf("points of two axes: %v; want the first axis varying slowest", pts)
	}
	bad := map[string]string{
		"N:64M..4K":       "backwards",
		"N:4X":            "not a size",
		"N:4K":            "at least two points",
		"1N:4K..8K":       "identifier",
		"N:1..1G;M:1..4":  "points",
		"N:4K..1M*1":      "factor",
		"N:1,2;N:3,4":     "twice",
		"N:1,2;M:1;K:1,2": "two axes",
		"N:1,1":           "listed twice",
	}
	for in, want := range bad {
		if _, err := ParseSweep(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v; want one saying %q", in, err, want)
		}
	}
}

func TestSweepOptions(t *testing.T) {
	o, err := ParseOptions([]string{"sweep=N:4K..1M", `predict="time(1M)/time(4K)~256"`, "bytes=4*N"})
	if err != nil || len(o.Sweep) != 1 || o.Bytes.Factor != 4 || o.Bytes.Param != "N" {
		t.Fatalf("options %+v, %v", o, err)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"sweep=N:4K..1M", "predict=time(3M)/time(4K)~256"}},
		{[]string{"predict=time(1M)/time(4K)~256"}},
		{[]string{"sweep=N:4K..1M", "bytes=4*M"}},
		{[]string{"bytes=4*N"}},
		{[]string{"sweep=N:4K..1M", "bytes=N*N"}},
	} {
		if _, err := ParseOptions(c.args); err == nil {
			t.Errorf("%v: accepted", c.args)
		}
	}
	if KeyHelp("sweep") == "" || KeyHelp("bytes") == "" {
		t.Error("sweep and bytes have no help")
	}
}

func TestBytesExpr(t *testing.T) {
	for in, want := range map[string]int64{"4*N": 4000, "N*8": 8000, "N": 1000} {
		e, err := ParseBytesExpr(in)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := e.Eval(map[string]int64{"N": 1000}); got != want {
			t.Errorf("bytes=%s at N=1000: %d, want %d", in, got, want)
		}
	}
}

func TestWorkingSetFit(t *testing.T) {
	axis := []Axis{{Param: "N", Values: []int64{4096, 8192, 16384, 1 << 20, 64 << 20}}}
	pts := Points(axis)
	// A static int array of N elements beside 1000 bytes of other data,
	// each section padded to 32 bytes: exactly 4 bytes per N.
	var static, heap, square []int64
	for _, p := range pts {
		static = append(static, (1000+4*p[0]+31)/32*32)
		heap = append(heap, 1016)
		square = append(square, p[0]*p[0]/1024)
	}
	b, rule, err := WorkingSet(pts, []string{"N"}, static, nil)
	if err != nil || rule != RuleFit {
		t.Fatalf("static: rule %q, %v", rule, err)
	}
	for i, p := range pts {
		if b[i] == nil || math.Abs(float64(*b[i]-4*p[0])) > FitSlack {
			t.Errorf("N=%d: bytes %v, want about %d", p[0], b[i], 4*p[0])
		}
	}
	for name, sec := range map[string][]int64{"heap": heap, "square": square} {
		b, rule, _ := WorkingSet(pts, []string{"N"}, sec, nil)
		if b[0] != nil || !strings.HasPrefix(rule, "none") || !strings.Contains(rule, "bytes=") {
			t.Errorf("%s: bytes %v, rule %q; want null and a rule asking for bytes=", name, b[0], rule)
		}
	}
	b, rule, _ = WorkingSet(pts, []string{"N"}, heap, &BytesExpr{Factor: 4, Param: "N"})
	if *b[4] != 4*(64<<20) || rule != "bytes=4*N" {
		t.Errorf("bytes=4*N: %d, %q", *b[4], rule)
	}
	// Two axes: a static double [N][M].
	two := Points([]Axis{{Param: "N", Values: []int64{1024, 4096, 16384}}, {Param: "M", Values: []int64{1, 8}}})
	var sec2 []int64
	for _, p := range two {
		sec2 = append(sec2, 512+8*p[0]*p[1])
	}
	b, rule, _ = WorkingSet(two, []string{"N", "M"}, sec2, nil)
	for i, p := range two {
		if rule != RuleFit || b[i] == nil || math.Abs(float64(*b[i]-8*p[0]*p[1])) > 1 {
			t.Errorf("N=%d M=%d: %v (%q), want %d", p[0], p[1], b[i], rule, 8*p[0]*p[1])
		}
	}
}

// curve makes a sweep curve over working sets 16K..256M (N = 4K..64M ints)
// whose time per element is f(bytes) times lognormal noise of sd cv.
func curve(rng *rand.Rand, f func(b int64) float64, cv float64, n int) []CurvePoint {
	var c []CurvePoint
	for v := int64(4 << 10); v <= 64<<20; v *= 2 {
		b := 4 * v
		p := CurvePoint{Label: "N=" + FormatSize(v), Bytes: &b, X: float64(b)}
		for range n {
			p.PerEl = append(p.PerEl, f(b)*math.Exp(cv*rng.NormFloat64()))
		}
		c = append(c, p)
	}
	return c
}

var testCaches = []CacheMark{{Name: "L1d", Bytes: 48 << 10}, {Name: "L2", Bytes: 1 << 20}, {Name: "L3", Bytes: 32 << 20}}

// cacheCurve is a time per element that steps when the working set
// leaves each level of testCaches.
func cacheCurve(b int64) float64 {
	switch {
	case b <= 48<<10:
		return 0.3
	case b <= 1<<20:
		return 0.6
	case b <= 32<<20:
		return 1.2
	}
	return 3
}

func TestStepsNamed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	flat := FindSteps(curve(rng, func(int64) float64 { return 1 }, 0.02, 30), testCaches)
	if len(flat) != 0 {
		t.Errorf("flat curve: steps %v", flat)
	}
	for _, cv := range []float64{0.01, 0.08} {
		steps := FindSteps(curve(rng, cacheCurve, cv, 30), testCaches)
		var names []string
		for _, s := range steps {
			if len(s.Levels) != 1 {
				t.Fatalf("cv %g: step %s..%s crosses %v", cv, s.From.Label, s.To.Label, s.Levels)
			}
			names = append(names, s.Levels[0].Name)
		}
		if strings.Join(names, ",") != "L1d,L2,L3" {
			t.Errorf("cv %g: steps cross %v; want L1d, L2, L3", cv, names)
		}
	}
	// A rise of 1.2x is below the rule's ratio; 1.5x between two points
	// with no cache size between them is named as such.
	small := FindSteps(curve(rng, func(b int64) float64 { return 1 + 0.2*float64(btoi(b > 4<<20)) }, 0.01, 30), testCaches)
	if len(small) != 0 {
		t.Errorf("a 1.2x rise: steps %v", small)
	}
	odd := FindSteps(curve(rng, func(b int64) float64 { return 1 + 0.5*float64(btoi(b > 4<<20)) }, 0.01, 30), testCaches)
	if len(odd) != 1 || len(odd[0].Levels) != 0 || odd[0].From.Label != "N=1M" {
		t.Errorf("a 1.5x rise at 4M bytes: %+v", odd)
	}
}

func TestNoFalseSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		if s := FindSteps(curve(rng, func(int64) float64 { return 1 }, 0.10, 10), testCaches); len(s) != 0 {
			t.Fatalf("trial %d: a noisy flat curve (cv 10%%, 10 samples) has a step %s..%s of %.2f", trial, s[0].From.Label, s[0].To.Label, s[0].Ratio)
		}
	}
}

// sweepResults makes the results of a one-axis sweep from a curve.
func sweepResults(c []CurvePoint, caches []CacheMark) []*Result {
	var rs []*Result
	for i, p := range c {
		n := *p.Bytes / 4
		ns := make([]float64, len(p.PerEl))
		for j, x := range p.PerEl {
			ns[j] = x * float64(n)
		}
		b := *p.Bytes
		r := &Result{Variants: []Variant{{Name: "sum", Series: Series{Interleaved: NewSamples(ns)}}},
			Sweep: &SweepPoint{ID: "s1", Index: i, Of: len(c), Param: "N", Value: n, Elements: n, Bytes: &b, BytesRule: RuleFit, SectionBytes: 100 + b}}
		rs = append(rs, r)
	}
	rs[len(rs)-1].Sweep.Summary = &SweepSummary{Axes: []Axis{{Param: "N"}}, Variant: "sum", Caches: caches}
	for _, r := range rs {
		rs[len(rs)-1].Sweep.Summary.Axes[0].Values = append(rs[len(rs)-1].Sweep.Summary.Axes[0].Values, r.Sweep.Value)
	}
	return rs
}

func TestSweepSentencesAndPrediction(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	rs := sweepResults(curve(rng, cacheCurve, 0.02, 20), testCaches)
	sum := SweepOf(rs)
	for _, c := range []struct {
		text, verdict string
	}{{"time(64M)/time(1M)~64", "outside"}, {"time(64M)/time(1M)~160", "inside"}, {"time(64M)/time(1M)>100", "held"}, {"time(1M)/time(64M)>1", "not held"}} {
		p, err := ParseSweepPrediction(c.text, sum.Axes)
		if err != nil {
			t.Fatal(err)
		}
		p.Seed = 7
		if err := p.JudgeSweep(rs, sum.Axes, "sum"); err != nil {
			t.Fatal(err)
		}
		// 64 times the elements at 3/1.2 = 2.5 times the time per
		// element (1M ints are 4MB: in L3).
		want := 160.0
		if p.A[0] < p.B[0] {
			want = 1 / want
		}
		if math.Abs(*p.Observed/want-1) > 0.05 || *p.CILow > *p.Observed || *p.CIHigh < *p.Observed || p.Verdict != c.verdict {
			t.Errorf("%s: measured %g [%g, %g] %s; want about %g, %s", c.text, *p.Observed, *p.CILow, *p.CIHigh, p.Verdict, want, c.verdict)
		}
		sum.Prediction = p
	}
	var text []string
	steps := 0
	for _, s := range SweepSentences(rs) {
		text = append(text, s.Text)
		if s.Kind == KindStep {
			steps++
		}
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"reaches or crosses L1d (48KB)", "reaches or crosses L2 (1MB)", "reaches or crosses L3 (32MB)", "predicted > 1, measured 0.006", "not held"} {
		if !strings.Contains(all, strings.TrimSpace(want)) {
			t.Errorf("the sentences do not say %q:\n%s", want, all)
		}
	}
	if steps != 3 {
		t.Errorf("%d step sentences; want 3:\n%s", steps, all)
	}
	flat := sweepResults(curve(rng, func(int64) float64 { return 1 }, 0.02, 20), testCaches)
	for _, s := range SweepSentences(flat) {
		if s.Kind == KindStep {
			t.Errorf("flat: %s", s.Text)
		}
	}
}

// Two axes: one curve per value of the second, each with its own steps,
// the points labelled with both parameters, and the prediction naming a
// point by both values.
func TestSweepTwoAxes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	axes := []Axis{{Param: "N", Values: []int64{4 << 10, 64 << 10, 1 << 20, 16 << 20}}, {Param: "M", Values: []int64{1, 8}}}
	var rs []*Result
	for i, p := range Points(axes) {
		b := 4 * p[0] * p[1]
		per := cacheCurve(b)
		var ns []float64
		for range 20 {
			ns = append(ns, per*float64(p[0]*p[1])*math.Exp(0.02*rng.NormFloat64()))
		}
		rs = append(rs, &Result{Variants: []Variant{{Name: "sum", Series: Series{Interleaved: NewSamples(ns)}}},
			Sweep: &SweepPoint{ID: "s2", Index: i, Of: 8, Param: "N", Value: p[0], Params: map[string]int64{"N": p[0], "M": p[1]},
				Elements: p[0] * p[1], Bytes: &b, BytesRule: RuleFit}})
	}
	if got := PointLabel(rs[1]); got != "N=4K,M=8" {
		t.Errorf("label %q", got)
	}
	if got := sweepAxes(rs); len(got) != 2 || fmt.Sprint(got[1].Values) != "[1 8]" || len(got[0].Values) != 4 {
		t.Errorf("axes %v", got)
	}
	p, err := ParseSweepPrediction("time(1M,8)/time(1M,1)>1", axes)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.JudgeSweep(rs, axes, "sum"); err != nil || p.Verdict != "held" {
		t.Errorf("eight times the elements at M=8: %v %v", p.Verdict, err)
	}
	rs[7].Sweep.Summary = &SweepSummary{Axes: axes, Variant: "sum", Caches: testCaches, Prediction: p}
	names, curves := Curves(rs, "sum")
	if len(curves) != 2 || names[0] != "M=1" || names[1] != "M=8" || len(curves[0]) != 4 {
		t.Fatalf("curves %v %d", names, len(curves))
	}
	all := ""
	for _, s := range SweepSentences(rs) {
		all += s.Text + "\n"
	}
	// M=1: 16K, 256K, 4M, 64M bytes: crosses L1d, L2 and L3 between points.
	// M=8: 128K, 2M, 32M, 512M: L2, then L3 (32M fits), the last beyond.
	for _, want := range []string{"sum at M=1: a step, time per element rises", "reaches or crosses L1d (48KB)", "sum at M=8: a step"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in\n%s", want, all)
		}
	}
}

// Every live variant of a sweep is judged: a flat one says it has no step,
// one that climbs through the caches has its steps named, a dead one is
// left out, and the prediction says which variant it was judged on.
func TestSweepEveryLiveVariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	axes := []Axis{{Param: "N", Values: []int64{4 << 10, 64 << 10, 1 << 20, 16 << 20}}}
	var rs []*Result
	for i, p := range Points(axes) {
		b := 4 * p[0]
		sample := func(per float64) []float64 {
			var ns []float64
			for range 20 {
				ns = append(ns, per*float64(p[0])*math.Exp(0.02*rng.NormFloat64()))
			}
			return ns
		}
		rs = append(rs, &Result{Variants: []Variant{
			{Name: "gone", Dead: true, Series: Series{Interleaved: NewSamples(sample(1e-6))}},
			{Name: "flat", Series: Series{Interleaved: NewSamples(sample(1))}},
			{Name: "climbs", Series: Series{Interleaved: NewSamples(sample(cacheCurve(b)))}}},
			Sweep: &SweepPoint{ID: "s3", Index: i, Of: 4, Param: "N", Value: p[0], Params: map[string]int64{"N": p[0]},
				Elements: p[0], Bytes: &b, BytesRule: RuleFit}})
	}
	p, err := ParseSweepPrediction("time(16M)/time(4K)~1", axes)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.JudgeSweep(rs, axes, "flat"); err != nil {
		t.Fatal(err)
	}
	rs[3].Sweep.Summary = &SweepSummary{Axes: axes, Variant: "flat", Caches: testCaches, Prediction: p}
	if got := SweepVariants(rs); fmt.Sprint(got) != "[flat climbs]" {
		t.Fatalf("sweep variants %v, want the summary's first and the other live one", got)
	}
	var steps []string
	all := ""
	for _, s := range SweepSentences(rs) {
		all += s.Text + "\n"
		if s.Kind == KindStep {
			steps = append(steps, s.Variant)
		}
	}
	for _, want := range []string{"flat: no step", "climbs: a step, time per element rises", ", judged on flat"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in\n%s", want, all)
		}
	}
	if len(steps) == 0 || slices.Contains(steps, "flat") || strings.Contains(all, "gone") {
		t.Errorf("steps of %v; the dead variant named: %v\n%s", steps, strings.Contains(all, "gone"), all)
	}
}

// withCheck gives every point of c fresh samples from f (time per element
// at a working set) with noise cv.
func withCheck(rng *rand.Rand, c []CurvePoint, f func(int64) float64, cv float64) []CurvePoint {
	for i := range c {
		c[i].Check = nil
		for range 10 {
			c[i].Check = append(c[i].Check, f(*c[i].Bytes)*math.Exp(cv*rng.NormFloat64()))
		}
	}
	return c
}

// The interleaved rounds decide a step and the fresh processes check it:
// a rise of one point's block of interleaved rounds that the fresh rounds,
// visiting every point in turn, do not show is not a step, and is said so.
func TestStepsCheckedByFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	lifted := func(b int64) float64 { return 1 + float64(btoi(b == 256<<10)) } // one point 2x in its block
	flat := func(int64) float64 { return 1 }
	c := withCheck(rng, curve(rng, lifted, 0.02, 20), flat, 0.02)
	steps := FindSteps(c, testCaches)
	if len(steps) != 1 || !steps[0].Unchecked || steps[0].CheckRatio > CheckRatio {
		t.Fatalf("a lifted block with flat fresh rounds: %+v", steps)
	}
	rs := sweepResults(c, testCaches)
	for i, r := range rs {
		r.Variants[0].Series.Fresh = NewSamples(scale(c[i].Check, float64(*c[i].Bytes/4)))
	}
	var all []string
	for _, s := range SweepSentences(rs) {
		if s.Kind == KindStep {
			t.Errorf("a step sentence for an unchecked rise: %s", s.Text)
		}
		all = append(all, s.Text)
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{"in the interleaved rounds but", "not called a step", "sum: no step"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	// The same rise in both: a step, its fresh ratio beside it.
	c = withCheck(rng, curve(rng, cacheCurve, 0.02, 20), cacheCurve, 0.02)
	for _, st := range FindSteps(c, testCaches) {
		if st.Unchecked || st.CheckRatio < CheckRatio {
			t.Errorf("a checked step %s..%s: %+v", st.From.Label, st.To.Label, st)
		}
	}
}

func scale(x []float64, k float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * k
	}
	return out
}

// A point slower than the larger one after it breaks the curve and is
// flagged, with the batches when they differ; a rising curve has no fall.
func TestFallsFlagged(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	bump := func(b int64) float64 { return 1 + float64(btoi(b == 16<<10)) } // 16KB read 2x: one disturbed point
	c := curve(rng, bump, 0.02, 20)
	falls := FindFalls(c)
	if len(falls) != 1 || *falls[0].From.Bytes != 16<<10 || falls[0].Ratio < 1.8 {
		t.Fatalf("falls %+v", falls)
	}
	if fs := FindFalls(curve(rng, cacheCurve, 0.08, 20)); len(fs) != 0 {
		t.Errorf("a rising curve has falls %+v", fs)
	}
	for trial := range 200 {
		if fs := FindFalls(curve(rng, func(int64) float64 { return 1 }, 0.10, 10)); len(fs) != 0 {
			t.Fatalf("trial %d: a noisy flat curve has a fall %+v", trial, fs[0])
		}
	}
	rs := sweepResults(c, testCaches)
	for _, r := range rs {
		r.Variants[0].Batch = 8
		if *r.Sweep.Bytes == 16<<10 {
			r.Variants[0].Batch = 1
		}
	}
	found := false
	for _, s := range SweepSentences(rs) {
		if s.Kind == KindFall {
			found = true
			if !strings.Contains(s.Text, "slower per element than at the larger") || !strings.Contains(s.Text, "batches of 1 there and of 8") {
				t.Errorf("fall: %s", s.Text)
			}
		}
	}
	if !found {
		t.Error("no fall sentence")
	}
}

// A point at a cache's size is at that level's edge: a step ending there
// names it (the strict rule said no cache size lay between). Sizes from
// CPUID are never set between points. A rise spread over many points is
// not "no step" alone.
func TestStepLevelsAndGradualRise(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	edge := func(b int64) float64 { return 1 + float64(btoi(b >= 1<<20)) } // slower from L2's size on
	steps := FindSteps(curve(rng, edge, 0.01, 20), testCaches)
	if len(steps) != 1 || len(steps[0].Levels) != 1 || steps[0].Levels[0].Name != "L2" {
		t.Errorf("a step to a point at L2's size: %+v", steps)
	}
	cpuid := []CacheMark{{Name: "L1d", Bytes: 48 << 10, Source: "getconf (CPUID)"}, {Name: "L2", Bytes: 1 << 20, Source: "getconf (CPUID)"}, {Name: "L3", Bytes: 508 << 20, Source: "getconf (CPUID)"}}
	rs := sweepResults(curve(rng, cacheCurve, 0.01, 20), cpuid)
	for _, s := range SweepSentences(rs) {
		if s.Kind == KindStep && (strings.Contains(s.Text, "reaches") || !strings.Contains(s.Text, "CPUID's")) {
			t.Errorf("a step against CPUID's sizes: %s", s.Text)
		}
	}
	gradual := func(b int64) float64 { return math.Pow(float64(b), 0.12) }
	rs = sweepResults(curve(rng, gradual, 0.01, 20), testCaches)
	var all []string
	for _, s := range SweepSentences(rs) {
		all = append(all, s.Text)
	}
	if text := strings.Join(all, "\n"); !strings.Contains(text, "sum: no step") || !strings.Contains(text, "is spread over") {
		t.Errorf("a gradual rise:\n%s", text)
	}
}
