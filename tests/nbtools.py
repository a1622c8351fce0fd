"""Helpers for the notebook tests."""
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
