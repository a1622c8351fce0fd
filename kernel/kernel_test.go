package kernel

import (
	"net"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKernelShell runs requests against one kernel on ipc sockets, as a
// Jupyter client would, and checks replies and iopub traffic.
func TestKernelShell(t *testing.T) {
	eng := newFakeEngine()
	k := startKernel(t, ipcConnection(t, "secret"), eng)
	c := connect(t, k.conn)

	t.Run("kernel_info", func(t *testing.T) {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		r := c.reply(c.shellIn, id)
		mustType(t, r, "kernel_info_reply")
		got := content(t, r)
		if got["protocol_version"] != "5.3" || got["implementation"] != "fake" || got["banner"] != "fake engine" {
			t.Errorf("kernel_info_reply = %v", got)
		}
		li, _ := got["language_info"].(map[string]any)
		if li["name"] != "go" || li["file_extension"] != ".go" {
			t.Errorf("language_info = %v", li)
		}
		checkBracketed(t, c.iopubUntilIdle(id))
	})

	t.Run("execute echo", func(t *testing.T) {
		id := c.execute("echo hi", nil)
		r := c.reply(c.shellIn, id)
		mustType(t, r, "execute_reply")
		got := content(t, r)
		if got["status"] != "ok" || got["execution_count"] != 1.0 {
			t.Errorf("execute_reply = %v", got)
		}
		msgs := c.iopubUntilIdle(id)
		checkBracketed(t, msgs)
		if want := "status:busy execute_input stream execute_result status:idle"; types(msgs) != want {
			t.Fatalf("iopub = %s, want %s", types(msgs), want)
		}
		in := content(t, msgs[1])
		if in["code"] != "echo hi" || in["execution_count"] != 1.0 {
			t.Errorf("execute_input = %v", in)
		}
		if s := content(t, msgs[2]); s["name"] != "stdout" || s["text"] != "out:hi" {
			t.Errorf("stream = %v", s)
		}
		res := content(t, msgs[3])
		if res["execution_count"] != 1.0 || fmtJSON(res["data"]) != `{"text/plain":"hi"}` {
			t.Errorf("execute_result = %v", res)
		}
	})

	t.Run("streams from two goroutines", func(t *testing.T) {
		id := c.execute("streams", nil)
		c.reply(c.shellIn, id)
		msgs := c.iopubUntilIdle(id)
		counts := map[string]int{}
		for _, m := range msgs {
			if m.Header.MsgType == "stream" {
				counts[content(t, m)["text"].(string)]++
			}
		}
		if counts["x"] != 25 || counts["xx"] != 25 {
			t.Errorf("stream texts = %v, want 25 of each", counts)
		}
	})

	t.Run("display", func(t *testing.T) {
		id := c.execute("display", nil)
		c.reply(c.shellIn, id)
		msgs := c.iopubUntilIdle(id)
		if want := "status:busy execute_input display_data update_display_data clear_output status:idle"; types(msgs) != want {
			t.Fatalf("iopub = %s, want %s", types(msgs), want)
		}
		for _, m := range msgs[2:4] {
			if tr := fmtJSON(content(t, m)["transient"]); tr != `{"display_id":"d1"}` {
				t.Errorf("%s transient = %s", m.Header.MsgType, tr)
			}
		}
	})

	t.Run("error", func(t *testing.T) {
		id := c.execute("fail", map[string]any{"stop_on_error": false})
		r := content(t, c.reply(c.shellIn, id))
		if r["status"] != "error" || r["ename"] != "ValueError" || r["evalue"] != "boom" {
			t.Errorf("execute_reply = %v", r)
		}
		msgs := c.iopubUntilIdle(id)
		if want := "status:busy execute_input error status:idle"; types(msgs) != want {
			t.Fatalf("iopub = %s, want %s", types(msgs), want)
		}
		if tb := fmtJSON(content(t, msgs[2])["traceback"]); tb != `["line 1: boom"]` {
			t.Errorf("traceback = %s", tb)
		}
	})

	t.Run("engine panic", func(t *testing.T) {
		id := c.execute("panic", map[string]any{"stop_on_error": false})
		r := content(t, c.reply(c.shellIn, id))
		if r["status"] != "error" || r["ename"] != "panic" || r["evalue"] != "engine bug" {
			t.Errorf("execute_reply = %v", r)
		}
		checkBracketed(t, c.iopubUntilIdle(id))
	})

	t.Run("silent", func(t *testing.T) {
		before := c.reply(c.shellIn, c.execute("echo a", nil))
		id := c.execute("echo quiet", map[string]any{"silent": true})
		r := content(t, c.reply(c.shellIn, id))
		if r["status"] != "ok" || r["execution_count"] != content(t, before)["execution_count"] {
			t.Errorf("silent execute_reply = %v, count before %v", r, content(t, before)["execution_count"])
		}
		if req := eng.lastRequest(); !req.Silent || req.StoreHistory {
			t.Errorf("engine got %+v, want silent without history", req)
		}
		if msgs := c.iopubUntilIdle(id); types(msgs) != "status:busy status:idle" {
			t.Errorf("silent iopub = %s, want only busy and idle", types(msgs))
		}
	})

	t.Run("user_expressions", func(t *testing.T) {
		id := c.execute("exprs", map[string]any{"user_expressions": map[string]any{"a": "a"}})
		r := content(t, c.reply(c.shellIn, id))
		if ue := fmtJSON(r["user_expressions"]); ue != `{"a":{"data":{"text/plain":"a"},"metadata":{},"status":"ok"}}` {
			t.Errorf("user_expressions = %s", ue)
		}
	})

	t.Run("introspection", func(t *testing.T) {
		cases := []struct {
			msgType string
			content map[string]any
			want    map[string]any
		}{
			{"complete_request", map[string]any{"code": "f", "cursor_pos": 1},
				map[string]any{"status": "ok", "matches": []any{"fmt", "func"}, "cursor_start": 0.0, "cursor_end": 1.0, "metadata": map[string]any{}}},
			{"inspect_request", map[string]any{"code": "fmt", "cursor_pos": 1, "detail_level": 0},
				map[string]any{"status": "ok", "found": true, "data": map[string]any{"text/plain": "doc of fmt"}, "metadata": map[string]any{}}},
			{"is_complete_request", map[string]any{"code": "func f() {"},
				map[string]any{"status": "incomplete", "indent": "\t"}},
			{"is_complete_request", map[string]any{"code": "x"},
				map[string]any{"status": "complete"}},
			{"comm_info_request", map[string]any{},
				map[string]any{"status": "ok", "comms": map[string]any{}}},
		}
		for _, tc := range cases {
			id := c.send(c.shell, tc.msgType, tc.content)
			r := c.reply(c.shellIn, id)
			mustType(t, r, replyType(tc.msgType))
			if got := content(t, r); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s: got %v, want %v", tc.msgType, got, tc.want)
			}
			checkBracketed(t, c.iopubUntilIdle(id))
		}
	})

	t.Run("unknown message type", func(t *testing.T) {
		id := c.send(c.shell, "made_up_request", map[string]any{})
		checkBracketed(t, c.iopubUntilIdle(id))
		if _, ok := c.waitFor(c.shellIn, id, quiet); ok {
			t.Error("unknown message type was answered")
		}
	})

	t.Run("bad signature dropped", func(t *testing.T) {
		h := NewHeader("execute_request", c.session, "test")
		c.sendFrames(c.shell, NewCodec([]byte("wrong key")), h, map[string]any{"code": "echo forged"})
		if m, ok := c.waitFor(c.shellIn, h.MsgID, quiet); ok {
			t.Fatalf("badly signed request answered: %s", m.Content)
		}
		if m, ok := c.waitFor(c.iopubIn, h.MsgID, 10*time.Millisecond); ok {
			t.Fatalf("badly signed request published %s", m.Header.MsgType)
		}
		if !strings.Contains(k.logs.String(), "dropped a message: bad signature") {
			t.Errorf("no log line for the dropped message")
		}
		id := c.execute("echo after", nil)
		if r := content(t, c.reply(c.shellIn, id)); r["status"] != "ok" {
			t.Errorf("next good request: %v", r)
		}
		for _, req := range eng.allRequests() {
			if req.Code == "echo forged" {
				t.Error("the forged code was executed")
			}
		}
	})
}

