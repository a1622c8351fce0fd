#!/usr/bin/python3
"""Writes frames.json: real Jupyter wire frames made by jupyter_client's Session.

Rerun from the repository root with Debian's Python (jupyter_client 7.4.9):

    /usr/bin/python3 kernel/testdata/gen_frames.py > kernel/testdata/frames.json

Headers use a fixed msg_id and date, so rerunning gives the same file.
Each case holds the key, the frames (base64), the error the kernel must
report ("" when the frames are good; "replayed" cases are delivered twice)
and, for good frames, what jupyter_client itself decodes from them.
"""
import base64
import json
import sys

from jupyter_client.session import Session, DELIM

KEY = b"a0b1c2d3-secret-key"
CONTENT = {
    "code": "x := 1\nfmt.Println(x)",
    "silent": False,
    "store_history": True,
    "user_expressions": {"y": "x+1"},
    "allow_stdin": False,
    "stop_on_error": True,
}


def make(key, msg_type="execute_request", content=CONTENT, n=1):
    s = Session(key=key, username="tester", session="0b9ac2ea-session")
    header = s.msg_header(msg_type)
    header["msg_id"] = "msg-%04d" % n
    header["date"] = "2024-05-01T12:00:00.000000Z"
    parent = {"msg_id": "parent-1", "session": "0b9ac2ea-session", "username": "tester",
              "date": "2024-05-01T11:59:59.000000Z", "msg_type": "kernel_info_request",
              "version": "5.3"}
    return s, s.msg(msg_type, content=content, header=header, parent=parent,
                    metadata={"trusted": True})


def resign(s, frames):
    """Signs the four message frames after the delimiter again."""
    i = frames.index(DELIM)
    frames[i + 1] = s.sign(frames[i + 2:i + 6])
    return frames


def expect(s, frames):
    """What jupyter_client decodes from frames, to check the Go decoder against."""
    idents, rest = s.feed_identities(frames)
    m = Session(key=s.key).deserialize(rest)
    return {
        "identities": [base64.b64encode(x).decode() for x in idents],
        "header": m["header"] | {"date": json.loads(rest[1])["date"]},
        "parent_msg_id": m["parent_header"]["msg_id"],
        "metadata": m["metadata"],
        "content": m["content"],
        "buffers": [base64.b64encode(bytes(b)).decode() for b in m["buffers"]],
        "signature": rest[0].decode(),
    }


def cases():
    s, msg = make(KEY)
    good = s.serialize(msg, ident=[b"client-1"])
    yield "good_signed", KEY, good, "", expect(s, good)

    u, umsg = make(b"")
    unsigned = u.serialize(umsg, ident=[b"client-1"])
    yield "empty_key_unsigned", b"", unsigned, "", expect(u, unsigned)

    tampered = list(good)
    tampered[-1] = tampered[-1].replace(b"x := 1", b"x := 2")
    yield "tampered_content", KEY, tampered, "bad_signature", None

    badsig = list(good)
    i = badsig.index(DELIM)
    sig = badsig[i + 1]
    badsig[i + 1] = (b"0" if sig[:1] != b"0" else b"1") + sig[1:]
    yield "tampered_signature", KEY, badsig, "bad_signature", None

    nosig = list(good)
    nosig[i + 1] = b""
    yield "missing_signature", KEY, nosig, "unsigned", None

    yield "unsigned_frame_with_key", KEY, unsigned, "unsigned", None

    yield "replayed", KEY, good, "replayed", None

    _, msg2 = make(KEY, n=2)
    multi = s.serialize(msg2, ident=[b"router-a", b"router-b", b"\x00\x01\x02"])
    yield "identities_before_delimiter", KEY, multi, "", expect(s, multi)

    _, msg3 = make(KEY, n=3)
    bufs = s.serialize(msg3, ident=[b"client-1"]) + [b"\x00\xffbinary", b"second buffer"]
    yield "buffers_after_content", KEY, bufs, "", expect(s, bufs)

    nodelim = [f for f in good if f != DELIM]
    yield "no_delimiter", KEY, nodelim, "no_delimiter", None

    yield "truncated", KEY, good[:5], "truncated", None

    badjson = list(good)
    badjson[i + 2] = b'{"msg_id": "msg-0001", "msg_type": '
    yield "invalid_json_header", KEY, resign(s, badjson), "bad_json", None

    notype = list(good)
    hdr = json.loads(notype[i + 2])
    del hdr["msg_type"]
    notype[i + 2] = json.dumps(hdr).encode()
    yield "missing_msg_type", KEY, resign(s, notype), "no_msg_type", None

    _, msg4 = make(KEY, msg_type="kernel_info_request", content={}, n=4)
    info = s.serialize(msg4, ident=[b"client-1"])
    yield "kernel_info_empty_content", KEY, info, "", expect(s, info)


def main():
    out = []
    for name, key, frames, err, exp in cases():
        out.append({
            "name": name,
            "key": key.decode(),
            "frames": [base64.b64encode(f).decode() for f in frames],
            "error": err,
            "expect": exp,
        })
    json.dump({"generator": "jupyter_client.session.Session", "cases": out}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
