"""The investigation notebook, run as a smoke test (BENCHBOOK_QUICK=1: every
%bench with reps=runs=10): in-process and under Jupyter it gives outputs of
the same kinds; verify passes on it; two runs of the same build compare with
identical assembly and medians near 1."""
import re
import shutil

import nbformat
import pytest

from conftest import ROOT
from nbtools import benchbook, load, nbconvert, output_kinds

pytestmark = pytest.mark.measure  # runs %bench for real: make test-measure

QUICK = {"BENCHBOOK_QUICK": "1"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("investigation")
    src = d / "investigation.ipynb"
    shutil.copy(ROOT / "notebooks" / "investigation.ipynb", src)
    # Part 9 compares with the published copy beside the notebook, as it
    # sits in notebooks/ (where nbconvert runs it below).
    shutil.copytree(ROOT / "notebooks" / "published", d / "published")
    for name in ("a", "b"):
        benchbook("run", str(src), "-o", str(d / f"{name}.ipynb"), env=QUICK)
    return d


def test_every_cell_ran_without_error(runs):
    nb = load(runs / "a.ipynb")
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            assert cell["execution_count"], f"cell {i} did not run"
            assert not [o for o in cell["outputs"] if o["output_type"] == "error"], f"cell {i} failed"
    nbformat.validate(nbformat.read(str(runs / "a.ipynb"), as_version=4))
    # Part 9 found the published copy and compared with it.
    last = [c for c in nb["cells"] if c["cell_type"] == "code"][-1]
    text = "".join("".join(o.get("data", {}).get("text/plain", "")) for o in last["outputs"])
    assert "The assembly of all 3 variants is identical" in text, text


def test_nbconvert_gives_the_same_kinds(runs, tmp_path):
    theirs = nbconvert(ROOT / "notebooks" / "investigation.ipynb", tmp_path / "nbconvert.ipynb", env=QUICK)
    assert output_kinds(load(runs / "a.ipynb")) == output_kinds(theirs)


def test_verify_passes(runs):
    res = benchbook("verify", str(runs / "a.ipynb"))
    lines = [l for l in res.stdout.splitlines() if l.strip() and not l.startswith("glue: ")]
    assert len(lines) >= 4 and all(l.endswith(": ok") for l in lines), res.stdout


def test_compare_two_runs_of_the_same_build(runs):
    out = benchbook("compare", str(runs / "a.ipynb"), str(runs / "b.ipynb")).stdout
    assert out.count("The assembly of all 3 variants is identical") >= 4, out
    ratios = [float(m.group(1)) for m in re.finditer(r"^sink / interleaved\s+\S+ \S+\s+\S+ \S+\s+([0-9.]+)", out, re.M)]
    assert len(ratios) >= 4, out
    assert all(0.75 < r < 1.33 for r in ratios), ratios
