package harness

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/records"
)

// stepProc is a kernel process in step mode, with pipes to its stdin and
// stdout and the file its records go to.
type stepProc struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	file string
	oks  int
}

func startStep(t *testing.T, ctx context.Context, name string, k *Kernel, args ...string) *stepProc {
	t.Helper()
	p := &stepProc{name: name, file: filepath.Join(t.TempDir(), "records.txt")}
	p.cmd = exec.CommandContext(ctx, k.Binary, append([]string{"run", "-out", p.file, "-step"}, args...)...)
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.out = bufio.NewReader(stdout)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return p
}

// send writes line to the process's stdin.
func (p *stepProc) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
}

// step lets the process run one step and waits for its ok.
func (p *stepProc) step(t *testing.T) {
	t.Helper()
	p.send(t, "go")
	line, err := p.out.ReadString('\n')
	if err != nil || line != "ok\n" {
		t.Fatalf("%s: after step %d read %q, %v; want ok", p.name, p.oks+1, line, err)
	}
	p.oks++
}

// records reads what the process wrote so far.
func (p *stepProc) records(t *testing.T) []records.Record {
	t.Helper()
	return readRecords(t, p.file)
}

// finish closes stdin, checks that nothing more comes on stdout and that
// the process exits 0, and returns its records.
func (p *stepProc) finish(t *testing.T) []records.Record {
	t.Helper()
	_ = p.in.Close()
	rest, _ := io.ReadAll(p.out)
	if len(rest) != 0 {
		t.Errorf("%s: after its last step it wrote %q", p.name, rest)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("%s: %v", p.name, err)
	}
	return p.records(t)
}

func samplesOf(recs []records.Record) []records.Record {
	var s []records.Record
	for _, r := range recs {
		if r.Kind == "sample" {
			s = append(s, r)
		}
	}
	return s
}

func doneStopped(t *testing.T, recs []records.Record) int64 {
	t.Helper()
	if len(recs) == 0 || recs[len(recs)-1].Kind != "done" {
		t.Fatalf("the last record is not done: %v", recs)
	}
	n, err := recs[len(recs)-1].Int("stopped")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The previous and the new build of a kernel (here the C and the Go seed
// kernel) measured in lock step: one round of one, then one of the other.
// After each ok the process's records of that step are in its file.
func TestStepPair(t *testing.T) {
	const slots, nslots, rounds = "sink,checksum,discarded", 3, 3
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	seeds := []uint64{7, 8}
	var pair []*stepProc
	for i, lang := range []string{"c", "go"} {
		pair = append(pair, startStep(t, ctx, lang, seedKernel(t, lang), "-slots", slots, "-settle-ms", "1",
			"-warmup", "1", "-rounds", strconv.Itoa(rounds), "-order-seed", strconv.FormatUint(seeds[i], 10)))
	}
	for _, p := range pair {
		p.step(t)
		recs := p.records(t)
		if countKind(recs, "phase") < 2 || len(samplesOf(recs)) != 0 {
			t.Errorf("%s: after the prelude's ok: %d phases, %d samples", p.name, countKind(recs, "phase"), len(samplesOf(recs)))
		}
	}
	for r := 0; r < rounds; r++ {
		for _, p := range pair {
			p.step(t)
			s := samplesOf(p.records(t))
			if len(s) != (r+1)*nslots {
				t.Fatalf("%s: after round %d's ok, %d samples in the file, want %d", p.name, r, len(s), (r+1)*nslots)
			}
			if last, _ := s[len(s)-1].Int("round"); last != int64(r) {
				t.Errorf("%s: after round %d's ok, the last sample is of round %d", p.name, r, last)
			}
		}
	}
	for i, p := range pair {
		recs := p.finish(t)
		if p.oks != rounds+1 {
			t.Errorf("%s: %d ok lines, want %d", p.name, p.oks, rounds+1)
		}
		for j, s := range samplesOf(recs) {
			if round, _ := s.Int("round"); round != int64(j/nslots) {
				t.Errorf("%s: sample %d is of round %d, want %d", p.name, j, round, j/nslots)
			}
		}
		if err := CheckOrder(recs, nslots, &seeds[i]); err != nil {
			t.Errorf("%s: %v", p.name, err)
		}
		if n := doneStopped(t, recs); n != 0 {
			t.Errorf("%s: done stopped=%d after all its rounds", p.name, n)
		}
	}
}

// EOF or the line stop ends a run in step mode, cleanly.
func TestStepStop(t *testing.T) {
	cases := []struct {
		name   string
		steps  int    // steps run before the end
		end    string // "" closes stdin, else the line sent
		phases bool   // the prelude ran
	}{
		{"EOF before the prelude", 0, "", false},
		{"EOF after the prelude", 1, "", true},
		{"stop after one round", 2, "stop", true},
	}
	for _, lang := range []string{"c", "go"} {
		k := seedKernel(t, lang)
		for _, c := range cases {
			t.Run(lang+"/"+c.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				p := startStep(t, ctx, lang, k, "-slots", "checksum,sink", "-settle-ms", "1", "-rounds", "5")
				for i := 0; i < c.steps; i++ {
					p.step(t)
				}
				if c.end != "" {
					p.send(t, c.end)
				}
				recs := p.finish(t)
				if got := countKind(recs, "phase") > 0; got != c.phases {
					t.Errorf("prelude ran: %v, want %v", got, c.phases)
				}
				rounds := max(c.steps-1, 0)
				if n := len(samplesOf(recs)); n != 2*rounds {
					t.Errorf("%d samples, want %d", n, 2*rounds)
				}
				if n := countKind(recs, "checksum"); n != min(rounds, 1) {
					t.Errorf("%d checksum records after %d rounds", n, rounds)
				}
				if n := doneStopped(t, recs); n != 1 {
					t.Errorf("done stopped=%d, want 1", n)
				}
			})
		}
	}
}
