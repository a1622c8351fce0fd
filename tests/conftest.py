"""Integration tests of the benchbook kernel with Debian's Jupyter stack.

Run with Debian's Python (the python3 first on PATH may lack Jupyter):
    BENCHBOOK_BIN=bin/benchbook /usr/bin/python3 -m pytest tests
Every Jupyter folder is a fresh temporary one, so nothing is written into
the home folder; the kernelspec is installed there from BENCHBOOK_BIN.
"""
import os
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = os.environ.get("BENCHBOOK_BIN", str(ROOT / "bin" / "benchbook"))

# Set up at import time: jupyter_kernel_test starts its kernel in setUpClass.
_BASE = pathlib.Path(tempfile.mkdtemp(prefix="benchbook-jupyter-"))
for _var in ("JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR", "IPYTHONDIR"):
    _d = _BASE / _var.lower()
    _d.mkdir()
    os.environ[_var] = str(_d)
os.environ.setdefault("BENCHBOOK_CACHE", str(_BASE / "cache"))
WORKDIR = _BASE / "work"
WORKDIR.mkdir()
os.chdir(WORKDIR)  # kernels start here; %bench writes results/ here
subprocess.run([BIN, "install", "--user"], check=True, capture_output=True)
