"""A sweep under Jupyter: one result per point in the cell's outputs, then the
plot and the sweep commentary; `benchbook verify` passes on the executed
notebook and names a doctored sweep value."""
import pytest

from nbtools import benchbook, load, nbconvert, outputs_with, write

pytestmark = pytest.mark.measure  # runs %bench for real: make test-measure

RESULT = "application/vnd.benchbook.result+json"

KERNEL = """%%c swept
#ifndef N
#define N (1 << 20)
#endif
static int a[N];
BENCH_SETUP() { for (int i = 0; i < N; i++) a[i] = i & 7; }
BENCH(sum) { int s = 0; for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }
"""


def code(i, src):
    return {"cell_type": "code", "id": f"c{i}", "metadata": {}, "outputs": [], "execution_count": None, "source": src}


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    d = tmp_path_factory.mktemp("sweep")
    nb = {"cells": [code(0, KERNEL), code(1, '%bench swept quick sweep=N:4K,64K,1M predict="time(1M)/time(4K)~256"'),
                    code(2, 'fmt.Println(len(bench.Get("swept@N=64K").Variants), swept.Sweep.Value)')],
          "metadata": {"kernelspec": {"name": "benchbook", "display_name": "Go (benchbook)", "language": "go"}},
          "nbformat": 4, "nbformat_minor": 5}
    write(d / "sweep.ipynb", nb)
    return d, nbconvert(d / "sweep.ipynb", d / "out.ipynb", cwd=d)


def test_sweep_outputs_and_verify(executed):
    d, nb = executed
    results = [o["data"][RESULT] for o in outputs_with(nb, RESULT)]
    assert [r["sweep"]["value"] for r in results] == [4096, 65536, 1048576]
    assert len({r["sweep"]["id"] for r in results}) == 1
    assert all(r["sweep"]["bytes"] == 4 * r["sweep"]["value"] for r in results)
    outs = nb["cells"][1]["outputs"]
    assert "image/png" in outs[-2]["data"] and "predicted 256, measured" in "".join(outs[-1]["data"]["text/markdown"])
    assert "".join(nb["cells"][2]["outputs"][0]["text"]).strip() == "1 1048576"
    res = benchbook("verify", str(d / "out.ipynb"), check=False)
    assert res.returncode == 0 and sum(1 for l in res.stdout.splitlines() if " output " in l and l.endswith(": ok")) == 3, res.stdout


def test_verify_names_a_doctored_sweep_value(executed, tmp_path):
    d, nb = executed
    outputs_with(nb, RESULT)[1]["data"][RESULT]["sweep"]["value"] = 131072
    write(tmp_path / "doctored.ipynb", nb)
    res = benchbook("verify", str(tmp_path / "doctored.ipynb"), check=False)
    assert res.returncode == 1 and "sweep point N=128K: bytes is 262144, the points' values and static data give null" in res.stdout, res.stdout


def test_sweep_headline_first(executed, tmp_path):
    """The sweep's answer is its first output (role headline): the curve
    from the first point to the last, then the prediction; every output of
    the cell carries a role; an edited headline fails verify."""
    d, _ = executed
    nb = load(d / "out.ipynb")  # as executed: another test doctors the fixture's copy
    outs = nb["cells"][1]["outputs"]
    first = outs[0]
    assert first["metadata"]["benchbook"]["role"] == "headline", first
    text = "".join(first["data"]["text/plain"])
    assert text.startswith("sum: ") and "per element from N=4K (16KB) to N=1M (4MB)" in text and "(3 points, " in text, text
    assert "prediction time(1M)/time(4K)~256, written before the run: predicted 256, measured" in text, text
    assert "QUICK: reps=10 runs=10" in text, text
    roles = [o.get("metadata", {}).get("benchbook", {}).get("role") for o in outs if o["output_type"] != "stream"]
    assert roles.count("headline") == 1 and roles.count("result") == 3 and roles.count("plot") == 1 and roles.count("commentary") == 1, roles
    first["data"]["text/plain"] = text.replace("sum: ", "sum: about ", 1)
    write(tmp_path / "edited.ipynb", nb)
    res = benchbook("verify", str(tmp_path / "edited.ipynb"), check=False)
    assert res.returncode == 1 and "sweep headline" in res.stdout, res.stdout
