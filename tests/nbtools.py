"""Helpers for the notebook tests."""
import asyncio
import contextlib
import json
import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

from conftest import BIN, ROOT
from need import missing, need_module


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


def nbconvert(path, out, env=None, timeout=900, cwd=None):
    """Executes path under Jupyter with the benchbook kernel; the kernel runs
    in cwd (nbconvert's default: the current folder), as Jupyter runs it in
    the notebook's folder."""
    e = dict(os.environ)
    e.update(env or {})
    subprocess.run(["/usr/bin/python3", "-m", "nbconvert", "--to", "notebook", "--execute",
                    f"--ExecutePreprocessor.timeout={timeout}", "--ExecutePreprocessor.kernel_name=benchbook",
                    "--output", str(out), str(path)], check=True, capture_output=True, text=True, env=e, cwd=cwd)
    with open(out) as f:
        return json.load(f)


def load(path):
    with open(path) as f:
        return json.load(f)


def write(path, nb):
    with open(path, "w") as f:
        json.dump(nb, f, indent=1)


def outputs_with(nb, mime):
    """Every output of nb whose data holds mime, in order."""
    return [o for c in nb["cells"] for o in c.get("outputs", []) if mime in o.get("data", {})]


# What the Jupyter front ends do when they save: JSON.parse, then
# JSON.stringify(obj, null, 1) (numbers become doubles on the way).
NODE_ROUND_TRIP = """
const fs = require('fs');
const obj = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
fs.writeFileSync(process.argv[2], JSON.stringify(obj, null, 1) + '\\n');
"""


def node_round_trip(src, dst):
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        missing("node is not installed (scripts/setup.sh --browser installs it)")
    subprocess.run([node, "-e", NODE_ROUND_TRIP, str(src), str(dst)], check=True, capture_output=True, text=True)


# --- A Jupyter server (jupyter-server, the classic Notebook, or a hub's user
# server) driven as a browser front end drives it: REST and the kernel
# WebSocket. Every wait is bounded.

def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def classic_notebook_server(root, timeout=60):
    """A classic Notebook server on 127.0.0.1 serving root, with a token;
    yields its base URL and the token. The Jupyter folders are conftest's
    temporary ones, where the benchbook kernelspec is installed."""
    port, token = free_port(), secrets.token_hex(16)
    log = open(pathlib.Path(root).parent / "notebook-server.log", "w")
    proc = subprocess.Popen(["/usr/bin/python3", "-m", "notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
                             "--port-retries=0", "--allow-root", f"--NotebookApp.token={token}", f"--notebook-dir={root}"],
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + timeout
        while True:
            try:
                http_json("GET", f"{base}/api/status", token)
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f"the notebook server did not start: see {log.name}")
                time.sleep(0.3)
        yield base, token
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def http_json(method, url, token, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextlib.contextmanager
def chromium_page(url, profile, timeout=60):
    """Headless Chromium showing url, with a fresh profile folder; yields a
    function that evaluates a JavaScript expression in the page over the
    DevTools protocol (awaiting a promise) and returns its value."""
    chromium = shutil.which("chromium")
    if not chromium:
        missing("chromium is not installed (scripts/setup.sh --browser installs it)")
    from tornado.websocket import websocket_connect
    proc = subprocess.Popen([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1400,1000",
                             "--remote-debugging-port=0", url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    loop = asyncio.new_event_loop()
    ws = None
    try:
        active = pathlib.Path(profile) / "DevToolsActivePort"
        deadline = time.time() + timeout
        while not (active.exists() and active.read_text().strip()):
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.2)
        port = active.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as resp:
            pages = [t for t in json.loads(resp.read()) if t["type"] == "page"]
        async def connect():
            return await websocket_connect(pages[0]["webSocketDebuggerUrl"])
        ws = loop.run_until_complete(asyncio.wait_for(connect(), 10))
        ids = iter(range(1, 1 << 30))

        def evaluate(expr, wait=30):
            msg_id = next(ids)

            async def call():
                await ws.write_message(json.dumps({"id": msg_id, "method": "Runtime.evaluate", "params": {
                    "expression": expr, "awaitPromise": True, "returnByValue": True}}))
                while True:
                    reply = json.loads(await ws.read_message())
                    if reply.get("id") == msg_id:
                        return reply
            reply = loop.run_until_complete(asyncio.wait_for(call(), wait))
            res = reply.get("result", {})
            if "exceptionDetails" in res:
                raise RuntimeError(f"{expr}: {res['exceptionDetails']}")
            return res.get("result", {}).get("value")

        yield evaluate
    finally:
        if ws is not None:
            ws.close()
            loop.run_until_complete(asyncio.sleep(0.1))
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        loop.close()


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
