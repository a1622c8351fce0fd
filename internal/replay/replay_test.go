package replay_test

import (
	"bufio"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/records"
	"github.com/benchbook/benchbook/internal/replay"
)

// The test binary is the replay driver when started as a replay kernel.
func init() { replay.Main() }

// specLine is one record line of records.md as a regular expression.
type specLine struct {
	text string
	re   *regexp.Regexp
}

// readSpec reads records.md: each line of its records block as a
// regular expression of the whole record, and the options of its table.
func readSpec(t *testing.T) ([]specLine, []string) {
	t.Helper()
	b, err := os.ReadFile("../records/records.md")
	if err != nil {
		t.Fatal(err)
	}
	value := map[string]string{"INT": `-?[0-9]+`, "FLOAT": `[-+0-9.eEinfINFaN]+`, "WORD": `[^ ]+`, "TEXT": `.+`}
	block := regexp.MustCompile("(?s)```records\n(.*?)\n```").FindSubmatch(b)
	if block == nil {
		t.Fatal("records.md has no records block")
	}
	var spec []specLine
	for _, line := range strings.Split(string(block[1]), "\n") {
		words := strings.Fields(line)
		expr := regexp.QuoteMeta(words[0])
		for _, w := range words[1:] {
			key, typ, _ := strings.Cut(w, "=")
			v, ok := value[typ]
			if !ok {
				v = regexp.QuoteMeta(typ)
			}
			expr += " " + regexp.QuoteMeta(key) + "=" + v
		}
		spec = append(spec, specLine{line, regexp.MustCompile("^" + expr + "$")})
	}
	var options []string
	for _, m := range regexp.MustCompile("(?m)^\\| `(-[a-z-]+)` \\|").FindAllSubmatch(b, -1) {
		options = append(options, string(m[1]))
	}
	return spec, options
}

func scenario(log string) replay.Scenario {
	return replay.Scenario{Lang: "go", Seed: 7, Setup: true, Log: log, Variants: []replay.Variant{
		{Name: "a", NS: 1e6, Noise: 0.01, Checksum: true, Want: 2},
		{Name: "b", Recorded: []float64{1.2e6, 1.25e6, 1.3e6}},
		{Name: "dead", Dead: true},
	}}
}

