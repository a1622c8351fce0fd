package procs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A benchbook that serves a notebook (the kernel, benchbook run) is the
// root of every process started on its behalf, however far down: the glue
// child, the compilers and their cc1, the benchmark processes, shell lines
// and what they leave running in the background (!cmd &). BecomeRoot
// marks them all: it adds this process's id (PID-STARTTIME) to RootEnv,
// which every descendant inherits, and
//
//   - Root.Stop, on shutdown, kills every process that carries the id;
//   - a guard process, started without Pdeathsig in a session of its own,
//     holds the read end of a pipe whose only write end is this process's:
//     when this process ends in any way (SIGKILL included) the pipe reads
//     EOF, and the guard kills every process that carries the id, then
//     removes the build folders and lock files this process registered
//     (Track) and had not removed yet, and exits;
//   - KillOrphans, at the next start, kills what carries the id of a root
//     that is gone (what escaped a guard that was killed too).
//
// The guard is this same executable (/proc/self/exe) started with
// GuardEnv set: the package's init runs it and exits before main.

// RootEnv is the environment variable listing the roots a process
// belongs to (comma-separated PID-STARTTIME ids, the outermost first).
const RootEnv = "BENCHBOOK_ROOT"

// GuardEnv makes the process a guard of the root it names.
const GuardEnv = "BENCHBOOK_GUARD"

func init() {
	if id := os.Getenv(GuardEnv); id != "" {
		os.Exit(runGuard(id, os.Stdin))
	}
}

// Root is this process as the root of the processes it starts.
type Root struct {
	id    string
	guard *exec.Cmd
	mu    sync.Mutex
	pipe  *os.File // the guard's stdin, nil once stopped
	once  sync.Once
}

// current is the root of this process, once BecomeRoot made it one.
var current struct {
	sync.Mutex
	r *Root
}

// BecomeRoot makes this process the root of every process it starts from
// now on (see above) and starts its guard. Call it once, before anything
// is started; Stop ends it.
func BecomeRoot() (*Root, error) {
	current.Lock()
	defer current.Unlock()
	if current.r != nil {
		return current.r, nil
	}
	id := fmt.Sprintf("%d-%d", os.Getpid(), startTime(os.Getpid()))
	roots := id
	if old := os.Getenv(RootEnv); old != "" {
		roots = old + "," + id
	}
	if err := os.Setenv(RootEnv, roots); err != nil {
		return nil, err
	}
	r := &Root{id: id}
	if err := r.startGuard(); err != nil {
		return nil, err
	}
	current.r = r
	return r, nil
}

// ID is the root's PID-STARTTIME.
func (r *Root) ID() string { return r.id }

// startGuard starts the guard with the read end of a pipe as its stdin.
func (r *Root) startGuard() error {
	rd, wr, err := os.Pipe() // close-on-exec: no other child inherits the write end
	if err != nil {
		return fmt.Errorf("guard: %w", err)
	}
	defer rd.Close()
	cmd := exec.Command("/proc/self/exe")
	cmd.Dir = "/"
	for _, e := range os.Environ() {
		k, _, _ := strings.Cut(e, "=")
		if k != RootEnv && k != ProcEnv && k != GuardEnv {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, GuardEnv+"="+r.id)
	cmd.Stdin = rd // stdout and stderr /dev/null: a pipe it held would keep a reader of ours waiting
	// No Pdeathsig: the guard outlives this process; a session of its own
	// keeps a terminal's signals and a kill of this group away from it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		wr.Close()
		return fmt.Errorf("guard: %w", err)
	}
	r.guard, r.pipe = cmd, wr
	return nil
}

// Stop kills every process that carries this root's id and ends the
// guard. Call it when the kernel or the run shuts down.
func (r *Root) Stop() {
	r.once.Do(func() {
		KillRoot(r.id)
		r.mu.Lock()
		pipe := r.pipe
		r.pipe = nil
		r.mu.Unlock()
		if pipe != nil {
			pipe.Close()
			done := make(chan struct{})
			go func() { _ = r.guard.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
			}
		}
		current.Lock()
		if current.r == r {
			current.r = nil
		}
		current.Unlock()
	})
}

