"""The kernel shared through Debian's JupyterHub (3.0): a hub on 127.0.0.1
with the DummyAuthenticator, SimpleLocalProcessSpawner (user servers run as
the hub's user, homes in a temporary folder) and Debian's
configurable-http-proxy. The kernelspec is installed once for everybody into a
prefix (`benchbook install --prefix`), which the user servers see through
JUPYTER_PATH, as they would see /usr/local/share/jupyter. Two users, one per
single-user app (jupyter-server's ServerApp, the hub's default here, and the
classic NotebookApp), each list the kernelspec, start a benchbook kernel and
run a glue cell, all through the hub's proxy with the user's own token."""
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error

import pytest

from conftest import BIN
from nbtools import KernelSocket, Rest, free_ports, iopub_of, stop_process, wait_http
from need import missing, need_module

need_module("websocket", reason="python3-websocket (Debian) is not installed")
need_module("jupyterhub", reason="Debian's jupyterhub is not installed (scripts/setup.sh --browser)")

# user -> the single-user app their server runs (JUPYTERHUB_SINGLEUSER_APP)
APPS = {
    "ada": "jupyter_server.serverapp.ServerApp",
    "grace": "notebook.notebookapp.NotebookApp",
}

CONFIG = """
import json
c = get_config()
s = json.loads({settings!r})
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = s["port"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = s["hub_port"]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:%d" % s["proxy_api_port"]
c.ConfigurableHTTPProxy.should_start = True
c.JupyterHub.db_url = "sqlite:///" + s["dir"] + "/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = s["dir"] + "/cookie_secret"
c.JupyterHub.pid_file = s["dir"] + "/jupyterhub.pid"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = s["password"]
c.Authenticator.allowed_users = set(s["apps"])
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = s["dir"] + "/home/{{username}}"
c.Spawner.default_url = "/tree"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.args = s["args"]
c.Spawner.environment = {{
    "JUPYTER_PATH": s["jupyter_path"],
    "BENCHBOOK_TEST_MARK": s["mark"],
    "JUPYTERHUB_SINGLEUSER_APP": lambda spawner: s["apps"][spawner.user.name],
}}
c.JupyterHub.services = [{{"name": "benchbook-test", "api_token": s["service_token"]}}]
c.JupyterHub.load_roles = [{{
    "name": "benchbook-test",
    "scopes": ["admin:users", "admin:servers", "tokens", "access:servers"],
    "services": ["benchbook-test"],
}}]
"""


def kill_marked(mark):
    """SIGKILL the processes whose environment holds BENCHBOOK_TEST_MARK=mark:
    the user servers (the spawner starts each in a session of its own) and
    their kernels, should the hub not have stopped them."""
    needle = f"BENCHBOOK_TEST_MARK={mark}".encode()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    os.kill(int(pid), signal.SIGKILL)
        except (OSError, ProcessLookupError):
            pass


@pytest.fixture(scope="module")
def hub(request, tmp_path_factory):
    if not shutil.which("configurable-http-proxy"):
        missing("configurable-http-proxy is not installed (Debian: node-configurable-http-proxy)")
    d = tmp_path_factory.mktemp("hub")
    prefix = d / "prefix"
    subprocess.run([BIN, "install", "--prefix", str(prefix)], check=True, capture_output=True)
    env = dict(os.environ)
    # Debian's configurable-http-proxy finds its modules in /usr/share/nodejs,
    # which a Node.js not from Debian (NodeSource) does not search by itself.
    env["NODE_PATH"] = os.pathsep.join(p for p in (env.get("NODE_PATH"), "/usr/share/nodejs") if p)
    mark = secrets.token_hex(8)
    env["BENCHBOOK_TEST_MARK"] = mark
    proc = None
    try:
        # Ports are chosen free, but another process on the machine may take
        # one before the hub or its proxy binds it: then start again on others.
        for attempt in range(3):
            run = d / f"run{attempt}"
            run.mkdir()
            port, hub_port, proxy_api_port = free_ports(3)
            settings = {
                "dir": str(run), "port": port, "hub_port": hub_port, "proxy_api_port": proxy_api_port,
                "password": secrets.token_hex(8), "service_token": secrets.token_hex(16),
                "mark": mark, "apps": APPS,
                "jupyter_path": str(prefix / "share" / "jupyter"),
                "args": ["--allow-root"] if os.geteuid() == 0 else [],
            }
            (run / "jupyterhub_config.py").write_text(CONFIG.format(settings=json.dumps(settings)))
            log = run / "hub.log"
            with open(log, "w") as out:
                proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(run / "jupyterhub_config.py")],
                                        cwd=run, env=env, stdout=out, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True)
            base = f"http://127.0.0.1:{port}/"
            try:
                wait_http(base + "hub/api/", 90, proc=proc,
                          give_up=lambda: "ddress already in use" in log.read_text())
                break
            except AssertionError as e:
                text = log.read_text()
                stop_process(proc)
                if "ddress already in use" in text and attempt < 2:
                    continue
                pytest.fail(f"{e}\n--- hub log (tail) ---\n{text[-6000:]}")
        yield base, Rest(base + "hub/api/", settings["service_token"]), proc
    finally:
        if proc is not None:
            stop_process(proc, timeout=30)
        kill_marked(mark)
        if proc is not None and (request.session.testsfailed or os.environ.get("BENCHBOOK_SHOW_HUB_LOG")):
            sys.__stderr__.write(f"--- hub log (tail) ---\n{log.read_text()[-6000:]}\n")


