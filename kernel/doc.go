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
// wait at most a bounded time for room. The outbox's send never blocks on a
// peer: each peer of the patched zmq4's ROUTER, PUB and REP sockets has its
// own queue and writer, so a client that stops reading its replies is
// disconnected once its queue is full (1000 messages or 64 MiB), once all
// queues together would pass DefaultQueueMemory while it is behind, or once
// one write to it takes longer than the socket timeout; it never delays
// another client.
//
// # Hostile peers
//
// The kernel uses a patched zmq4 (third_party/zmq4, see its PATCHES.md). A
// peer of any socket that announces a frame or message over the maximum
// size (DefaultMaxMessageSize, 1 GiB, or MaxMessageSizeEnv) is disconnected
// before anything is allocated for it. What peers make the kernel hold is
// bounded kernel-wide, not per frame: the five sockets share one budget for
// the messages read and not yet verified (the largest message size, a
// quarter more and 16 MiB; a read that finds no room waits up to the socket
// timeout, then its peer is disconnected), and one for the messages queued
// to peers (DefaultQueueMemory); a verified message no longer counts, since
// a client with the key is as trusted as the code it runs. A panic while reading from or
// handshaking with a peer is an error that closes that connection. The PUB
// (iopub) and REP (heartbeat) sockets send to each peer through its own
// bounded queue: a subscriber or heartbeat peer that stops reading is
// dropped and never delays the others. An accepted peer has the socket's send timeout to
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
