#!/bin/sh
# measure-tests.sh: the Go tests that really measure, the ones whose first
# line is measuretest.Gate(t) (internal/measuretest), run one package at a
# time (they would measure each other) with BENCHBOOK_MEASURE=1. `make test`
# skips them; `make test-measure` runs this, then pytest -m measure.
#
#   scripts/measure-tests.sh        run them
#   scripts/measure-tests.sh -l     list them: package and test, one a line
#
# A call of measuretest.Gate anywhere but the first line of a top-level
# Test function is an error here: this script would not find its test.
set -eu
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH
GO=${GO:-go}

# folder<TAB>TestName for each gated test; a misplaced Gate prints BAD.
list=$(git ls-files '*_test.go' | grep -v '^third_party/' | xargs awk '
	FNR == 1 { prev = "" }
	/measuretest\.Gate\(/ {
		if (prev ~ /^func Test[A-Za-z0-9_]*\(t \*testing\.T\) \{$/ && $0 ~ /^\tmeasuretest\.Gate\(t\)$/) {
			name = prev; sub(/^func /, "", name); sub(/\(.*/, "", name)
			dir = FILENAME; if (dir !~ /\//) dir = "."; else sub(/\/[^\/]*$/, "", dir)
			print dir "\t" name
		} else print "BAD\t" FILENAME ":" FNR
	}
	{ prev = $0 }')
if printf '%s\n' "$list" | grep -q '^BAD'; then
	printf '%s\n' "$list" | sed -n 's/^BAD\t/measure-tests: measuretest.Gate(t) is not the first line of a Test function: /p' >&2
	exit 2
fi
[ -n "$list" ] || { echo "measure-tests: no gated test found" >&2; exit 2; }
if [ "${1:-}" = -l ]; then
	printf '%s\n' "$list"
	exit 0
fi

export BENCHBOOK_MEASURE=1
status=0
for dir in $(printf '%s\n' "$list" | cut -f1 | sort -u); do
	names=$(printf '%s\n' "$list" | awk -F'\t' -v d="$dir" '$1 == d { printf "%s%s", sep, $2; sep = "|" }')
	pkg=./$dir
	[ "$dir" = . ] && pkg=.
	echo "measure-tests: $pkg: $(echo "$names" | tr '|' ' ')"
	$GO test -count=1 -p 1 -run "^($names)\$" "$pkg" || status=1
done
exit $status