// TestKernelInterrupt blocks a cell and checks that the heartbeat still
// echoes, that interrupt_request cancels the cell with its reply on the
// control socket, and that SIGINT interrupts without killing anything.
func TestKernelInterrupt(t *testing.T) {
	eng := newFakeEngine()
	k := startKernel(t, ipcConnection(t, "secret"), eng)
	c := connect(t, k.conn)

	id := c.execute("block", nil)
	waitStarted(t, eng, "block")
	for i := range 3 {
		if !c.ping("ping-"+string(rune('a'+i)), 2*time.Second) {
			t.Fatalf("heartbeat %d not echoed while a cell blocks", i)
		}
	}
	if _, ok := c.waitFor(c.shellIn, id, 100*time.Millisecond); ok {
		t.Fatal("blocking cell replied before the interrupt")
	}
	kid := c.send(c.control, "kernel_info_request", map[string]any{})
	mustType(t, c.reply(c.controlIn, kid), "kernel_info_reply")
	iid := c.send(c.control, "interrupt_request", map[string]any{})
	ir := c.reply(c.controlIn, iid)
	mustType(t, ir, "interrupt_reply")
	if got := content(t, ir)["status"]; got != "ok" {
		t.Errorf("interrupt_reply status %v", got)
	}
	r := content(t, c.reply(c.shellIn, id))
	if r["status"] != "error" || r["ename"] != "Interrupted" {
		t.Errorf("interrupted execute_reply = %v", r)
	}
	checkBracketed(t, c.iopubUntilIdle(iid))
	if _, ok := c.waitFor(c.shellIn, iid, 50*time.Millisecond); ok {
		t.Error("interrupt_reply also sent on shell")
	}

	id = c.execute("block", map[string]any{"stop_on_error": false})
	waitStarted(t, eng, "block")
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if r := content(t, c.reply(c.shellIn, id)); r["ename"] != "Interrupted" {
		t.Errorf("SIGINT: execute_reply = %v", r)
	}
	if r := content(t, c.reply(c.shellIn, c.execute("echo alive", nil))); r["status"] != "ok" {
		t.Errorf("after SIGINT: %v", r)
	}
}

