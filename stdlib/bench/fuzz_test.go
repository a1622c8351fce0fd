package bench

import (
	"reflect"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/harness"
)

// FuzzParseOptions feeds ParseOptions the words of the input, one a line
// (so a word may hold spaces, as a quoted %bench word does): it never
// panics, options it accepts pass their own Check, and the same words are
// refused or accepted the same way twice.
//
//	go test ./stdlib/bench -run '^$' -fuzz '^FuzzParseOptions$' -fuzztime 60s
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
		if o.Layouts < 0 || o.Layouts > harness.MaxLayouts || o.Pairs < MinRuns || o.Pairs > MaxPairs || o.Budget <= 0 || !(o.Resolve > 0 && o.Resolve < 1) || o.Elements < 0 || o.Timeout <= 0 {
			t.Fatalf("%q: accepted layouts=%d pairs=%d elements=%d timeout=%s", words, o.Layouts, o.Pairs, o.Elements, o.Timeout)
		}
	})
}
