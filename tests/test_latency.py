"""The worst operation (BENCH_OPS, docs/latency.md) end to end: a notebook
with a C and a Go ops kernel is run by `benchbook run`, carries latency per
ops variant with its plot and commentary, verifies, and verify names a
doctored p99."""
import json
import os

import pytest

from nbtools import benchbook, load, outputs_with, write

pytestmark = pytest.mark.measure  # runs %bench for real: make test-measure

RESULT = "application/vnd.benchbook.result+json"

C_CELL = """%%c lat
static volatile unsigned long x;
BENCH_OPS(tiny, 1000) {
  for (int i = 0; i < 1000; i++) { BENCH_OP_BEGIN; x++; BENCH_OP_END; }
}"""

GO_CELL = """%%go glat
var x uint64

//bench:ops 1000
func BenchTiny(op *bench.Op) {
	for i := 0; i < 1000; i++ {
		op.Begin()
		x++
		op.End()
	}
}"""


def code(src):
    return {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": src}


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    d = tmp_path_factory.mktemp("latency")
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        code(C_CELL), code("%bench lat quick"), code(GO_CELL), code("%bench glat quick")]}
    write(d / "lat.ipynb", nb)
    benchbook("run", str(d / "lat.ipynb"), "-o", str(d / "run.ipynb"))
    return d / "run.ipynb"


def test_latency_in_the_results_and_verify_passes(executed):
    nb = load(executed)
    results = [o["data"][RESULT] for o in outputs_with(nb, RESULT)]
    assert len(results) == 2
    for r in results:
        lat = r["variants"][0]["latency"]
        assert lat["n"] == lat["ops_per_pass"] * lat["passes"] == 1000 * r["protocol"]["reps"]
        assert 0 < lat["p50_ns"] <= lat["p99_ns"] <= lat["p999_ns"] <= lat["p9999_ns"] <= lat["max_ns"]
        assert lat["overhead_ns"] > 0
        # harness 8: what the thread waited during the worst's pass
        if os.path.exists("/proc/thread-self/schedstat"):
            assert lat["max_run_delay_ns"] >= 0 and lat["max_nivcsw"] >= 0, lat
    text = json.dumps(nb)
    assert "The worst operation." in text and "the slowest of 10,000 operations of tiny" in text.lower()
    res = benchbook("verify", str(executed), check=False)
    assert res.returncode == 0 and sum(1 for l in res.stdout.splitlines() if " output " in l and l.endswith(": ok")) == 2, res.stdout


def test_verify_names_a_doctored_p99(executed, tmp_path):
    nb = load(executed)
    r = next(o["data"][RESULT] for o in outputs_with(nb, RESULT))
    r["variants"][0]["latency"]["p99_ns"] *= 3
    write(tmp_path / "doctored.ipynb", nb)
    res = benchbook("verify", str(tmp_path / "doctored.ipynb"), check=False)
    assert res.returncode == 1 and "variant tiny latency: p99_ns is" in res.stdout, res.stdout
