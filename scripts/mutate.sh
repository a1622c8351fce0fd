#!/bin/sh
# mutate.sh: mutation testing of the statistics (stdlib/stats) and of verify
# (ipynb/evidence), nanobench's practice: put known bugs back, one at a time, into a
# scratch copy of the tree, run the focused tests that should catch each, and
# print one line per mutant: "caught" (the suite failed) or "SURVIVED" (it
# passed with the bug in: a test is missing).
#
#   scripts/mutate.sh                 every mutant
#   scripts/mutate.sh holm- verify-   the mutants whose names start so
#   scripts/mutate.sh -l              list the mutants
#   scripts/mutate.sh -n [NAME...]    apply and compile each, run no test
#   RUN=TestHolm scripts/mutate.sh holm-   only the tests go test -run RUN selects
#
# The scratch copy holds the working tree's files as they are (tracked and
# untracked, not ignored), so a test written and not yet committed counts;
# the working tree itself is never touched, and the copy is removed on exit.
# Each mutant is an exact text replacement that must match exactly once and
# must compile (tests included): a mutant that does not apply or does not
# compile is a failure of this script (exit 2), never "caught". The focused
# suites are first run unmutated and must pass, else nothing is learnt.
#
# Exits 0 when every mutant is caught, 1 when any survives, 2 on a failure of
# the script itself.
#
# The whole script is one compound command, read before it runs: editing it
# (or checking out another version) while it runs cannot change what runs.
{
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/usr/local/go/bin:$PATH
GO=${GO:-go}

# The suite that should catch a mutant of each package.
suite() {
	case $1 in
	stats) echo ./stdlib/stats/... ;;
	verify) echo ./ipynb/... ;;
	*) echo "mutate.sh: no suite for $1" >&2; exit 2 ;;
	esac
}

