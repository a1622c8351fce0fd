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
// wait at most a bounded time for room. A zmq4 send writes to the connection
// without a deadline, so a client that stops reading blocks that socket's
// outbox goroutine (and, zmq4 holding one lock per socket, the other clients
// of the same socket), but never a handler, the heartbeat or another socket.
// zmq4's PUB queue is bounded by a high-water mark beyond which it drops.
//
// Every request is bracketed by status busy and idle on iopub with the
// request as parent, and is replied on the socket it came in on. An execute
// publishes execute_input, the engine's outputs, then execute_result or
// error, then replies. SIGINT interrupts the running execution; SIGTERM, a
// shutdown_request or the end of Run's context shut the kernel down.
package kernel
