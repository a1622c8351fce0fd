package procs

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Every process benchbook starts (a compiler, a disassembler, a kernel
// binary) is accounted for by Proc:
//
//   - it runs in a process group of its own (Setpgid), killed as a group;
//   - its environment carries a tag (BENCHBOOK_PROC=random) that its
//     descendants inherit, so those that left the group (setsid, a daemon's
//     double fork) are found in /proc by the tag and killed too;
//   - the direct child gets SIGKILL when benchbook dies (Pdeathsig). Linux
//     sends it when the OS thread that started the child exits, not the
//     process (a load thread that locks its OS thread and ends takes its
//     thread with it), so every child is started from one thread that lives
//     as long as the process: the spawner, a goroutine locked to its OS
//     thread that never unlocks it (StartCmd);
//   - its output goes through pipes that benchbook owns: the wait returns
//     when the process exits, whoever else holds the pipe, and the output
//     is drained after the leftovers are killed, for at most DrainDelay.
//
// When the process exits, whether it succeeded or not, its group and tagged
// descendants are killed: nothing it started outlives it.
//
// When benchbook itself is killed with SIGKILL, the direct child dies
// (Pdeathsig) but descendants it started (a setup's fork) live on: the tag
// names the benchbook process that started them (its pid and start time),
// and KillOrphans, which the next benchbook kernel calls when it starts,
// kills the tagged processes whose benchbook is gone.
//
// What is not covered: a descendant that clears its environment and leaves
// the group escapes the tag. A child subreaper (PR_SET_CHILD_SUBREAPER)
// was considered and left out: the orphans it adopts must be reaped by
// benchbook, and a wait for any child would take the exit status of
// processes os/exec is waiting for.

// ProcEnv is the environment variable that tags a process and its
// descendants.
const ProcEnv = "BENCHBOOK_PROC"

// DrainDelay bounds the wait for a process's output once it has exited
// and its leftovers were killed.
const DrainDelay = time.Second

// Proc is a process started by StartProc.
type Proc struct {
	Cmd   *exec.Cmd
	tag   string
	done  chan struct{}
	err   error // the wait's error, once done is closed
	pipes []*os.File
	copy  sync.WaitGroup
	once  sync.Once
}

// StartProc starts cmd as described above. cmd.Stdout and cmd.Stderr may
// be any writers (the same one for both shares a pipe); they are written
// only by StartProc's copiers until Wait or Kill returns.
func StartProc(cmd *exec.Cmd) (*Proc, error) {
	p := &Proc{Cmd: cmd, tag: NewTag(), done: make(chan struct{})}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid, cmd.SysProcAttr.Pdeathsig = true, syscall.SIGKILL
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(append([]string{}, env...), ProcEnv+"="+p.tag)
	cmd.WaitDelay = DrainDelay
	writeEnds, err := p.pipeOutput()
	if err != nil {
		return nil, err
	}
	err = StartCmd(cmd)
	if err == nil {
		go func() {
			p.err = cmd.Wait()
			close(p.done)
		}()
	}
	for _, w := range writeEnds {
		w.Close()
	}
	if err != nil {
		p.closePipes()
		return nil, err
	}
	return p, nil
}

// spawner is the goroutine that starts every child process, locked to an
// OS thread it never gives back: the thread lives as long as the process,
// so a child's Pdeathsig fires when this process dies and at no other time.
var spawner struct {
	once sync.Once
	reqs chan spawnRequest
}

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

// StartCmd starts cmd (cmd.Start) on the spawner's thread. Every process
// that should die with this one through Pdeathsig must be started here:
// one started from any other thread dies when that thread ends. The wait
// (cmd.Wait) may be on any goroutine.
func StartCmd(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnRequest)
		go func() {
			runtime.LockOSThread() // for good: never unlocked, never returns
			for r := range spawner.reqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawner.reqs <- spawnRequest{cmd: cmd, done: done}
	return <-done
}

// pipeOutput replaces writers that are not files by pipes with a copier.
func (p *Proc) pipeOutput() ([]*os.File, error) {
	var writeEnds []*os.File
	piped := map[io.Writer]*os.File{}
	for _, w := range []*io.Writer{&p.Cmd.Stdout, &p.Cmd.Stderr} {
		if *w == nil {
			continue
		}
		if _, isFile := (*w).(*os.File); isFile {
			continue
		}
		if pw, ok := piped[*w]; ok {
			*w = pw
			continue
		}
		r, pw, err := os.Pipe()
		if err != nil {
			p.closePipes()
			for _, f := range writeEnds {
				f.Close()
			}
			return nil, err
		}
		dst := *w
		piped[dst], *w = pw, pw
		p.pipes, writeEnds = append(p.pipes, r), append(writeEnds, pw)
		p.copy.Add(1)
		go func() {
			defer p.copy.Done()
			_, _ = io.Copy(dst, r)
		}()
	}
	return writeEnds, nil
}

func (p *Proc) closePipes() {
	for _, r := range p.pipes {
		r.Close()
	}
}

// Pid is the process id, also the id of its process group.
func (p *Proc) Pid() int { return p.Cmd.Process.Pid }

// Done is closed when the process has exited.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Wait waits for the process to exit, kills what it left behind, drains its
// output and returns the wait's error.
func (p *Proc) Wait() error {
	<-p.done
	p.cleanup()
	return p.err
}

// Kill kills the process, its group and its tagged descendants, and
// returns once it has exited and its output is drained.
func (p *Proc) Kill() error {
	killGroup(p.Pid())
	<-p.done
	p.cleanup()
	return p.err
}

// cleanup kills the leftovers and drains the output, once.
func (p *Proc) cleanup() {
	p.once.Do(func() {
		killGroup(p.Pid())
		KillTagged(p.tag)
		drained := make(chan struct{})
		go func() { p.copy.Wait(); close(drained) }()
		select {
		case <-drained:
		case <-time.After(DrainDelay):
			p.closePipes() // someone we could not find still holds the pipe
			<-drained
		}
		p.closePipes()
	})
}

func killGroup(pgid int) {
	// The group's id is not handed out as a new pid while a member lives;
	// once the group is empty the kill finds no one (ESRCH).
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// NewTag is OWNERPID-OWNERSTART-RANDOM: the benchbook process that starts
// the process, by pid and start time (so that a reused pid is told apart),
// and a random part that tells its processes apart.
func NewTag() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%d-%d-%s", os.Getpid(), startTime(os.Getpid()), hex.EncodeToString(b[:]))
}

// startTime is field 22 of /proc/PID/stat, the process's start time in
// clock ticks after boot; 0 when the process is gone.
func startTime(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:])) // field 3 (state) is f[0]
	if len(f) < 20 {
		return 0
	}
	n, _ := strconv.ParseUint(f[19], 10, 64)
	return n
}

