"""The real kernel process under hostile ZeroMQ peers (issue 11, item 1): a
raw TCP peer that announces a frame of 2^62 or 3.5e9 bytes on any of the
five sockets, before or after the ZMTP handshake, is disconnected and the
kernel lives on; a silent iopub subscriber does not stop a real client's
output; a heartbeat peer that floods 1 MB pings and never reads does not
delay a real ping beyond 1 s (and is dropped). Issue 23: many raw peers
without the key that each send most of a frame of the largest size make the
kernel hold a bounded amount of memory, not one frame each (item 4); a
client with the key that stops reading its shell replies does not delay
another client's (item 7). kernel/wire_attack_test.go has the same attacks
against the kernel package; these run them against the built binary as
Jupyter starts it."""
import os
import pathlib
import socket
import struct
import threading
import time

import pytest
import zmq
from jupyter_client.manager import KernelManager, start_new_kernel
from jupyter_client.session import Session

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
        try:
            flood.shutdown(socket.SHUT_RDWR)  # wakes a blocked sendall
        except OSError:
            pass  # the kernel dropped the flooding peer, which never reads
        flood.close()
        req.close()
        ctx.term()
        t.join(5)
    check_serving(km, kc)


def message(frames):
    """frames as one ZMTP message, as a DEALER sends it."""
    return b"".join(frame(1 if i < len(frames) - 1 else 0, f) for i, f in enumerate(frames))


def peak_rss_mib(pid):
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(fields["VmHWM"].split()[0]) / 1024


def test_memory_bound_across_peers():
    """16 raw shell peers without the key each announce a frame of almost
    BENCHBOOK_MAX_MESSAGE_SIZE (32 MiB) and send all of it but its last
    byte: the kernel's peak memory stays far below 16 frames (512 MiB), and
    it serves a real client once they are gone. On main the limit was per
    frame: every peer's frame was held at once."""
    km = KernelManager(kernel_name="benchbook")
    km.start_kernel(env={**os.environ, "BENCHBOOK_MAX_MESSAGE_SIZE": "32MiB"})
    kc = km.client()
    kc.start_channels()
    peers = []
    try:
        kc.wait_for_ready(timeout=30)
        pid = km.provisioner.process.pid
        size = (32 << 20) - (64 << 10)
        body = b"m" * (size - 1)

        def send(s):
            try:
                s.sendall(long_header(0, size) + body)
            except OSError:
                pass

        threads = []
        for _ in range(16):
            s = raw_peer(km, "shell", ready("DEALER"))
            s.settimeout(None)
            peers.append(s)
            t = threading.Thread(target=send, args=(s,), daemon=True)
            t.start()
            threads.append(t)
        deadline = time.time() + 5
        for t in threads:
            t.join(max(0, deadline - time.time()))
        peak = peak_rss_mib(pid)
        sent = sum(not t.is_alive() for t in threads)
        print(f"{sent} of 16 peers sent their frame (or filled the socket buffers); the kernel's peak RSS {peak:.0f} MiB")
        assert peak < 300, f"the kernel's memory reached {peak:.0f} MiB for 16 unfinished frames of 32 MiB"
        for s in peers:
            s.close()
        check_serving(km, kc)
    finally:
        for s in peers:
            s.close()
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_frozen_shell_client(kernel):
    """A client with the key that asks for 12 history replies of 6.4 MB
    and never reads them is dropped, and another client's shell replies
    come at once. On main the kernel's shell socket wrote the replies in
    turn without a deadline: every other client waited for the frozen one."""
    km, kc = kernel
    kc.wait_for_ready(timeout=30)
    code = "// " + "x" * (128 << 10)
    for _ in range(50):
        assert kc.execute(code, reply=True, timeout=30)["content"]["status"] == "ok"
    session = Session(key=km.session.key, signature_scheme=km.session.signature_scheme)
    frozen = raw_peer(km, "shell", ready("DEALER"))
    with frozen:
        for _ in range(12):
            msg = session.msg("history_request", {"hist_access_type": "tail", "n": 100, "output": False, "raw": True})
            frozen.sendall(message(session.serialize(msg)))
        time.sleep(1)  # the kernel answers the frozen client first
        for i in range(5):
            start = time.time()
            reply = kc.kernel_info(reply=True, timeout=10)
            assert reply["content"]["status"] == "ok", f"kernel_info {i} beside the frozen client"
            print(f"kernel_info {i} answered in {1000 * (time.time() - start):.1f} ms beside the frozen client")
        wait_hang_up(frozen, timeout=15)
    check_serving(km, kc)
