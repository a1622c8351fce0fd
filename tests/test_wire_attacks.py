"""The real kernel process under hostile ZeroMQ peers (issue 11, item 1): a
raw TCP peer that announces a frame of 2^62 or 3.5e9 bytes on any of the
five sockets, before or after the ZMTP handshake, is disconnected and the
kernel lives on; a silent iopub subscriber does not stop a real client's
output; a heartbeat peer that floods 1 MB pings and never reads does not
delay a real ping beyond 1 s. kernel/wire_attack_test.go has the same
attacks against the kernel package; these run them against the built binary
as Jupyter starts it."""
import socket
import struct
import threading
import time

import pytest
import zmq
from jupyter_client.manager import start_new_kernel

PORTS = [("shell", "DEALER"), ("control", "DEALER"), ("stdin", "DEALER"), ("iopub", "SUB"), ("hb", "REQ")]


@pytest.fixture
def kernel():
    km, kc = start_new_kernel(kernel_name="benchbook", startup_timeout=30)
    yield km, kc
    kc.stop_channels()
    if km.is_alive():
        km.shutdown_kernel(now=True)


def greeting():
    g = bytearray(64)
    g[0], g[8], g[9], g[10] = 0xFF, 1, 0x7F, 3
    g[12:16] = b"NULL"
    return bytes(g)


def frame(flags, body):
    if len(body) > 255:
        return bytes([flags | 2]) + struct.pack(">Q", len(body)) + body
    return bytes([flags, len(body)]) + body


def long_header(flags, size):
    return bytes([flags | 2]) + struct.pack(">Q", size)


def ready(sock_type):
    body = b"\x05READY"
    for k, v in ((b"Socket-Type", sock_type.encode()), (b"Identity", b"")):
        body += bytes([len(k)]) + k + struct.pack(">I", len(v)) + v
    return frame(4, body)


def raw_peer(km, name, first=b""):
    s = socket.create_connection((km.ip, getattr(km, name + "_port")), timeout=5)
    s.sendall(greeting() + first)
    return s


def wait_hang_up(s, timeout=5):
    """Read until the kernel closes s; fail if it does not within timeout."""
    s.settimeout(timeout)
    deadline = time.time() + timeout
    try:
        while time.time() < deadline:
            if not s.recv(65536):
                return
    except ConnectionResetError:
        return
    except socket.timeout:
        pass
    pytest.fail(f"the kernel did not close the connection within {timeout}s")


def check_serving(km, kc):
    assert km.is_alive()
    reply = kc.kernel_info(reply=True, timeout=10)
    assert reply["content"]["status"] == "ok"


@pytest.mark.parametrize("name,peer", PORTS)
@pytest.mark.parametrize("size", [2**62, 3_500_000_000])
@pytest.mark.parametrize("stage", ["before the handshake", "after the handshake"])
def test_oversized_frame(kernel, name, peer, size, stage):
    km, kc = kernel
    kc.wait_for_ready(timeout=30)
    if stage == "before the handshake":
        s = raw_peer(km, name, long_header(4, size))
    else:
        s = raw_peer(km, name, ready(peer) + long_header(0, size))
    with s:
        wait_hang_up(s)
    check_serving(km, kc)


def test_silent_iopub_subscriber(kernel):
    km, kc = kernel
    kc.wait_for_ready(timeout=30)
    silent = raw_peer(km, "iopub", ready("SUB") + frame(0, b"\x01"))
    with silent:
        # Read until the kernel publishes to it, then never read again.
        seen, deadline = b"", time.time() + 10
        silent.settimeout(0.2)
        while b'"msg_type":"status"' not in seen.replace(b" ", b""):
            assert time.time() < deadline, "nothing published to the raw subscriber"
            kc.kernel_info()
            try:
                seen += silent.recv(65536)
            except socket.timeout:
                pass
        n, width = 2000, 16000  # 32 MB: far more than the socket buffers hold
        start = time.time()
        msg_id = kc.execute(f'for i := 0; i < {n}; i++ {{ fmt.Printf("%0{width}d\\n", i) }}')
        text = []
        while True:
            msg = kc.get_iopub_msg(timeout=30)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                text.append(msg["content"]["text"])
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        elapsed = time.time() - start
        assert sum(map(len, text)) == n * (width + 1)
        assert elapsed < 60, f"output and idle took {elapsed:.1f}s"
        assert kc.get_shell_msg(timeout=10)["content"]["status"] == "ok"
    check_serving(km, kc)


def test_heartbeat_flood(kernel):
    km, kc = kernel
    kc.wait_for_ready(timeout=30)
    flood = raw_peer(km, "hb", ready("DEALER"))
    ping = frame(1, b"") + frame(0, b"p" * (1 << 20))
    stop = threading.Event()

    def send():
        try:
            while not stop.is_set():
                flood.sendall(ping)
        except OSError:
            pass

    t = threading.Thread(target=send, daemon=True)
    t.start()
    ctx = zmq.Context()
    req = ctx.socket(zmq.REQ)
    req.linger = 0
    try:
        time.sleep(0.3)
        req.connect(f"tcp://{km.ip}:{km.hb_port}")
        for i in range(5):
            req.send(b"real-%d" % i)
            assert req.poll(1000), f"ping {i} not echoed within 1s during the flood"
            assert req.recv() == b"real-%d" % i
    finally:
        stop.set()
        flood.shutdown(socket.SHUT_RDWR)  # wakes a blocked sendall
        flood.close()
        req.close()
        ctx.term()
        t.join(5)
    check_serving(km, kc)
