#!/bin/sh
# fuzz.sh: runs every fuzz target for a short fixed time, one target per
# `go test -fuzz` (go fuzzes one target at a time), and prints one line per
# target. A failing input is written by go under the package's
# testdata/fuzz/FuzzXxx/; this prints where. Commit it (with a one-line
# comment in the target naming the bug) and it runs under `go test ./...`
# as a regression test from then on.
#
#   scripts/fuzz.sh                   every target, FUZZTIME each (default 5s)
#   FUZZTIME=60s scripts/fuzz.sh FuzzVerify FuzzParse   the targets named
#
# Exits non-zero if any target fails.
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-5s}

# module folder, package, target
targets='
. ./kernel FuzzReceive
. ./kernel FuzzConnectionFile
. ./cells FuzzParseMagic
. ./internal/options FuzzParseOptions
. ./ipynb/evidence FuzzReadNotebook
. ./ipynb/evidence FuzzVerify
. ./internal/asm FuzzParse
. ./internal/records FuzzRecords
. ./internal/machine FuzzClockRanges
third_party/zmq4 . FuzzReadMsg
third_party/zmq4 . FuzzHandshake
'

out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
echo "$targets" | while read -r mod pkg name; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ]; then
		want=no
		for a in "$@"; do [ "$a" = "$name" ] && want=yes; done
		[ $want = yes ] || continue
	fi
	where=$(echo "$mod/$pkg" | sed 's#/\./#/#; s#^\./##; s#/\.$##')
	t0=$(date +%s)
	fuzz() { (cd "$mod" && $GO test -run '^$' -fuzz "^$name\$" -fuzztime "$1" "$pkg") >"$out" 2>&1; }
	# go reports "context deadline exceeded" without a failing input when
	# the fuzz time ends before its warm-up over the corpus does (a cold
	# build cache, a loaded machine): not a finding, so try once more with
	# four times the time; a real failure writes its input and fails anyway.
	if fuzz "$FUZZTIME" || { grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written' "$out" &&
		fuzz "$(echo "$FUZZTIME" | sed 's/^\([0-9]*\)/\1*4/' | awk -F'*' '{split($2,a,/[a-z]+/); u=substr($2,length(a[1])+1); print $1*a[1] u}')"; }; then
		printf 'fuzz: ok    %-20s %-18s %ss\n' "$name" "$where" $(($(date +%s) - t0))
	else
		printf 'fuzz: FAIL  %-20s %-18s %ss\n' "$name" "$where" $(($(date +%s) - t0))
		grep -v '^fuzz: elapsed' "$out" | sed 's/^/    /' | head -40
		sed -n 's#^ *Failing input written to \(.*\)$#    failing input: '"$where"'/\1#p' "$out"
		echo fail >>"$out.failed"
	fi
done
if [ -e "$out.failed" ]; then
	rm -f "$out.failed"
	echo "fuzz: failures above; total $(($(date +%s) - start))s"
	exit 1
fi
echo "fuzz: all passed in $(($(date +%s) - start))s (FUZZTIME=$FUZZTIME each)"
