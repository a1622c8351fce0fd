package kernel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// wait bounds every wait of the end-to-end tests; none should come near it.
const wait = 10 * time.Second

// quiet is how long a test listens to conclude that nothing arrives.
const quiet = 500 * time.Millisecond

// syncBuffer is a log writer safe for concurrent use.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// running is a kernel started by startKernel.
type running struct {
	conn ConnectionInfo
	file string
	logs *syncBuffer
	done chan error
	recv chan string // "channel msg_type" of each accepted request
}

// writeConnFile writes a connection file for ci in dir.
func writeConnFile(t *testing.T, dir string, ci ConnectionInfo) string {
	t.Helper()
	data, err := json.Marshal(ci)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "kernel.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// ipcConnection returns connection info on ipc sockets in a fresh folder.
func ipcConnection(t *testing.T, key string) ConnectionInfo {
	dir, err := os.MkdirTemp("", "kt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return ConnectionInfo{
		Transport: "ipc", IP: filepath.Join(dir, "k"), Key: key, SignatureScheme: SignatureScheme,
		ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5,
	}
}

// startKernel runs the kernel on ci with eng until the test ends.
func startKernel(t *testing.T, ci ConnectionInfo, eng Engine) *running {
	t.Helper()
	return startKernelWith(t, ci, eng, nil)
}

// startKernelWith is startKernel with a change to the default config.
func startKernelWith(t *testing.T, ci ConnectionInfo, eng Engine, change func(*config)) *running {
	t.Helper()
	r := &running{conn: ci, logs: &syncBuffer{}, done: make(chan error, 1), recv: make(chan string, 1000)}
	r.file = writeConnFile(t, t.TempDir(), ci)
	cfg := defaultConfig()
	cfg.onReceive = func(ch string, m Message) {
		select {
		case r.recv <- ch + " " + m.Header.MsgType:
		default:
		}
	}
	if change != nil {
		change(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { r.done <- run(ctx, r.file, eng, r.logs, cfg) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.done:
		case <-time.After(wait):
			t.Errorf("kernel did not stop within %v of cancel", wait)
		}
		if t.Failed() {
			t.Logf("kernel log:\n%s", r.logs.String())
		}
	})
	return r
}

// client talks to a kernel as jupyter_client does, over zmq4.
type client struct {
	t       *testing.T
	codec   Codec
	session string
	shell   zmq4.Socket
	control zmq4.Socket
	iopub   zmq4.Socket
	hb      zmq4.Socket
	// Received messages, per channel.
	shellIn, controlIn, iopubIn chan Message
	hbIn                        chan zmq4.Msg
}

// connect dials the kernel's sockets and waits until it answers
// kernel_info with iopub connected.
func connect(t *testing.T, ci ConnectionInfo) *client {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	id := NewID()
	c := &client{
		t: t, codec: NewCodec([]byte(ci.Key)), session: id,
		shell:     zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity(id))),
		control:   zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity(id))),
		iopub:     zmq4.NewSub(ctx),
		hb:        zmq4.NewDealer(ctx),
		shellIn:   make(chan Message, 1000),
		controlIn: make(chan Message, 1000),
		iopubIn:   make(chan Message, 1000),
		hbIn:      make(chan zmq4.Msg, 100),
	}
	socks := []zmq4.Socket{c.shell, c.control, c.iopub, c.hb}
	t.Cleanup(func() {
		cancel()
		for _, s := range socks {
			s.Close()
		}
	})
	for i, port := range []int{ci.ShellPort, ci.ControlPort, ci.IOPubPort, ci.HBPort} {
		if err := socks[i].Dial(ci.Endpoint(port)); err != nil {
			t.Fatalf("dialing %s: %v", ci.Endpoint(port), err)
		}
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	go c.pump(c.shell, c.shellIn)
	go c.pump(c.control, c.controlIn)
	go c.pump(c.iopub, c.iopubIn)
	go func() {
		for {
			m, err := c.hb.Recv()
			if err != nil {
				return
			}
			c.hbIn <- m
		}
	}()
	c.waitReady()
	return c
}

// pump decodes what sock receives onto ch until the socket closes.
func (c *client) pump(sock zmq4.Socket, ch chan Message) {
	for {
		zm, err := sock.Recv()
		if err != nil {
			return
		}
		m, err := c.codec.Decode(zm.Frames)
		if err != nil {
			c.t.Errorf("client received an undecodable message: %v", err)
			continue
		}
		ch <- m
	}
}

// waitReady does what jupyter_client's wait_for_ready does: kernel_info
// until a reply comes and iopub delivers a message too.
func (c *client) waitReady() {
	c.t.Helper()
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		if _, ok := c.waitFor(c.shellIn, id, time.Second); !ok {
			continue
		}
		if _, ok := c.waitFor(c.iopubIn, id, 500*time.Millisecond); ok {
			c.drain(c.iopubIn, 200*time.Millisecond)
			return
		}
	}
	c.t.Fatalf("kernel not ready within %v", wait)
}

