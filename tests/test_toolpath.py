"""The kernelspec carries the toolchains it was installed with: a client
that starts the kernel with a PATH that lacks Go (a desktop launcher, a
Jupyter server run as a service) still builds %%go and %%c cells."""
import json
import os
import pathlib
import shutil
import subprocess

import pytest
from jupyter_client.manager import start_new_kernel

from conftest import BIN
from test_protocol import run, outputs
from need import missing, need_module


def test_kernelspec_finds_go_without_the_users_path(tmp_path, monkeypatch):
    go = shutil.which("go")
    if not go:
        missing("go is not on PATH here")
    data = tmp_path / "data"
    env = dict(os.environ, JUPYTER_DATA_DIR=str(data))
    out = subprocess.run([BIN, "install", "--user"], env=env, check=True, capture_output=True, text=True).stdout
    assert "  go: /" in out, out
    spec = json.loads((data / "kernels" / "benchbook" / "kernel.json").read_text())
    toolpath = spec["env"]["BENCHBOOK_TOOLPATH"].split(":")
    assert str(pathlib.Path(go).parent) in toolpath or str(pathlib.Path(go).resolve().parent) in toolpath, toolpath
    # The client's PATH has no Go at all.
    bare = ":".join(d for d in os.environ["PATH"].split(":") if not (pathlib.Path(d) / "go").exists())
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(data))
    monkeypatch.setenv("PATH", bare)
    assert shutil.which("go") is None
    km, kc = start_new_kernel(kernel_name="benchbook", startup_timeout=30)
    try:
        reply, msgs = run(kc, "%%go twin\nfunc BenchA() { bench.Sink(1) }\n", timeout=120)
        assert reply["status"] == "ok", reply
        assert any("application/vnd.benchbook.build+json" in d["data"] for d in outputs(msgs, "display_data"))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
