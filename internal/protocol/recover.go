package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/procs"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/kproc"
)

// RunFile is the name of the file, in a run's raw folder, that says what the
// run was (options, kernel, protocol, machine) once its measuring begins:
// with the record files it is enough to rebuild the result (Recover).
const RunFile = "run.json"

// runFile is what RunFile holds.
type runFile struct {
	Options Options         `json:"options"`
	Kernel  *harness.Kernel `json:"kernel"`
	Result  *Result         `json:"result"` // as it stood when the measuring began
}

// saveRunFile writes RunFile in the run's folder.
func (r *runner) saveRunFile() error {
	b, err := json.Marshal(runFile{Options: r.opt, Kernel: r.k, Result: r.res})
	if err != nil {
		return fmt.Errorf("%s: %w", RunFile, err)
	}
	return WriteFileAtomic(filepath.Join(r.dir, RunFile), b, 0o600)
}

// ErrFinished is returned by Recover for a folder whose run wrote its result.
var ErrFinished = errors.New("the run finished")

// Recover rebuilds the result of a run that was killed before it could
// write it (the kernel was killed, the machine went down) from what is in
// its folder dir: RunFile and the record files of its processes, read with
// the same collectors as Run. The result is partial; it is written to dir
// as ResultFile and returned. A baseline measured in the same run is left
// out. A folder that already has its result is refused (ErrFinished).
func Recover(dir string) (*Result, error) {
	if _, err := os.Stat(filepath.Join(dir, ResultFile)); err == nil {
		return nil, fmt.Errorf("%s has its %s: %w; recover is for a run that was killed", dir, ResultFile, ErrFinished)
	}
	b, err := procs.ReadRegular(filepath.Join(dir, RunFile), kproc.MaxRecordFile)
	if err != nil {
		return nil, fmt.Errorf("recover: %w (a run writes it once its measuring begins)", err)
	}
	var rf runFile
	if err := json.Unmarshal(b, &rf); err != nil {
		return nil, fmt.Errorf("recover: %s: %w", RunFile, err)
	}
	if rf.Kernel == nil || rf.Result == nil {
		return nil, fmt.Errorf("recover: %s has no kernel or no result", RunFile)
	}
	r := &runner{k: rf.Kernel, opt: rf.Options, dir: dir, res: rf.Result, data: newCollected()}
	r.opt.Export = ""
	if err := r.collectFiles(); err != nil {
		return nil, err
	}
	r.res.Partial, r.res.RawFile = true, dir
	r.res.Error = "the run did not finish: this result was rebuilt from its raw records by benchbook recover"
	if r.res.Protocol.Pairs > 0 {
		r.res.BaselineDropped = "the baseline measured in this run is not rebuilt by benchbook recover"
		r.res.Protocol.Pairs = 0
	}
	r.assemble()
	return r.res, r.save()
}

// collectFiles reads every record file of the folder, in the order the
// processes ran, and gives each to the collector of its phase.
func (r *runner) collectFiles() error {
	files, err := recordFiles(r.dir)
	if err != nil {
		return err
	}
	var pairs []*proc
	for _, rf := range files {
		f := rf.path
		recs, err := kproc.ReadRecordFile(f)
		if err != nil {
			return fmt.Errorf("recover: %s: %w", filepath.Base(f), err)
		}
		p := &proc{Label: rf.label, File: f, Records: recs}
		if strings.HasPrefix(p.Label, "interleaved-") {
			pairs = append(pairs, p) // the new build's processes of a before/after
			continue
		}
		if err := r.collectProc(p); err != nil {
			return err
		}
	}
	if len(pairs) > 0 {
		r.collectInterleaved(pairs, r.interleavedSlots())
	}
	return nil
}

// collectProc gives the records of one process to the collector of the
// phase its label names (the labels Run gives its processes).
func (r *runner) collectProc(p *proc) error {
	switch l := p.Label; {
	case l == "first-discarded":
		return r.collectBatches(p)
	case l == "interleaved":
		r.collectInterleaved([]*proc{p}, r.interleavedSlots())
	case strings.HasPrefix(l, "inprocess-"):
		r.collectInProcess(strings.TrimPrefix(l, "inprocess-"), p)
	case strings.HasPrefix(l, "fresh-"):
		v := strings.TrimPrefix(l, "fresh-")
		if i := strings.LastIndexByte(v, '-'); i > 0 {
			v = v[:i]
		}
		// fresh-lK-VARIANT-NN: the process ran layout K.
		if lid, rest, ok := strings.Cut(v, "-"); ok && len(lid) > 1 && lid[0] == 'l' {
			if k, err := strconv.Atoi(lid[1:]); err == nil {
				p.Layout, v = k, rest
			}
		}
		collectFresh(r.data.fresh, v, p, r.addChecksum)
	}
	return nil // the baseline's processes are not collected
}

// recordFile is the record file of the n-th process of a run (pNNN-LABEL.txt,
// newProc's name: three digits or more).
type recordFile struct {
	path, label string
	n           int
}

// recordFiles lists the record files of dir in the order the processes
// ran: by number, which has more than three digits past the 999th
// process (a run of reps=30000 has 6000 blocks).
func recordFiles(dir string) ([]recordFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("recover: %w", err)
	}
	var out []recordFile
	for _, e := range entries {
		name := e.Name()
		num, label, ok := strings.Cut(strings.TrimPrefix(name, "p"), "-")
		n, err := strconv.Atoi(num)
		if !strings.HasPrefix(name, "p") || !ok || err != nil || len(num) < 3 || !strings.HasSuffix(label, ".txt") {
			continue
		}
		out = append(out, recordFile{path: filepath.Join(dir, name), label: strings.TrimSuffix(label, ".txt"), n: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].n < out[j].n })
	return out, nil
}
