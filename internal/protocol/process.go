package protocol

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/benchbook/benchbook/internal/procs"
	"github.com/benchbook/benchbook/internal/records"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/kproc"
	"github.com/benchbook/benchbook/internal/result"
)

// exec runs the kernel binary once and reads the records it wrote. The
// process runs in its own process group (procs.StartProc); cancelling ctx
// or its timeout kills the whole group at once, and whatever it started is
// killed when it exits, whether it succeeded or not.
func (r *runner) exec(ctx context.Context, label string, a harness.Args) (*proc, error) {
	return r.execBin(ctx, r.k.Binary, label, a)
}

// newProc names the record file of the next process and its command line:
// a's options and what every process of the run shares (pages, pin, the
// cold pass's place, the settle's floor, the clock estimate).
func (r *runner) newProc(bin, label string, a harness.Args) (*proc, *exec.Cmd) {
	r.nproc++
	p := &proc{Label: label, File: filepath.Join(r.dir, fmt.Sprintf("p%03d-%s.txt", r.nproc, label))}
	a.Out, a.Pages = p.File, r.pages(label)
	if r.opt.Pin >= 0 {
		pin := r.opt.Pin
		a.Pin = &pin
	}
	// cold=after-setup holds for every process that takes a cold pass (the
	// first execution and the interleaved one too): a kernel whose data
	// only setup makes, a pointer chase, cannot take a pass before it.
	if r.opt.ColdAfterSetup && a.Cold != "" {
		a.ColdAfterSetup = true
	}
	// The warmup counts toward the settle (settleCountsWarmup), alike for
	// every binary of the run: the kernel, its alignment builds and, in a
	// before/after, the previous build, whose processes take the options
	// of the new build's (the calibration timed the new build's passes), so
	// the two sides of a comparison settle alike.
	floor := float64(r.opt.SettleFloor().Microseconds()) / 1000
	a, floor = r.settleCountsWarmup(a, floor)
	// The settle is adaptive (records.md): a process settles at least the
	// floor, at most its -settle-ms, and stops once a pass no longer gets
	// faster.
	if a.SettleMinMS == nil {
		f := min(floor, a.SettleMS)
		a.SettleMinMS = &f
	}
	a.Freq = len(r.wrapper) == 0 // every process estimates its clock (freq.go), except under valgrind
	argv := a.Argv()
	if len(r.wrapper) > 0 { // a tool the kernel runs under (valgrind for counts)
		return p, exec.Command(r.wrapper[0], append(append(append([]string{}, r.wrapper[1:]...), bin), argv...)...)
	}
	return p, exec.Command(bin, argv...)
}

// execBin runs binary bin (the kernel, or the baseline's) as exec does.
func (r *runner) execBin(ctx context.Context, bin, label string, a harness.Args) (*proc, error) {
	p, cmd := r.newProc(bin, label, a)
	out := kproc.NewTailBuffer(16 << 10)
	cmd.Stdout, cmd.Stderr = out, out
	hp, err := procs.StartProc(cmd)
	if err != nil {
		return p, fmt.Errorf("%s: cannot start the kernel: %w", label, err)
	}
	timeout := time.NewTimer(r.opt.Timeout)
	defer timeout.Stop()
	var waitErr, cause error
	select {
	case <-hp.Done():
		waitErr = hp.Wait()
	case <-ctx.Done():
		cause = ErrInterrupted
	case <-timeout.C:
		cause = fmt.Errorf("%s: the process ran longer than timeout=%s and was killed", label, r.opt.Timeout)
	}
	if cause != nil {
		waitErr = hp.Kill()
	}
	p.Output = out.String()
	recs, readErr := kproc.ReadRecordFile(p.File)
	p.Records = recs
	r.notePages(p)
	r.noteSyscalls(p)
	if cause != nil {
		return p, cause
	}
	failed := waitErr != nil || readErr != nil || len(recs) == 0 || recs[len(recs)-1].Kind != "done"
	if failed {
		// The process writes its records as it measures: on a full disk
		// its writes fail and it ends without them, which is not its fault.
		if errno := kproc.NoSpaceIn(filepath.Dir(p.File)); errno != nil {
			return p, fmt.Errorf("%s: %w; the benchmark process could not write its records, so the run stopped: free some space and run again",
				label, kproc.DiskFullError(p.File, errno))
		}
	}
	if err := kproc.ExitError(label, waitErr, p); err != nil {
		return p, err
	}
	if readErr != nil {
		return p, fmt.Errorf("%s: %w", label, readErr)
	}
	if failed {
		return p, fmt.Errorf("%s: the kernel exited without finishing its passes%s", label, kproc.OutputTail(p.Output))
	}
	return p, nil
}

// warmupMS is what the passes a process runs before its settle and
// measured rounds are expected to take, in ms, and one round of its slots:
// its cold pass (one pass of a.Cold) and its a.Warmup rounds of every
// slot, each sample a.Batch passes of the variant as the first execution's
// calibration timed them. It is unknown (false) before that calibration
// (the first execution itself has no -batch) and for a slot it did not
// time.
func (r *runner) warmupMS(a harness.Args) (before, round float64, ok bool) {
	if a.Batch == nil || len(a.Batch) != len(a.Slots) {
		return 0, 0, false
	}
	for i, name := range a.Slots {
		ns, ok := r.data.passNS[name]
		if !ok || a.Batch[i] < 1 {
			return 0, 0, false
		}
		round += ns * float64(a.Batch[i])
	}
	before = float64(a.Warmup) * round
	if a.Cold != "" {
		ns, ok := r.data.passNS[a.Cold]
		if !ok {
			return 0, 0, false
		}
		before += ns
	}
	return before / 1e6, round / 1e6, true
}

// settleCountsWarmup counts the passes a process runs anyway toward the
// settle (protocol.md, step 4): the settle bound is how long a process
// runs the kernel's passes before it measures, and its cold pass and its
// warmup rounds run them too. So a process settles only for what those
// are not expected to last (warmupMS), and not at all when what is left
// is shorter than one round of its slots: the driver settles in whole
// rounds, so that round would end past the bound (a kernel whose pass is
// 60 ms took a 60 ms settle round after its warmup, 120 ms where the
// bound is 100). The adaptive settle's floor shrinks the same way.
func (r *runner) settleCountsWarmup(a harness.Args, floor float64) (harness.Args, float64) {
	before, round, ok := r.warmupMS(a)
	if !ok || before <= 0 {
		return a, floor
	}
	left := max(0, a.SettleMS-before)
	if left < round {
		left = 0
	}
	a.SettleMS = math.Round(left*1000) / 1000
	return a, max(0, floor-before)
}

// noteSyscalls keeps the most system calls a process of the run made
// around its measured passes (its syscalls record, records.md).
func (r *runner) noteSyscalls(p *proc) {
	if p == nil {
		return
	}
	for _, rec := range p.Records {
		c, ok := rec.Value.(records.Syscalls)
		if !ok || c.AfterDiscarded < 0 || c.Between < 0 {
			continue
		}
		after, between := c.AfterDiscarded, c.Between
		s := r.res.Protocol.HarnessSyscalls
		if s == nil {
			s = &result.HarnessSyscalls{}
			r.res.Protocol.HarnessSyscalls = s
		}
		s.AfterDiscarded, s.Between = max(s.AfterDiscarded, int(after)), max(s.Between, int(between))
		s.Processes++
	}
}