// send signs and sends a request on sock and returns its msg_id.
func (c *client) send(sock zmq4.Socket, msgType string, content any) string {
	c.t.Helper()
	h := NewHeader(msgType, c.session, "test")
	c.sendFrames(sock, c.codec, h, content)
	return h.MsgID
}

func (c *client) sendFrames(sock zmq4.Socket, codec Codec, h Header, content any) {
	c.t.Helper()
	frames, err := codec.Encode(Outgoing{Header: h, Content: content})
	if err != nil {
		c.t.Fatal(err)
	}
	if err := sock.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatalf("sending %s: %v", h.MsgType, err)
	}
}

// execute sends an execute_request with code and the given overrides.
func (c *client) execute(code string, extra map[string]any) string {
	c.t.Helper()
	content := map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}
	for k, v := range extra {
		content[k] = v
	}
	return c.send(c.shell, "execute_request", content)
}

// waitFor returns the next message on ch whose parent is parentID,
// discarding others, or false after d.
func (c *client) waitFor(ch chan Message, parentID string, d time.Duration) (Message, bool) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case m := <-ch:
			if m.ParentHeader.MsgID == parentID {
				return m, true
			}
		case <-timer.C:
			return Message{}, false
		}
	}
}

// reply waits for the reply to parentID on ch and fails the test without one.
func (c *client) reply(ch chan Message, parentID string) Message {
	c.t.Helper()
	m, ok := c.waitFor(ch, parentID, wait)
	if !ok {
		c.t.Fatalf("no reply to %s within %v", parentID, wait)
	}
	return m
}

// iopubUntilIdle collects the iopub messages whose parent is parentID up to
// and including the idle status.
func (c *client) iopubUntilIdle(parentID string) []Message {
	c.t.Helper()
	var got []Message
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		m, ok := c.waitFor(c.iopubIn, parentID, time.Until(deadline))
		if !ok {
			break
		}
		got = append(got, m)
		if m.Header.MsgType == "status" && state(c.t, m) == "idle" {
			return got
		}
	}
	c.t.Fatalf("no idle for %s within %v; got %s", parentID, wait, types(got))
	return nil
}

// drain discards what arrives on ch until it is quiet for d.
func (c *client) drain(ch chan Message, d time.Duration) {
	for {
		select {
		case <-ch:
		case <-time.After(d):
			return
		}
	}
}

// ping sends a heartbeat and reports whether the echo came back within d.
func (c *client) ping(payload string, d time.Duration) bool {
	c.t.Helper()
	if err := c.hb.Send(zmq4.NewMsgFrom(nil, []byte(payload))); err != nil {
		c.t.Fatalf("heartbeat send: %v", err)
	}
	select {
	case m := <-c.hbIn:
		return len(m.Frames) == 2 && string(m.Frames[1]) == payload
	case <-time.After(d):
		return false
	}
}

// state returns the execution_state of a status message.
func state(t *testing.T, m Message) string {
	t.Helper()
	var s statusContent
	if err := json.Unmarshal(m.Content, &s); err != nil {
		t.Fatalf("status content %s: %v", m.Content, err)
	}
	return s.ExecutionState
}

// types lists the message types of ms, with the state of status messages.
func types(ms []Message) string {
	var parts []string
	for _, m := range ms {
		s := m.Header.MsgType
		if s == "status" {
			var st statusContent
			_ = json.Unmarshal(m.Content, &st)
			s += ":" + st.ExecutionState
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// content decodes m's content into a map.
func content(t *testing.T, m Message) map[string]any {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal(m.Content, &c); err != nil {
		t.Fatalf("content of %s: %v", m.Header.MsgType, err)
	}
	return c
}

// mustType fails unless m has msgType.
func mustType(t *testing.T, m Message, msgType string) {
	t.Helper()
	if m.Header.MsgType != msgType {
		t.Fatalf("got %s (%s), want %s", m.Header.MsgType, m.Content, msgType)
	}
}

// checkBracketed checks that msgs start with busy and end with idle.
func checkBracketed(t *testing.T, msgs []Message) {
	t.Helper()
	if len(msgs) < 2 || msgs[0].Header.MsgType != "status" || state(t, msgs[0]) != "busy" {
		t.Fatalf("iopub for the request does not start with busy: %s", types(msgs))
	}
	last := msgs[len(msgs)-1]
	if last.Header.MsgType != "status" || state(t, last) != "idle" {
		t.Fatalf("iopub for the request does not end with idle: %s", types(msgs))
	}
	for _, m := range msgs {
		if m.Header.Version != ProtocolVersion {
			t.Errorf("%s header version %q", m.Header.MsgType, m.Header.Version)
		}
	}
}

// waitReceived waits until the kernel has accepted n requests described by
// what ("shell execute_request") since the last call.
func (r *running) waitReceived(t *testing.T, what string, n int) {
	t.Helper()
	deadline := time.After(wait)
	for n > 0 {
		select {
		case s := <-r.recv:
			if s == what {
				n--
			}
		case <-deadline:
			t.Fatalf("kernel did not receive %d more %q within %v", n, what, wait)
		}
	}
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return fmt.Sprint(string(b))
}
