#!/usr/bin/python3
"""startup.py: benchbook against ipykernel, side by side in one run, started
and driven the same way by Debian's jupyter_client:

  start:      from KernelManager.start_kernel() to the kernel_info_reply of a
              request sent at once (the client's sockets retry their connect
              every millisecond, not libzmq's default 100 ms, so that the
              figure is the kernel's and not the client's retry period); it
              includes what jupyter_client itself takes to launch a kernel
              (about 14 ms here), which the line "after the launch" leaves out;
  round trip: an empty cell, from execute_request to execute_reply, on a
              kernel that is up (after ten warm-up cells), sent and read on a
              plain DEALER socket with jupyter_client's Session (signed, as
              every client does), so that the client's own machinery (the
              channel threads of KernelClient, which cost about 0.3 ms a
              message) is not most of the figure.

One warm-up start of each is discarded (the first launch of a session pays
for jupyter_client's imports). Then the kernels are started in turn, ROUNDS
times each (benchbook, ipykernel, benchbook, ...), so that a change in the
machine's load meets both. It prints the medians, the ranges and their ratios
against the goals (start <= 0.05x ipykernel's, round trip <= 0.3x), and exits
1 when a ratio misses its goal.

    make bench-start      (or: BENCHBOOK_BIN=bin/benchbook /usr/bin/python3 bench/startup.py [ROUNDS CELLS])

Debian's Python with jupyter_client and python3-ipykernel; the Jupyter
folders are temporary.
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
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
CELLS = int(sys.argv[2]) if len(sys.argv) > 2 else 50
GOALS = {"start": 0.05, "after the launch": None, "round trip": 0.3}

base = pathlib.Path(tempfile.mkdtemp(prefix="benchbook-startup-"))
for var in ("JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR", "IPYTHONDIR"):
    (base / var).mkdir()
    os.environ[var] = str(base / var)
os.environ["BENCHBOOK_CACHE"] = str(base / "cache")
subprocess.run([BIN, "install", "--user"], check=True, capture_output=True)
os.chdir(base)

import zmq  # noqa: E402
from jupyter_client import KernelManager  # noqa: E402
from jupyter_client.session import Session  # noqa: E402

KERNELS = {"benchbook": "benchbook", "ipykernel": "python3"}


def reply_to(kc, msg_id, timeout=60):
    while True:
        msg = kc.get_shell_msg(timeout=timeout)
        if msg["parent_header"].get("msg_id") == msg_id:
            return msg


EMPTY = {"code": "", "silent": False, "store_history": False, "user_expressions": {}, "allow_stdin": False,
         "stop_on_error": True}


def one_round(spec):
    """Start a kernel, time its kernel_info reply and CELLS empty cells."""
    km = KernelManager(kernel_name=spec)
    t0 = time.perf_counter()
    km.start_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    launched = time.perf_counter()
    kc = km.client()
    kc.context.setsockopt(zmq.RECONNECT_IVL, 1)
    kc.start_channels()
    reply_to(kc, kc.kernel_info())
    done = time.perf_counter()
    ctx = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    sock.linger = 0
    try:
        kc.wait_for_ready(timeout=60)
        sock.connect(f"tcp://{km.ip}:{km.shell_port}")
        session = Session(key=km.session.key, signature_scheme=km.session.signature_scheme)
        trips = []
        for i in range(CELLS + 10):
            t1 = time.perf_counter()
            sent = session.send(sock, "execute_request", EMPTY)
            while True:
                _, reply = session.recv(sock, mode=0)
                if reply["parent_header"]["msg_id"] == sent["header"]["msg_id"]:
                    break
            took = time.perf_counter() - t1
            if reply["content"]["status"] != "ok":
                raise SystemExit(f"{spec}: the empty cell failed: {reply['content']}")
            if i >= 10:
                trips.append(took)
        return {"start": done - t0, "after the launch": done - launched, "round trip": statistics.median(trips)}
    finally:
        sock.close()
        ctx.term()
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def ms(x):
    return f"{x * 1000:.2f} ms" if x < 0.01 else f"{x * 1000:.1f} ms"


def main():
    got = {name: {what: [] for what in GOALS} for name in KERNELS}
    for spec in KERNELS.values():
        one_round(spec)  # warm-up
    for _ in range(ROUNDS):
        for name, spec in KERNELS.items():
            for what, v in one_round(spec).items():
                got[name][what].append(v)
    print(f"benchbook against ipykernel {__import__('ipykernel').__version__}, {ROUNDS} starts each in turn, "
          f"{CELLS} empty cells per start (medians of the starts, of each start's median round trip)")
    failed = False
    for what, goal in GOALS.items():
        b, i = got["benchbook"][what], got["ipykernel"][what]
        ratio = statistics.median(b) / statistics.median(i)
        verdict = ""
        if goal is not None:
            ok = ratio <= goal
            failed |= not ok
            verdict = f"  goal <= {goal}x: {'met' if ok else 'MISSED'}"
        print(f"{what:16}  benchbook {ms(statistics.median(b)):>9} ({ms(min(b))}-{ms(max(b))})  "
              f"ipykernel {ms(statistics.median(i)):>9} ({ms(min(i))}-{ms(max(i))})  "
              f"ratio {ratio:.3f}x{verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
