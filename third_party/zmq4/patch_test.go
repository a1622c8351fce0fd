// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Tests of the benchbook patch (PATCHES.md). Run them with
//
//	cd third_party/zmq4 && go test -run 'Patch|Fuzz' .

package zmq4

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"
)

// rawGreeting is a ZMTP 3.0 greeting for the NULL mechanism, as client.
func rawGreeting() []byte {
	g := make([]byte, zmtpMsgLen)
	g[0], g[8], g[9], g[10], g[11] = 0xff, 1, 0x7f, 3, 0
	copy(g[12:], "NULL")
	return g
}

// rawFrame encodes one frame with the given flags (more, command) as a long
// frame when the body is long, as ZMTP does.
func rawFrame(flags byte, body []byte) []byte {
	if len(body) > 255 {
		out := []byte{flags | isLongBitFlag}
		out = binary.BigEndian.AppendUint64(out, uint64(len(body)))
		return append(out, body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

// rawReady is a READY command announcing sockType with an empty identity.
func rawReady(sockType string) []byte {
	body := []byte("\x05READY")
	for _, kv := range [][2]string{{"Socket-Type", sockType}, {"Identity", ""}} {
		body = append(body, byte(len(kv[0])))
		body = append(body, kv[0]...)
		body = binary.BigEndian.AppendUint32(body, uint32(len(kv[1])))
		body = append(body, kv[1]...)
	}
	return rawFrame(isCommandBitFlag, body)
}

// longHeader is a long frame header claiming size bytes.
func longHeader(flags byte, size uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{flags | isLongBitFlag}, size)
}

// rawPeer dials ep over tcp and sends the greeting, and the READY command
// when handshake is set; it reads and discards what the socket sends.
func rawPeer(t *testing.T, ep, sockType string, handshake, discard bool) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(ep, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	out := rawGreeting()
	if handshake {
		out = append(out, rawReady(sockType)...)
	}
	if _, err := c.Write(out); err != nil {
		t.Fatal(err)
	}
	if discard {
		go io.Copy(io.Discard, c)
	}
	return c
}

// waitClosed fails unless the socket closes c within d.
func waitClosed(t *testing.T, c net.Conn, d time.Duration) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(d))
	buf := make([]byte, 4096)
	for {
		_, err := c.Read(buf)
		if err == nil {
			continue
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("connection not closed within %v", d)
		}
		return
	}
}

func discardLogger() *log.Logger { return log.New(io.Discard, "", 0) }

