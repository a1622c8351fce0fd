"""Notebooks run two ways give outputs of the same kinds: under Jupyter with
the real kernel (nbconvert --execute) and in-process (benchbook run). The
executed notebooks validate with Debian's nbformat; verify passes on them and
fails on a changed sample; the HTML page shows its plots in headless Chromium."""
import copy
import json
import pathlib
import re
import shutil
import subprocess

import nbformat
import pytest

from conftest import ROOT, WORKDIR
from nbtools import benchbook, load, nbconvert, output_kinds
from need import missing, need_module

NOTEBOOKS = ROOT / "tests" / "notebooks"


def test_glue_notebook_under_nbconvert(tmp_path):
    nb = nbconvert(NOTEBOOKS / "glue.ipynb", tmp_path / "glue.out.ipynb")
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    plain = [joined(o.get("text", "")) + joined(o.get("data", {}).get("text/plain", ""))
             for c in code for o in c["outputs"]]
    mimes = {m for c in code for o in c["outputs"] for m in o.get("data", {})}
    assert "144" in plain, plain
    assert any("streamed" in t and "direct" in t for t in plain), plain
    assert "image/png" in mimes and "application/vnd.benchbook.build+json" in mimes, mimes
    assert "[tiny]" in plain, plain


def joined(text):
    return "".join(text) if isinstance(text, list) else text


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    d = tmp_path_factory.mktemp("smoke")
    src = d / "smoke.ipynb"
    shutil.copy(NOTEBOOKS / "smoke.ipynb", src)
    res = benchbook("run", str(src), "-o", str(d / "run.ipynb"), "--html", str(d / "run.html"))
    assert "executed notebook" in res.stdout
    return d


@pytest.mark.measure  # the smoke notebook run for real
def test_run_and_nbconvert_give_the_same_kinds(smoke, tmp_path):
    ours = load(smoke / "run.ipynb")
    theirs = nbconvert(NOTEBOOKS / "smoke.ipynb", tmp_path / "nbconvert.ipynb")
    assert output_kinds(ours) == output_kinds(theirs)
    kinds = output_kinds(ours)
    assert "application/vnd.benchbook.result+json" in kinds[1]
    assert "image/png" in kinds[1] and "image/svg+xml" not in kinds[1]  # PNG only: nbconvert blanks SVG


@pytest.mark.measure  # the smoke notebook run for real
def test_executed_notebook_validates(smoke):
    nb = nbformat.read(str(smoke / "run.ipynb"), as_version=4)
    nbformat.validate(nb)
    assert all(c.get("id") for c in nb.cells)
    assert nb.nbformat == 4 and nb.nbformat_minor >= 5


@pytest.mark.measure  # the smoke notebook run for real
def test_verify_passes_and_catches_a_changed_sample(smoke, tmp_path):
    ok = benchbook("verify", str(smoke / "run.ipynb"))
    assert ok.returncode == 0 and ": ok" in ok.stdout, ok.stdout
    nb = load(smoke / "run.ipynb")
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            res = out.get("data", {}).get("application/vnd.benchbook.result+json")
            if res:
                res["variants"][1]["series"]["interleaved"]["samples_ns"][0] *= 1.5
    bad = tmp_path / "tampered.ipynb"
    bad.write_text(json.dumps(nb))
    res = benchbook("verify", str(bad), check=False)
    assert res.returncode == 1, res.stdout
    assert "MISMATCH" in res.stdout and "interleaved" in res.stdout, res.stdout


@pytest.mark.measure  # the smoke notebook run for real
def test_html_shows_the_plots_in_chromium(smoke, tmp_path):
    chromium = shutil.which("chromium")
    if not chromium:
        missing("chromium is not installed (scripts/setup.sh --browser installs it)")
    page = (smoke / "run.html").read_text()
    assert not re.search(r'(src|href)="https?://', page), "the page loads something from the network"
    probe = page.replace("</body>", """<script>
      const imgs = [...document.images];
      document.body.setAttribute('data-images', imgs.length);
      document.body.setAttribute('data-loaded', imgs.filter(i => i.complete && i.naturalWidth > 0).length);
      document.body.setAttribute('data-svgs', document.querySelectorAll('svg').length);
    </script></body>""")
    probe_path = tmp_path / "probe.html"
    probe_path.write_text(probe)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run([chromium, *flags, "--virtual-time-budget=5000", "--dump-dom", probe_path.as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    loaded = int(re.search(r'data-loaded="(\d+)"', dom).group(1))
    svgs = int(re.search(r'data-svgs="(\d+)"', dom).group(1))
    assert loaded + svgs >= 5, f"{loaded} images loaded and {svgs} SVGs: the five plots are not all shown"
    shot = ROOT / "out" / "smoke-html.png"
    shot.parent.mkdir(exist_ok=True)
    subprocess.run([chromium, *flags, "--window-size=1200,2400", f"--screenshot={shot}", probe_path.as_uri()],
                   capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 10000
