#!/bin/sh
# bench/makerun.sh: the wall time of `make run`'s notebook, this tree against
# an older one, side by side in one run (issue 19's target: at most half of
# the tree before it, 13a8548). Each tree is built from a clean worktree and
# runs its own notebooks/investigation.ipynb with its own binary, in a copy
# of notebooks/ (so Part 9 finds published/ beside it); the runs alternate,
# old first, ROUNDS pairs (default 1). Printed: each run's seconds and the
# load average at its start, then the median ratio new/old.
#
# Usage: bench/makerun.sh [OLD_REV] [NEW_REV]   (defaults 13a8548, HEAD)
# Each run is make run's: benchbook run NOTEBOOK -o OUT --html HTML. With
# KEEP=DIR the last new run's executed notebook, HTML and results/ are
# copied to DIR. Run it on a quiet machine; a pair takes about ten minutes.
set -eu
OLD=${1:-13a8548}
NEW=${2:-HEAD}
ROUNDS=${ROUNDS:-1}
export PATH="/usr/local/go/bin:$PATH"
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/makerun.XXXXXX)
trap 'git -C "$repo" worktree remove --force "$tmp/old" 2>/dev/null; git -C "$repo" worktree remove --force "$tmp/new" 2>/dev/null; rm -rf "$tmp"' EXIT

for side in old new; do
	rev=$OLD
	[ "$side" = new ] && rev=$NEW
	git -C "$repo" worktree add --detach -f "$tmp/$side" "$rev" >/dev/null 2>&1
	(cd "$tmp/$side" && go build -o bin/benchbook .) || { echo "makerun: $side ($rev) does not build" >&2; exit 1; }
	echo "$side: $(git -C "$tmp/$side" log --oneline -1 | cut -c1-100)"
done

times=""
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	i=$((i + 1))
	for side in old new; do
		work="$tmp/run-$side-$i"
		cp -r "$tmp/$side/notebooks" "$work"
		load=$(cut -d' ' -f1 /proc/loadavg)
		t0=$(date +%s.%N)
		if ! (cd "$work" && "$tmp/$side/bin/benchbook" run investigation.ipynb -o out.ipynb --html out.html >run.log 2>&1); then
			echo "makerun: the $side notebook failed (round $i):" >&2
			tail -20 "$work/run.log" >&2
			exit 1
		fi
		t1=$(date +%s.%N)
		s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
		printf '%s round %d: %6.1f s (load %s at its start)\n' "$side" "$i" "$s" "$load"
		times="$times $side:$s"
		if [ "$side" = new ] && [ -n "${KEEP:-}" ]; then
			mkdir -p "$KEEP" && cp -r "$work/out.ipynb" "$work/out.html" "$work/results" "$work/run.log" "$KEEP/"
		fi
	done
done

echo "$times" | tr ' ' '\n' | awk -F: '
	$1 == "old" { o[++no] = $2 } $1 == "new" { n[++nn] = $2 }
	END {
		for (i = 1; i <= no; i++) r[i] = n[i] / o[i]
		# median of the pairs ratios (few: sort by hand)
		for (i = 1; i <= no; i++) for (j = i + 1; j <= no; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
		m = (no % 2) ? r[(no + 1) / 2] : (r[no / 2] + r[no / 2 + 1]) / 2
		printf "new/old: %.3f (median of %d pairs; target <= 0.5)\n", m, no
	}'
