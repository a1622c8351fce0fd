#!/bin/sh
# The fingerprint's targets (issue 22), on this machine:
#  - it reads the same within its stated noise on RUNS consecutive runs
#    (default 20), each `benchbook fingerprint --json` a process of its own,
#    as each %bench is: per entry the range of its values and the largest
#    distance between two runs in units of the noise both state, and how
#    many pairs of runs compare as the same hardware;
#  - what it adds to a %bench: a quick %bench with and without it, taking
#    turns, side by side (BenchmarkFingerprintAdded; at most 0.3 s).
set -eu
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
RUNS=${RUNS:-20}
make -s build
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
i=1
while [ "$i" -le "$RUNS" ]; do
	bin/benchbook fingerprint --json >"$dir/$(printf %03d "$i").json"
	i=$((i + 1))
done
BENCHBOOK_FINGERPRINTS=$dir go test -count=1 -run '^TestFingerprintRepeatability$' -v ./bench | grep -v '^=== \|^--- \|^PASS\|^ok'
go test -count=1 -run '^$' -bench '^BenchmarkFingerprintAdded$' -benchtime "${BENCHTIME:-10x}" ./bench | grep Fingerprint
