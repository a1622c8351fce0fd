#!/usr/bin/python3
"""soak.py: one kernel session, 3000 cells and 50 `%bench ... quick` runs,
and whether the kernel and its glue child grow: resident memory, OS
threads and open file descriptors, read from /proc after a warm-up and at
the end. Growth above 10% on any of them fails (exit 1).

    make soak        (or: BENCHBOOK_BIN=bin/benchbook /usr/bin/python3 bench/soak.py [CELLS BENCHES])

Debian's Python with jupyter_client; the Jupyter folders are temporary.
"""
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = os.environ.get("BENCHBOOK_BIN", str(ROOT / "bin" / "benchbook"))
CELLS = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
BENCHES = int(sys.argv[2]) if len(sys.argv) > 2 else 50
LIMIT = 0.10

base = pathlib.Path(tempfile.mkdtemp(prefix="benchbook-soak-"))
for var in ("JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR"):
    (base / var).mkdir()
    os.environ[var] = str(base / var)
os.environ["BENCHBOOK_CACHE"] = str(base / "cache")
subprocess.run([BIN, "install", "--user"], check=True, capture_output=True)
os.chdir(base)

from jupyter_client.manager import start_new_kernel  # noqa: E402


def run(kc, code, timeout=120):
    reply = kc.execute_interactive(code, timeout=timeout, output_hook=lambda msg: None)
    if reply["content"]["status"] != "ok":
        raise SystemExit(f"cell failed: {code!r}: {reply['content']}")


def pids(root):
    """root and its descendants (the glue child, not benchmark processes that come and go)."""
    out = [root]
    for p in out:
        try:
            kids = pathlib.Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            kids = []
        out += [int(k) for k in kids]
    return out


def usage(root):
    rss = threads = fds = 0
    for p in pids(root):
        try:
            status = pathlib.Path(f"/proc/{p}/status").read_text()
            fds += len(os.listdir(f"/proc/{p}/fd"))
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        rss += int(fields["VmRSS"].split()[0])
        threads += int(fields["Threads"])
    return {"rss_kib": rss, "threads": threads, "fds": fds}


def main():
    km, kc = start_new_kernel(kernel_name="benchbook")
    try:
        pid = km.provisioner.process.pid
        run(kc, "%%c tiny\nstatic unsigned x = 1;\nBENCH(step) { x = x * 1103515245u + 12345u; bench_sink(x); }\n")
        start = time.time()
        warm = CELLS // 10
        bench_every = max(CELLS // BENCHES, 1)
        before = None
        benches = 0
        for i in range(CELLS):
            run(kc, f"v{i % 50} := {i}\nfmt.Sprint(v{i % 50} * 2)" if i % 3 else f"display.Markdown(\"cell {i}\")")
            if i % bench_every == 0 and benches < BENCHES:
                run(kc, "%bench tiny quick fresh=step")
                benches += 1
            if i == warm:
                time.sleep(1)
                before = usage(pid)
        time.sleep(1)
        after = usage(pid)
        print(f"{CELLS} cells and {benches} %bench runs in {time.time() - start:.0f} s, one session")
        failed = False
        for k in before:
            growth = (after[k] - before[k]) / max(before[k], 1)
            flag = "ok" if growth <= LIMIT else f"GREW more than {LIMIT:.0%}"
            failed |= growth > LIMIT
            print(f"{k:8} after {warm} cells: {before[k]:8}  at the end: {after[k]:8}  growth {growth:+.1%}  {flag}")
        return 1 if failed else 0
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    sys.exit(main())