# m NAME SUITE FILE OLD NEW: the mutant NAME replaces the one occurrence of
# the text OLD in FILE by NEW, and SUITE should catch it.
mutants() {
	# stdlib/stats: quantiles and medians
	m median-off-by-one stats stdlib/stats/summarize.go \
		'm := len(s) / 2' 'm := (len(s) - 1) / 2'
	m median-even-takes-upper stats stdlib/stats/summarize.go \
		'return (s[m-1] + s[m]) / 2' 'return s[m]'
	m bootstrap-high-off-by-one stats stdlib/stats/bootstrap.go \
		'return sorted[t], sorted[r-1-t]' 'return sorted[t], sorted[r-t]'
	m rank-interval-low-off-by-one stats stdlib/stats/verdict.go \
		'v.Low, v.High = math.Exp(sorted.Kth(k-1)), math.Exp(sorted.Kth(m-k))' \
		'v.Low, v.High = math.Exp(sorted.Kth(k)), math.Exp(sorted.Kth(m-k))'
	# Holm
	m holm-forgets-order stats stdlib/stats/holm.go \
		'vi, vj := val(i), val(j)' 'vi, vj := 0.0, 0.0; _, _ = val(i), val(j)'
	m holm-forgets-multiplier stats stdlib/stats/holm.go \
		'running = max(running, min(1, float64(m-j)*val(i)))' 'running = max(running, min(1, val(i)+0*float64(j)))'
	m holm-forgets-running-max stats stdlib/stats/holm.go \
		'running = max(running, min(1, float64(m-j)*val(i)))' 'running = min(1, float64(m-j)*val(i))'
	m stepdown-forgets-order stats stdlib/stats/sequential.go \
		'slices.SortStableFunc(order, func(i, j int) int { return cmpFloat(ps[i], ps[j]) })' \
		'slices.SortStableFunc(order, func(i, j int) int { return 0 })'
	m stepdown-forgets-multiplier stats stdlib/stats/sequential.go \
		'for step < m && ps[order[step]] <= alpha/float64(m-step)*(1+1e-12) {' \
		'for step < m && ps[order[step]] <= alpha*(1+1e-12) {'
	# Intervals: the wrong tail (alpha on one side instead of alpha/2)
	m bootstrap-one-tail stats stdlib/stats/bootstrap.go \
		't := min(int(math.Round(float64(r)*(1-confidence)/2)), (r-1)/2)' \
		't := min(int(math.Round(float64(r)*(1-confidence))), (r-1)/2)'
	m t-critical-one-tail stats stdlib/stats/verdict.go \
		't := mathext.InvRegIncBeta(nu/2, 0.5, alpha)' 't := mathext.InvRegIncBeta(nu/2, 0.5, 2*alpha)'
	# The paired statistic analysed unpaired
	m bootstrap-paired-drawn-unpaired stats stdlib/stats/bootstrap.go \
		'if opt.Paired {' 'if false {'
	m compare-paired-as-unpaired stats stdlib/stats/verdict.go \
		'v := Verdict{Ratio: safeRatio(a, b), N: len(a), Method: MethodPaired}' \
		'if true { v, err := CompareUnpaired(a, b, alpha); v.Method, v.N = MethodPaired, len(a); return v, err }; v := Verdict{Ratio: safeRatio(a, b), N: len(a), Method: MethodPaired}'
	m clustered-pairs-broken stats stdlib/stats/clustered.go \
		'd[i] = math.Log(a[j][i] / b[j][i])' 'd[i] = math.Log(a[j][i] / b[j][(i+1)%len(d)])'
	# The sequential test's stopping bound
	m seq-ignores-spending stats stdlib/stats/sequential.go \
		'allowed += alpha * seqWeight(k)' 'allowed = alpha'
	m seq-forgets-spent stats stdlib/stats/sequential.go \
		'if spent+add > allowed*(1+1e-12) {' 'if add > allowed*(1+1e-12) {'
	m seq-not-nested stats stdlib/stats/sequential.go \
		'b[i][k] = min(b[i][k], b[i-1][k])' '_ = b[i-1][k]'

	# ipynb/evidence: verify
	m verify-skips-source-sha256 verify ipynb/evidence/verify_native.go \
		'if got := sha256Hex(b.Body); got != k.SourceSHA256 {' \
		'if got := sha256Hex(b.Body); false && got != k.SourceSHA256 {'
	m verify-skips-rederive verify ipynb/evidence/verify_native.go \
		'	if text == "" {' '	if text == "" || true {'
	m verify-rederive-ignores-dead-hollow verify ipynb/evidence/verify_native.go \
		'case a.Dead != dead || a.Hollow != hollow:' 'case false && (a.Dead != dead || a.Hollow != hollow):'
	m verify-skips-batch-rederive verify ipynb/evidence/verify_native.go \
		'err == nil && (a.Dead != v.BatchDead || a.Hollow != v.BatchHollow) {' \
		'err == nil && false && (a.Dead != v.BatchDead || a.Hollow != v.BatchHollow) {'
	m verify-accepts-any-text-version verify ipynb/evidence/verify.go \
		'if shown.TextVersion != protocol.TextVersion {' 'if false {'
	m verify-accepts-older-text-version verify ipynb/evidence/verify.go \
		'if shown.TextVersion != protocol.TextVersion {' 'if shown.TextVersion > protocol.TextVersion || shown.TextVersion == 0 {'
	m verify-skips-plots verify ipynb/evidence/verify_plots.go \
		'if !slices.ContainsFunc(nb.Cells[cell].Outputs,' 'if true || !slices.ContainsFunc(nb.Cells[cell].Outputs,'
	m verify-plots-not-compared verify ipynb/evidence/verify_plots.go \
		'if got, want := sha256.Sum256(stored), sha256.Sum256(f.PNG); got != want {' \
		'if got, want := sha256.Sum256(stored), sha256.Sum256(f.PNG); false && got != want {'
	m verify-skips-samples-sha256 verify ipynb/evidence/verify.go \
		'if s.SHA256 != "" && s.SHA256 != protocol.SamplesDigest(s.SamplesNS) {' \
		'if false && s.SHA256 != "" && s.SHA256 != protocol.SamplesDigest(s.SamplesNS) {'
	m verify-skips-build-assembly verify ipynb/evidence/verify_native.go \
		'case e.Asm != v.Asm:' 'case false && e.Asm != v.Asm:'
}