func waitStarted(t *testing.T, eng *fakeEngine, code string) {
	t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case got := <-eng.started:
			if got == code {
				return
			}
		case <-deadline:
			t.Fatalf("execution of %q did not start within %v", code, wait)
		}
	}
}

// TestKernelStopOnError checks that an execute_request queued behind a
// failing one is aborted, and that one sent after the failure runs.
func TestKernelStopOnError(t *testing.T) {
	eng := newFakeEngine()
	k := startKernel(t, ipcConnection(t, ""), eng)
	c := connect(t, k.conn)

	first := c.execute("gate-fail", nil)
	waitStarted(t, eng, "gate-fail")
	queued := c.execute("echo queued", nil)
	k.waitReceived(t, "shell execute_request", 2)
	close(eng.gate)

	if r := content(t, c.reply(c.shellIn, first)); r["status"] != "error" {
		t.Fatalf("failing execute_reply = %v", r)
	}
	r := c.reply(c.shellIn, queued)
	if got := content(t, r); got["status"] != "aborted" {
		t.Errorf("queued execute_reply = %v, want aborted", got)
	}
	checkBracketed(t, c.iopubUntilIdle(queued))
	after := c.execute("echo after", nil)
	if r := content(t, c.reply(c.shellIn, after)); r["status"] != "ok" || r["execution_count"] != 2.0 {
		t.Errorf("execute after the abort = %v, want ok with count 2", r)
	}
}

// TestKernelShutdown sends shutdown_request on control and checks the reply
// comes back on control, the engine is shut down and Run returns.
func TestKernelShutdown(t *testing.T) {
	for _, channel := range []string{"control", "shell"} {
		t.Run(channel, func(t *testing.T) {
			eng := newFakeEngine()
			k := startKernel(t, ipcConnection(t, "secret"), eng)
			c := connect(t, k.conn)
			sock, in, other := c.control, c.controlIn, c.shellIn
			if channel == "shell" {
				sock, in, other = c.shell, c.shellIn, c.controlIn
			}
			id := c.send(sock, "shutdown_request", map[string]any{"restart": true})
			r := c.reply(in, id)
			mustType(t, r, "shutdown_reply")
			if got := content(t, r); got["restart"] != true || got["status"] != "ok" {
				t.Errorf("shutdown_reply = %v", got)
			}
			select {
			case err := <-k.done:
				if err != nil {
					t.Errorf("Run returned %v", err)
				}
			case <-time.After(wait):
				t.Fatal("Run did not return after shutdown_request")
			}
			if got := eng.shutdownCalls(); !reflect.DeepEqual(got, []bool{true}) {
				t.Errorf("Engine.Shutdown calls = %v, want [true]", got)
			}
			if _, ok := c.waitFor(other, id, 50*time.Millisecond); ok {
				t.Errorf("shutdown_reply also sent on the other socket")
			}
			k.done <- nil // for the cleanup
		})
	}
}