def start_server(hub, user):
    """Create user, start their server through the hub API, wait until it is
    ready; return a Rest on the user's server with a token of the user's own."""
    base, api, proc = hub
    try:
        api.call("POST", f"users/{user}")
    except urllib.error.HTTPError as e:
        assert e.code == 409, e  # exists already
    status, _ = api.call("POST", f"users/{user}/server", timeout=120)
    assert status in (201, 202), status
    deadline = time.time() + 120
    while True:
        _, u = api.call("GET", f"users/{user}")
        server = u.get("servers", {}).get("", {})
        if server.get("ready"):
            break
        assert proc.poll() is None, "the hub exited"
        assert time.time() < deadline, f"{user}'s server was not ready within 120 s: {u}"
        time.sleep(0.5)
    status, tok = api.call("POST", f"users/{user}/tokens", {"note": "benchbook test", "expires_in": 600})
    assert status in (200, 201) and tok["token"], tok
    assert server["url"] == f"/user/{user}/", server
    return Rest(base + f"user/{user}/", tok["token"])


@pytest.mark.parametrize("user", sorted(APPS))
def test_user_server_lists_and_runs_the_kernel(hub, user):
    base, api, proc = hub
    rest = start_server(hub, user)
    # The single-user app the server runs is the one asked for (its version).
    module = __import__(APPS[user].split(".")[0])
    _, about = rest.call("GET", "api/")
    assert about["version"] == module.__version__, (APPS[user], about)
    status, specs = rest.call("GET", "api/kernelspecs")
    assert status == 200
    assert "benchbook" in specs["kernelspecs"], sorted(specs["kernelspecs"])
    assert specs["kernelspecs"]["benchbook"]["spec"]["display_name"] == "Go (benchbook)"
    # Without the user's token the hub's auth turns the same request away.
    with pytest.raises(urllib.error.HTTPError) as refused:
        Rest(rest.base_url, "not-a-token").call("GET", "api/kernelspecs")
    assert refused.value.code in (401, 403), refused.value.code

    status, k = rest.call("POST", "api/kernels", {"name": "benchbook"})
    assert status == 201 and k["name"] == "benchbook", k
    ws = "ws" + base[len("http"):] + f"user/{user}/api/kernels/{k['id']}/channels"
    sock = KernelSocket(ws, rest.token)
    try:
        info = sock.wait_ready()
        assert info["status"] == "ok" and info["implementation"] == "benchbook", info
        reply, _ = sock.execute("x := 40")
        assert reply["status"] == "ok", reply
        reply, msgs = sock.execute("x + 2")
        assert reply["status"] == "ok", reply
        assert iopub_of(msgs, "execute_result")[0]["data"]["text/plain"] == "42"
    finally:
        sock.close()
    status, _ = rest.call("DELETE", f"api/kernels/{k['id']}")
    assert status == 204
    status, _ = api.call("DELETE", f"users/{user}/server", timeout=60)
    assert status in (202, 204)
