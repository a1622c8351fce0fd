package protocol

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/machine"
)

// Options checked against the kernel and the machine are refused by Run
// before any process runs: no results folder is made.
func TestRunRefusesBeforeMeasuring(t *testing.T) {
	k := buildC(t, "opts", "BENCH(foo) { bench_sink(1); }\nBENCH(baz) { bench_sink(2); }\n")
	online, err := machine.OnlineCPUs()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		edit func(*Options)
		says string
	}{
		{"predict names no variant", []string{"predict=foo/bar>2"}, nil, `bar is not a measured variant`},
		{"predict names an unmeasured variant", []string{"predict=foo/baz>2", "variants=foo"}, nil, `baz is not a measured variant`},
		{"export to a missing folder", []string{"export=/nonexistent/x"}, nil, "cannot be written in /nonexistent"},
		{"export to a folder", nil, func(o *Options) { o.Export = os.TempDir() }, "is a folder"},
		{"load above the other CPUs", []string{"load=" + strconv.Itoa(len(online))}, nil, "at most load=" + strconv.Itoa(len(online)-1)},
		{"glue options with settle too long", nil, func(o *Options) { o.Settle = time.Hour }, "settle=1h0m0s"},
		{"glue options with reps too many", nil, func(o *Options) { o.Reps = 2e9 }, "too many"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt, err := ParseOptions(append([]string{"quick"}, c.args...))
			if err != nil {
				t.Fatal(err)
			}
			if c.edit != nil {
				c.edit(&opt)
			}
			opt.ResultsDir = t.TempDir()
			ran := false
			opt.Progress = func(Progress) { ran = true }
			if _, err := Run(context.Background(), k, opt); err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("got %v, want an error saying %q", err, c.says)
			}
			if left, _ := os.ReadDir(opt.ResultsDir); ran || len(left) > 0 {
				t.Errorf("something ran: progress=%v, results folder holds %d", ran, len(left))
			}
		})
	}
}

// A result of an earlier stats method (rank/1, or none: a bootstrap with
// any number of resamples) is refused, never judged: no comparison, an
// undefined A/A control that says why, nothing allocated for it.
func TestOtherMethodsRefused(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	vs := []Variant{{Name: "a", Series: Series{Interleaved: NewSamples(x)}}, {Name: "b", Series: Series{Interleaved: NewSamples(x)}}}
	for _, p := range []Protocol{{StatsMethod: "rank/1", Alpha: 0.05}, {BootstrapResamples: 2e9, Alpha: 0.05}, {StatsMethod: "blocks/2"}} {
		err := CheckMethod(p)
		if !errors.Is(err, ErrMethod) || !strings.Contains(err.Error(), "judges only "+Method) {
			t.Errorf("%+v: %v", p, err)
		}
		if cs := Comparisons(vs, p, nil); cs == nil || len(cs) != 0 {
			t.Errorf("%+v: comparisons %+v", p, cs)
		}
		if aa := AAControl("a", x, x, p, nil); !strings.Contains(aa.Undefined, "stats_method") {
			t.Errorf("%+v: A/A %+v", p, aa)
		}
	}
	if err := CheckMethod(Protocol{StatsMethod: Method}); err != nil {
		t.Error(err)
	}
}
