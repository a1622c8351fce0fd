"""Helpers for the notebook tests."""
import json
import os
import subprocess

from conftest import BIN, ROOT


def output_kinds(nb):
    """Per code cell, the sorted kinds of its outputs: output_type and mime types."""
    kinds = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        k = set()
        for out in cell.get("outputs", []):
            k.add(out["output_type"])
            for mime in out.get("data", {}):
                k.add(mime)
        kinds.append(sorted(k))
    return kinds


def benchbook(*args, env=None, check=True):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=e, check=check)


def nbconvert(path, out, env=None, timeout=900):
    e = dict(os.environ)
    e.update(env or {})
    subprocess.run(["/usr/bin/python3", "-m", "nbconvert", "--to", "notebook", "--execute",
                    f"--ExecutePreprocessor.timeout={timeout}", "--ExecutePreprocessor.kernel_name=benchbook",
                    "--output", str(out), str(path)], check=True, capture_output=True, text=True, env=e)
    with open(out) as f:
        return json.load(f)


def load(path):
    with open(path) as f:
        return json.load(f)


# --- A Jupyter server (jupyter-server, the classic Notebook, or a hub's user
# server) driven as a browser front end drives it: REST and the kernel
# WebSocket. Every wait is bounded.

def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(n):
    """n distinct TCP ports on 127.0.0.1, free a moment ago (held open
    together while chosen, so that no two are the same)."""
    import socket
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def wait_http(url, timeout, proc=None, headers=None, ok=(200,), give_up=None):
    """Poll url until it answers with a status in ok; return the response body.
    Fail early when proc (the server) has exited, or give_up() is true."""
    import time
    import urllib.error
    import urllib.request
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode} before {url} answered")
        if give_up is not None and give_up():
            raise AssertionError(f"gave up waiting for {url}")
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=5) as r:
                if r.status in ok:
                    return r.read()
                last = r.status
        except urllib.error.HTTPError as e:
            last = e.code
            if e.code in ok:
                return e.read()
        except (OSError, ValueError) as e:
            last = e
        time.sleep(0.3)
    raise AssertionError(f"{url} did not answer within {timeout} s (last: {last})")


def stop_process(proc, timeout=20):
    """Stop a server started with start_new_session=True: SIGTERM to it (it
    shuts its kernels down), then SIGKILL to its whole process group, so that
    no kernel or proxy it started outlives the test."""
    import signal
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


class Rest:
    """JSON over HTTP to base_url (ending in /) with a token."""

    def __init__(self, base_url, token):
        self.base_url = base_url
        self.token = token

    def call(self, method, path, body=None, timeout=60):
        import urllib.request
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base_url + path.lstrip("/"), data=data, method=method,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
            return r.status, (json.loads(raw) if raw else None)


class KernelSocket:
    """One kernel WebSocket (/api/kernels/ID/channels): Jupyter messages as
    JSON text frames with a "channel" field (no subprotocol, so the server
    uses JSON), sent and read with python3-websocket (websocket-client)."""

    def __init__(self, ws_url, token, timeout=30):
        import uuid
        import websocket
        self.session = uuid.uuid4().hex
        self.ws = websocket.create_connection(ws_url, header=[f"Authorization: token {token}"],
                                              timeout=timeout)

    def close(self):
        self.ws.close()

    def send(self, channel, msg_type, content):
        import datetime
        import uuid
        msg_id = uuid.uuid4().hex
        self.ws.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": msg_type, "username": "test", "session": self.session,
                       "date": datetime.datetime.now(datetime.timezone.utc).isoformat(), "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": content, "channel": channel, "buffers": []}))
        return msg_id

    def recv(self, deadline):
        """The next message, or AssertionError at the deadline (time.time())."""
        import time
        import websocket
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError("no message from the kernel WebSocket before the deadline")
            self.ws.settimeout(left)
            try:
                frame = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                continue
            if isinstance(frame, bytes):  # a binary frame (buffers): not used by these tests
                continue
            return json.loads(frame)

    def request(self, channel, msg_type, content, timeout=30):
        """Send a request; return (reply, [iopub messages of it up to idle])."""
        import time
        msg_id = self.send(channel, msg_type, content)
        deadline = time.time() + timeout
        reply, iopub, idle = None, [], False
        while reply is None or not idle:
            m = self.recv(deadline)
            if m.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if m["channel"] == channel:
                reply = m
            elif m["channel"] == "iopub":
                iopub.append(m)
                if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                    idle = True
        return reply, iopub

    def wait_ready(self, timeout=30):
        """kernel_info until the kernel answers, as front ends do after
        connecting; return the reply content."""
        import time
        deadline = time.time() + timeout
        while True:
            try:
                reply, _ = self.request("shell", "kernel_info_request", {}, timeout=5)
                return reply["content"]
            except AssertionError:
                if time.time() > deadline:
                    raise

    def execute(self, code, timeout=60):
        reply, iopub = self.request("shell", "execute_request", {
            "code": code, "silent": False, "store_history": True, "user_expressions": {},
            "allow_stdin": False, "stop_on_error": True}, timeout=timeout)
        return reply["content"], iopub


def iopub_of(msgs, kind):
    return [m["content"] for m in msgs if m["msg_type"] == kind]
