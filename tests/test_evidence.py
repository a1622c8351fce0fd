"""An executed notebook is evidence wherever it travels: a save by a JavaScript
front end keeps verify passing, every viewer shows its plots, verify checks
what readers see (tables, commentary) and not only the JSON, the notebook
carries no folder of the machine that ran it but the benchbook version that
did, and compare refuses a malformed result."""
import json
import re
import shutil
import subprocess
import time

import pytest

from conftest import ROOT
from nbtools import (benchbook, chromium_page, classic_notebook_server, http_json, load, nbconvert, node_round_trip,
                     outputs_with, write)

pytestmark = pytest.mark.measure  # smoke.ipynb run for real: make test-measure

NOTEBOOKS = ROOT / "tests" / "notebooks"
RESULT = "application/vnd.benchbook.result+json"


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """smoke.ipynb run by `benchbook run`, and its folder."""
    d = tmp_path_factory.mktemp("evidence")
    shutil.copy(NOTEBOOKS / "smoke.ipynb", d / "smoke.ipynb")
    benchbook("run", str(d / "smoke.ipynb"), "-o", str(d / "run.ipynb"), "--html", str(d / "run.html"))
    return d


def verify(path):
    return benchbook("verify", str(path), check=False)


def the_result(nb):
    return next(o["data"][RESULT] for o in outputs_with(nb, RESULT))


# 1. A seed that survives JavaScript.

def test_node_round_trip_keeps_verify_passing(executed, tmp_path):
    out = tmp_path / "node.ipynb"
    node_round_trip(executed / "run.ipynb", out)
    res = verify(out)
    assert res.returncode == 0 and res.stdout.strip().endswith(": ok"), res.stdout


def test_a_seed_above_2_53_is_named_after_a_node_round_trip(executed, tmp_path):
    nb = load(executed / "run.ipynb")
    the_result(nb)["protocol"]["bootstrap_seed"] = 12345678901234567891  # what an old result held
    big = tmp_path / "big.ipynb"
    write(big, nb)
    node_round_trip(big, tmp_path / "saved.ipynb")
    assert "12345678901234567000" in (tmp_path / "saved.ipynb").read_text()  # JavaScript rounded it
    res = verify(tmp_path / "saved.ipynb")
    assert res.returncode == 1 and "protocol.bootstrap_seed is 12345678901234567000, at or above 2^53" in res.stdout, res.stdout


def test_classic_notebook_contents_api_save_keeps_verify_passing(executed, tmp_path):
    """The classic Notebook server's REST contents API, as its front end uses
    it: GET the notebook model, parse and re-serialise it in JavaScript
    (node), PUT it back; then verify the file the server wrote."""
    root = tmp_path / "served"
    root.mkdir()
    shutil.copy(executed / "run.ipynb", root / "run.ipynb")
    with classic_notebook_server(root) as (base, token):
        model = http_json("GET", f"{base}/api/contents/run.ipynb?type=notebook&content=1", token)
        assert model["type"] == "notebook"
        raw = tmp_path / "model.json"
        raw.write_text(json.dumps(model["content"]))
        node_round_trip(raw, tmp_path / "model.saved.json")
        content = json.loads((tmp_path / "model.saved.json").read_text())
        saved = http_json("PUT", f"{base}/api/contents/run.ipynb", token,
                          {"type": "notebook", "format": "json", "content": content})
        assert saved["name"] == "run.ipynb"
    res = verify(root / "run.ipynb")
    assert res.returncode == 0 and res.stdout.strip().endswith(": ok"), res.stdout


# 2. Plots that render everywhere people look.

def count_plots(nb):
    return len(outputs_with(nb, "image/png"))


