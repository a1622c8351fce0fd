// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package zmq4

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var ErrClosedConn = errors.New("zmq4: read/write on closed connection")

// DefaultMaxMessageSize is the largest message a Conn reads unless the
// socket was made WithMaxMessageSize (benchbook patch, see PATCHES.md).
const DefaultMaxMessageSize int64 = 1 << 30

// frameOverhead is what each frame counts against the maximum message size
// beyond its bytes, so that a flood of empty frames is bounded too.
const frameOverhead = 64

// ErrMessageTooLarge is returned when a peer announces a frame, or a
// message, over the maximum size; the connection is then closed.
var ErrMessageTooLarge = errors.New("zmq4: message larger than the maximum size")

// errPanic wraps a panic recovered while reading from or handshaking with
// a peer: a malformed peer must never crash the process.
var errPanic = errors.New("zmq4: recovered panic")

// Conn implements the ZeroMQ Message Transport Protocol as defined
// in https://rfc.zeromq.org/spec:23/ZMTP/.
type Conn struct {
	typ    SocketType
	id     SocketIdentity
	rw     net.Conn
	sec    Security
	Server bool
	Meta   Metadata
	Peer   struct {
		Server bool
		Meta   Metadata
	}

	mu     sync.RWMutex
	topics map[string]struct{} // set of subscribed topics

	closed         int32
	onCloseErrorCB func(c *Conn)

	lim connLimits    // benchbook patch
	br  *bufio.Reader // benchbook patch: reads from rw, buffered (see reader)
}

// reader is what every read of the connection goes through: a buffer on
// rw, so that a frame's header and a small body take one system call, not
// two for each frame (benchbook patch).
func (c *Conn) reader() *bufio.Reader {
	if c.br == nil {
		c.br = bufio.NewReaderSize(c.rw, 4096)
	}
	return c.br
}

// connLimits are what a socket imposes on the messages its connections
// read (benchbook patch).
type connLimits struct {
	maxSize int64         // largest message read, frame overheads included
	budget  *MemoryBudget // shared bound on the bytes read and not yet released (nil: none)
	wait    time.Duration // longest a read waits for room in budget
	done    <-chan struct{}
}

func (c *Conn) Close() error {
	return c.rw.Close()
}

func (c *Conn) Read(p []byte) (int, error) {
	if c.Closed() {
		return 0, ErrClosedConn
	}
	n, err := io.ReadFull(c.reader(), p)
	c.checkIO(err)
	return n, err
}

func (c *Conn) Write(p []byte) (int, error) {
	if c.Closed() {
		return 0, ErrClosedConn
	}
	n, err := c.rw.Write(p)
	c.checkIO(err)
	return n, err
}

// Open opens a ZMTP connection over rw with the given security, socket type and identity.
// An optional onCloseErrorCB can be provided to inform the caller when this Conn is closed.
// Open performs a complete ZMTP handshake.
func Open(rw net.Conn, sec Security, sockType SocketType, sockID SocketIdentity, server bool, onCloseErrorCB func(c *Conn)) (*Conn, error) {
	return open(rw, sec, sockType, sockID, server, onCloseErrorCB, connLimits{})
}

// open is Open with the socket's limits (a maxSize <= 0: the default).
func open(rw net.Conn, sec Security, sockType SocketType, sockID SocketIdentity, server bool, onCloseErrorCB func(c *Conn), lim connLimits) (conn *Conn, err error) {
	if rw == nil {
		return nil, fmt.Errorf("zmq4: invalid nil read-writer")
	}

	if sec == nil {
		return nil, fmt.Errorf("zmq4: invalid nil security")
	}

	if lim.maxSize <= 0 {
		lim.maxSize = DefaultMaxMessageSize
	}
	conn = &Conn{
		lim:            lim,
		typ:            sockType,
		id:             sockID,
		rw:             rw,
		sec:            sec,
		Server:         server,
		Meta:           make(Metadata),
		topics:         make(map[string]struct{}),
		onCloseErrorCB: onCloseErrorCB,
	}
	conn.Meta[sysSockType] = string(conn.typ)
	conn.Meta[sysSockID] = conn.id.String()
	conn.Peer.Meta = make(Metadata)

	defer func() {
		if p := recover(); p != nil {
			conn, err = nil, fmt.Errorf("zmq4: could not initialize ZMTP connection: %w: %v", errPanic, p)
		}
	}()
	err = conn.init(sec)
	if err != nil {
		return nil, fmt.Errorf("zmq4: could not initialize ZMTP connection: %w", err)
	}

	return conn, nil
}

