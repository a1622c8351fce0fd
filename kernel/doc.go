// Package kernel speaks the Jupyter messaging protocol 5.3 over ZeroMQ
// (github.com/go-zeromq/zmq4) and dispatches requests to an Engine. It knows
// nothing of cells, Go or yaegi.
//
// # Wire
//
// Codec signs and verifies frames with HMAC-SHA256 (an empty key means
// unsigned messages); Receiver adds replay detection over the last
// DefaultReplayWindow signatures. A message that does not split, verify or
// decode is dropped with one log line: no reply, no status, nothing run.
// testdata/frames.json holds real frames made by jupyter_client
// (testdata/gen_frames.py).
//
// # Goroutines
//
// Run binds the five sockets of the connection file and starts:
//   - a reader per ROUTER socket (shell, control, stdin) that decodes and
//     queues requests;
//   - the shell worker, which handles shell requests one at a time, in
//     arrival order, and calls the engine;
//   - the control worker, which serves interrupt_request, shutdown_request,
//     kernel_info_request and comm_info_request while a cell runs;
//   - the heartbeat, which echoes pings on the REP socket;
//   - an outbox per sending socket (shell, control, iopub).
//
// Handlers never touch a socket: they queue signed frames on an outbox and
// wait at most a bounded time for room. A zmq4 ROUTER send writes to the
// connection without a deadline, so a client that stops reading blocks that
// socket's outbox goroutine (and, zmq4 holding one lock per socket, the other
// clients of the same socket), but never a handler, the heartbeat or another
// socket.
//
// # Hostile peers
//
// The kernel uses a patched zmq4 (third_party/zmq4, see its PATCHES.md). A
// peer of any socket that announces a frame or message over the maximum
// size (DefaultMaxMessageSize, 1 GiB, or MaxMessageSizeEnv) is disconnected
// before anything is allocated for it, and a panic while reading from or
// handshaking with a peer is an error that closes that connection. The PUB
// (iopub) and REP (heartbeat) sockets send to each peer through its own
// bounded queue: a subscriber or heartbeat peer that stops reading loses its
// own messages, as libzmq's PUB drops at the high-water mark, and never
// delays the others. An accepted peer has the socket's send timeout to
// complete the ZMTP handshake. An empty key is accepted (unsigned messages,
// as the protocol allows) with a warning in the log: anyone who can reach
// the ports can then run code. kernel/wire_attack_test.go tests each case.
//
// Every request is bracketed by status busy and idle on iopub with the
// request as parent, and is replied on the socket it came in on. An execute
// publishes execute_input, the engine's outputs, then execute_result or
// error, then replies. SIGINT interrupts the running execution; SIGTERM, a
// shutdown_request or the end of Run's context shut the kernel down.
package kernel
