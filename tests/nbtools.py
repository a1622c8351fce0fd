"""Helpers for the notebook tests."""
import json
import os
import subprocess

from conftest import BIN, ROOT


def output_kinds(nb):
    """Per code cell, the sorted kinds of its outputs: output_type and mime types."""
    kinds = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        k = set()
        for out in cell.get("outputs", []):
            k.add(out["output_type"])
            for mime in out.get("data", {}):
                k.add(mime)
        kinds.append(sorted(k))
    return kinds


def benchbook(*args, env=None, check=True):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=e, check=check)


def nbconvert(path, out, env=None, timeout=900):
    e = dict(os.environ)
    e.update(env or {})
    subprocess.run(["/usr/bin/python3", "-m", "nbconvert", "--to", "notebook", "--execute",
                    f"--ExecutePreprocessor.timeout={timeout}", "--ExecutePreprocessor.kernel_name=benchbook",
                    "--output", str(out), str(path)], check=True, capture_output=True, text=True, env=e)
    with open(out) as f:
        return json.load(f)


def load(path):
    with open(path) as f:
        return json.load(f)