// init performs a ZMTP handshake over an io.ReadWriter
func (conn *Conn) init(sec Security) error {
	var err error

	err = conn.greet(conn.Server)
	if err != nil {
		return fmt.Errorf("zmq4: could not exchange greetings: %w", err)
	}

	err = conn.sec.Handshake(conn, conn.Server)
	if err != nil {
		return fmt.Errorf("zmq4: could not perform security handshake: %w", err)
	}

	peer := SocketType(conn.Peer.Meta[sysSockType])
	// benchbook patch: was peer.IsCompatible(conn.typ), which panics on
	// a socket type the peer made up; compatibility is symmetric.
	if !conn.typ.IsCompatible(peer) {
		return fmt.Errorf("zmq4: peer=%q not compatible with %q", peer, conn.typ)
	}

	// FIXME(sbinet): if security mechanism does not define a client/server
	// topology, enforce that p.server == p.peer.server == 0
	// as per:
	//  https://rfc.zeromq.org/spec:23/ZMTP/#topology

	return nil
}

func (conn *Conn) greet(server bool) error {
	var err error
	send := greeting{Version: defaultVersion}
	send.Sig.Header = sigHeader
	send.Sig.Footer = sigFooter
	kind := string(conn.sec.Type())
	if len(kind) > len(send.Mechanism) {
		return errSecMech
	}
	copy(send.Mechanism[:], kind)

	err = send.write(conn.rw)
	if err != nil {
		conn.checkIO(err)
		return fmt.Errorf("zmq4: could not send greeting: %w", err)
	}

	var recv greeting
	err = recv.read(conn.reader())
	if err != nil {
		conn.checkIO(err)
		return fmt.Errorf("zmq4: could not recv greeting: %w", err)
	}

	peerKind := asString(recv.Mechanism[:])
	if peerKind != kind {
		return errBadSec
	}

	conn.Peer.Server, err = asBool(recv.Server)
	if err != nil {
		return fmt.Errorf("zmq4: could not get peer server flag: %w", err)
	}

	return nil
}

// SendCmd sends a ZMTP command over the wire.
func (c *Conn) SendCmd(name string, body []byte) error {
	if c.Closed() {
		return ErrClosedConn
	}
	cmd := Cmd{Name: name, Body: body}
	buf, err := cmd.marshalZMTP()
	if err != nil {
		return err
	}
	return c.send(true, buf, 0)
}

// SendMsg sends a ZMTP message over the wire.
func (c *Conn) SendMsg(msg Msg) error {
	if c.Closed() {
		return ErrClosedConn
	}
	if msg.multipart {
		return c.sendMulti(msg)
	}

	nframes := len(msg.Frames)
	for i, frame := range msg.Frames {
		var flag byte
		if i < nframes-1 {
			flag ^= hasMoreBitFlag
		}
		err := c.send(false, frame, flag)
		if err != nil {
			return fmt.Errorf("zmq4: error sending frame %d/%d: %w", i+1, nframes, err)
		}
	}
	return nil
}

// RecvMsg receives a ZMTP message from the wire.
func (c *Conn) RecvMsg() (Msg, error) {
	if c.Closed() {
		return Msg{}, ErrClosedConn
	}
	msg := c.read()
	if msg.err != nil {
		return msg, fmt.Errorf("zmq4: could not read recv msg: %w", msg.err)
	}

	if !msg.isCmd() {
		return msg, nil
	}

	switch len(msg.Frames) {
	case 0:
		msg.err = fmt.Errorf("zmq4: empty command")
		return msg, msg.err
	case 1:
		// ok
	default:
		msg.err = fmt.Errorf("zmq4: invalid length command")
		return msg, msg.err
	}

	var cmd Cmd
	msg.err = cmd.unmarshalZMTP(msg.Frames[0])
	if msg.err != nil {
		return msg, fmt.Errorf("zmq4: could not unmarshal ZMTP recv msg: %w", msg.err)
	}

	switch cmd.Name {
	case CmdPing:
		// send back a PONG immediately.
		msg.err = c.SendCmd(CmdPong, nil)
		if msg.err != nil {
			return msg, msg.err
		}
	}

	switch len(cmd.Body) {
	case 0:
		msg.Frames = nil
	default:
		msg.Frames = msg.Frames[:1]
		msg.Frames[0] = cmd.Body
	}
	return msg, nil
}

func (c *Conn) RecvCmd() (Cmd, error) {
	var cmd Cmd

	if c.Closed() {
		return cmd, ErrClosedConn
	}

	msg := c.read()
	defer msg.Release() // benchbook patch: a command is consumed here
	if msg.err != nil {
		return cmd, fmt.Errorf("zmq4: could not read recv cmd: %w", msg.err)
	}

	if !msg.isCmd() {
		return cmd, ErrBadFrame
	}

	switch len(msg.Frames) {
	case 0:
		msg.err = fmt.Errorf("zmq4: empty command")
		return cmd, msg.err
	case 1:
		// ok
	default:
		msg.err = fmt.Errorf("zmq4: invalid length command")
		return cmd, msg.err
	}

	err := cmd.unmarshalZMTP(msg.Frames[0])
	if err != nil {
		return cmd, fmt.Errorf("zmq4: could not unmarshal ZMTP recv cmd: %w", err)
	}

	return cmd, nil
}

