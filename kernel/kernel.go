package kernel

import (
	"context"
	"fmt"
	"io"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"
)

// config holds the kernel's tunables; tests shorten them and set hooks.
type config struct {
	sendTimeout  time.Duration // zmq4 socket timeout, bounds each socket send
	enqueueWait  time.Duration // longest a handler waits for room in an outbox
	queueSize    int           // outbox and request queue capacity
	flushWait    time.Duration // longest Close waits for queued messages
	workerGrace  time.Duration // longest shutdown waits for a cancelled execute
	engineWait   time.Duration // longest shutdown waits for Engine.Shutdown
	replayWindow int           // recent signatures remembered
	iopubHWM     int           // messages zmq4's PUB queue, and each subscriber's, holds before dropping
	maxMsgSize   int64         // largest message read from a peer (zmq4.WithMaxMessageSize)
	// peerMemory bounds, kernel-wide, the bytes held for messages read from
	// peers and not yet verified (0: peerMemoryFor(maxMsgSize)).
	peerMemory int64
	// queueMemory bounds, kernel-wide, the bytes queued to peers.
	queueMemory int64
	// onReceive, when set, is called with each accepted request before it
	// is queued (channel is "shell", "control" or "stdin").
	onReceive func(channel string, m Message)
}

func defaultConfig() config {
	return config{
		sendTimeout:  10 * time.Second,
		enqueueWait:  2 * time.Second,
		queueSize:    1024,
		flushWait:    2 * time.Second,
		workerGrace:  2 * time.Second,
		engineWait:   5 * time.Second,
		replayWindow: DefaultReplayWindow,
		iopubHWM:     100000,
		maxMsgSize:   DefaultMaxMessageSize,
		queueMemory:  DefaultQueueMemory,
	}
}

// emptyKeyWarning is logged when the connection file's key is empty.
const emptyKeyWarning = "WARNING: the connection file has an empty key, so messages are not signed: " +
	"any process that can reach the kernel's ports (any local user, for tcp on 127.0.0.1) can run code as this user. " +
	"Use a key (jupyter_client writes one by default) unless every port is private to you."

// request is an accepted message with where its replies go.
type request struct {
	msg     Message
	channel string
	out     *outbox
	seq     uint64 // arrival order on the shell socket
}

// budgets are the kernel-wide bounds on what peers make the kernel hold,
// shared by its five sockets.
type budgets struct {
	incoming, queued *zmq4.MemoryBudget
}

// sockets are the five ZeroMQ sockets of the connection file.
type sockets struct {
	shell, control, stdin, iopub, hb zmq4.Socket
}

// kernel is one kernel session: its sockets, queues and execution state.
type kernel struct {
	cfg     config
	eng     Engine
	log     *log.Logger
	codec   Codec
	recv    *Receiver
	session string
	socks   sockets
	budgets budgets

	shellOut, controlOut, iopubOut *outbox

	shellQ, controlQ chan request
	quit             chan struct{} // closed when shutting down
	stopReq          chan bool     // restart flag of an accepted shutdown
	shellSeq         atomic.Uint64
	workerDone       chan struct{}
	background       sync.WaitGroup
	running          runningExec
	closeOnce        sync.Once

	// Owned by the shell worker.
	count        int
	hist         history
	abortThrough uint64
}

// runningExec holds the cancel function of the running execution.
type runningExec struct {
	mu     sync.Mutex
	cancel context.CancelFunc
}

func (r *runningExec) set(c context.CancelFunc) {
	r.mu.Lock()
	r.cancel = c
	r.mu.Unlock()
}

// interrupt cancels the running execution and reports whether there was one.
func (r *runningExec) interrupt() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel == nil {
		return false
	}
	r.cancel()
	return true
}

// newKernel binds the sockets of ci and starts the outboxes.
func newKernel(ci ConnectionInfo, eng Engine, logw io.Writer, cfg config) (*kernel, error) {
	logger := log.New(logw, "kernel: ", log.LstdFlags|log.Lmicroseconds)
	if ci.Key == "" {
		logger.Print(emptyKeyWarning)
	}
	b := budgets{incoming: zmq4.NewMemoryBudget(cfg.incomingMemory()), queued: zmq4.NewMemoryBudget(cfg.queueMemory)}
	socks, err := bindSockets(ci, cfg, b, log.New(logw, "zmq4: ", log.LstdFlags))
	if err != nil {
		return nil, err
	}
	codec := NewCodec([]byte(ci.Key))
	k := &kernel{
		cfg: cfg, eng: eng, log: logger, codec: codec,
		recv:       NewReceiver(codec, cfg.replayWindow),
		session:    NewID(),
		socks:      socks,
		budgets:    b,
		shellQ:     make(chan request, cfg.queueSize),
		controlQ:   make(chan request, cfg.queueSize),
		quit:       make(chan struct{}),
		stopReq:    make(chan bool, 1),
		workerDone: make(chan struct{}),
	}
	k.shellOut = newOutbox("shell", socks.shell, logger, cfg.queueSize, cfg.enqueueWait)
	k.controlOut = newOutbox("control", socks.control, logger, cfg.queueSize, cfg.enqueueWait)
	k.iopubOut = newOutbox("iopub", socks.iopub, logger, cfg.queueSize, cfg.enqueueWait)
	return k, nil
}

