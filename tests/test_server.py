"""The kernel behind a Jupyter server, the path JupyterLab, VS Code and
JupyterHub take: Debian's jupyter-server and the classic Notebook server (same
REST and WebSocket API), on 127.0.0.1 with a token, in the temporary Jupyter
folders of conftest (the kernelspec is installed there from BENCHBOOK_BIN).
A kernel is started with POST /api/kernels, driven over its WebSocket with
python3-websocket, interrupted and restarted with the REST API."""
import os
import secrets
import subprocess
import sys
import time

import pytest

from conftest import WORKDIR
from nbtools import KernelSocket, Rest, free_port, iopub_of, stop_process, wait_http
from need import missing, need_module

websocket = need_module("websocket", reason="python3-websocket (Debian) is not installed")

SERVERS = {
    # name: (python module, the option prefix of its app class)
    "jupyter-server": ("jupyter_server", "ServerApp"),
    "notebook": ("notebook", "NotebookApp"),
}

TINY = "%%c tiny\nstatic int v;\nBENCH(a) { v++; bench_sink(v); }"


@pytest.fixture(scope="module", params=sorted(SERVERS))
def server(request, tmp_path_factory):
    module, app = SERVERS[request.param]
    need_module(module, reason=f"Debian's {request.param} is not installed")
    token = secrets.token_hex(16)
    tmp = tmp_path_factory.mktemp(request.param)
    proc = None
    try:
        # The port is chosen free, but another process on the machine may take
        # it before the server binds it: then start again on another.
        for attempt in range(3):
            port = free_port()
            log = tmp / f"server{attempt}.log"
            cmd = [sys.executable, "-m", module, "--no-browser", "--ip=127.0.0.1", f"--port={port}",
                   f"--{app}.port_retries=0", f"--{app}.token={token}", f"--{app}.password=",
                   f"--{app}.root_dir={WORKDIR}" if app == "ServerApp" else f"--{app}.notebook_dir={WORKDIR}"]
            if os.geteuid() == 0:
                cmd.append("--allow-root")
            with open(log, "w") as out:
                proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        cwd=WORKDIR, start_new_session=True)
            base = f"http://127.0.0.1:{port}/"
            try:
                wait_http(base + "api/status", 60, proc=proc, headers={"Authorization": f"token {token}"})
                break
            except AssertionError as e:
                text = log.read_text()
                stop_process(proc)
                if f"port {port} is not available" in text and attempt < 2:
                    continue
                pytest.fail(f"{e}\n--- {request.param} log (tail) ---\n{text[-4000:]}")
        yield request.param, Rest(base, token), f"ws://127.0.0.1:{port}/"
    finally:
        if proc is not None:
            stop_process(proc)
            if request.session.testsfailed:
                sys.__stderr__.write(f"--- {request.param} log ---\n{log.read_text()[-4000:]}\n")


@pytest.fixture
def kernel(server):
    """A benchbook kernel started through the REST API: (rest, socket factory, id)."""
    name, rest, ws_base = server
    status, k = rest.call("POST", "api/kernels", {"name": "benchbook"})
    assert status == 201 and k["name"] == "benchbook", k
    kid = k["id"]
    sockets = []

    def connect():
        s = KernelSocket(f"{ws_base}api/kernels/{kid}/channels", rest.token)
        sockets.append(s)
        info = s.wait_ready()
        assert info["status"] == "ok" and info["implementation"] == "benchbook", info
        return s

    try:
        yield rest, connect, kid
    finally:
        for s in sockets:
            s.close()
        try:
            rest.call("DELETE", f"api/kernels/{kid}", timeout=30)
        except OSError:
            pass


def test_kernelspec_is_listed(server):
    _, rest, _ = server
    status, specs = rest.call("GET", "api/kernelspecs")
    assert status == 200
    assert "benchbook" in specs["kernelspecs"], sorted(specs["kernelspecs"])
    spec = specs["kernelspecs"]["benchbook"]["spec"]
    assert spec["display_name"] == "Go (benchbook)" and spec["language"] == "go"


@pytest.mark.measure  # %bench for real over the WebSocket
def test_glue_c_and_bench_over_the_websocket(kernel):
    rest, connect, kid = kernel
    sock = connect()
    reply, msgs = sock.execute("x := 40")
    assert reply["status"] == "ok", reply
    reply, msgs = sock.execute("x + 2")
    assert reply["status"] == "ok", reply
    assert iopub_of(msgs, "execute_result")[0]["data"]["text/plain"] == "42"
    # The execute_input echo and busy/idle come over the socket too.
    assert [m["msg_type"] for m in msgs][0] == "status"
    assert iopub_of(msgs, "execute_input")[0]["code"] == "x + 2"

    reply, msgs = sock.execute(TINY, timeout=120)
    assert reply["status"] == "ok", (reply, iopub_of(msgs, "error"))
    builds = [d for d in iopub_of(msgs, "display_data") if "application/vnd.benchbook.build+json" in d["data"]]
    assert builds, [sorted(d["data"]) for d in iopub_of(msgs, "display_data")]

    reply, msgs = sock.execute("%bench tiny quick", timeout=300)
    assert reply["status"] == "ok", (reply, iopub_of(msgs, "error"))
    results = [d for d in iopub_of(msgs, "display_data") + iopub_of(msgs, "execute_result")
               if "application/vnd.benchbook.result+json" in d["data"]]
    assert results, [sorted(d["data"]) for d in iopub_of(msgs, "display_data")]
    # The REST API sees the kernel and its activity.
    status, k = rest.call("GET", f"api/kernels/{kid}")
    assert status == 200 and k["execution_state"] in ("idle", "busy"), k


def test_interrupt_through_the_rest_api(kernel):
    rest, connect, kid = kernel
    sock = connect()
    sock.execute("x := 41")
    msg_id = sock.send("shell", "execute_request", {
        "code": "for {}", "silent": False, "store_history": True, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": True})
    time.sleep(1)
    start = time.time()
    status, _ = rest.call("POST", f"api/kernels/{kid}/interrupt")
    assert status == 204
    deadline = start + 10
    while True:
        m = sock.recv(deadline)
        if m["channel"] == "shell" and m["parent_header"].get("msg_id") == msg_id:
            break
    took = time.time() - start
    assert m["content"]["status"] == "error", m["content"]
    assert took < 5, f"the interrupt took {took:.1f} s"
    # Drain to idle of the interrupted request, then the kernel runs the next cell.
    reply, msgs = sock.execute("x + 1")
    assert reply["status"] == "ok", reply
    assert iopub_of(msgs, "execute_result")[0]["data"]["text/plain"] == "42"


def test_restart_through_the_rest_api(kernel):
    rest, connect, kid = kernel
    sock = connect()
    reply, _ = sock.execute("y := 1")
    assert reply["status"] == "ok"
    status, k = rest.call("POST", f"api/kernels/{kid}/restart", timeout=60)
    assert status == 200 and k["id"] == kid, k
    # Front ends reconnect after a restart; the kernel keeps its id.
    sock = connect()
    reply, msgs = sock.execute("y")
    assert reply["status"] == "error", "state survived a restart"
    reply, msgs = sock.execute('fmt.Println("after restart")')
    assert reply["status"] == "ok", reply
    assert "after restart" in "".join(s["text"] for s in iopub_of(msgs, "stream"))
