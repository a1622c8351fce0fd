package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"
)

// ResultFile is the name of the result JSON in a run's raw folder.
const ResultFile = "result.json"

// save writes the result next to the raw records, atomically, and the Go
// benchmark format export when asked for; both hold samples and are
// private to the user (0600), as the raw records are.
func (r *runner) save() error {
	b, err := json.MarshalIndent(r.res, "", " ")
	if err != nil {
		return fmt.Errorf("result: %w", err)
	}
	if err := WriteFileAtomic(filepath.Join(r.dir, ResultFile), b, 0o600); err != nil {
		return err
	}
	if r.opt.Export != "" {
		var sb strings.Builder
		if err := WriteGoBench(&sb, r.res); err != nil {
			return err
		}
		if err := WriteFileAtomic(r.opt.Export, []byte(sb.String()), 0o600); err != nil {
			return fmt.Errorf("export=%s: %w", r.opt.Export, err)
		}
	}
	return nil
}

// WriteFileAtomic writes data to a temporary file in path's folder and
// renames it over path, so that a reader never sees half a file.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteGoBench writes every sample in the Go benchmark format, one line per
// sample, so that benchstat can read it: BenchmarkKernel/variant=v/series=s.
func WriteGoBench(w interface{ Write([]byte) (int, error) }, r *Result) error {
	bw := benchfmt.NewWriter(w)
	base := "Benchmark" + exportName(r.Kernel.Name)
	cfg := func(res *benchfmt.Result) {
		res.SetConfig("goos", "linux")
		res.SetConfig("cpu", r.Conditions.Machine.CPUModel)
		res.SetConfig("compiler", r.Kernel.Compiler)
		res.SetConfig("flags", strings.Join(r.Kernel.Flags, " "))
		res.SetConfig("binary", r.Kernel.BinarySHA256)
	}
	for _, v := range r.Variants {
		for _, series := range SeriesNames {
			s := v.Get(series)
			if s == nil {
				continue
			}
			for _, ns := range s.SamplesNS {
				res := &benchfmt.Result{Name: benchfmt.Name(fmt.Sprintf("%s/variant=%s/series=%s", base, v.Name, series)),
					Iters: max(v.Batch, 1), Values: []benchfmt.Value{{Value: ns, Unit: "sec/op", OrigValue: ns, OrigUnit: "ns/op"}}}
				cfg(res)
				if err := bw.Write(res); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

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