// bindSockets creates the five sockets and binds each to its endpoint.
func bindSockets(ci ConnectionInfo, cfg config, b budgets, zlog *log.Logger) (sockets, error) {
	ctx := context.Background()
	opts := []zmq4.Option{zmq4.WithTimeout(cfg.sendTimeout), zmq4.WithLogger(zlog), zmq4.WithMaxMessageSize(cfg.maxMsgSize),
		zmq4.WithMemoryBudget(b.incoming), zmq4.WithQueueBudget(b.queued)}
	s := sockets{
		shell:   zmq4.NewRouter(ctx, opts...),
		control: zmq4.NewRouter(ctx, opts...),
		stdin:   zmq4.NewRouter(ctx, opts...),
		iopub:   zmq4.NewPub(ctx, opts...),
		hb:      zmq4.NewRep(ctx, opts...),
	}
	if err := s.iopub.SetOption(zmq4.OptionHWM, cfg.iopubHWM); err != nil {
		s.close()
		return sockets{}, fmt.Errorf("setting the iopub high-water mark: %w", err)
	}
	all := []zmq4.Socket{s.shell, s.control, s.stdin, s.iopub, s.hb}
	for i, p := range ci.ports() {
		ep := ci.Endpoint(p.port)
		if err := all[i].Listen(ep); err != nil {
			s.close()
			return sockets{}, fmt.Errorf("binding %s to %s: %w", p.name, ep, err)
		}
	}
	return s, nil
}

func (s sockets) close() {
	for _, sock := range []zmq4.Socket{s.shell, s.control, s.stdin, s.iopub, s.hb} {
		_ = sock.Close()
	}
}

// start launches the readers, the heartbeat and the two workers.
func (k *kernel) start() {
	k.goBackground(func() { k.readLoop("shell", k.socks.shell, k.shellOut, k.shellQ) })
	k.goBackground(func() { k.readLoop("control", k.socks.control, k.controlOut, k.controlQ) })
	k.goBackground(func() { k.readLoop("stdin", k.socks.stdin, nil, nil) })
	k.goBackground(k.heartbeat)
	k.goBackground(k.controlWorker)
	go k.shellWorker()
}

func (k *kernel) goBackground(f func()) {
	k.background.Add(1)
	go func() {
		defer k.background.Done()
		f()
	}()
}

func (k *kernel) closing() bool {
	select {
	case <-k.quit:
		return true
	default:
		return false
	}
}

// readLoop receives on sock, drops what does not decode or verify with one
// log line, and queues the rest on q (nil: log and ignore, as for stdin).
func (k *kernel) readLoop(name string, sock zmq4.Socket, out *outbox, q chan request) {
	for {
		zm, err := sock.Recv()
		if err != nil {
			if k.closing() {
				return
			}
			k.log.Printf("%s: receive failed: %v", name, err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		m, err := k.recv.Receive(zm.Frames)
		// Verified or dropped, the message no longer counts against the
		// budget of unverified bytes: what a client with the key sends is
		// as trusted as the code it runs.
		zm.Release()
		if err != nil {
			k.log.Printf("%s: dropped a message: %v", name, err)
			continue
		}
		if k.cfg.onReceive != nil {
			k.cfg.onReceive(name, m)
		}
		if q == nil {
			k.log.Printf("%s: ignoring %s", name, m.Header.MsgType)
			continue
		}
		r := request{msg: m, channel: name, out: out}
		if name == "shell" {
			r.seq = k.shellSeq.Add(1)
		}
		select {
		case q <- r:
		case <-k.quit:
			return
		}
	}
}

// heartbeat echoes every ping on the REP socket, on its own goroutine so a
// running cell never delays it.
func (k *kernel) heartbeat() {
	for {
		msg, err := k.socks.hb.Recv()
		if err != nil {
			if k.closing() {
				return
			}
			k.log.Printf("heartbeat: receive failed: %v", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err := k.socks.hb.Send(msg); err != nil && !k.closing() {
			k.log.Printf("heartbeat: echo failed: %v", err)
		}
		msg.Release() // the echo's queue counts its bytes now
	}
}

// shellWorker handles shell requests one at a time, in arrival order.
func (k *kernel) shellWorker() {
	defer close(k.workerDone)
	for {
		if k.closing() {
			return
		}
		select {
		case r := <-k.shellQ:
			k.handle(r, k.dispatchShell)
		case <-k.quit:
			return
		}
	}
}

// controlWorker handles control requests, also while a cell runs.
func (k *kernel) controlWorker() {
	for {
		if k.closing() {
			return
		}
		select {
		case r := <-k.controlQ:
			k.handle(r, k.dispatchControl)
		case <-k.quit:
			return
		}
	}
}

// requestStop asks serve to shut down; only the first request counts.
func (k *kernel) requestStop(restart bool) {
	select {
	case k.stopReq <- restart:
	default:
	}
}

// shutdown stops the workers, interrupts a running execution, shuts the
// engine down, flushes the outboxes and closes the sockets.
func (k *kernel) shutdown(restart bool) {
	k.closeOnce.Do(func() {
		close(k.quit)
		k.running.interrupt()
		if !waitFor(k.workerDone, k.cfg.workerGrace) {
			k.log.Printf("shutdown: the running execution did not stop within %v", k.cfg.workerGrace)
		}
		k.shutdownEngine(restart)
		for _, o := range []*outbox{k.iopubOut, k.shellOut, k.controlOut} {
			o.close(k.cfg.flushWait)
		}
		k.socks.close()
		if !waitGroupFor(&k.background, k.cfg.flushWait) {
			k.log.Printf("shutdown: background goroutines still running after %v", k.cfg.flushWait)
		}
	})
}

// shutdownEngine calls Engine.Shutdown and waits for it at most engineWait.
func (k *kernel) shutdownEngine(restart bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				k.log.Printf("shutdown: engine panicked: %v", p)
			}
		}()
		k.eng.Shutdown(restart)
	}()
	if !waitFor(done, k.cfg.engineWait) {
		k.log.Printf("shutdown: Engine.Shutdown did not return within %v", k.cfg.engineWait)
	}
}

// waitFor waits at most d for ch to be closed.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

func waitGroupFor(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return waitFor(done, d)
}
