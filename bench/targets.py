#!/usr/bin/python3
"""The targets of issue 19, measured: is the before/after headline right, and how fast?

Each scenario is one notebook that benchbook run executes: a C kernel whose
work is known by construction (P passes of dependent float adds over 2^15
floats, about 1 ms a pass at P = 32), measured once, then rebuilt and
measured again TRIALS times, alternating between two pass counts, so that
every %bench after the first is a before/after of the two builds in one run.
A change of P from 32 to 40 is exactly 1.25x the work (faster the other way);
an unchanged kernel is rebuilt with a comment line above it (a different
binary: the variants' line numbers move) and must never read slower or faster.

Printed, per scenario: how many headlines were right, the median and the
longest time to the headline (the %bench cell's wall time, which includes
building nothing: the builds are their own cells), against the goal. Also
whether a byte-identical rebuild is measured again, and, with --html, where
the headline lands in nbconvert's HTML in headless Chromium (its top, in
pixels below the top of its cell's input, against a 900 px screen).

Usage: bench/targets.py [--trials 20] [--only NAME] [--html]  (make bench-targets)
Run it on a quiet machine: the goals are for one; the load average is printed.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

BIN = os.environ.get("BENCHBOOK_BIN", os.path.join(os.path.dirname(__file__), "..", "bin", "benchbook"))


def kernel(passes, comment=False):
    head = "// rebuilt, the same code\n" if comment else ""
    return ("%%c k\n" + head + "#define N (1 << 15)\nstatic float a[N];\n"
            "BENCH_SETUP() { for (int i = 0; i < N; i++) a[i] = (i & 7) * 0.25f; }\n"
            "BENCH(chain) { float s = 0; for (int p = 0; p < %d; p++) for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }\n" % passes)


def notebook(cells):
    return {"cells": [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells],
            "metadata": {"kernelspec": {"name": "benchbook", "display_name": "Go (benchbook)", "language": "go"}},
            "nbformat": 4, "nbformat_minor": 5}


def run(cells, tmp, name):
    src, out = os.path.join(tmp, name + ".ipynb"), os.path.join(tmp, name + ".out.ipynb")
    json.dump(notebook(cells), open(src, "w"))
    p = subprocess.run([BIN, "run", src, "-o", out], capture_output=True, text=True)
    times = {}
    for line in p.stderr.splitlines():
        m = re.match(r"\[\d+/\d+\] cell (\d+): .* ok in ([0-9.]+)(m?s)", line)
        if m:
            times[int(m.group(1))] = float(m.group(2)) / (1000 if m.group(3) == "ms" else 1)
    if p.returncode != 0:
        sys.exit("%s: benchbook run failed:\n%s" % (name, p.stderr[-2000:]))
    return json.load(open(out)), times


def result(cell):
    for o in cell["outputs"]:
        r = o.get("data", {}).get("application/vnd.benchbook.result+json")
        if r:
            return r
    return None


def headline(cell):
    for o in cell["outputs"]:
        if o.get("metadata", {}).get("benchbook", {}).get("role") == "headline":
            return "".join(o["data"]["text/plain"]).splitlines()[0]
    return ""


def scenario(name, a, b, trials, quick, tmp, want, goal_right, goal_time=None):
    """a, b: pass counts; want(new_passes, old_passes) -> the verdicts that are
    right; goal_right is out of 20 (scaled to the trials)."""
    extra = " quick" if quick else ""
    cells = [kernel(a), "%bench k" + extra]
    seq = []
    for i in range(trials):
        new = b if i % 2 == 0 else a
        old = a if i % 2 == 0 else b
        cells += [kernel(new, comment=(a == b and i % 2 == 0)), "%bench k" + extra]
        seq.append((new, old))
    nb, times = run(cells, tmp, name)
    right, secs, wrong, counts = 0, [], [], {}
    for i, (new, old) in enumerate(seq):
        idx = 3 + 2 * i
        r = result(nb["cells"][idx])
        verdicts = [v["verdict"] for v in (r.get("baseline") or {}).get("verdicts", [])]
        counts[verdicts[0] if verdicts else "none"] = counts.get(verdicts[0] if verdicts else "none", 0) + 1
        if verdicts and verdicts[0] in want(new, old):
            right += 1
        else:
            wrong.append(headline(nb["cells"][idx]))
        secs.append(times.get(idx, float("nan")))
    budget = 5 if quick else 15
    med, worst = statistics.median(secs), max(secs)
    goal_right = -(-goal_right * trials // 20)  # the goal is n of 20
    print("%-34s right %2d of %d (goal >= %d)   time to headline: median %.1f s (goal %s), max %.1f s (budget %d s)%s" % (
        name, right, trials, goal_right, med, "<= %d s" % goal_time if goal_time else "-", worst, budget,
        "" if right >= goal_right and (goal_time is None or med <= goal_time) and worst <= budget else "   MISSED"))
    print("    verdicts: %s" % ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    if a == b and quick:
        und = counts.get("undefined", 0)
        print("    quick A/A undefined in %d of %d (goal <= 10%%)%s" % (und, trials, "" if und * 10 <= trials else "   MISSED"))
    for w in wrong[:5]:
        print("    wrong: " + w)
    return nb


def same_binary(tmp):
    cells = [kernel(32), "%bench k quick", kernel(32).replace("static float a[N];", "static float a[N]; // same"), "%bench k quick"]
    nb, _ = run(cells, tmp, "same-binary")
    r = result(nb["cells"][3])
    ok = r.get("baseline") is None and "byte for byte the same" in "".join(
        "".join(o["data"].get("text/plain", "")) for o in nb["cells"][3]["outputs"] if o.get("output_type") == "display_data")
    print("%-34s %s" % ("byte-identical rebuild", "not measured again (goal: not remeasured)" if ok else "MEASURED AGAIN: MISSED"))


def html_position(nb, tmp):
    """Where the headline of the last %bench lands in nbconvert's HTML."""
    path = os.path.join(tmp, "shown.ipynb")
    json.dump(nb, open(path, "w"))
    subprocess.run(["/usr/bin/python3", "-m", "nbconvert", "--to", "html", path, "--output-dir", tmp], check=True, capture_output=True)
    page = open(os.path.join(tmp, "shown.html")).read()
    probe = ("<script>window.addEventListener('load',()=>{const h=[...document.querySelectorAll('.benchbook-headline')].pop();"
             "const cell=h.closest('.jp-Cell,.cell');const top=cell.getBoundingClientRect().top;"
             "document.title='headline '+Math.round(h.getBoundingClientRect().top-top)+' '+Math.round(cell.getBoundingClientRect().height);});</script>")
    open(os.path.join(tmp, "probe.html"), "w").write(page.replace("</body>", probe + "</body>"))
    prof = tempfile.mkdtemp()
    p = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + prof, "--window-size=1280,900",
                        "--virtual-time-budget=5000", "--dump-dom", "file://" + os.path.join(tmp, "probe.html")],
                       capture_output=True, text=True, timeout=120)
    m = re.search(r"<title>headline (-?\d+) (\d+)</title>", p.stdout)
    if not m:
        print("%-34s could not measure (chromium: %s)" % ("headline in the HTML", p.stderr[-200:]))
        return
    top, height = int(m.group(1)), int(m.group(2))
    print("%-34s %d px below the top of its cell (cell %d px tall); goal: within a 900 px screen%s" % (
        "headline in nbconvert's HTML", top, height, "" if top < 900 else "   MISSED"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--only", default="")
    ap.add_argument("--html", action="store_true")
    args = ap.parse_args()
    print("load average before: %s" % open("/proc/loadavg").read().split()[:3])
    slower_or_faster = lambda new, old: ["slower"] if new > old else ["faster"]
    unchanged = lambda new, old: ["no difference", "undefined"]
    with tempfile.TemporaryDirectory() as tmp:
        todo = [
            ("1.25x, default", 32, 40, False, slower_or_faster, 19, 6),
            ("1.10x, default", 40, 44, False, slower_or_faster, 16, None),
            ("2x, quick", 20, 40, True, slower_or_faster, 20, None),
            ("unchanged (comment), default", 32, 32, False, unchanged, 19, None),
            ("unchanged (comment), quick", 32, 32, True, unchanged, 19, None),
        ]
        last = None
        for name, a, b, quick, want, goal, tgoal in todo:
            if args.only and args.only not in name:
                continue
            t0 = time.time()
            last = scenario(name, a, b, args.trials, quick, tmp, want, goal, tgoal)
            print("    (%.0f s for the scenario)" % (time.time() - t0))
        if not args.only:
            same_binary(tmp)
        if args.html and last is not None:
            html_position(last, tmp)
    print("load average after: %s" % open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    main()
