package machine

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ProcStat is what a snapshot keeps of one /proc/[pid]/stat.
type ProcStat struct {
	PID  int    `json:"pid"`
	PPID int    `json:"ppid"`
	Comm string `json:"comm"` // the command name, at most 15 bytes, may hold spaces and ')'
	// Ticks is the CPU time of all the process's threads, user plus system,
	// in clock ticks (see ClockTicksPerSecond).
	Ticks uint64 `json:"ticks"`
	// StartTicks is when the process started, in ticks after boot: a pid
	// reused by a new process has another StartTicks.
	StartTicks uint64 `json:"start_ticks"`
	// Processor is the CPU the main thread last ran on.
	Processor int `json:"processor"`
}

// ProcSnapshot is every process's stat at one moment, by pid.
type ProcSnapshot struct {
	Procs map[int]ProcStat `json:"procs"`
}

// SnapshotProcs reads /proc/[pid]/stat for every process. Processes that
// exit while it reads are left out.
func SnapshotProcs() (ProcSnapshot, error) {
	return snapshotProcsFS(os.DirFS("/"))
}

// snapshotProcsFS reads proc/[pid]/stat of every pid directory in fsys.
func snapshotProcsFS(fsys fs.FS) (ProcSnapshot, error) {
	entries, err := fs.ReadDir(fsys, "proc")
	if err != nil {
		return ProcSnapshot{}, fmt.Errorf("process snapshot: %w", err)
	}
	s := ProcSnapshot{Procs: map[int]ProcStat{}}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		name := "proc/" + e.Name() + "/stat"
		b, err := fs.ReadFile(fsys, name)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH) {
			continue // exited since the directory was listed, or while read
		}
		if err != nil {
			return ProcSnapshot{}, fmt.Errorf("process snapshot: %w", err)
		}
		p, err := parseProcStat(string(b))
		if err != nil {
			return ProcSnapshot{}, fmt.Errorf("/%s: %w", name, err)
		}
		s.Procs[p.PID] = p
	}
	return s, nil
}

// Field positions in /proc/[pid]/stat (proc(5) numbers them from 1), as
// indexes into the fields that follow the command's closing parenthesis,
// which start at field 3, the state.
const (
	statPPID      = 4 - 3
	statUTime     = 14 - 3
	statSTime     = 15 - 3
	statStartTime = 22 - 3
	statProcessor = 39 - 3
)

// parseProcStat parses one /proc/[pid]/stat line. The command name is
// between the first '(' and the LAST ')', since it may itself hold spaces
// and parentheses ("(sd-pam) x)"); the numbered fields follow that ')'.
func parseProcStat(line string) (ProcStat, error) {
	open := strings.IndexByte(line, '(')
	closing := strings.LastIndexByte(line, ')')
	if open < 0 || closing < open {
		return ProcStat{}, fmt.Errorf("stat %q has no (command)", line)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line[:open]))
	if err != nil {
		return ProcStat{}, fmt.Errorf("stat %q: pid %q is not a number", line, line[:open])
	}
	fields := strings.Fields(line[closing+1:])
	if len(fields) <= statProcessor {
		return ProcStat{}, fmt.Errorf("stat of pid %d has %d fields after the command, want at least %d",
			pid, len(fields), statProcessor+1)
	}
	var v [statProcessor + 1]uint64
	for _, i := range []int{statPPID, statUTime, statSTime, statStartTime, statProcessor} {
		if v[i], err = strconv.ParseUint(fields[i], 10, 64); err != nil {
			return ProcStat{}, fmt.Errorf("stat of pid %d: field %d is %q, not a number", pid, i+3, fields[i])
		}
	}
	return ProcStat{
		PID:        pid,
		PPID:       int(v[statPPID]),
		Comm:       line[open+1 : closing],
		Ticks:      v[statUTime] + v[statSTime],
		StartTicks: v[statStartTime],
		Processor:  int(v[statProcessor]),
	}, nil
}

// Busiest returns the n processes of after that used the most CPU time
// since before, busiest first (ties by pid), leaving out the pids for which
// exclude returns true (exclude may be nil) and those that used none.
// seconds is the wall time between the snapshots; BusyPct is the share of
// one CPU. A process started in between counts from its start; one that
// exited in between is not in after and is not seen.
func Busiest(before, after ProcSnapshot, seconds float64, exclude func(pid int) bool, n int) []ProcUse {
	uses := []ProcUse{}
	if seconds <= 0 || n <= 0 {
		return uses
	}
	for pid, a := range after.Procs {
		if exclude != nil && exclude(pid) {
			continue
		}
		ticks := a.Ticks
		if b, ok := before.Procs[pid]; ok && b.StartTicks == a.StartTicks && b.Ticks <= a.Ticks {
			ticks -= b.Ticks
		}
		if ticks == 0 {
			continue
		}
		uses = append(uses, ProcUse{
			PID:     pid,
			Command: a.Comm,
			CPU:     a.Processor,
			BusyPct: 100 * float64(ticks) / ClockTicksPerSecond / seconds,
		})
	}
	slices.SortFunc(uses, func(x, y ProcUse) int {
		return cmp.Or(cmp.Compare(y.BusyPct, x.BusyPct), cmp.Compare(x.PID, y.PID))
	})
	return uses[:min(n, len(uses))]
}

// Descendants returns pid and every process below it in s (children,
// their children, ...), from the parent pids of the snapshot.
func (s ProcSnapshot) Descendants(pid int) map[int]bool {
	children := map[int][]int{}
	for p, st := range s.Procs {
		children[st.PPID] = append(children[st.PPID], p)
	}
	tree := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !tree[c] {
				tree[c] = true
				queue = append(queue, c)
			}
		}
	}
	return tree
}

// Descendants returns pid and every process below it now, so that a
// runner can leave its own process tree out of Busiest.
func Descendants(pid int) (map[int]bool, error) {
	s, err := SnapshotProcs()
	if err != nil {
		return nil, fmt.Errorf("descendants of %d: %w", pid, err)
	}
	return s.Descendants(pid), nil
}