# selected NAME: whether the arguments select the mutant NAME.
selected() {
	[ $# -gt 1 ] || return 0
	n=$1
	shift
	for p in "$@"; do
		case $n in "$p"*) return 0 ;; esac
	done
	return 1
}

if [ "${1:-}" = -l ]; then
	m() { printf '%-38s %-6s %s\n' "$1" "$2" "$3"; }
	mutants
	exit 0
fi

dry=no
if [ "${1:-}" = -n ]; then
	dry=yes
	shift
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mutate.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
trap 'exit 2' INT TERM HUP
tree=$scratch/tree
mkdir "$tree" || exit 2
# The working tree's files as they are, tracked and untracked (not ignored);
# a tracked file deleted in the working tree is left out.
(cd "$root" && git ls-files -z --cached --others --exclude-standard) |
	(cd "$root" && tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
	(cd "$tree" && tar -xf -) || { echo "mutate.sh: cannot copy the tree to $tree" >&2; exit 2; }

# The suites the selected mutants need, run once unmutated: they must pass.
args="$*"
m() { ! selected "$1" $args || echo "$2"; }
need=$(mutants | sort -u)
if [ -z "$need" ]; then
	echo "mutate.sh: no mutant starts with: $args" >&2
	exit 2
fi
for s in $need; do
	[ $dry = no ] || break
	if ! (cd "$tree" && $GO test -count=1 ${RUN:+-run "$RUN"} $(suite "$s")) >"$scratch/base.log" 2>&1; then
		echo "mutate.sh: the $s suite ($(suite "$s")) fails without any mutant; fix that first:" >&2
		tail -n 30 "$scratch/base.log" >&2
		exit 2
	fi
	echo "baseline  $s suite passes unmutated ($(suite "$s"))"
done

total=0 survived=0
m() {
	name=$1 s=$2 file=$3
	selected "$name" $args || return 0
	total=$((total + 1))
	cp "$tree/$file" "$scratch/orig" || exit 2
	n=$(OLD=$4 NEW=$5 perl -0777 -i -pe '$n = () = /\Q$ENV{OLD}\E/g; s/\Q$ENV{OLD}\E/$ENV{NEW}/ if $n == 1; END { print STDERR $n }' "$tree/$file" 2>&1)
	if [ "$n" != 1 ] || cmp -s "$tree/$file" "$scratch/orig"; then
		echo "mutate.sh: mutant $name does not apply: its text is found ${n:-?} times in $file (want once):" >&2
		echo "  $4" >&2
		exit 2
	fi
	pkgs=$(suite "$s")
	if ! (cd "$tree" && $GO test -count=1 -run '^$' $pkgs) >"$scratch/build.log" 2>&1; then
		echo "mutate.sh: mutant $name does not compile:" >&2
		grep -v '^ok\|no test files' "$scratch/build.log" | head -n 20 >&2
		exit 2
	fi
	if [ $dry = yes ]; then
		printf 'applies   %-38s %s (compiles)\n' "$name" "$file"
	elif (cd "$tree" && $GO test -count=1 -failfast -timeout 15m ${RUN:+-run "$RUN"} $pkgs) >"$scratch/test.log" 2>&1; then
		survived=$((survived + 1))
		printf 'SURVIVED  %-38s %s: %s passes with it\n' "$name" "$file" "$pkgs"
	else
		first=$(grep -m 1 -- '--- FAIL\|^panic:\|^FAIL' "$scratch/test.log" | sed 's/^ *//')
		printf 'caught    %-38s %s\n' "$name" "$first"
	fi
	cp "$scratch/orig" "$tree/$file" || exit 2
}
mutants
[ $dry = no ] || { echo "$total mutants apply and compile"; exit 0; }
echo "$total mutants: $((total - survived)) caught, $survived survived"
[ "$survived" -eq 0 ]
exit
}
