"""The kernel under jupyter_client, as Jupyter drives it: a badly signed
message is dropped, an interrupt stops `for {}`, a panic in a goroutine is an
error and not a dead kernel, shutdown and restart work."""
import queue
import time

import pytest
from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session


@pytest.fixture
def kernel():
    km, kc = start_new_kernel(kernel_name="benchbook", startup_timeout=30)
    yield km, kc
    kc.stop_channels()
    if km.is_alive():
        km.shutdown_kernel(now=True)


def run(kc, code, timeout=30):
    """Execute code; return (reply content, iopub messages of this request)."""
    msg_id = kc.execute(code)
    reply = kc.get_shell_msg(timeout=timeout)
    assert reply["parent_header"]["msg_id"] == msg_id
    msgs = []
    while True:
        msg = kc.get_iopub_msg(timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        msgs.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return reply["content"], msgs


def outputs(msgs, kind):
    return [m["content"] for m in msgs if m["msg_type"] == kind]


def test_badly_signed_execute_is_dropped(kernel):
    km, kc = kernel
    kc.wait_for_ready(timeout=30)
    forger = Session(key=b"not-the-key", session=kc.session.session, username=kc.session.username)
    bad = forger.msg("execute_request", content={"code": 'fmt.Println("forged")', "silent": False,
                                                  "store_history": True, "user_expressions": {},
                                                  "allow_stdin": False, "stop_on_error": True})
    forger.send(kc.shell_channel.socket, bad)
    with pytest.raises(queue.Empty):
        kc.get_shell_msg(timeout=2)
    # Nothing on iopub has the forged request as parent: no busy, no output.
    deadline = time.time() + 1
    while time.time() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=0.2)
        except queue.Empty:
            continue
        assert msg["parent_header"].get("msg_id") != bad["header"]["msg_id"], msg
    reply, msgs = run(kc, 'fmt.Println("genuine")')
    assert reply["status"] == "ok"
    assert "genuine" in "".join(s["text"] for s in outputs(msgs, "stream"))


def test_interrupt_stops_an_endless_loop(kernel):
    km, kc = kernel
    run(kc, "x := 41")
    msg_id = kc.execute("for {}")
    time.sleep(1)
    start = time.time()
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=10)
    assert reply["parent_header"]["msg_id"] == msg_id
    assert time.time() - start < 2, "the interrupt took longer than 2 s"
    assert reply["content"]["status"] == "error"
    reply, msgs = run(kc, "x + 1")
    assert reply["status"] == "ok"
    assert outputs(msgs, "execute_result")[0]["data"]["text/plain"] == "42"


def test_panic_in_a_goroutine_is_an_error_and_the_kernel_lives(kernel):
    km, kc = kernel
    run(kc, 'greeting := "still here"')
    reply, msgs = run(kc, 'go func() { panic("in a goroutine") }()\ntime.Sleep(300 * time.Millisecond)')
    errors = outputs(msgs, "error")
    assert reply["status"] == "error" and errors, msgs
    assert "in a goroutine" in errors[0]["evalue"] + " ".join(errors[0]["traceback"])
    assert km.is_alive()
    reply, msgs = run(kc, "greeting")
    assert outputs(msgs, "execute_result")[0]["data"]["text/plain"] == '"still here"'


def test_shutdown_and_restart(kernel):
    km, kc = kernel
    run(kc, "y := 1")
    km.restart_kernel(now=False)
    kc.wait_for_ready(timeout=30)
    reply, msgs = run(kc, "y")
    assert reply["status"] == "error", "state survived a restart"
    reply, _ = run(kc, 'fmt.Println("after restart")')
    assert reply["status"] == "ok"
    km.shutdown_kernel(now=False)
    assert not km.is_alive()
