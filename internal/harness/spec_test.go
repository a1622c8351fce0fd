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
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/records"
)

// recordsSpec returns records.md's forms (the grammar the reader holds
// lines to) and the options of its options table.
func recordsSpec(t *testing.T) (recs []records.Form, options []string) {
	t.Helper()
	md, err := os.ReadFile("../records/records.md")
	if err != nil {
		t.Fatal(err)
	}
	option := regexp.MustCompile("^\\| `(-[a-z-]+)` \\|")
	for _, line := range strings.Split(string(md), "\n") {
		if m := option.FindStringSubmatch(line); m != nil {
			options = append(options, m[1])
		}
	}
	recs = records.Forms()
	if len(recs) == 0 || len(options) == 0 {
		t.Fatalf("records.md: %d records, %d options", len(recs), len(options))
	}
	return recs, options
}

// formLine is the line of records.md a valid record line is of.
func formLine(line string) string {
	kind, rest, _ := strings.Cut(line, " ")
	first, _, _ := strings.Cut(rest, " ")
	_, value, _ := strings.Cut(first, "=")
	f, _ := records.FormOf(kind, value)
	return f.Line
}

// records.md names the harness version both drivers write.
func TestRecordsSpecVersion(t *testing.T) {
	md, err := os.ReadFile("../records/records.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Harness version (\d+) `).FindSubmatch(md)
	want := map[string]*regexp.Regexp{"c/benchbook.h": regexp.MustCompile(`#define BENCHBOOK_HARNESS_VERSION (\d+)`),
		"go/bench/bench.go": regexp.MustCompile(`const Version = (\d+)`)}
	for file, re := range want {
		src, err := files.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		v := re.FindSubmatch(src)
		if m == nil || v == nil || string(m[1]) != string(v[1]) {
			t.Errorf("records.md says harness version %q, %s %q", m, file, v)
		}
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
				if err := records.CheckLine(line); err != nil {
					t.Errorf("%s %s: %q: %v", lang, run.name, line, err)
					continue
				}
				used[formLine(line)] = true
			}
		}
	}
	latencySpecRuns(t, used) // latency_test.go
	for _, r := range spec {
		if !used[r.Line] {
			t.Errorf("records.md lists %q, which neither driver wrote", r.Line)
		}
	}
}