def test_nbconvert_html_shows_every_plot(executed, tmp_path):
    nb = load(executed / "run.ipynb")
    plots = count_plots(nb)
    assert plots >= 5
    assert not outputs_with(nb, "image/svg+xml"), "nbconvert 6.5 prefers SVG and its sanitiser blanks it"
    shutil.copy(executed / "run.ipynb", tmp_path / "run.ipynb")
    subprocess.run(["/usr/bin/python3", "-m", "nbconvert", "--to", "html", str(tmp_path / "run.ipynb")],
                   check=True, capture_output=True, text=True)
    page = (tmp_path / "run.html").read_text()
    imgs = re.findall(r'<img[^>]*src="data:image/png;base64,[A-Za-z0-9+/=\n]{100,}"\s*width=720\s*height=384', page)
    assert len(imgs) == plots, f"{len(imgs)} images with data, shown at 720x384, for {plots} plots"
    for o in outputs_with(nb, "image/png"):
        assert o["metadata"]["image/png"] == {"width": 720, "height": 384}, o["metadata"]


def test_run_html_shows_every_plot_at_its_size(executed):
    nb = load(executed / "run.ipynb")
    page = (executed / "run.html").read_text()
    imgs = re.findall(r'<img[^>]*width="720" height="384" src="data:image/png;base64,', page)
    assert len(imgs) == count_plots(nb)


# 3. verify re-renders what readers see.

def tampered(executed, tmp_path, change):
    nb = load(executed / "run.ipynb")
    change(nb)
    path = tmp_path / "tampered.ipynb"
    write(path, nb)
    return verify(path)


def result_output(nb):
    return outputs_with(nb, RESULT)[0]


def change_displayed_median(mime):
    def change(nb):
        data = result_output(nb)["data"]
        text = "".join(data[mime])
        m = re.search(r"sink / interleaved\S*\s+\d+\s+\S+ \S+\s+(\S+ \S+)" if mime == "text/plain"
                      else r"sink / interleaved</td>(?:<td[^>]*>[^<]*</td>){2}<td[^>]*>([^<]*)</td>", text)
        assert m, text
        data[mime] = text[:m.start(1)] + "9.9 ms" + text[m.end(1):]
    return change


@pytest.mark.parametrize("mime", ["text/plain", "text/html"])
def test_verify_catches_a_changed_table(executed, tmp_path, mime):
    res = tampered(executed, tmp_path, change_displayed_median(mime))
    assert res.returncode == 1 and f"{mime} line " in res.stdout and "9.9 ms" in res.stdout, res.stdout


def test_verify_catches_a_changed_commentary(executed, tmp_path):
    def change(nb):
        cell = next(c for c in nb["cells"] if RESULT in json.dumps(c))
        md = next(o for o in cell["outputs"] if "text/markdown" in o.get("data", {}))
        text = "".join(md["data"]["text/markdown"])
        assert re.search(r"\d\.\d", text), text
        md["data"]["text/markdown"] = re.sub(r"(\d\.\d)", r"\g<1>9", text, count=1)  # 1.5 becomes 1.59
    res = tampered(executed, tmp_path, change)
    assert res.returncode == 1 and "text/markdown (commentary) line" in res.stdout, res.stdout


def test_verify_catches_a_checksum_that_overflows(executed, tmp_path):
    def change(nb):
        v = next(v for v in the_result(nb)["variants"] if v["checksum"])
        v["checksum"].update(got=1, want=1e308, passes=2, ok=True)
    res = tampered(executed, tmp_path, change)
    assert res.returncode == 1 and "checksum: ok is true" in res.stdout, res.stdout


def test_verify_catches_swapped_fresh_samples(executed, tmp_path):
    """Two fresh samples of different values change places: the summary is the
    same, the order (and so the digest) is not. Samples of a variant that
    times the clock are often equal, so the pair is chosen unequal."""
    def change(nb):
        for v in the_result(nb)["variants"]:
            s = (v["series"].get("fresh") or {}).get("samples_ns") or []
            j = next((j for j in range(1, len(s)) if s[j] != s[0]), None)
            if j is not None:
                s[0], s[j] = s[j], s[0]
                return
        raise AssertionError("no fresh series with two different samples")
    res = tampered(executed, tmp_path, change)
    assert res.returncode == 1, res.stdout


# 4. Portable outputs.

def test_no_folder_of_this_machine_and_the_version(executed):
    text = (executed / "run.ipynb").read_text()
    assert str(executed) not in text, "the executed notebook holds the folder it ran in"
    nb = json.loads(text)
    assert the_result(nb)["raw_file"].startswith("results/"), the_result(nb)["raw_file"]
    version = benchbook("version").stdout.split()[-1]
    assert nb["metadata"]["benchbook"]["version"] == version
    res = verify(executed / "run.ipynb")
    assert f"executed by benchbook {version} at " in res.stderr, res.stderr


