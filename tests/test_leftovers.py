"""Issue 23 item 10: nothing the kernel started outlives it. A job a shell
line leaves in the background (!cmd &) dies with the kernel on shutdown and
when the kernel is killed with SIGKILL, and a kernel whose console (the
process that started it with jupyter_client, as jupyter console does) was
killed exits, as ipykernel's parent poller makes it do."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

from jupyter_client.manager import start_new_kernel

from test_protocol import run, outputs


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def wait_gone(pids, limit):
    deadline = time.time() + limit
    while time.time() < deadline:
        if not any(alive(p) for p in pids):
            return
        time.sleep(0.05)
    left = [p for p in pids if alive(p)]
    assert not left, f"still running after {limit} s: {left}"


def pids_of(kc):
    """The kernel's pid (the glue child's parent), the glue child's, and a
    background job's."""
    reply, msgs = run(kc, "!sleep 307 & echo bg=$!", timeout=60)
    assert reply["status"] == "ok", reply
    text = "".join(o["text"] for o in outputs(msgs, "stream"))
    bg = int(text.split("bg=")[1].split()[0])
    reply, msgs = run(kc, 'fmt.Println(os.Getppid(), os.Getpid())')
    kernel, glue = map(int, "".join(o["text"] for o in outputs(msgs, "stream")).split())
    assert alive(bg) and alive(kernel) and alive(glue)
    return kernel, glue, bg


def test_shutdown_kills_background_jobs():
    km, kc = start_new_kernel(kernel_name="benchbook", startup_timeout=30)
    try:
        kernel, glue, bg = pids_of(kc)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    wait_gone([kernel, glue, bg], 5)


def test_sigkill_of_the_kernel_kills_background_jobs():
    km, kc = start_new_kernel(kernel_name="benchbook", startup_timeout=30)
    try:
        kernel, glue, bg = pids_of(kc)
        os.kill(kernel, signal.SIGKILL)
        wait_gone([kernel, glue, bg], 5)
    finally:
        kc.stop_channels()
        km.cleanup_resources()


CONSOLE = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, sys.argv[1])
    from jupyter_client.manager import start_new_kernel
    from test_protocol import run, outputs
    from test_leftovers import pids_of
    km, kc = start_new_kernel(kernel_name="benchbook", startup_timeout=30)
    print(json.dumps(pids_of(kc)), flush=True)
    time.sleep(600)
""")


def test_kernel_exits_when_its_console_is_killed():
    """A process that started the kernel through jupyter_client, as jupyter
    console does, is killed: the kernel, its glue child and the background
    job are gone within seconds (they lived on for 30 minutes)."""
    console = subprocess.Popen([sys.executable, "-c", CONSOLE, os.path.dirname(os.path.abspath(__file__))],
                               stdout=subprocess.PIPE, text=True)
    try:
        kernel, glue, bg = json.loads(console.stdout.readline())
        console.send_signal(signal.SIGKILL)
        console.wait()
        assert alive(kernel), "the kernel died with its console at once: the test shows nothing"
        wait_gone([kernel, glue, bg], 10)
    finally:
        console.kill()