func (c *Conn) sendMulti(msg Msg) error {
	var buffers net.Buffers

	nframes := len(msg.Frames)
	for i, frame := range msg.Frames {
		var flag byte
		if i < nframes-1 {
			flag ^= hasMoreBitFlag
		}

		size := len(frame)
		isLong := size > 255
		if isLong {
			flag ^= isLongBitFlag
		}

		var (
			hdr = [8 + 1]byte{flag}
			hsz int
		)
		if isLong {
			hsz = 9
			binary.BigEndian.PutUint64(hdr[1:], uint64(size))
		} else {
			hsz = 2
			hdr[1] = uint8(size)
		}

		switch c.sec.Type() {
		case NullSecurity:
			buffers = append(buffers, hdr[:hsz], frame)
		default:
			var secBuf bytes.Buffer
			if _, err := c.sec.Encrypt(&secBuf, frame); err != nil {
				return err
			}
			buffers = append(buffers, hdr[:hsz], secBuf.Bytes())
		}
	}

	if _, err := buffers.WriteTo(c.rw); err != nil {
		c.checkIO(err)
		return err
	}

	return nil
}

func (c *Conn) send(isCommand bool, body []byte, flag byte) error {
	// Long flag
	size := len(body)
	isLong := size > 255
	if isLong {
		flag ^= isLongBitFlag
	}

	if isCommand {
		flag ^= isCommandBitFlag
	}

	var (
		hdr = [8 + 1]byte{flag}
		hsz int
	)

	// Write out the message itself
	if isLong {
		hsz = 9
		binary.BigEndian.PutUint64(hdr[1:], uint64(size))
	} else {
		hsz = 2
		hdr[1] = uint8(size)
	}
	if _, err := c.rw.Write(hdr[:hsz]); err != nil {
		c.checkIO(err)
		return err
	}

	if _, err := c.sec.Encrypt(c.rw, body); err != nil {
		c.checkIO(err)
		return err
	}

	return nil
}

// read returns the next message; a panic while reading becomes its error.
func (c *Conn) read() (msg Msg) {
	defer func() {
		if p := recover(); p != nil {
			msg = Msg{err: fmt.Errorf("%w: %v", errPanic, p)}
		}
	}()
	return c.readMsg()
}

// readMsg reads the frames of one message or command. It refuses a frame
// or message over the maximum size before allocating anything for it, and
// allocates a large frame as its bytes arrive, not as its header claims.
// With a memory budget, every byte it allocates is taken from the budget
// first (waiting at most lim.wait for room) and held by the message until
// Msg.Release, or given back at once when the read fails.
func (c *Conn) readMsg() (msg Msg) {
	var (
		header  [2]byte
		longHdr [8]byte

		hasMore = true
		isCmd   = false
		total   uint64
	)
	maxSize := uint64(c.lim.maxSize)
	if c.lim.maxSize <= 0 {
		maxSize = uint64(DefaultMaxMessageSize)
	}
	hold := c.newHold()
	defer func() {
		if msg.err != nil || hold == nil || hold.n == 0 {
			hold.giveBack()
			return
		}
		msg.hold = &hold.msgHold
	}()

	for hasMore {

		// Read out the header
		_, msg.err = io.ReadFull(c.reader(), header[:])
		if msg.err != nil {
			c.checkIO(msg.err)
			return msg
		}

		fl := flag(header[0])

		hasMore = fl.hasMore()
		isCmd = isCmd || fl.isCommand()

		// Determine the actual length of the body
		size := uint64(header[1])
		if fl.isLong() {
			// We read 2 bytes of the header already
			// In case of a long message, the length is bytes 2-8 of the header
			// We already have the first byte, so assign it, and then read the rest
			longHdr[0] = header[1]

			_, msg.err = io.ReadFull(c.reader(), longHdr[1:])
			if msg.err != nil {
				c.checkIO(msg.err)
				return msg
			}

			size = binary.BigEndian.Uint64(longHdr[:])
		}

		if size > maxSize || total+size+frameOverhead > maxSize {
			msg.err = fmt.Errorf("%w: a frame of %d bytes after %d (limit %d)", ErrMessageTooLarge, size, total, maxSize)
			return msg
		}
		total += size + frameOverhead
		if msg.err = hold.take(frameOverhead); msg.err != nil {
			return msg
		}

		var body []byte
		body, msg.err = readBody(c.reader(), int(size), hold)
		if msg.err != nil {
			c.checkIO(msg.err)
			return msg
		}

		// fast path for NULL security: we bypass the bytes.Buffer allocation.
		switch c.sec.Type() {
		case NullSecurity: // FIXME(sbinet): also do that for non-encrypted PLAIN?
			msg.Frames = append(msg.Frames, body)
			continue
		}

		buf := new(bytes.Buffer)
		if _, msg.err = c.sec.Decrypt(buf, body); msg.err != nil {
			return msg
		}
		msg.Frames = append(msg.Frames, buf.Bytes())
	}
	if isCmd {
		msg.Type = CmdMsg
	}
	return msg
}

