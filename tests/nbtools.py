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
        pytest.skip("node is not installed (scripts/setup.sh --browser installs it)")
    subprocess.run([node, "-e", NODE_ROUND_TRIP, str(src), str(dst)], check=True, capture_output=True, text=True)


def free_port():
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
        pytest.skip("chromium is not installed (scripts/setup.sh --browser installs it)")
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
