"""The clock during each run, end to end: `benchbook run` of the smoke
notebook gives every series one clock per sample from its processes' own
estimates and the cycles per element; `benchbook verify` recomputes them and
names a doctored one."""
import shutil

import pytest

from conftest import ROOT
from nbtools import benchbook, load, outputs_with, write

pytestmark = pytest.mark.measure  # runs %bench for real: make test-measure

RESULT = "application/vnd.benchbook.result+json"


@pytest.fixture(scope="module")
def freq_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("freq")
    shutil.copy(ROOT / "tests" / "notebooks" / "smoke.ipynb", d / "smoke.ipynb")
    benchbook("run", str(d / "smoke.ipynb"), "-o", str(d / "run.ipynb"))
    return d


def the_result(nb):
    return next(o["data"][RESULT] for o in outputs_with(nb, RESULT))


def test_freq_per_sample_and_verify(freq_run, tmp_path):
    nb = load(freq_run / "run.ipynb")
    r = the_result(nb)
    fresh = [v for v in r["variants"] if v["series"].get("fresh")]
    assert fresh
    for v in r["variants"]:
        for name, s in v["series"].items():
            assert len(s["freq_mhz"]) == len(s["samples_ns"]), (v["name"], name)
            assert all(100 < m < 10000 for m in s["freq_mhz"]), s["freq_mhz"]
            assert "cycles_per_element" in s, (v["name"], name)
    for v in fresh:
        assert len(v["series"]["fresh"]["freq_processes"]) == len(v["series"]["fresh"]["samples_ns"])
    # The commentary capitalises the sentence; the findings list carries it
    # as written only when the clock moved (a quiet machine has no finding).
    text = (freq_run / "run.ipynb").read_text().lower()
    assert "the clock moved during the run" in text or "the clock did not move during the run" in text
    ok = benchbook("verify", str(freq_run / "run.ipynb"), check=False)
    assert ok.returncode == 0, ok.stdout

    s = fresh[0]["series"]["fresh"]
    s["freq_mhz"][0] *= 1.05
    path = tmp_path / "tampered.ipynb"
    write(path, nb)
    res = benchbook("verify", str(path), check=False)
    assert res.returncode == 1 and "series fresh: freq_mhz[0] is" in res.stdout, res.stdout