// readHold counts what one message being read takes from the connection's
// memory budget; a nil readHold (no budget) takes nothing.
type readHold struct {
	msgHold
	lim *connLimits
}

// newHold is the hold of a message about to be read, nil without a budget.
func (c *Conn) newHold() *readHold {
	if c.lim.budget == nil {
		return nil
	}
	return &readHold{msgHold: msgHold{budget: c.lim.budget}, lim: &c.lim}
}

// take takes n bytes from the budget, waiting for room at most lim.wait.
func (h *readHold) take(n int) error {
	if h == nil || n == 0 {
		return nil
	}
	if !h.budget.acquire(int64(n), h.lim.wait, h.lim.done) {
		return fmt.Errorf("%w: no room for %d more bytes (%d held by this message) within %v; the budget of %d bytes is shared by every peer",
			ErrMemoryBudget, n, h.n, h.lim.wait, h.budget.Limit())
	}
	h.n += int64(n)
	return nil
}

// give gives n bytes back to the budget.
func (h *readHold) give(n int) {
	if h == nil || n == 0 {
		return
	}
	h.n -= int64(n)
	h.budget.release(int64(n))
}

// giveBack gives back all that the message holds.
func (h *readHold) giveBack() {
	if h != nil {
		h.give(int(h.n))
	}
}

// bodyChunk is the most readBody allocates before any byte has arrived.
const bodyChunk = 1 << 16

// readBody reads a frame body of size bytes, growing its buffer as bytes
// arrive: doubling from bodyChunk until it holds an eighth of the frame,
// then to the whole frame at once, so that a frame never needs more than
// 1.125 times its size while it is read. Each buffer is taken from hold
// before it is allocated, and the one it replaces given back.
func readBody(r io.Reader, size int, hold *readHold) ([]byte, error) {
	first := min(size, bodyChunk)
	if err := hold.take(first); err != nil {
		return nil, err
	}
	body := make([]byte, first)
	n := 0
	for {
		m, err := io.ReadFull(r, body[n:])
		n += m
		if err != nil {
			return nil, err
		}
		if n == size {
			return body, nil
		}
		next := min(size, 2*len(body))
		if 8*len(body) >= size {
			next = size
		}
		if err := hold.take(next); err != nil {
			return nil, err
		}
		grown := make([]byte, next)
		copy(grown, body)
		hold.give(len(body))
		old := len(body)
		body = grown
		if hold != nil && old >= largeGarbage {
			// The budget bounds what is held; the collector would let
			// the buffers given up reach as much again before it ran.
			debug.FreeOSMemory()
		}
	}
}

// largeGarbage is the size from which a buffer readBody gives up is
// returned to the system at once (with a memory budget).
const largeGarbage = 32 << 20

func (conn *Conn) subscribe(msg Msg) {
	conn.mu.Lock()
	v := msg.Frames[0]
	k := string(v[1:])
	switch v[0] {
	case 0:
		delete(conn.topics, k)
	case 1:
		conn.topics[k] = struct{}{}
	}
	conn.mu.Unlock()
}

func (conn *Conn) subscribed(topic string) bool {
	conn.mu.RLock()
	defer conn.mu.RUnlock()
	for k := range conn.topics {
		switch {
		case k == "":
			// subscribed to everything
			return true
		case strings.HasPrefix(topic, k):
			return true
		}
	}
	return false
}

func (conn *Conn) SetClosed() {
	if wasClosed := atomic.CompareAndSwapInt32(&conn.closed, 0, 1); wasClosed {
		conn.notifyOnCloseError()
	}
}

func (conn *Conn) Closed() bool {
	return atomic.LoadInt32(&conn.closed) == 1
}

func (conn *Conn) checkIO(err error) {
	if err == nil {
		return
	}

	if err == io.EOF || errors.Is(err, io.EOF) {
		conn.SetClosed()
		return
	}

	var e net.Error
	if errors.As(err, &e); e != nil && !e.Timeout() {
		conn.SetClosed()
	}
}

func (conn *Conn) notifyOnCloseError() {
	if conn.onCloseErrorCB == nil {
		return
	}
	conn.onCloseErrorCB(conn)
}
