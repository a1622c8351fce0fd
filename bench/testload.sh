#!/bin/sh
# bench/testload.sh: issue 21's target for `make test` on a busy machine:
# green 3 times out of 3 while two busy loops run on the same machine, and
# its wall time, quiet against busy, side by side in one run. It runs
# `make test` once quiet, then RUNS times (default 3) with BUSY busy loops
# (default 2: one per vCPU here), each a shell spinning on arithmetic, started
# before and killed after each run. Printed: each run's seconds, its exit
# status and the load average at its end; then the pass count and the
# median busy/quiet ratio. Exits 1 if any run failed.
#
# Usage: bench/testload.sh   (make bench-testload; RUNS=3 BUSY=2; QUIET=0 skips the quiet run)
set -u
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
BUSY=${BUSY:-2}
QUIET=${QUIET:-1}
log=$(mktemp -d /tmp/testload.XXXXXX)
spinners=""
stop() {
	for p in $spinners; do kill "$p" 2>/dev/null; done
	spinners=""
}
trap 'stop' EXIT INT TERM

run() { # run LABEL: one make test, its time and status
	t0=$(date +%s.%N)
	make test >"$log/$1.log" 2>&1
	status=$?
	t1=$(date +%s.%N)
	s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	printf '%-8s %7.1f s  exit %d  (load %s at its end; log %s)\n' "$1" "$s" "$status" "$(cut -d' ' -f1 /proc/loadavg)" "$log/$1.log"
	echo "$1 $s $status" >>"$log/times"
}

[ "$QUIET" = 0 ] || run quiet
i=0
while [ "$i" -lt "$RUNS" ]; do
	i=$((i + 1))
	j=0
	while [ "$j" -lt "$BUSY" ]; do
		j=$((j + 1))
		sh -c 'while :; do i=$((i + 1)); done' &
		spinners="$spinners $!"
	done
	run "busy-$i"
	stop
done

awk -v runs="$RUNS" '
	$1 == "quiet" { q = $2 }
	$1 ~ /^busy/ { n++; t[n] = $2; if ($3 == 0) ok++; else bad++ }
	END {
		printf "make test under %d busy loops: green %d of %d\n", '"$BUSY"', ok, n
		if (q > 0 && n > 0) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
			m = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
			printf "busy/quiet: %.2f (median busy %.1f s, quiet %.1f s)\n", m / q, m, q
		}
		exit bad > 0
	}' "$log/times"
