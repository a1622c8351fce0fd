#!/bin/sh
# setup.sh: everything benchbook needs on a fresh Debian 12 machine, installed
# only where missing. Used by `make run`, `make test`, CI (.ci/run) and the
# Dockerfile, so that all of them set up the same way.
#
#   scripts/setup.sh          the toolchains and Debian's Jupyter stack
#   scripts/setup.sh --browser   also what the tests drive: Chromium, Node.js (the JavaScript
#                                save: JSON.parse, JSON.stringify), jupyter-server, JupyterHub
#   scripts/setup.sh --slurm     also Debian's Slurm (slurmctld, slurmd, the client) and munge,
#                                for make test-fleet (scripts/test-fleet.sh)
set -eu

GO_VERSION=1.26.8   # the go line of go.mod
browser=no
slurm=no
[ "${1:-}" = "--browser" ] && browser=yes
[ "${1:-}" = "--slurm" ] && slurm=yes

say() { printf 'setup: %s\n' "$*" >&2; }

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
		say "need root to run: $*"; exit 1; fi
}

# Debian packages: the C toolchain and objdump, Debian's Python with the
# Jupyter stack (PyPI is not used), and what the integration tests drive.
pkgs="gcc libc6-dev binutils make ca-certificates curl unzip git
python3 jupyter-client python3-jupyter-client jupyter-console python3-jupyter-kernel-test
jupyter-nbconvert python3-nbclient python3-nbformat jupyter-notebook python3-ipykernel python3-pytest"
# The test setup: Chromium for the HTML check; Node.js for the JavaScript save; jupyter-server, JupyterHub (with
# Debian's configurable-http-proxy) and python3-websocket for the server and hub
# tests (tests/test_server.py, tests/test_hub.py); python3-yaml for test_binder.
[ "$browser" = yes ] && pkgs="$pkgs valgrind chromium nodejs jupyter-server python3-jupyter-server python3-websocket
jupyterhub node-configurable-http-proxy python3-yaml"
# Slurm 22.05 and munge for the one-node cluster of make test-fleet. Debian's
# packages enable systemd units; the test starts its own daemons, as root.
[ "$slurm" = yes ] && pkgs="$pkgs slurmctld slurmd slurm-client munge"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing Debian packages:$missing"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
	# Debian's jupyterhub package starts a hub on every interface, port
	# 8000, where systemd runs: the tests start their own on 127.0.0.1.
	case " $missing " in *" jupyterhub "*)
		if [ -d /run/systemd/system ]; then as_root systemctl disable --now jupyterhub >/dev/null 2>&1 || true; fi ;;
	esac
fi

# Go: the version go.mod names. Debian 12's golang-go is 1.19, too old, so
# take the toolchain from the Go module proxy (the same zip GOTOOLCHAIN
# downloads) when the go on PATH is missing or older.
have_go() {
	command -v go >/dev/null 2>&1 || return 1
	v=$(go env GOVERSION 2>/dev/null | sed 's/^go//')
	[ "$(printf '%s\n%s\n' "$GO_VERSION" "$v" | sort -V | head -1)" = "$GO_VERSION" ]
}
if ! have_go && [ -x /usr/local/go/bin/go ]; then PATH=/usr/local/go/bin:$PATH; export PATH; fi
if ! have_go; then
	arch=$(dpkg --print-architecture)
	# The module proxy: GOPROXY, else the default of Debian's own Go
	# (installed here only to ask it), so no address is written down here.
	if [ -z "${GOPROXY:-}" ]; then
		if ! command -v go >/dev/null 2>&1 && ! [ -x /usr/lib/go/bin/go ]; then
			say "installing Debian's golang-go to learn its default module proxy"
			as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
			as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends golang-go >/dev/null
		fi
		GOPROXY=$( (command -v go >/dev/null 2>&1 && go env GOPROXY) || /usr/lib/go/bin/go env GOPROXY)
	fi
	proxy=$(printf '%s' "$GOPROXY" | tr ',|' '\n\n' | grep -v '^direct$' | grep -v '^off$' | head -1)
	[ -n "$proxy" ] || { say "GOPROXY=$GOPROXY names no module proxy to download Go $GO_VERSION from"; exit 1; }
	url="$proxy/golang.org/toolchain/@v/v0.0.1-go$GO_VERSION.linux-$arch.zip"
	say "installing Go $GO_VERSION from $url"
	tmp=$(mktemp -d)
	curl -fsSL -o "$tmp/go.zip" "$url"
	unzip -q "$tmp/go.zip" -d "$tmp"
	as_root rm -rf /usr/local/go
	as_root mv "$tmp/golang.org/toolchain@v0.0.1-go$GO_VERSION.linux-$arch" /usr/local/go
	as_root chmod -R a+rX /usr/local/go
	as_root chmod a+x /usr/local/go/bin/* /usr/local/go/pkg/tool/*/*
	rm -rf "$tmp"
	PATH=/usr/local/go/bin:$PATH
fi
say "ready: $(go version), $(cc --version | head -1), $(/usr/bin/python3 -c 'import jupyter_client; print("jupyter_client", jupyter_client.__version__)')"
