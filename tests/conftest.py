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

# The tests that really measure (they run %bench on compiled kernels and
# read what the timings say) carry @pytest.mark.measure: `make test` skips
# them, `make test-measure` (BENCHBOOK_MEASURE=1, pytest -m measure) runs
# them. Go's side of the same gate is internal/measuretest.
MEASURE = os.environ.get("BENCHBOOK_MEASURE", "") == "1"


def pytest_configure(config):
    config.addinivalue_line("markers", "measure: a real measurement; runs only with BENCHBOOK_MEASURE=1 (make test-measure)")


def pytest_collection_modifyitems(config, items):
    if MEASURE:
        return
    import pytest
    from need import under_ci
    why = ("a real measurement, not part of `make test`: CI (.ci/run) runs it in `make test-measure` (BENCHBOOK_MEASURE=1) right after"
           if under_ci() else "a real measurement: run it with `make test-measure` (BENCHBOOK_MEASURE=1)")
    skip = pytest.mark.skip(reason=why)
    for item in items:
        if "measure" in item.keywords:
            item.add_marker(skip)