// note sends one line to the guard.
func (r *Root) note(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pipe != nil {
		_, _ = r.pipe.WriteString(line + "\n")
	}
}

// Track tells the guard of this process's root, if it has one, that path
// (kind "dir": a folder to remove; "lock": a lock file) is to be removed
// if this process dies before it calls the returned untrack.
func Track(kind, path string) (untrack func()) {
	current.Lock()
	r := current.r
	current.Unlock()
	if r == nil {
		return func() {}
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // the guard runs in /
	}
	r.note("+" + kind + " " + strconv.Quote(path))
	return func() { r.note("-" + kind + " " + strconv.Quote(path)) }
}

// runGuard is the guard of root id: it reads what to clean from in until
// EOF, then kills the root's processes and removes what is left. It
// returns the exit status.
func runGuard(id string, in io.Reader) int {
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGPIPE)
	dirs, locks := map[string]bool{}, map[string]bool{}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		op, quoted, ok := strings.Cut(sc.Text(), " ")
		path, err := strconv.Unquote(quoted)
		if !ok || err != nil {
			continue
		}
		switch op {
		case "+dir":
			dirs[path] = true
		case "-dir":
			delete(dirs, path)
		case "+lock":
			locks[path] = true
		case "-lock":
			delete(locks, path)
		}
	}
	KillRoot(id)
	for d := range dirs {
		_ = os.RemoveAll(d)
	}
	for l := range locks {
		removeLock(l)
	}
	return 0
}

// KillRoot kills every process (but this one) that carries root id, until
// none is left, and waits a little for them to be gone, so that the files
// they were writing can be removed.
func KillRoot(id string) {
	var pids []int
	for range 10 {
		killed := scanRoots(func(roots []string) bool { return containsRoot(roots, id) }, true)
		if len(killed) == 0 {
			break
		}
		pids = append(pids, killed...)
	}
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if !anyAlive(pids) {
			return
		}
	}
}

func anyAlive(pids []int) bool {
	for _, p := range pids {
		if !zombie(p) {
			return true
		}
	}
	return false
}

func containsRoot(roots []string, id string) bool {
	for _, r := range roots {
		if r == id {
			return true
		}
	}
	return false
}

// Carrying lists this user's live processes (but this one) that carry root
// id in RootEnv.
func Carrying(id string) []int {
	return scanRoots(func(roots []string) bool { return containsRoot(roots, id) }, false)
}

// scanRoots finds this user's live processes (but this one) whose RootEnv
// matches, and kills them when kill is set; it returns their pids.
func scanRoots(match func(roots []string) bool, kill bool) []int {
	var pids []int
	ownProcs(RootEnv, func(pid int, val string) {
		if !match(strings.Split(val, ",")) || zombie(pid) {
			return
		}
		if kill {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		pids = append(pids, pid)
	})
	return pids
}

// rootGone says whether the root id (PID-STARTTIME) no longer runs.
func rootGone(id string) bool {
	pid, start, ok := strings.Cut(id, "-")
	p, e1 := strconv.Atoi(pid)
	s, e2 := strconv.ParseUint(start, 10, 64)
	if !ok || e1 != nil || e2 != nil || s == 0 {
		return false
	}
	return startTime(p) != s
}

// ParentWatch returns a context that is cancelled when this process's
// parent goes (it is then re-parented: getppid changes), checked every
// interval: what ipykernel's ParentPollerUnix does for a kernel that
// jupyter_client started (JPY_PARENT_PID is set). jupyter_client starts a
// kernel in a session of its own, so nothing else tells a kernel that the
// jupyter console or server that started it was killed: without this it
// waits on its sockets for a shutdown that never comes.
func ParentWatch(ctx context.Context, interval time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	parent := os.Getppid()
	if jpy := os.Getenv("JPY_PARENT_PID"); jpy == "" || jpy == "1" || parent == 1 {
		return ctx, func() { cancel(nil) }
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if now := os.Getppid(); now != parent {
					cancel(fmt.Errorf("the parent process %d is gone: %w", parent, ErrParentGone))
					return
				}
			}
		}
	}()
	return ctx, func() { cancel(nil) }
}

// ErrParentGone is the cause of a ParentWatch context whose parent went.
var ErrParentGone = errors.New("parent gone")
