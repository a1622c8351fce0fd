"""Binder and conda, as far as they can be checked without conda or
repo2docker: environment.yml parses and names what the kernel needs, postBuild
is a valid executable script, and postBuild run as repo2docker runs it (a
non-login shell: NB_PYTHON_PREFIX set, CONDA_PREFIX not, a clean HOME) builds
the kernel with the real Go toolchain and installs its kernelspec into the
environment's prefix (here a temporary one), where Jupyter finds it and can
start it."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from conftest import BIN, ROOT
from need import missing, need_module

yaml = need_module("yaml", reason="python3-yaml (Debian) is not installed")

POSTBUILD = ROOT / "postBuild"
# repo2docker reads python's version as x.y and has frozen bases for these.
PYTHONS = {"3.10", "3.11", "3.12", "3.13"}


def test_environment_yml():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert isinstance(env, dict), "environment.yml must be a mapping (repo2docker refuses anything else)"
    assert set(env) == {"name", "channels", "dependencies"}, sorted(env)
    assert env["channels"] == ["conda-forge"], env["channels"]
    deps = env["dependencies"]
    assert all(isinstance(d, str) for d in deps), "no pip section: PyPI is not needed"
    names = {re.split(r"[=<>! ]", d)[0] for d in deps}
    python = [d for d in deps if re.match(r"python\s*=", d)]
    assert len(python) == 1, deps
    assert re.fullmatch(r"python=3\.\d+", python[0]) and python[0].split("=")[1] in PYTHONS, python
    # Jupyter to run the notebook server and nbconvert; Go to build the
    # kernel in postBuild and %%go cells; a C compiler and binutils (objdump)
    # for %%c cells and their disassembly; make for the README's commands.
    for need in ("notebook", "jupyter_client", "nbconvert", "nbformat", "go", "c-compiler", "binutils", "make"):
        assert need in names, f"environment.yml lacks {need}"
    assert len(names) == len(deps), "a package is listed twice"


def test_postbuild_is_an_executable_script():
    mode = subprocess.run(["git", "ls-files", "-s", "postBuild"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.split()
    if mode:  # tracked: repo2docker runs ./postBuild after chmod +x, but keep the bit for local runs
        assert mode[0] == "100755", mode
    text = POSTBUILD.read_text()
    assert text.startswith("#!/bin/bash\n")
    assert re.search(r"^set -e", text, re.M), "postBuild must stop at the first failure (set -e)"
    for shell in ("sh", "bash"):
        r = subprocess.run([shell, "-n", str(POSTBUILD)], capture_output=True, text=True)
        assert r.returncode == 0, (shell, r.stderr)


def repo2docker_env(home, **extra):
    """The environment of `RUN ./postBuild` in a repo2docker image, minus
    conda: no CONDA_PREFIX (the environment is on PATH, not activated), a HOME
    of its own."""
    env = {"HOME": str(home), "LANG": "C.UTF-8", "USER": "jovyan"}
    env.update({k: str(v) for k, v in extra.items()})
    # repo2docker's PATH: ~/.local/bin, the environment's bin, the system's.
    path = [f"{home}/.local/bin"] + ([f"{env['NB_PYTHON_PREFIX']}/bin"] if "NB_PYTHON_PREFIX" in env else [])
    env["PATH"] = ":".join(path + ["/usr/bin", "/bin"])
    return env


NOBODY = 65534


@pytest.fixture
def sandbox():
    """A folder the notebook user can use. Binder runs postBuild as jovyan,
    who cannot write /usr/local; when these tests run as root, postBuild runs
    as nobody (setpriv), so that a postBuild that writes outside its prefix
    fails here as it would on Binder, and leaves this machine alone. pytest's
    tmp_path is private to root, hence a folder of its own, with a copy of
    BENCHBOOK_BIN that nobody can read."""
    import tempfile
    base = pathlib.Path(tempfile.mkdtemp(prefix="benchbook-binder-"))
    try:
        base.chmod(0o777)
        shutil.copy(BIN, base / "benchbook-built")
        (base / "benchbook-built").chmod(0o755)
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def as_notebook_user():
    """The command prefix that drops root, or [] when not root."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if not setpriv:
        missing("running as root without setpriv (util-linux): cannot run postBuild as a user")
    return [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


def fake_go(base):
    """A `go` that records its arguments in base/go.log and puts the kernel
    binary built by `make build` at -o; returns its folder."""
    bindir = base / "fakebin"
    bindir.mkdir()
    go = bindir / "go"
    go.write_text(f"""#!/bin/sh
echo "$@" >> {base}/go.log
out=""
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
mkdir -p "$(dirname "$out")"
cp {base}/benchbook-built "$out"
""")
    go.chmod(0o755)
    bindir.chmod(0o755)
    return bindir


def run_postbuild(base, env):
    home = pathlib.Path(env["HOME"])
    home.mkdir(exist_ok=True)
    home.chmod(0o777)
    env["PATH"] = f"{fake_go(base)}:{env['PATH']}"
    # A copy the notebook user can read: the checkout may sit in a folder
    # it cannot enter (/root, as in make test-fresh's chroot). With the fake
    # go, postBuild needs no sources beside it.
    repo = base / "repo"
    repo.mkdir(exist_ok=True)
    repo.chmod(0o755)
    script = repo / "postBuild"
    shutil.copyfile(POSTBUILD, script)
    script.chmod(0o755)
    return subprocess.run(as_notebook_user() + ["bash", str(script)], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)


def kernelspec(prefix):
    path = prefix / "share" / "jupyter" / "kernels" / "benchbook" / "kernel.json"
    assert path.is_file(), f"no kernelspec in {prefix}: {sorted(str(p) for p in prefix.rglob('*'))}"
    return json.loads(path.read_text())


def test_postbuild_needs_a_prefix(sandbox):
    r = run_postbuild(sandbox, repo2docker_env(sandbox / "home"))
    assert r.returncode != 0
    assert "NB_PYTHON_PREFIX" in r.stderr, r.stderr
    assert not (sandbox / "go.log").exists(), "postBuild built without knowing where to install"


# Which variable names the prefix, and which others are set beside it and must lose.
PRECEDENCE = {
    "BENCHBOOK_PREFIX": ("NB_PYTHON_PREFIX", "CONDA_PREFIX"),
    "NB_PYTHON_PREFIX": ("CONDA_PREFIX",),
    "CONDA_PREFIX": (),
}


@pytest.mark.parametrize("var", sorted(PRECEDENCE))
def test_postbuild_installs_into_the_prefix_it_is_given(sandbox, var):
    """With a fake go, as a user without rights outside HOME and the prefix:
    the prefix comes from BENCHBOOK_PREFIX, else NB_PYTHON_PREFIX (Binder),
    else CONDA_PREFIX (an activated env). The postBuild before these tests
    installed with --sys-prefix, which without CONDA_PREFIX means
    /usr/local/share/jupyter: permission denied on Binder."""
    others = {v: sandbox / f"other-{v}" for v in PRECEDENCE[var]}
    prefix = sandbox / "prefix"
    r = run_postbuild(sandbox, repo2docker_env(sandbox / "home", **{var: prefix}, **others))
    assert r.returncode == 0, r.stderr
    log = (sandbox / "go.log").read_text()
    assert log.startswith("build ") and f"-o {prefix}/bin/benchbook" in log, log
    spec = kernelspec(prefix)
    assert spec["argv"][0] == str(prefix / "bin" / "benchbook")
    for other in others.values():
        assert not other.exists(), f"postBuild wrote into {other}"
    assert not (sandbox / "home" / ".local" / "share" / "jupyter").exists()


def go_toolchain():
    """The go that `make build` uses, if it is new enough for go.mod."""
    go = shutil.which("go", path=f"/usr/local/go/bin:{os.environ.get('PATH', '')}")
    if not go:
        return None
    want = re.search(r"^go (\S+)", (ROOT / "go.mod").read_text(), re.M).group(1)
    have = subprocess.run([go, "env", "GOVERSION"], capture_output=True, text=True).stdout.strip()[2:]
    key = lambda v: [int(x) for x in re.findall(r"\d+", v)]
    return go if have and key(have) >= key(want) else None


def test_postbuild_builds_the_kernel_and_jupyter_starts_it(tmp_path):
    """The real toolchain, offline (GOPROXY=off, the module and build caches
    of this machine), as the Binder build runs it; then Jupyter, told only
    where the environment is, lists the kernelspec and runs a cell in it."""
    go = go_toolchain()
    if go is None:
        missing("no Go toolchain as new as go.mod's on this machine (scripts/setup.sh installs it)")
    out = subprocess.run([go, "env", "GOCACHE", "GOMODCACHE"], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    caches = {"GOCACHE": out[0], "GOMODCACHE": out[1]}
    prefix = tmp_path / "srv" / "conda" / "envs" / "notebook"
    home = tmp_path / "home"
    home.mkdir()
    env = repo2docker_env(home, NB_PYTHON_PREFIX=prefix, GOPROXY="off", GOFLAGS="-mod=readonly", **caches)
    env["PATH"] = f"{os.path.dirname(go)}:{env['PATH']}"
    # Runs as the current user (the build reads this machine's Go caches): if
    # postBuild ever wrote the system-wide kernelspec, undo that and fail.
    system = pathlib.Path("/usr/local/share/jupyter/kernels/benchbook")
    existed = system.exists()
    r = subprocess.run(["bash", str(POSTBUILD)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if system.exists() and not existed:
        shutil.rmtree(system, ignore_errors=True)
        pytest.fail("postBuild installed the kernelspec into /usr/local/share/jupyter, not the prefix")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("benchbook "), r.stdout  # benchbook version
    binary = prefix / "bin" / "benchbook"
    assert os.access(binary, os.X_OK)
    spec = kernelspec(prefix)
    assert spec["argv"] == [str(binary), "kernel", "-f", "{connection_file}"]
    assert not (home / ".local" / "share" / "jupyter").exists(), "postBuild installed into HOME"

    # Jupyter finds it from the environment's share/jupyter (in Binder that is
    # sys.prefix; here JUPYTER_PATH stands for it) and runs a cell.
    jenv = dict(os.environ)
    jdirs = tmp_path / "jupyter"
    for var in ("JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR"):
        (jdirs / var).mkdir(parents=True)
        jenv[var] = str(jdirs / var)
    jenv["JUPYTER_PATH"] = str(prefix / "share" / "jupyter")
    listed = json.loads(subprocess.run([sys.executable, "-m", "jupyter", "kernelspec", "list", "--json"],
                                       env=jenv, capture_output=True, text=True, check=True, timeout=60).stdout)
    assert listed["kernelspecs"]["benchbook"]["resource_dir"] == str(prefix / "share" / "jupyter" / "kernels" / "benchbook")
    check = """
from jupyter_client.manager import start_new_kernel
km, kc = start_new_kernel(kernel_name="benchbook", startup_timeout=30)
try:
    msg_id = kc.execute("x := 40\\nx + 2")
    while True:
        m = kc.get_iopub_msg(timeout=30)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_result":
            print(m["content"]["data"]["text/plain"])
            break
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
"""
    r = subprocess.run([sys.executable, "-c", check], env=jenv, cwd=tmp_path, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "42", (r.stdout, r.stderr)