func listen(t *testing.T, sck Socket) string {
	t.Helper()
	if err := sck.Listen("tcp://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sck.Close() })
	return "tcp://" + sck.Addr().String()
}

// echoRouter answers each message on a ROUTER with the same frames.
func echoRouter(sck Socket) {
	for {
		m, err := sck.Recv()
		if err != nil {
			return
		}
		_ = sck.Send(m)
	}
}

// roundTrip sends payload on a fresh DEALER to ep and waits for the echo.
func roundTrip(t *testing.T, ep, payload string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := NewDealer(ctx, WithDialerRetry(10*time.Millisecond))
	defer d.Close()
	if err := d.Dial(ep); err != nil {
		t.Fatal(err)
	}
	if err := d.Send(NewMsgString(payload)); err != nil {
		t.Fatal(err)
	}
	done := make(chan Msg, 1)
	go func() {
		m, _ := d.Recv()
		done <- m
	}()
	select {
	case m := <-done:
		if len(m.Frames) != 1 || string(m.Frames[0]) != payload {
			t.Fatalf("echo = %q, want %q", m.Frames, payload)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no echo within 5s")
	}
}

// TestPatchOversizedFrames announces huge frames before and after the
// handshake: each peer is disconnected, nothing panics, and the socket
// still serves a proper peer.
func TestPatchOversizedFrames(t *testing.T) {
	router := NewRouter(context.Background(), WithMaxMessageSize(1<<20), WithLogger(discardLogger()))
	ep := listen(t, router)
	go echoRouter(router)
	cases := []struct {
		name      string
		handshake bool
		data      []byte
	}{
		{"command of 2^62 before the handshake", false, longHeader(isCommandBitFlag, 1<<62)},
		{"command of 3.5e9 before the handshake", false, longHeader(isCommandBitFlag, 3_500_000_000)},
		{"frame of 2^62", true, longHeader(0, 1<<62)},
		{"frame of 2^64-1", true, longHeader(0, ^uint64(0))},
		{"frame of 3.5e9", true, longHeader(0, 3_500_000_000)},
		{"frame just over the limit", true, longHeader(0, 1<<20+1)},
		{"many frames over the limit in total", true, bytes.Repeat(rawFrame(hasMoreBitFlag, make([]byte, 64<<10)), 17)},
		{"many empty frames", true, bytes.Repeat([]byte{hasMoreBitFlag, 0}, 20000)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := rawPeer(t, ep, "DEALER", tc.handshake, false)
			_, _ = c.Write(tc.data) // fails if the socket hangs up first

			waitClosed(t, c, 5*time.Second)
			roundTrip(t, ep, "still serving")
		})
	}
	t.Run("a message within the limit", func(t *testing.T) {
		roundTrip(t, ep, strings.Repeat("x", 1<<19))
	})
}

// TestPatchReadAllocatesAsBytesArrive checks that a frame header claiming
// 512 MiB, followed by a few bytes, does not allocate 512 MiB.
func TestPatchReadAllocatesAsBytesArrive(t *testing.T) {
	data := append(longHeader(0, 512<<20), "only a few bytes"...)
	c := &Conn{rw: &fakeConn{r: bytes.NewReader(data)}, sec: nullSecurity{}, lim: connLimits{maxSize: DefaultMaxMessageSize}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	msg := c.read()
	runtime.ReadMemStats(&after)
	if msg.err == nil {
		t.Fatal("a truncated frame was read without error")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("allocated %d bytes for a frame of 16 bytes", got)
	}
}

// TestPatchReadRecovers makes the connection panic while reading: read and
// open return an error instead.
func TestPatchReadRecovers(t *testing.T) {
	c := &Conn{rw: &fakeConn{panicOnRead: true}, sec: nullSecurity{}}
	if msg := c.read(); !errors.Is(msg.err, errPanic) {
		t.Errorf("read error = %v, want a recovered panic", msg.err)
	}
	_, err := open(&fakeConn{panicOnRead: true}, nullSecurity{}, Router, SocketIdentity("id"), true, nil, connLimits{})
	if !errors.Is(err, errPanic) {
		t.Errorf("open error = %v, want a recovered panic", err)
	}
}

// TestPatchMalformedMetadata sends READY commands whose properties overrun
// the command (Property.Write) or name an unknown socket type
// (SocketType.IsCompatible): the handshake fails instead of panicking.
func TestPatchMalformedMetadata(t *testing.T) {
	bogus := rawReady("BOGUS")
	for _, body := range []string{"\x05READY\x0bSocket-Type", "\x05READY\x01S\x00", "\x05READY\xff", string(bogus[2:])} {
		data := append(rawGreeting(), rawFrame(isCommandBitFlag, []byte(body))...)
		conn := &Conn{typ: Router, rw: &fakeConn{r: bytes.NewReader(data)}, sec: nullSecurity{},
			Meta: make(Metadata), topics: make(map[string]struct{})}
		conn.Peer.Meta = make(Metadata)
		if err := conn.init(conn.sec); err == nil {
			t.Errorf("READY %q accepted", body)
		}
	}
}

// TestPatchSilentPeerDoesNotBlockAccept connects a peer that never sends its
// greeting: another peer can still connect and be served.
func TestPatchSilentPeerDoesNotBlockAccept(t *testing.T) {
	router := NewRouter(context.Background(), WithTimeout(time.Second), WithLogger(discardLogger()))
	ep := listen(t, router)
	go echoRouter(router)
	c, err := net.Dial("tcp", strings.TrimPrefix(ep, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	roundTrip(t, ep, "after a silent peer")
	waitClosed(t, c, 5*time.Second) // the handshake deadline
}

// TestPatchSlowSubscriber subscribes a peer that never reads: a real
// subscriber still receives every message of a burst much larger than
// the socket buffers, and the silent peer is dropped (its connection
// closed) once its queue of 100 messages is full.
func TestPatchSlowSubscriber(t *testing.T) {
	pub := NewPub(context.Background(), WithLogger(discardLogger()))
	if err := pub.SetOption(OptionHWM, 100); err != nil {
		t.Fatal(err)
	}
	ep := listen(t, pub)
	silent := rawPeer(t, ep, "SUB", true, false)
	if _, err := silent.Write(rawFrame(0, []byte{1})); err != nil { // subscribe to all
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sub := NewSub(ctx)
	defer sub.Close()
	if err := sub.Dial(ep); err != nil {
		t.Fatal(err)
	}
	if err := sub.SetOption(OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	waitSubscribers(t, pub, 2)
	const batches, batch, size = 40, 50, 16 << 10 // 32 MiB in all
	received := make(chan struct{}, batches*batch)
	go func() {
		for {
			if _, err := sub.Recv(); err != nil {
				return
			}
			received <- struct{}{}
		}
	}()
	payload := bytes.Repeat([]byte("y"), size)
	for b := 0; b < batches; b++ {
		for i := 0; i < batch; i++ {
			if err := pub.Send(NewMsg(payload)); err != nil {
				t.Fatal(err)
			}
		}
		// The real subscriber reads all of each batch before the next.
		timeout := time.After(5 * time.Second)
		for i := 0; i < batch; i++ {
			select {
			case <-received:
			case <-timeout:
				t.Fatalf("batch %d: the real subscriber got %d of %d messages in 5s", b, i, batch)
			}
		}
	}
	waitClosed(t, silent, 5*time.Second)
}

// waitSubscribers waits until pub has n connections that subscribed.
func waitSubscribers(t *testing.T, pub Socket, n int) {
	t.Helper()
	w := pub.(*pubSocket).sck.w.(*pubMWriter)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		k := 0
		for _, c := range w.ws {
			if c.subscribed("") {
				k++
			}
		}
		w.mu.Unlock()
		if k >= n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("fewer than %d subscribers after 5s", n)
}

// TestPatchSlowRepPeer floods a REP socket with 1 MB requests from a peer
// that never reads its replies: a REQ peer still gets each reply in time.
func TestPatchSlowRepPeer(t *testing.T) {
	rep := NewRep(context.Background(), WithLogger(discardLogger()))
	ep := listen(t, rep)
	go func() {
		for {
			m, err := rep.Recv()
			if err != nil {
				return
			}
			_ = rep.Send(m)
		}
	}()
	flood := rawPeer(t, ep, "DEALER", true, false)
	go func() {
		big := append(rawFrame(hasMoreBitFlag, nil), rawFrame(0, bytes.Repeat([]byte("p"), 1<<20))...)
		for {
			if _, err := flood.Write(big); err != nil {
				return
			}
		}
	}()
	time.Sleep(200 * time.Millisecond) // let the flood fill the socket buffers
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := NewReq(ctx)
	defer req.Close()
	if err := req.Dial(ep); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		start := time.Now()
		if err := req.Send(NewMsgString("ping")); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := req.Recv()
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(time.Second):
			t.Fatalf("reply %d not within 1s", i)
		}
		t.Logf("reply %d in %v", i, time.Since(start))
	}
}

// FuzzReadMsg reads arbitrary bytes as frames, without the recover of read:
// nothing may panic, and nothing may be read over the limit.
//
//	go test -run '^$' -fuzz FuzzReadMsg -fuzztime 60s
func FuzzReadMsg(f *testing.F) {
	f.Add(rawFrame(0, []byte("hello")))
	f.Add(append(rawFrame(hasMoreBitFlag, nil), rawFrame(0, bytes.Repeat([]byte("x"), 300))...))
	f.Add(rawReady("ROUTER"))
	f.Add(longHeader(0, 1<<62))
	f.Add(longHeader(isCommandBitFlag, 3_500_000_000))
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 1 << 16
		c := &Conn{rw: &fakeConn{r: bytes.NewReader(data)}, sec: nullSecurity{}, lim: connLimits{maxSize: limit}}
		msg := c.readMsg()
		total := 0
		for _, fr := range msg.Frames {
			total += len(fr) + frameOverhead
		}
		if total > limit {
			t.Fatalf("read %d bytes over a limit of %d", total, limit)
		}
		if msg.isCmd() && msg.err == nil && len(msg.Frames) == 1 {
			var cmd Cmd
			if cmd.unmarshalZMTP(msg.Frames[0]) == nil {
				var md Metadata = make(Metadata)
				_ = md.UnmarshalZMTP(cmd.Body)
			}
		}
	})
}

// FuzzHandshake answers the greeting and READY of a ROUTER with arbitrary
// bytes, without the recover of open: nothing may panic.
func FuzzHandshake(f *testing.F) {
	f.Add(append(rawGreeting(), rawReady("DEALER")...))
	f.Add(append(rawGreeting(), longHeader(isCommandBitFlag, 1<<62)...))
	f.Add(append(rawGreeting(), rawFrame(isCommandBitFlag, []byte("\x05READY\x0bSocket-Type"))...))
	f.Fuzz(func(t *testing.T, data []byte) {
		conn := &Conn{typ: Router, rw: &fakeConn{r: bytes.NewReader(data)}, sec: nullSecurity{},
			Meta: make(Metadata), topics: make(map[string]struct{}), lim: connLimits{maxSize: 1 << 16}}
		conn.Peer.Meta = make(Metadata)
		_ = conn.init(conn.sec)
	})
}

// fakeConn is a net.Conn that reads from r and discards what is written.
type fakeConn struct {
	r           io.Reader
	panicOnRead bool
}

func (c *fakeConn) Read(p []byte) (int, error) {
	if c.panicOnRead {
		panic("fakeConn: read")
	}
	return c.r.Read(p)
}
func (c *fakeConn) Write(p []byte) (int, error)      { return len(p), nil }
func (c *fakeConn) Close() error                     { return nil }
func (c *fakeConn) LocalAddr() net.Addr              { return nil }
func (c *fakeConn) RemoteAddr() net.Addr             { return nil }
func (c *fakeConn) SetDeadline(time.Time) error      { return nil }
func (c *fakeConn) SetReadDeadline(time.Time) error  { return nil }
func (c *fakeConn) SetWriteDeadline(time.Time) error { return nil }

// TestPatchMemoryBudget has 12 peers of two ROUTER sockets that share a
// budget of 3 MiB each send 1 MiB of a 1 MiB frame but its last byte: the
// budget never passes its limit, and once the peers are gone it is back to
// nothing held (a message that is read holds its bytes until Release).
func TestPatchMemoryBudget(t *testing.T) {
	b := NewMemoryBudget(3 << 20)
	var eps []string
	for k := 0; k < 2; k++ {
		r := NewRouter(context.Background(), WithMemoryBudget(b), WithTimeout(500*time.Millisecond), WithLogger(discardLogger()))
		eps = append(eps, listen(t, r))
		go func() {
			for {
				m, err := r.Recv()
				if err != nil {
					return
				}
				_ = r.Send(m)
				m.Release()
			}
		}()
	}
	const size = 1 << 20
	var peers []net.Conn
	for i := 0; i < 12; i++ {
		c := rawPeer(t, eps[i%2], "DEALER", true, false)
		peers = append(peers, c)
		go c.Write(append(longHeader(0, size), bytes.Repeat([]byte("b"), size-1)...))
	}
	time.Sleep(300 * time.Millisecond)
	if p := b.Peak(); p > b.Limit() {
		t.Fatalf("the budget peaked at %d bytes over its limit of %d", p, b.Limit())
	}
	if b.InUse() < 2<<20 {
		t.Errorf("only %d bytes held: the peers did not fill the budget", b.InUse())
	}
	for _, c := range peers {
		c.Close()
	}
	for _, ep := range eps {
		roundTrip(t, ep, "after the flood")
	}
	deadline := time.Now().Add(5 * time.Second)
	for b.InUse() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := b.InUse(); n != 0 {
		t.Errorf("%d bytes still held after the peers left", n)
	}
}

// TestPatchFrozenRouterPeer has a ROUTER peer that never reads: the echo
// of its 1 MiB messages fills its queue and it is dropped, while another
// peer's round trips go on (v0.17.0 wrote under the socket's lock without a
// deadline, so they stopped).
func TestPatchFrozenRouterPeer(t *testing.T) {
	router := NewRouter(context.Background(), WithLogger(discardLogger()))
	ep := listen(t, router)
	go echoRouter(router)
	frozen := rawPeer(t, ep, "DEALER", true, false)
	go func() {
		big := rawFrame(0, bytes.Repeat([]byte("f"), 1<<20))
		for i := 0; i < 100; i++ { // 100 MiB of echoes: more than its queue's 64 MiB
			if _, err := frozen.Write(big); err != nil {
				return
			}
		}
	}()
	time.Sleep(300 * time.Millisecond)
	for i := 0; i < 5; i++ {
		roundTrip(t, ep, "beside a frozen peer")
	}
	waitClosed(t, frozen, 10*time.Second)
}
