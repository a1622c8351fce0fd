"""The answer is on the first screen: in the classic Notebook, rendered by
headless Chromium, each %bench cell's headline is its first output, right
under its input, with the verdict word in it; the commentary is collapsed
behind its summary; a before/after whose loop got 25% longer says slower."""
import json
import time

import pytest

from conftest import ROOT
from nbtools import benchbook, chromium_page, classic_notebook_server, load

pytestmark = pytest.mark.measure  # runs %bench for real: make test-measure


def kernel(passes):
    return ("%%%%c k\n#define N (1 << 15)\nstatic float a[N];\n"
            "BENCH_SETUP() { for (int i = 0; i < N; i++) a[i] = (i & 7) * 0.25f; }\n"
            "BENCH(chain) { float s = 0; for (int p = 0; p < %d; p++) for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }\n"
            "BENCH(none) { float s = 0; for (int i = 0; i < N; i++) s += a[i]; }\n" % passes)


def test_headline_on_the_first_screen_of_the_classic_notebook(tmp_path):
    cells = [kernel(4), "%bench k quick", kernel(5), "%bench k quick"]
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells],
          "metadata": {"kernelspec": {"name": "benchbook", "display_name": "Go (benchbook)", "language": "go"}},
          "nbformat": 4, "nbformat_minor": 5}
    root = tmp_path / "served"
    root.mkdir()
    (root / "in.ipynb").write_text(json.dumps(nb))
    benchbook("run", str(root / "in.ipynb"), "-o", str(root / "run.ipynb"))
    with classic_notebook_server(root) as (base, token):
        with chromium_page(f"{base}/notebooks/run.ipynb?token={token}", tmp_path / "profile") as evaluate:
            deadline = time.time() + 60
            while not evaluate("!!(window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded)"):
                assert time.time() < deadline, "the notebook did not load in Chromium"
                time.sleep(0.5)
            shown = evaluate("""[...document.querySelectorAll('div.cell.code_cell')].map(cell => {
                const input = cell.querySelector('div.input').getBoundingClientRect();
                const outs = [...cell.querySelectorAll('div.output_area')];
                const head = cell.querySelector('.benchbook-headline');
                const details = cell.querySelector('.benchbook-commentary details');
                return {outputs: outs.length,
                        first: outs.length ? outs[0].contains(head) : false,
                        below: head ? Math.round(head.getBoundingClientRect().top - input.bottom) : -1,
                        cell: Math.round(cell.getBoundingClientRect().height),
                        text: head ? head.innerText : '',
                        collapsed: details ? !details.open : null,
                        summary: details ? details.querySelector('summary').innerText : ''};
            })""")
    benches = [s for s in shown if s["text"]]
    assert len(benches) == 2, shown
    for s in benches:
        # The first output, within a line or two of the input, however tall the cell.
        assert s["first"], s
        assert 0 <= s["below"] < 60, s
        assert s["outputs"] >= 6, s  # and the tables, plots and commentary after it
        assert s["collapsed"] is True and 0 < len(s["summary"].split()) <= 125, s
    first, second = benches
    assert "none: DEAD" in first["text"], first["text"]
    assert "chain: " in second["text"] and "slower" in second["text"] and "than the previous build" in second["text"], second["text"]
