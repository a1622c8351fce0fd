package harness

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// specField is one key=TYPE of a record in records.md; a TYPE that is not
// INT, FLOAT, WORD or TEXT is a literal value.
type specField struct{ key, typ string }

// specRecord is one line of records.md's records block.
type specRecord struct {
	line   string
	kind   string
	fields []specField
}

// recordsSpec parses records.md: its records block and its options table.
func recordsSpec(t *testing.T) (recs []specRecord, options []string) {
	t.Helper()
	b, err := os.ReadFile("records.md")
	if err != nil {
		t.Fatal(err)
	}
	inBlock := false
	option := regexp.MustCompile("^\\| `(-[a-z-]+)` \\|")
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case line == "```records":
			inBlock = true
		case inBlock && line == "```":
			inBlock = false
		case inBlock:
			words := strings.Fields(line)
			r := specRecord{line: line, kind: words[0]}
			for _, w := range words[1:] {
				k, typ, ok := strings.Cut(w, "=")
				if !ok {
					t.Fatalf("records.md: %q in %q is not key=TYPE", w, line)
				}
				r.fields = append(r.fields, specField{k, typ})
			}
			recs = append(recs, r)
		default:
			if m := option.FindStringSubmatch(line); m != nil {
				options = append(options, m[1])
			}
		}
	}
	if len(recs) == 0 || len(options) == 0 {
		t.Fatalf("records.md: %d records, %d options", len(recs), len(options))
	}
	return recs, options
}

// matches reports whether line is a record of the form r, fields in order.
func (r specRecord) matches(line string) bool {
	kind, rest, _ := strings.Cut(line, " ")
	if kind != r.kind {
		return false
	}
	for _, f := range r.fields {
		if rest == "" {
			return false
		}
		var field string
		if f.typ == "TEXT" {
			field, rest = rest, ""
		} else {
			field, rest, _ = strings.Cut(rest, " ")
		}
		k, v, ok := strings.Cut(field, "=")
		if !ok || k != f.key || !f.valid(v) {
			return false
		}
	}
	return rest == ""
}

func (f specField) valid(v string) bool {
	switch f.typ {
	case "INT":
		_, err := strconv.ParseInt(v, 10, 64)
		return err == nil
	case "FLOAT":
		_, err := strconv.ParseFloat(v, 64)
		return err == nil
	case "WORD", "TEXT":
		return v != ""
	}
	return v == f.typ
}

// The kinds records.md lists are the kinds ParseRecord accepts.
func TestRecordsSpecKinds(t *testing.T) {
	recs, _ := recordsSpec(t)
	var spec, parsed []string
	for _, r := range recs {
		if !slices.Contains(spec, r.kind) {
			spec = append(spec, r.kind)
		}
	}
	for k := range kinds {
		parsed = append(parsed, k)
	}
	sort.Strings(spec)
	sort.Strings(parsed)
	if !slices.Equal(spec, parsed) {
		t.Errorf("records.md lists kinds %v, ParseRecord accepts %v", spec, parsed)
	}
}

// The options records.md lists are the options each driver parses.
func TestRecordsSpecOptions(t *testing.T) {
	_, spec := recordsSpec(t)
	sort.Strings(spec)
	parsers := map[string]*regexp.Regexp{
		"c/driver.c":         regexp.MustCompile(`strcmp\(a, "(-[a-z-]+)"\)`),
		"go/bench/driver.go": regexp.MustCompile(`fs\.\w+\((?:&[\w.]+, )?"([a-z-]+)"`),
	}
	for file, re := range parsers {
		src, err := files.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			got = append(got, "-"+strings.TrimPrefix(m[1], "-"))
		}
		sort.Strings(got)
		if !slices.Equal(got, spec) {
			t.Errorf("%s parses %v; records.md lists %v", file, got, spec)
		}
	}
}

// firstCPU is the first CPU this process may run on.
func firstCPU(t *testing.T) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '-' || r == ' ' || r == '\t' })[0]
		}
	}
	t.Skip("no Cpus_allowed_list")
	return ""
}

// rawLines runs k and returns the lines of its -out file; status is its
// exit status. stdin is empty.
func rawLines(t *testing.T, k *Kernel, args ...string) (lines []string, status int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "records.txt")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, k.Binary, append([]string{"run", "-out", out}, args...)...)
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, status
}

// Every line either driver writes is a record of records.md, with its
// fields in order; and every record of records.md is written by a driver.
func TestRecordsSpec(t *testing.T) {
	spec, _ := recordsSpec(t)
	runs := []struct {
		name   string
		status int
		args   []string
	}{
		{"everything", 0, []string{"-slots", "discarded,sink,checksum", "-cold", "sink", "-pin", firstCPU(t), "-clock",
			"-gaps-ms", "5", "-settle-ms", "1", "-warmup", "1", "-rounds", "2", "-calibrate-reads", "100", "-order-seed", "3", "-freq", "-pages", "4k"}},
		{"stopped", 0, []string{"-slots", "sink", "-step", "-rounds", "1"}},
		{"cold after setup, layout", 0, []string{"-slots", "sink", "-cold", "sink", "-cold-after-setup", "-evict-bytes", "1048576",
			"-settle-ms", "1", "-rounds", "1", "-stack-pad", "256", "-heap-pad", "4096", "-no-aslr", "-pages", "huge"}},
		{"error", 2, []string{"-slots", "sink,nosuch"}},
	}
	used := map[string]bool{}
	for _, lang := range []string{"c", "go"} {
		k := seedKernel(t, lang)
		for _, run := range runs {
			lines, status := rawLines(t, k, run.args...)
			if status != run.status {
				t.Errorf("%s %s: exit status %d, want %d", lang, run.name, status, run.status)
			}
			for _, line := range lines {
				i := slices.IndexFunc(spec, func(r specRecord) bool { return r.matches(line) })
				if i < 0 {
					t.Errorf("%s %s: %q is no record of records.md", lang, run.name, line)
					continue
				}
				used[spec[i].line] = true
			}
		}
	}
	latencySpecRuns(t, spec, used) // latency_test.go
	for _, r := range spec {
		if !used[r.line] {
			t.Errorf("records.md lists %q, which neither driver wrote", r.line)
		}
	}
}
