"""What the tests need from the machine.

A tool that scripts/setup.sh installs (Chromium, Node.js, JupyterHub, ...) may
be missing on a developer's machine: the test that needs it is skipped there,
saying what to install. Under CI (the environment variable CI set to true, as
.ci/run sets it) setup.sh was run, so a missing tool is a failure: CI never
stays green by skipping what it was meant to test.
"""
import importlib
import os

import pytest


def under_ci():
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def missing(reason):
    """Skip, or under CI fail, because something the test needs is missing."""
    if under_ci():
        pytest.fail("under CI, where scripts/setup.sh should have installed it: " + reason, pytrace=False)
    pytest.skip(reason)


def need_module(name, reason):
    """Import a module the tests need, as pytest.importorskip does, but failing under CI."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(reason)