// TestKernelTCP answers one execute over tcp on the loopback address.
func TestKernelTCP(t *testing.T) {
	ci := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", Key: "k", SignatureScheme: SignatureScheme}
	ports := freePorts(t, 5)
	ci.ShellPort, ci.ControlPort, ci.StdinPort, ci.IOPubPort, ci.HBPort = ports[0], ports[1], ports[2], ports[3], ports[4]
	eng := newFakeEngine()
	k := startKernel(t, ci, eng)
	c := connect(t, k.conn)
	if r := content(t, c.reply(c.shellIn, c.execute("echo tcp", nil))); r["status"] != "ok" {
		t.Errorf("execute over tcp: %v", r)
	}
	if !c.ping("tcp", 2*time.Second) {
		t.Error("heartbeat over tcp not echoed")
	}
}

// TestKernelHistory executes cells and queries history by tail, range and
// search, with and without outputs.
func TestKernelHistory(t *testing.T) {
	k := startKernel(t, ipcConnection(t, "secret"), newFakeEngine())
	c := connect(t, k.conn)
	cells := []struct {
		code  string
		extra map[string]any
	}{
		{"echo one", nil}, // line 1
		{"echo two", nil}, // line 2
		{"fail", map[string]any{"stop_on_error": false}}, // line 3
		{"echo one", nil},                                  // line 4
		{"echo s", map[string]any{"silent": true}},         // not stored
		{"echo n", map[string]any{"store_history": false}}, // not stored
	}
	for _, cell := range cells {
		c.reply(c.shellIn, c.execute(cell.code, cell.extra))
	}
	cases := []struct {
		name    string
		request map[string]any
		want    string
	}{
		{"tail with output", map[string]any{"hist_access_type": "tail", "n": 2, "output": true},
			`[[1,3,["fail",null]],[1,4,["echo one","one"]]]`},
		{"range of session 0", map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4},
			`[[1,2,"echo two"],[1,3,"fail"]]`},
		{"range to the end", map[string]any{"hist_access_type": "range", "session": 1, "start": 4},
			`[[1,4,"echo one"]]`},
		{"range of another session", map[string]any{"hist_access_type": "range", "session": 7, "start": 1},
			`[]`},
		{"search star", map[string]any{"hist_access_type": "search", "pattern": "echo o*"},
			`[[1,1,"echo one"],[1,4,"echo one"]]`},
		{"search unique", map[string]any{"hist_access_type": "search", "pattern": "echo o*", "unique": true},
			`[[1,4,"echo one"]]`},
		{"search question mark", map[string]any{"hist_access_type": "search", "pattern": "echo ?wo"},
			`[[1,2,"echo two"]]`},
		{"search matches whole input", map[string]any{"hist_access_type": "search", "pattern": "echo"},
			`[]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.request["raw"] = true
			if _, ok := tc.request["output"]; !ok {
				tc.request["output"] = false
			}
			r := content(t, c.reply(c.shellIn, c.send(c.shell, "history_request", tc.request)))
			if r["status"] != "ok" || fmtJSON(r["history"]) != tc.want {
				t.Errorf("history = %s (status %v), want %s", fmtJSON(r["history"]), r["status"], tc.want)
			}
		})
	}
}

// freePorts returns n tcp ports that were free on the loopback address.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// TestKernelShutdownBounded checks that Run returns even when the running
// cell ignores its cancelled context and Engine.Shutdown never returns.
func TestKernelShutdownBounded(t *testing.T) {
	eng := newFakeEngine()
	eng.hang = make(chan struct{})
	defer close(eng.hang)
	k := startKernelWith(t, ipcConnection(t, ""), eng, func(c *config) {
		c.workerGrace = 100 * time.Millisecond
		c.engineWait = 100 * time.Millisecond
	})
	c := connect(t, k.conn)
	c.execute("gate-fail", nil) // ignores cancellation
	waitStarted(t, eng, "gate-fail")
	id := c.send(c.control, "shutdown_request", map[string]any{"restart": false})
	mustType(t, c.reply(c.controlIn, id), "shutdown_reply")
	select {
	case <-k.done:
	case <-time.After(wait):
		t.Fatal("Run did not return")
	}
	logs := k.logs.String()
	for _, want := range []string{"did not stop within", "Engine.Shutdown did not return"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	close(eng.gate)
	k.done <- nil
}
