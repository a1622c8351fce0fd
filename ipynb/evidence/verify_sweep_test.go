package evidence

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// sweepOf makes a three-point sweep N:1K,2K,4K of seed 000's synthetic
// results, a static int array of N beside 96 other bytes, with a
// prediction judged as the runner judges it; doctor changes it after.
func sweepOf(t *testing.T, doctor func([]*protocol.Result)) *ipynb.Notebook {
	t.Helper()
	axes := []protocol.Axis{{Param: "N", Values: []int64{1024, 2048, 4096}}}
	var rs []*protocol.Result
	for i, v := range axes[0].Values {
		r := benchtest.Seed000(uint64(10 + i))
		e := v
		r.Protocol.Elements = &e
		rs = append(rs, r)
	}
	pts := protocol.Points(axes)
	sections := []int64{96 + 4*1024, 96 + 4*2048, 96 + 4*4096}
	by, rule, err := protocol.WorkingSet(pts, []string{"N"}, sections, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		r.Sweep = &protocol.SweepPoint{ID: "sweep-test", Index: i, Of: 3, Param: "N", Value: pts[i][0], Elements: pts[i][0],
			Bytes: by[i], BytesRule: rule, SectionBytes: sections[i]}
		r.Findings = protocol.Findings(r) // as the runner makes them, last
	}
	p, err := protocol.ParseSweepPrediction("time(4K)/time(1K)~1", axes)
	if err != nil {
		t.Fatal(err)
	}
	p.Seed = 99
	if err := p.JudgeSweep(rs, axes, "sink"); err != nil {
		t.Fatal(err)
	}
	rs[2].Sweep.Summary = &protocol.SweepSummary{Axes: axes, Variant: "sink", OrderSeed: "5", Order: [][]int{{2, 0, 1}},
		Caches: []protocol.CacheMark{{Name: "L1d", Bytes: 6 << 10, Source: "test"}}, Prediction: p}
	if doctor != nil {
		doctor(rs)
	}
	nb := ipynb.New(ipynb.NewMarkdown("# sweep"))
	code := "%bench seed sweep=N:1K,2K,4K"
	nb.Cells = append(nb.Cells, ipynb.NewCode(code))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{code: func(pub display.Publisher) (map[string]any, error) {
		for _, r := range rs {
			pub.Display(display.Bundle{Data: report.SweepPoint(r), ID: display.NewID()}, false)
		}
		pub.Display(display.Bundle{Data: report.SweepCommentary(rs), ID: display.NewID()}, false)
		return nil, nil
	}}}
	if err := ipynb.Execute(context.Background(), nb, eng, ipynb.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return roundTrip(t, nb)
}

func TestVerifySweep(t *testing.T) {
	var out bytes.Buffer
	if ok, err := Verify(sweepOf(t, nil), &out); !ok || err != nil {
		t.Fatalf("an honest sweep fails: %v\n%s", err, out.String())
	}
	if strings.Count(out.String(), ": ok\n") != 3 {
		t.Errorf("want one ok line per point:\n%s", out.String())
	}
	for _, tc := range []struct {
		name   string
		doctor func([]*protocol.Result)
		says   string
	}{
		{"a sweep value", func(rs []*protocol.Result) { rs[1].Sweep.Value = 3072 }, "sweep point N=3K: bytes is 8192, the points' values and static data give null"},
		{"bytes", func(rs []*protocol.Result) { *rs[0].Sweep.Bytes = 8192 }, "sweep point N=1K: bytes is 8192, the points' values and static data give 4096"},
		{"static data", func(rs []*protocol.Result) { rs[2].Sweep.SectionBytes += 4096 }, "bytes is 16384, the points' values and static data give null"},
		{"the prediction", func(rs []*protocol.Result) {
			x := *rs[2].Sweep.Summary.Prediction.Observed * 1.5
			rs[2].Sweep.Summary.Prediction.Observed = &x
		}, `sweep prediction "time(4K)/time(1K)~1": observed is`},
		{"a point missing", func(rs []*protocol.Result) { rs[0].Sweep.ID = "other" }, "sweep sweep-test: 2 points in the notebook, the sweep has 3"},
	} {
		out.Reset()
		ok, _ := Verify(sweepOf(t, tc.doctor), &out)
		if ok || !strings.Contains(out.String(), tc.says) {
			t.Errorf("%s doctored: ok %v, want a line saying %q:\n%s", tc.name, ok, tc.says, out.String())
		}
	}
}