# 5. compare and verify refuse malformed results.

def test_empty_variants_are_refused(executed, tmp_path):
    nb = load(executed / "run.ipynb")
    the_result(nb)["variants"] = []
    bad = tmp_path / "empty.ipynb"
    write(bad, nb)
    cell = next(i for i, c in enumerate(nb["cells"]) if RESULT in json.dumps(c))
    res = benchbook("compare", str(executed / "run.ipynb"), str(bad), check=False)
    assert res.returncode != 0 and "all 0 variants" not in res.stdout
    # compare verifies its inputs first: the notebook, the cell and the field.
    assert f"cell {cell} output" in res.stderr and "/variants" in res.stderr and "empty.ipynb does not verify" in res.stderr, res.stderr
    res = benchbook("compare", str(executed / "run.ipynb"), str(bad), "--no-verify", check=False)
    assert res.returncode != 0 and f"{bad}, cell {cell} output" in res.stderr and "/variants" in res.stderr, res.stderr
    res = verify(bad)
    assert res.returncode == 1 and f"cell {cell} output" in res.stdout and "/variants" in res.stdout, res.stdout


def test_classic_notebook_save_in_chromium_keeps_verify_passing(executed, tmp_path):
    """The classic Notebook's own save: open the notebook in headless
    Chromium, call Jupyter.notebook.save_notebook() through the DevTools
    protocol, then verify the file the server wrote."""
    root = tmp_path / "served"
    root.mkdir()
    shutil.copy(executed / "run.ipynb", root / "run.ipynb")
    before = (root / "run.ipynb").stat().st_mtime_ns
    with classic_notebook_server(root) as (base, token):
        with chromium_page(f"{base}/notebooks/run.ipynb?token={token}", tmp_path / "profile") as evaluate:
            deadline = time.time() + 60
            while not evaluate("!!(window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded)"):
                assert time.time() < deadline, "the notebook did not load in Chromium"
                time.sleep(0.5)
            cells = evaluate("Jupyter.notebook.get_cells().length")
            shown = evaluate("[...document.querySelectorAll('div.output_png img')]"
                             ".map(i => i.naturalWidth ? i.width + 'x' + i.height : 'blank')")
            evaluate("Jupyter.notebook.save_notebook().then(() => 'saved')")
    assert cells == len(load(executed / "run.ipynb")["cells"])
    # Every plot is shown, at its size (the PNG holds twice the pixels).
    assert shown == ["720x384"] * count_plots(load(executed / "run.ipynb")), shown
    assert (root / "run.ipynb").stat().st_mtime_ns != before, "the Notebook did not write the file"
    saved = load(root / "run.ipynb")
    assert outputs_with(saved, RESULT) and outputs_with(saved, "image/png")
    res = verify(root / "run.ipynb")
    assert res.returncode == 0 and res.stdout.strip().endswith(": ok"), res.stdout


def test_the_kernel_sends_portable_outputs(tmp_path):
    """Under Jupyter (nbconvert --execute, the real kernel) too: paths are
    relative to the notebook, plots carry their display size, verify passes."""
    shutil.copy(NOTEBOOKS / "smoke.ipynb", tmp_path / "smoke.ipynb")
    nb = nbconvert(tmp_path / "smoke.ipynb", tmp_path / "kernel.ipynb", cwd=tmp_path)
    text = (tmp_path / "kernel.ipynb").read_text()
    assert str(tmp_path) not in text, "the kernel's outputs hold the notebook's folder"
    assert the_result(nb)["raw_file"].startswith("results/"), the_result(nb)["raw_file"]
    plots = outputs_with(nb, "image/png")
    assert plots and all(o["metadata"]["image/png"] == {"width": 720, "height": 384} for o in plots)
    res = verify(tmp_path / "kernel.ipynb")
    assert res.returncode == 0 and res.stdout.strip().endswith(": ok"), res.stdout
