package options

import (
	"reflect"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/result"
)

// Options that cannot make a run are refused when they are parsed.
func TestOptionBounds(t *testing.T) {
	cases := []struct {
		name string
		args []string
		says string
	}{
		{"settle above its bound", []string{"settle=1h"}, "the maximum is 10s"},
		{"settle against the timeout", []string{"settle=5s", "timeout=10s"}, "too long for timeout=10s"},
		{"settle against the timeout given first", []string{"timeout=10s", "settle=3s"}, "at most 1/4 of the timeout"},
		{"a zero timeout", []string{"timeout=0s"}, "duration"},
		{"predict without a ratio", []string{"predict=foo>2"}, "ratio of two variants"},
		{"predict with a path", []string{"predict=foo/bar/baz>2"}, "ratio of two variants"},
		{"quick=yes", []string{"quick=yes"}, "quick=false or quick=0"},
		{"quick=2", []string{"quick=2"}, "want quick"},
		{"quick=", []string{"quick="}, "want quick"},
		{"reps above its bound", []string{"reps=100001"}, "the maximum is 100000"},
		{"runs above its bound", []string{"runs=2000000000"}, "the maximum is 100000"},
		{"warmup above its bound", []string{"warmup=1000000"}, "the maximum is 100000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ParseOptions(c.args); err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("%v: got %v, want an error saying %q", c.args, err, c.says)
			}
		})
	}
}

func TestQuickBooleans(t *testing.T) {
	for _, c := range []struct {
		arg   string
		quick bool
	}{{"quick", true}, {"quick=1", true}, {"quick=true", true}, {"quick=false", false}, {"quick=0", false}} {
		o, err := ParseOptions([]string{c.arg})
		if err != nil || o.Quick != c.quick || (o.Reps == result.MinReps) != c.quick {
			t.Errorf("%s: quick=%v reps=%d %v", c.arg, o.Quick, o.Reps, err)
		}
	}
}

// FuzzParseOptions feeds ParseOptions the words of the input, one a line
// (so a word may hold spaces, as a quoted %bench word does): it never
// panics, options it accepts pass their own Check, and the same words are
// refused or accepted the same way twice.
//
//	go test ./internal/options -run '^$' -fuzz '^FuzzParseOptions$' -fuzztime 60s
func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{
		"quick",
		"quick=1\nreps=50\nruns=10",
		"quick=false\nsettle=20ms\ntimeout=2m",
		"reps=10\nruns=100000\nwarmup=0\nload=0\npin=0",
		"predict=\"sink/discarded>100\"\nvariants=sink,discarded\nfresh=sink",
		"predict='a/b~1'\nas=r\nexport=out.txt\nbaseline=other",
		"elements=0x100000\ncold=after-setup\naslr=off\nlayouts=8\npairs=12\nbudget=3s\nresolve=1%\nsettle=5ms..50ms",
		"settle=5s\ntimeout=10s", "timeout=10s\nsettle=3s", "timeout=0s", "settle=-1ns",
		"predict=foo>2", "quick=yes", "reps=100001", "runs=2000000000", "warmup=1000000",
		"nope=1", "reps", "reps=", "elements=-1", "layouts=9", "pairs=2", "pairs=9", "budget=0s", "resolve=0", "resolve=100%", "settle=50ms..5ms", "cold=later",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var words []string
		if in != "" {
			words = strings.Split(in, "\n")
		}
		o, err := ParseOptions(words)
		o2, err2 := ParseOptions(words)
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("%q: not read the same way twice: %v, then %v", words, err, err2)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(o, o2) {
			t.Fatalf("%q: read as %+v, then %+v", words, o, o2)
		}
		if err := o.Check(); err != nil {
			t.Fatalf("%q: accepted options fail their own Check: %v", words, err)
		}
		if o.Layouts < 0 || o.Layouts > harness.MaxLayouts || o.Pairs < result.MinRuns || o.Pairs > result.MaxPairs || o.Budget <= 0 || !(o.Resolve > 0 && o.Resolve < 1) || o.Elements < 0 || o.Timeout <= 0 {
			t.Fatalf("%q: accepted layouts=%d pairs=%d elements=%d timeout=%s", words, o.Layouts, o.Pairs, o.Elements, o.Timeout)
		}
	})
}