// KillOrphans kills this user's processes tagged by a benchbook process
// that no longer runs, or under a root (RootEnv) that no longer runs: what
// a killed benchbook's kernels left behind. It returns their pids.
func KillOrphans() []int {
	var killed []int
	ownProcs(ProcEnv, func(pid int, tag string) {
		owner, start, ok := parseTag(tag)
		if !ok || startTime(owner) == start || zombie(pid) {
			return
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
	})
	// What carries the id of a root (root.go) that is gone.
	killed = append(killed, scanRoots(func(roots []string) bool {
		for _, r := range roots {
			if rootGone(r) {
				return true
			}
		}
		return false
	}, true)...)
	return killed
}

// ownProcs calls fn with the pid of every process of this user but this
// one whose environment sets key, and the value it sets.
func ownProcs(key string, fn func(pid int, val string)) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	prefix := []byte("\x00" + key + "=")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if fi, err := os.Stat("/proc/" + e.Name()); err != nil || int(fi.Sys().(*syscall.Stat_t).Uid) != os.Getuid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		env = append([]byte{0}, env...)
		i := bytes.Index(env, prefix)
		if i < 0 {
			continue
		}
		val, _, _ := strings.Cut(string(env[i+len(prefix):]), "\x00")
		fn(pid, val)
	}
}

func parseTag(tag string) (owner int, start uint64, ok bool) {
	f := strings.SplitN(tag, "-", 3)
	if len(f) != 3 {
		return 0, 0, false
	}
	owner, e1 := strconv.Atoi(f[0])
	start, e2 := strconv.ParseUint(f[1], 10, 64)
	return owner, start, e1 == nil && e2 == nil && start > 0
}

// KillTagged kills every process whose environment has ProcEnv=tag, until
// none is left (a process may fork while the others are killed).
func KillTagged(tag string) {
	for range 5 {
		if len(killTaggedOnce(tag)) == 0 {
			return
		}
	}
}

func killTaggedOnce(tag string) []int {
	want := []byte("\x00" + ProcEnv + "=" + tag + "\x00")
	return scanTagged(want, func(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) })
}

// scanTagged calls found for every live process whose environment holds
// want. It reads every process's environ: 0.11 ms a scan at 82 processes
// on a quiet VM (BenchmarkScanTagged). Reading only the pids handed out
// since the process started (from /proc/loadavg's last pid) took 0.05 ms,
// about 0.1 s over a make run, and was left out: a /proc mounted from
// another pid namespace would hide descendants from it.
func scanTagged(want []byte, found func(int)) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(append([]byte{0}, env...), want) || zombie(pid) {
			continue
		}
		found(pid)
		pids = append(pids, pid)
	}
	return pids
}

// zombie says whether pid has exited and waits only to be reaped.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}

// RunProc runs cmd with StartProc until it exits or ctx is done; on ctx's
// end the process and everything it started are killed and ctx's error is
// returned.
func RunProc(ctx context.Context, cmd *exec.Cmd) error {
	p, err := StartProc(cmd)
	if err != nil {
		return err
	}
	select {
	case <-p.Done():
		return p.Wait()
	case <-ctx.Done():
		_ = p.Kill()
		return ctx.Err()
	}
}

// OutputProc is RunProc returning the standard output, as exec.Cmd.Output.
func OutputProc(ctx context.Context, cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout = &out
	err := RunProc(ctx, cmd)
	return out.Bytes(), err
}
