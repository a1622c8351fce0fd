#!/usr/bin/python3
"""soak.py: one kernel session, 3000 cells and 50 `%bench ... quick` runs,
and whether the kernel and its glue child grow: resident memory, OS
threads and open file descriptors, read from /proc every 50 cells, and the
time a glue cell takes. Memory is judged on the live heap: at each
reading the kernel and the glue child are asked (SIGUSR2 with
BENCHBOOK_HEAP_DIR, internal/heapdump) to collect garbage and write what
they still hold. Resident memory is printed and not judged: VmRSS counts
the pages of the executable's text that a code path touched for the first
time, and both it and the anonymous part (RssAnon) hold what the collector
has not given back yet, which depends on the live heap at the last
collection (runs of this soak read VmRSS -10% to +13.7%, RssAnon +33%,
while the kernel's live heap stayed near 7 MB). The second tenth of the cells (after a tenth to warm
up) is set against the last tenth: the least of each figure over each tenth
(a collection that has not run yet, or a thread that a blocking call needed
once, is not growth) and the median time of a cell. Growth above 10% (and,
for threads and descriptors, above 2: a count of 8 is not a percentage; for
the live heap, above PER_CELL bytes a cell), or a last tenth more than 1.5
times as slow, fails (exit 1).

What still grows, read from the profiles heapdump writes (go tool pprof
-base): the glue child about 250-280 bytes a cell, as yaegi keeps every
compiled cell's syntax tree and gives its global frame a slot for each one
(interp.resizeFrame) and never lets them go; the kernel about 300-400
bytes a cell, its execution history (every input and its text/plain
output, for history_request) and the last %bench result held for the next
before/after. PER_CELL (1 KB, both processes together) is set above that,
far below the 12 KB a cell that the glue child grew before issue 23; the
replay guard that grew the kernel 600 bytes a cell is fixed.

    make soak        (or: BENCHBOOK_BIN=bin/benchbook /usr/bin/python3 bench/soak.py [CELLS BENCHES])

Debian's Python with jupyter_client; the Jupyter folders are temporary.
"""
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = os.environ.get("BENCHBOOK_BIN", str(ROOT / "bin" / "benchbook"))
CELLS = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
BENCHES = int(sys.argv[2]) if len(sys.argv) > 2 else 50
LIMIT = 0.10
PER_CELL = 1024
SLACK = {"heap_kib": PER_CELL * (CELLS - 2 * (CELLS // 10)) // 1024, "threads": 2, "fds": 2}
SLOWER = 1.5
EVERY = 50

base = pathlib.Path(tempfile.mkdtemp(prefix="benchbook-soak-"))
for var in ("JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR"):
    (base / var).mkdir()
    os.environ[var] = str(base / var)
os.environ["BENCHBOOK_CACHE"] = str(base / "cache")
HEAP = base / "heap"
HEAP.mkdir()
os.environ["BENCHBOOK_HEAP_DIR"] = str(HEAP)
subprocess.run([BIN, "install", "--user"], check=True, capture_output=True)
os.chdir(base)

from jupyter_client.manager import start_new_kernel  # noqa: E402


def run(kc, code, timeout=120):
    """Run a cell; return the seconds it took, request to reply and idle."""
    start = time.perf_counter()
    reply = kc.execute_interactive(code, timeout=timeout, output_hook=lambda msg: None)
    if reply["content"]["status"] != "ok":
        raise SystemExit(f"cell failed: {code!r}: {reply['content']}")
    return time.perf_counter() - start


def pids(root):
    """root and its descendants (the glue child, not benchmark processes that
    come and go). A child is listed under the thread that started it, so
    every thread's list is read."""
    out = [root]
    for p in out:
        for task in pathlib.Path(f"/proc/{p}/task").glob("*"):
            try:
                out += [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                pass
    return out


asked = {}


def live_heap(p):
    """The live heap of process p in KiB, after a collection it is asked
    for (None if it does not answer within 10 s)."""
    import json
    import signal
    n = asked.get(p, 0)
    asked[p] = n + 1
    try:
        os.kill(p, signal.SIGUSR2)
    except OSError:
        return None
    path = HEAP / f"heap-{p}-{n}.json"
    deadline = time.time() + 10
    while not path.exists():
        if time.time() > deadline:
            return None
        time.sleep(0.01)
    return json.loads(path.read_text())["heap_alloc"] // 1024


def usage(root):
    """The figures of root and its descendants, and the kernel's own."""
    rss = anon = threads = fds = kernel = kernel_rss = heap = kernel_heap = 0
    for p in pids(root):
        try:
            status = pathlib.Path(f"/proc/{p}/status").read_text()
            fds += len(os.listdir(f"/proc/{p}/fd"))
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        rss += int(fields["VmRSS"].split()[0])
        anon += int(fields["RssAnon"].split()[0])
        threads += int(fields["Threads"])
        try:
            guard = b"BENCHBOOK_GUARD=" in pathlib.Path(f"/proc/{p}/environ").read_bytes()
        except OSError:
            continue
        # The orphan guard (internal/harness/root.go) runs before main and
        # has no handler: SIGUSR2 would end it.
        h = 0 if guard else live_heap(p)
        if h is None:
            cmd = pathlib.Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            raise SystemExit(f"process {p} ({cmd}) did not write its heap figures (SIGUSR2, {HEAP})")
        heap += h
        if p == root:
            kernel = int(fields["RssAnon"].split()[0])
            kernel_rss = int(fields["VmRSS"].split()[0])
            kernel_heap = h
    return {"heap_kib": heap, "threads": threads, "fds": fds, "kernel_heap_kib": kernel_heap,
            "anon_kib": anon, "kernel_anon_kib": kernel, "rss_kib": rss, "kernel_rss_kib": kernel_rss}


def main():
    km, kc = start_new_kernel(kernel_name="benchbook")
    try:
        pid = km.provisioner.process.pid
        run(kc, "%%c tiny\nstatic unsigned x = 1;\nBENCH(step) { x = x * 1103515245u + 12345u; bench_sink(x); }\n")
        start = time.time()
        tenth = CELLS // 10
        bench_every = max(CELLS // BENCHES, 1)
        benches = 0
        took, samples = [], []
        for i in range(CELLS):
            took.append(run(kc, f"v{i % 50} := {i}\nfmt.Sprint(v{i % 50} * 2)" if i % 3 else f"display.Markdown(\"cell {i}\")"))
            if i % bench_every == 0 and benches < BENCHES:
                run(kc, "%bench tiny quick fresh=step")
                benches += 1
            if i % EVERY == EVERY - 1:
                samples.append((i, usage(pid)))
        print(f"{CELLS} cells and {benches} %bench runs in {time.time() - start:.0f} s, one session")
        early, late = statistics.median(took[tenth:2 * tenth]), statistics.median(took[-tenth:])
        slower = late / early
        failed = slower > SLOWER
        print(f"a glue cell, cells {tenth}-{2 * tenth}: {1000 * early:.2f} ms  last {tenth}: {1000 * late:.2f} ms  "
              f"ratio {slower:.2f}x  " + ("ok" if slower <= SLOWER else f"SLOWER than {SLOWER}x"))
        for k in SLACK:
            before = min(u[k] for i, u in samples if tenth <= i < 2 * tenth)
            after = min(u[k] for i, u in samples if i >= CELLS - tenth)
            growth = (after - before) / max(before, 1)
            grew = growth > LIMIT and after - before > SLACK[k]
            failed |= grew
            print(f"{k:8} cells {tenth}-{2 * tenth}: {before:8}  last {tenth}: {after:8}  growth {growth:+.1%}  "
                  + (f"GREW more than {LIMIT:.0%}" if grew else "ok"))
            if k == "heap_kib":
                def least(key, late):
                    return min(u[key] for i, u in samples if (i >= CELLS - tenth if late else tenth <= i < 2 * tenth))
                kb, ka = least("kernel_heap_kib", False), least("kernel_heap_kib", True)
                print(f"         of which the kernel {kb} and {ka}, the glue child {before - kb} and {after - ka};"
                      f" {1024 * (after - before) / (CELLS - 2 * tenth):+.0f} bytes a cell")
                for key, what in (("anon_kib", "RssAnon"), ("rss_kib", "VmRSS")):
                    b, a = least(key, False), least(key, True)
                    print(f"         {what} (not judged) {b} and {a} ({(a - b) / max(b, 1):+.1%}),"
                          f" the kernel {least('kernel_' + key, False)} and {least('kernel_' + key, True)}")
        return 1 if failed else 0
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    sys.exit(main())
