package gluechild

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/benchbook/benchbook/internal/procs"

	"github.com/benchbook/benchbook/cells/glue"
	"github.com/benchbook/benchbook/stdlib/display"
)

// proc is one child process and the parent's end of its pipes.
type proc struct {
	cmd     *exec.Cmd
	w       *writer
	toKid   *os.File
	errs    *stderrLog
	onState func(*glue.State) // what changed in the session's state
	exited  chan struct{}     // closed once the child is gone and reaped
	state   *os.ProcessState
	// replayed says the child's replay ran initializers that call code.
	replayed bool
	entry    atomic.Int64 // the history entry its replay runs, -1 before

	mu      sync.Mutex
	waiters map[int64]chan msg // hello (id 0), ready, done and reply frames
	evals   map[int64]*running // evals in progress, for their outputs and calls
}

// running is an eval in progress, as the parent sees it.
type running struct {
	ctx context.Context
	pub display.Publisher
}

// helloLimit bounds the child's start.
const helloLimit = 30 * time.Second

// startProc starts a child and waits for its hello.
func startProc(opt Options, lim Limits, handle Handler, onState func(*glue.State)) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("gluechild: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("gluechild: %w", err)
	}
	cmd := exec.Command(opt.Command[0], opt.Command[1:]...)
	cmd.Dir = opt.Dir
	cmd.Env = append(os.Environ(), opt.Env...)
	cmd.Env = append(cmd.Env, EnvChild+"=1", EnvMemory+"="+strconv.FormatInt(lim.Memory, 10),
		EnvStack+"="+strconv.FormatInt(lim.Stack, 10))
	cmd.ExtraFiles = []*os.File{inR, outW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err == nil {
		err = procs.StartCmd(cmd) // from the thread that lives as long as this process: Pdeathsig
	}
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("gluechild: starting %s: %w", opt.Command[0], err)
	}
	p := &proc{cmd: cmd, w: newWriter(inW), toKid: inW, errs: newStderrLog(stderr), onState: onState,
		exited: make(chan struct{}), waiters: map[int64]chan msg{}, evals: map[int64]*running{}}
	p.entry.Store(-1)
	hello := p.expect(0)
	go p.readLoop(outR, handle)
	if _, err := p.await(hello, 0, helloLimit); err != nil {
		p.kill()
		<-p.exited
		if !errors.Is(err, errExited) {
			return nil, fmt.Errorf("%s glue-child did not start: %w", opt.Command[0], err)
		}
		why := p.cause(lim)
		if strings.Contains(why, memoryNote(lim)) {
			why = strings.Replace(why, memoryNote(lim), fmt.Sprintf(" (the glue process's limit is %s, too little for it to start: raise %s, whose default is the smaller of 4 GiB and half the memory)",
				formatSize(lim.Memory), EnvMemory), 1)
		}
		return nil, fmt.Errorf("%s glue-child ended as it started: %s", opt.Command[0], why)
	}
	return p, nil
}

// readLoop routes the child's frames until its pipe closes, then reaps it.
func (p *proc) readLoop(r io.ReadCloser, handle Handler) {
	rd := newReader(r)
	for {
		m, err := rd.next()
		if err != nil {
			break
		}
		p.route(m, handle)
	}
	r.Close()
	select { // the runtime's last words, unless a grandchild holds stderr
	case <-p.errs.done:
	case <-time.After(2 * time.Second):
	}
	p.kill() // what the child left running in its process group
	_ = p.cmd.Wait()
	p.state = p.cmd.ProcessState
	p.toKid.Close()
	close(p.exited)
}

// route delivers one frame from the child.
func (p *proc) route(m msg, handle Handler) {
	switch m.T {
	case tReady, tDone:
		if m.State != nil { // applied here, in the order the child sent it
			p.onState(m.State)
		}
	}
	switch m.T {
	case tProgress:
		p.entry.Store(int64(m.Entry))
	case tHello, tReady, tDone, tReply:
		p.mu.Lock()
		ch := p.waiters[m.ID]
		delete(p.waiters, m.ID)
		p.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	case tStream, tDisplay, tClear:
		if ev := p.eval(m.ID); ev != nil {
			publish(ev.pub, m)
		}
	case tState:
		if m.State != nil {
			p.onState(m.State)
		}
	case tCall:
		go p.call(m, handle)
	}
}

// publish replays an output frame on pub.
func publish(pub display.Publisher, m msg) {
	switch m.T {
	case tStream:
		pub.Stream(m.Name, m.Text)
	case tDisplay:
		if m.Bundle != nil {
			pub.Display(*m.Bundle, m.Update)
		}
	case tClear:
		pub.Clear(m.Wait)
	}
}

// call answers a call from the child with the parent's handler, in the
// context and publisher of the eval that made it (none between cells).
func (p *proc) call(m msg, handle Handler) {
	ctx, pub := context.Background(), display.Publisher(nil)
	if ev := p.eval(m.Eval); ev != nil {
		ctx, pub = ev.ctx, ev.pub
	}
	ret := msg{T: tRet, ID: m.ID}
	if handle == nil {
		ret.Fail = m.Name + ": not available in this session"
	} else {
		v, err := handle(ctx, pub, m.Name, m.Args)
		if err != nil {
			ret.Fail = err.Error()
		}
		if v != nil {
			var mErr error
			if ret.Value, mErr = json.Marshal(v); mErr != nil && ret.Fail == "" {
				ret.Fail = mErr.Error()
			}
		}
	}
	_ = p.w.send(ret)
}

// expect registers a waiter for the frame answering id.
func (p *proc) expect(id int64) chan msg {
	ch := make(chan msg, 1)
	p.mu.Lock()
	p.waiters[id] = ch
	p.mu.Unlock()
	return ch
}

// errExited is an await that the child's death ended.
var errExited = errors.New("the glue process died")

// await waits for the frame on ch, the child's death, or the timeout.
func (p *proc) await(ch chan msg, id int64, limit time.Duration) (msg, error) {
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case m := <-ch:
		return m, nil
	case <-p.exited:
		return msg{}, errExited
	case <-t.C:
		p.mu.Lock()
		delete(p.waiters, id)
		p.mu.Unlock()
		return msg{}, fmt.Errorf("no answer in %s", limit)
	}
}

// eval is the eval id in progress, or nil.
func (p *proc) eval(id int64) *running {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.evals[id]
}

// setEval records the eval id in progress (nil: it ended).
func (p *proc) setEval(id int64, ev *running) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ev == nil {
		delete(p.evals, id)
	} else {
		p.evals[id] = ev
	}
}

// alive reports whether the child still runs.
func (p *proc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// kill ends the child and everything it started (its process group).
func (p *proc) kill() {
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// stop asks the child to end (its requests pipe closes), and kills it
// after grace.
func (p *proc) stop(grace time.Duration) {
	p.toKid.Close()
	select {
	case <-p.exited:
	case <-time.After(grace):
		p.kill()
		<-p.exited
	}
}

// replaying is the history entry the child's replay was running, -1 if
// none had started.
func (p *proc) replaying() int { return int(p.entry.Load()) }

// cause says why the child died; call after exited is closed.
func (p *proc) cause(lim Limits) string {
	return cause(p.errs.report(), p.state, lim)
}