// drive runs kernel k with args (after "run -out FILE") and stdin, and
// returns the record file's lines, the process's stdout and its exit status.
func drive(t *testing.T, k *harness.Kernel, stdin string, args ...string) (lines []string, stdout string, status int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "p001-test.txt")
	cmd := exec.Command(k.Binary, append([]string{"run", "-out", out}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var so strings.Builder
	cmd.Stdout = &so
	if err := cmd.Run(); cmd.ProcessState == nil {
		t.Fatal(err)
	}
	status = cmd.ProcessState.ExitCode()
	f, err := os.Open(out)
	if errors.Is(err, os.ErrNotExist) { // refused before it opened -out
		return nil, so.String(), status
	} else if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, so.String(), status
}

func parseLines(t *testing.T, lines []string) []records.Record {
	t.Helper()
	var recs []records.Record
	for i, l := range lines {
		r, ok := records.Parse(l)
		if !ok {
			t.Fatalf("line %d %q is no record", i+1, l)
		}
		r.Line = i + 1
		recs = append(recs, r)
	}
	return recs
}

func kinds(recs []records.Record) []string {
	var ks []string
	for _, r := range recs {
		k := r.Kind
		if n := r.Fields["name"]; n != "" {
			k += ":" + n
		}
		if w := r.Fields["when"]; w != "" && r.Kind == "freq" {
			k += ":" + w
		}
		ks = append(ks, k)
	}
	return ks
}

// Every line the replay driver writes is a record of records.md, fields in
// order and typed; every record records.md lists is written, except the
// latency ones (BENCH_OPS, which the replay driver does not replay); every
// option of the table is parsed (harness.Args with every field set writes
// each: TestArgsTable), and an unknown one is refused with an error record
// and status 2, as the drivers do.
func TestReplayRecordsSpec(t *testing.T) {
	spec, options := readSpec(t)
	dir := t.TempDir()
	k, err := replay.NewKernel(dir, "spec", scenario(""))
	if err != nil {
		t.Fatal(err)
	}
	pin, minMS, seed := 0, 1.0, uint64(3)
	all := harness.Args{Slots: []string{"a", "b", "dead"}, Batch: []int64{1, 1, 1}, Cold: "a", ColdAfterSetup: true,
		EvictBytes: 1 << 20, Layout: &harness.Layout{StackPad: 256, HeapPad: 4096, NoASLR: true}, Pin: &pin,
		SettleMS: 5, SettleMinMS: &minMS, Warmup: 1, Rounds: 3, CalibrateReads: 100, Clock: true, GapsMS: 5,
		OrderSeed: &seed, Pages: "huge", Freq: true, StepRounds: 2, StepWarmup: 1}
	var passed []string
	for _, a := range all.Argv()[1:] {
		if strings.HasPrefix(a, "-") {
			passed = append(passed, a)
		}
	}
	passed = append(passed, "-step", "-out")
	sort.Strings(passed)
	sort.Strings(options)
	if !slices.Equal(passed, options) {
		t.Fatalf("the runs pass %v; records.md lists %v", passed, options)
	}
	// The driver parses the table's options and no other, into the Args
	// the host wrote them from.
	src, err := os.ReadFile("driver.go")
	if err != nil {
		t.Fatal(err)
	}
	var parsed []string
	for _, m := range regexp.MustCompile(`(?m)^\t\t"(-[a-z-]+)": `).FindAllStringSubmatch(string(src), -1) {
		parsed = append(parsed, m[1])
	}
	sort.Strings(parsed)
	if !slices.Equal(parsed, options) {
		t.Errorf("driver.go parses %v; records.md lists %v", parsed, options)
	}
	stepped := all
	stepped.Step, stepped.Out = true, "records.txt"
	if back, err := replay.ParseArgs(stepped.Argv()[1:]); err != nil || !reflect.DeepEqual(back, stepped) {
		t.Errorf("ParseArgs(Argv()) = %+v, %v; want %+v", back, err, stepped)
	}
	for _, bad := range [][]string{{"-rounds"}, {"-rounds", "x"}, {"-pages", "2m"}, {"-slots", "a", "extra"}} {
		if _, err := replay.ParseArgs(bad); err == nil {
			t.Errorf("ParseArgs(%q) took it", bad)
		}
	}
	runs := []struct {
		name   string
		stdin  string
		status int
		args   []string
	}{
		{"every option but step", "", 0, all.Argv()[1:]},
		{"cold at start, 4k pages, fixed settle", "", 0, []string{"-slots", "a,b", "-cold", "b", "-pages", "4k", "-settle-ms", "2", "-rounds", "2"}},
		{"step mode", "go\ngo\ngo\n", 0, []string{"-slots", "a", "-step", "-rounds", "4", "-step-rounds", "2", "-step-warmup", "1"}},
		{"step mode stopped", "go\nstop\n", 0, []string{"-slots", "a,b", "-step", "-rounds", "3"}},
		{"unknown variant", "", 2, []string{"-slots", "a,nosuch"}},
		{"unknown option", "", 2, []string{"-slots", "a", "-no-such-option"}},
	}
	used := map[string]bool{}
	for _, run := range runs {
		lines, stdout, status := drive(t, k, run.stdin, run.args...)
		if status != run.status {
			t.Errorf("%s: exit status %d, want %d", run.name, status, run.status)
		}
		for _, line := range lines {
			i := slices.IndexFunc(spec, func(s specLine) bool { return s.re.MatchString(line) })
			if i < 0 {
				t.Errorf("%s: %q is no record of records.md", run.name, line)
				continue
			}
			used[spec[i].text] = true
		}
		if run.status == 2 && !strings.Contains(strings.Join(lines, "\n")+stdout, "error msg=") {
			t.Errorf("%s: refused without an error record: %q, stdout %q", run.name, lines, stdout)
		}
	}
	for _, s := range spec {
		if !used[s.text] && !strings.HasPrefix(s.text, "ticks ") && !strings.HasPrefix(s.text, "latency") {
			t.Errorf("records.md lists %q, which the replay driver did not write", s.text)
		}
	}
}

// The records come in records.md's order: the prelude (pin, clock, gaps,
// setup, gc, pages, evict, cold after setup, settle, calibrate, freq), the
// rounds with their positions in harness.RoundOrder and the warmup's
// record after the first sample, syscalls, freq after, checksums, done;
// list prints the variants and setup.
func TestReplayRecordOrder(t *testing.T) {
	k, err := replay.NewKernel(t.TempDir(), "order", scenario(""))
	if err != nil {
		t.Fatal(err)
	}
	lines, _, status := drive(t, k, "", "-slots", "a,b,a,dead", "-cold", "a", "-cold-after-setup", "-pin", "1", "-clock",
		"-gaps-ms", "5", "-settle-ms", "3", "-calibrate-reads", "100", "-order-seed", "12345", "-rounds", "4", "-freq", "-pages", "4k")
	if status != 0 {
		t.Fatalf("status %d: %q", status, lines)
	}
	recs := parseLines(t, lines)
	got := strings.Join(kinds(recs), " ")
	want := "start layout pinned clock gaps phase:setup phase:gc pages phase:evict cold phase:settle " +
		"batch batch batch batch freq:before sample phase:warmup" + strings.Repeat(" sample", 15) +
		" syscalls freq:after checksum checksum done"
	if got != want {
		t.Errorf("records\n %s\nwant\n %s", got, want)
	}
	seed := uint64(12345)
	if err := harness.CheckOrder(recs, 4, &seed); err != nil {
		t.Error(err)
	}
	for _, r := range recs {
		switch r.Kind {
		case "cold":
			if r.Fields["after"] != "setup" || r.Fields["variant"] != "a" {
				t.Errorf("cold record %v", r.Fields)
			}
		case "checksum": // slots 0 and 2 are a: want 2 a pass, 4 passes each
			if r.Fields["want"] != "2" || r.Fields["got"] != "8" || r.Fields["passes"] != "4" {
				t.Errorf("checksum %v", r.Fields)
			}
		}
	}
	list, err := exec.Command(k.Binary, "list").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(list) != "variant a 2\nvariant b 3\nvariant dead 4\nsetup 1\n" {
		t.Errorf("list printed %q", list)
	}
}

// samples returns the ns per pass of each slot's samples.
func samples(t *testing.T, recs []records.Record) map[int64][]float64 {
	t.Helper()
	m := map[int64][]float64{}
	for _, r := range recs {
		if r.Kind != "sample" {
			continue
		}
		slot, _ := r.Int("slot")
		ns, _ := r.Int("ns")
		k, _ := r.Int("k")
		m[slot] = append(m[slot], float64(ns)/float64(k))
	}
	return m
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// A sample's time is the scenario's: NS with its noise around it, a draw
// from the recorded list, the clock read alone for a dead variant (however
// many passes a sample takes); and it is the same in every run whatever
// the round order, so tests of the host are deterministic.
func TestReplayTimes(t *testing.T) {
	sc := scenario("")
	sc.Variants[0].Noise = 0.05
	k, err := replay.NewKernel(t.TempDir(), "times", sc)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-slots", "a,b,dead", "-batch", "1,1,50", "-rounds", "200", "-settle-ms", "0"}
	first, _, _ := drive(t, k, "", append(args, "-order-seed", "1")...)
	again, _, _ := drive(t, k, "", append(args, "-order-seed", "99")...)
	s1, s2 := samples(t, parseLines(t, first)), samples(t, parseLines(t, again))
	if !slices.Equal(s1[0], s2[0]) || !slices.Equal(s1[1], s2[1]) {
		t.Error("the same process (record file name, scenario) with another round order replayed other times")
	}
	if m := median(s1[0]); math.Abs(m/1e6-1) > 0.02 {
		t.Errorf("a: median %v ns, want 1e6 within 2%%", m)
	}
	if sd := spread(s1[0]); sd < 0.03 || sd > 0.07 {
		t.Errorf("a: log sd %.3f, want about the noise 0.05", sd)
	}
	seen := map[float64]int{}
	for _, ns := range s1[1] {
		seen[ns]++
	}
	if len(seen) != 3 || seen[1.2e6] == 0 || seen[1.25e6] == 0 || seen[1.3e6] == 0 {
		t.Errorf("b drew %v, want each of its recorded times", seen)
	}
	for _, ns := range s1[2] {
		if ns != 20.0/50 {
			t.Fatalf("dead: %v ns per pass in samples of 50, want the 20 ns clock read over 50", ns)
		}
	}
}

func spread(xs []float64) float64 {
	var m, s float64
	for _, x := range xs {
		m += math.Log(x)
	}
	m /= float64(len(xs))
	for _, x := range xs {
		s += (math.Log(x) - m) * (math.Log(x) - m)
	}
	return math.Sqrt(s / float64(len(xs)-1))
}

// Step mode answers ok after the prelude and after each step, and a
// scenario's failure ends a process: with its status and without done, or
// with its error record.
func TestReplayStepAndFailure(t *testing.T) {
	k, err := replay.NewKernel(t.TempDir(), "step", scenario(""))
	if err != nil {
		t.Fatal(err)
	}
	lines, stdout, status := drive(t, k, "go\ngo\ngo\ngo\n", "-slots", "a,b", "-step", "-rounds", "5", "-step-rounds", "2")
	if status != 0 || stdout != strings.Repeat("ok\n", 4) || lines[len(lines)-1] != "done stopped=0" {
		t.Errorf("step mode: status %d, stdout %q, last record %q", status, stdout, lines[len(lines)-1])
	}
	lines, _, _ = drive(t, k, "go\ngo\n", "-slots", "a,b", "-step", "-rounds", "5")
	if got := len(samples(t, parseLines(t, lines))[0]); got != 1 || lines[len(lines)-1] != "done stopped=1" {
		t.Errorf("stopped after one step: %d samples of a, last record %q", got, lines[len(lines)-1])
	}

	for _, f := range []replay.Fail{{Process: "p001", AfterSamples: 3, Status: 3}, {Process: "p001", AfterSamples: 2},
		{Process: "test", Status: 2, Error: "replayed failure"}, {Process: "p002", Status: 9}} {
		sc := scenario("")
		sc.Fail = &f
		k, err := replay.NewKernel(t.TempDir(), "fail", sc)
		if err != nil {
			t.Fatal(err)
		}
		lines, _, status := drive(t, k, "", "-slots", "a,b", "-rounds", "5")
		recs := parseLines(t, lines)
		n := len(samples(t, recs)[0]) + len(samples(t, recs)[1])
		last := recs[len(recs)-1]
		switch {
		case f.Process == "p002": // not this process
			if status != 0 || last.Kind != "done" {
				t.Errorf("%+v failed another process: status %d, last %v", f, status, last)
			}
		case status != f.Status || n != f.AfterSamples || last.Kind == "done":
			t.Errorf("%+v: status %d, %d samples, last record %s", f, status, n, lines[len(lines)-1])
		case f.Error != "" && last.Fields["msg"] != f.Error:
			t.Errorf("%+v: last record %s", f, lines[len(lines)-1])
		}
	}
}

// The log says which process ran with which arguments.
func TestReplayLog(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log.txt")
	k, err := replay.NewKernel(dir, "log", scenario(log))
	if err != nil {
		t.Fatal(err)
	}
	drive(t, k, "", "-slots", "a", "-rounds", "1")
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "log\tp001-test.txt\trun -out ") || !strings.HasSuffix(string(b), " -slots a -rounds 1\n") {
		t.Errorf("log %q", b)
	}
}
