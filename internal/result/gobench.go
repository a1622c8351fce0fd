package result

import (
	"fmt"
	"runtime"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"
)

// WriteGoBench writes every sample in the Go benchmark format, one line per
// sample, so that benchstat can read it. A %%c or %%go kernel's samples are
// named BenchmarkKernel/variant=v/series=s; a %%gotest kernel's keep the
// names of its benchmark functions, BenchmarkFunc/series=s (its variant v
// is func Benchmark + v with the first letter upper-cased). A kernel whose
// name already starts with Benchmark or Bench is not prefixed twice. Every
// line carries the machine's config: goos, goarch, cpu, go (the version),
// the compiler and flags the kernel was built with, and its binary's hash;
// to compare two builds with benchstat, -ignore the keys they differ in
// (e.g. benchstat -ignore binary,flags old.txt new.txt).
func WriteGoBench(w interface{ Write([]byte) (int, error) }, r *Result) error {
	bw := benchfmt.NewWriter(w)
	m := r.Conditions.Machine
	// File-level config (File: true) is what the writer prints as key:
	// value lines; SetConfig would make it internal, never printed.
	flags := strings.Join(r.Kernel.Flags, " ")
	if flags == "" {
		flags = "(none)"
	}
	var config []benchfmt.Config
	for _, kv := range [][2]string{{"goos", "linux"}, {"goarch", goArch(m.Arch)}, {"cpu", m.CPUModel},
		{"go", goVersion(r.Kernel, m.Go)}, {"compiler", r.Kernel.Compiler}, {"flags", flags},
		{"binary", r.Kernel.BinarySHA256}} {
		if kv[1] != "" {
			config = append(config, benchfmt.Config{Key: kv[0], Value: []byte(kv[1]), File: true})
		}
	}
	for _, v := range r.Variants {
		for _, series := range SeriesNames {
			s := v.Get(series)
			if s == nil {
				continue
			}
			for _, ns := range s.SamplesNS {
				res := &benchfmt.Result{Name: benchfmt.Name(goBenchName(r.Kernel, v.Name, series)),
					Iters: max(v.Batch, 1), Values: []benchfmt.Value{{Value: ns / 1e9, Unit: "sec/op", OrigValue: ns, OrigUnit: "ns/op"}}}
				res.Config = config
				if err := bw.Write(res); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// goBenchName is the benchmark name of one series of a variant, without
// the Benchmark prefix, which benchfmt's writer adds.
func goBenchName(k Kernel, variant, series string) string {
	if k.Lang == "gotest" {
		return exportName(variant) + "/series=" + series
	}
	name := exportName(k.Name)
	for _, p := range []string{"Benchmark", "Bench"} {
		// testing's rule: the prefix is one when a lower-case letter does not follow.
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && !unicode.IsLower([]rune(rest)[0]) {
			name = exportName(rest)
			break
		}
	}
	return fmt.Sprintf("%s/variant=%s/series=%s", name, variant, series)
}

// goArch is Go's name of the machine's architecture (uname -m).
func goArch(uname string) string {
	switch uname {
	case "x86_64":
		return "amd64"
	case "aarch64", "arm64":
		return "arm64"
	case "i386", "i686":
		return "386"
	case "":
		return runtime.GOARCH
	}
	return uname
}

// goVersion is the Go version a Go kernel was built with (from its
// compiler line, "go version go1.26.8 linux/amd64"), else the machine's go
// command's.
func goVersion(k Kernel, machineGo string) string {
	for _, s := range []string{k.Compiler, machineGo} {
		for _, f := range strings.Fields(s) {
			if strings.HasPrefix(f, "go1") && (s == machineGo || k.Lang != "c") {
				return f
			}
		}
	}
	return "unknown"
}

// exportName is s as a Go benchmark name: letters, digits and _, with the
// first letter upper-cased.
func exportName(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i == 0 {
			r = unicode.ToUpper(r)
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
