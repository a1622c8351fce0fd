package protocol

import (
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// readGoBench reads an export back with benchfmt: its names and the config
// of its first result.
func readGoBench(t *testing.T, text string) (names map[string]int, config map[string]string) {
	t.Helper()
	names, config = map[string]int{}, map[string]string{}
	rd := benchfmt.NewReader(strings.NewReader(text), "export.txt")
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("not a result: %v", rd.Result())
		}
		names["Benchmark"+string(res.Name)]++
		if len(config) == 0 {
			for _, c := range res.Config {
				config[c.Key] = string(c.Value)
			}
		}
		if v, _ := res.Value("sec/op"); v <= 0 || res.Iters < 1 {
			t.Errorf("%s: %v sec/op over %d iterations", res.Name, v, res.Iters)
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	return names, config
}

func exportResult(name, lang string, variants ...string) *Result {
	r := &Result{Kernel: Kernel{Name: name, Lang: lang, Compiler: "go version go1.26.8 linux/amd64", Flags: []string{"-gcflags=-B"},
		BinarySHA256: strings.Repeat("ab", 32)}}
	r.Conditions.Machine.CPUModel = "Test CPU @ 3.00GHz"
	r.Conditions.Machine.Arch = "x86_64"
	for _, v := range variants {
		r.Variants = append(r.Variants, Variant{Name: v, Batch: 40, Series: Series{Fresh: NewSamples([]float64{100, 101}),
			Interleaved: NewSamples([]float64{99, 98, 97})}})
	}
	return r
}

func TestWriteGoBenchNames(t *testing.T) {
	cases := []struct {
		kernel, lang string
		variants     []string
		want         []string
	}{
		{"seedgo", "go", []string{"sink"}, []string{"BenchmarkSeedgo/variant=sink/series=fresh", "BenchmarkSeedgo/variant=sink/series=interleaved"}},
		{"benchmarkSum", "c", []string{"a"}, []string{"BenchmarkSum/variant=a/series=fresh"}},
		{"benchSum", "go", []string{"a"}, []string{"BenchmarkSum/variant=a/series=fresh"}},
		{"benchmarks", "go", []string{"a"}, []string{"BenchmarkBenchmarks/variant=a/series=fresh"}},
		{"sums", "gotest", []string{"sumLoop", "sumUnrolled"}, []string{"BenchmarkSumLoop/series=fresh", "BenchmarkSumLoop/series=interleaved",
			"BenchmarkSumUnrolled/series=fresh"}},
	}
	for _, c := range cases {
		var b strings.Builder
		if err := WriteGoBench(&b, exportResult(c.kernel, c.lang, c.variants...)); err != nil {
			t.Fatal(err)
		}
		names, config := readGoBench(t, b.String())
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "BenchmarkBenchmark") && c.kernel != "benchmarks" {
				t.Errorf("%s: doubled prefix: %s", c.kernel, l)
			}
		}
		for _, w := range c.want {
			if names[w] == 0 {
				t.Errorf("%s (%s): no %s in %v", c.kernel, c.lang, w, names)
			}
		}
		want := map[string]string{"goos": "linux", "goarch": "amd64", "cpu": "Test CPU @ 3.00GHz", "go": "go1.26.8",
			"compiler": "go version go1.26.8 linux/amd64", "flags": "-gcflags=-B"}
		if c.lang == "c" {
			want["go"] = "unknown"
		}
		for k, v := range want {
			if config[k] != v {
				t.Errorf("%s: config %s = %q, want %q", c.kernel, k, config[k], v)
			}
		}
	}
}
