#!/usr/bin/env bash
# make test: everything CI runs, in order: the kernel tree, the harness's
# own unit tests, the export round trip, the RFC series ('scripts/rfc.sh
# --check': the whole stack, and the stable fix alone, apply with git am
# on base), 'make check' (without the per-patch builds), 'make compare'
# (make debug's kernel and guest start after the tree, beside all
# that), 'make debug' and the benchmark
# smoke run.  Every stage runs even when an earlier one failed (except
# when the tree cannot be made), so one run shows every problem.  The last line is the plain 'N passed,
# N failed' tally over the unit tests, the checks and the comparison rows.
. "$(dirname "$0")/lib.sh"

res=$BUILD/results
mkdir -p "$res"
rm -f "$res"/*.counts "$res"/stage-*.log
rc=0
times=()
start=$(date +%s)
failed_logs=()
# stage NAME CMD...: run CMD (in a subshell, its output also in a log);
# a failed stage's log tail is printed again at the end, where CI's
# excerpt of the output looks.
stage() {
	local name=$1 t0 verdict=passed log
	t0=$(date +%s)
	shift
	note "test: $name"
	log=$res/stage-$((${#times[@]} + 1)).log
	"$@" 2>&1 | tee "$log" || verdict=FAILED
	if [ "$verdict" != passed ]; then
		rc=1
		failed_logs+=("$name"$'\t'"$log")
	fi
	note "test: $name $verdict ($(($(date +%s) - t0)) s)"
	times+=("$(printf '%6d s  %-6s  %s' "$(($(date +%s) - t0))" "$verdict" "$name")")
}

# shellcheck disable=SC2317 # called through stage
unit() {
	local log=$res/unit.log st=0
	python3 -m unittest discover -s "$TOP/tests/harness" -t "$TOP" -p 'test_*.py' -v >"$log" 2>&1 || st=$?
	tail -n 5 "$log"
	[ "$st" -eq 0 ] || grep -E '^(FAIL|ERROR):' "$log"
	local run failed
	run=$(sed -n 's/^Ran \([0-9]*\) tests\?.*/\1/p' "$log")
	failed=$(grep -cE '^(FAIL|ERROR):' "$log" || true)
	echo "$((${run:-0} - failed)) $failed 0" >"$res/unit.counts"
	[ "$st" -eq 0 ] && [ "${run:-0}" -gt 0 ]
}

# make debug's kernel and guest start right after the tree, beside the
# stages before compare, which keep one core of two busy: they need the
# test programs and nothing else of make compare.  The programs are built
# here first; compare waits for them (wait_file programs.rc), and its own
# run of tests/build-programs.sh then finds them up to date (gdb-data
# too: made again only for another gdb), so nothing rewrites a file a
# guest runs.  The debug stage then compares the debug guest's rows with
# compare's.
# Its files say when each part is done: stages run in subshells, which
# cannot wait for it.
# shellcheck disable=SC2317 # run in the background
debug_early() {
	local st=0
	"$TOP/tests/build-programs.sh" >"$res/programs.log" 2>&1 || st=$?
	echo "$st" >"$res/programs.rc"
	if [ "$st" -eq 0 ]; then
		"$TOP/scripts/debug.sh" --boot >"$res/debug-boot.txt" 2>&1 || st=$?
	fi
	echo "$st" >"$res/debug-early.rc"
}

# wait_file FILE: until debug_early wrote FILE.
# shellcheck disable=SC2317 # called through compare_counts
wait_file() {
	while [ ! -s "$1" ]; do
		sleep 1
	done
}

# shellcheck disable=SC2317 # called through stage
# make compare; make debug's guest runs beside it (debug_early).  The
# guests wait more than they compute (scripts/compare.sh).
compare_counts() {
	local st=0
	wait_file "$res/programs.rc"
	cat "$res/programs.log"
	[ "$(cat "$res/programs.rc")" = 0 ] || return 1
	"$TOP/scripts/compare.sh" || st=$?
	if [ -f "$res/compare.tsv" ]; then
		# Which words fail a row: tests/verdicts.py.
		"$TOP/tests/verdicts.py" counts "$res/compare.tsv" >"$res/compare.counts"
	fi
	# Its failure is the debug stage's (debug.sh --judge reads it).
	wait_file "$res/debug-early.rc"
	[ ! -f "$res/debug-boot.txt" ] || cat "$res/debug-boot.txt"
	return "$st"
}

# shellcheck disable=SC2317 # called through stage
rfc_series() {
	if "$TOP/scripts/rfc.sh" --check; then
		echo "1 0 0" >"$res/rfc.counts"
	else
		echo "rfc: 'make rfc' would write a series that does not apply or is not numbered right (above)"
		echo "0 1 0" >"$res/rfc.counts"
		return 1
	fi
}

# shellcheck disable=SC2317 # called through stage
roundtrip() {
	if "$TOP/scripts/export.sh" --check-only; then
		echo "1 0 0" >"$res/roundtrip.counts"
	else
		echo "export: 'make tree' then 'make export' would change branches/: the round trip is not exact"
		echo "0 1 0" >"$res/roundtrip.counts"
		return 1
	fi
}

stage "kernel tree" "$TOP/scripts/tree.sh"
if [ ! -d "$LINUX_DIR/.git" ]; then
	echo "0 1 0" >"$res/tree.counts"
	stage "harness unit tests" unit
else
	rm -f "$res/programs.rc" "$res/programs.log" "$res/debug-boot.txt" "$res/debug-early.rc"
	debug_early &
	stage "harness unit tests" unit
	stage "export round trip" roundtrip
	stage "RFC series (make rfc: git am on base, the stable fix alone)" rfc_series
	stage "make check (without per-patch builds)" "$TOP/checks/run.sh" --no-series
	stage "make compare (and make debug's guest beside it)" compare_counts
	stage "make debug (lockdep & co, every compare program)" "$TOP/scripts/debug.sh" --judge
	if [ -x "$TOP/bench/run.sh" ]; then
		stage "make bench-smoke" "$TOP/bench/run.sh" --smoke
	fi
fi

passed=0 failed=0 skipped=0
for f in "$res"/*.counts; do
	[ -f "$f" ] || continue
	read -r p fl s <"$f"
	passed=$((passed + p)) failed=$((failed + fl)) skipped=$((skipped + s))
done
[ $rc -eq 0 ] || [ $failed -gt 0 ] || failed=1 # a stage failed without counting
# The rows that failed, by name, last: CI shows the tail of this output.
for t in compare debug; do
	[ -f "$res/$t.tsv" ] || continue
	"$TOP/tests/verdicts.py" failing "$res/$t.tsv" >"$res/$t.failing" || continue
	[ -s "$res/$t.failing" ] || continue
	note "test: failing rows of make $t ($(wc -l <"$res/$t.failing"); all in $res/$t.tsv)"
	head -n 12 "$res/$t.failing" | cut -c1-160
done
for f in "${failed_logs[@]}"; do
	note "test: the end of the failed stage '${f%%$'\t'*}' (all of it in ${f#*$'\t'})"
	tail -n 15 "${f#*$'\t'}" | cut -c1-200
done
note "test: stage times"
printf '%s\n' "${times[@]}"
printf '%6d s  total\n' "$(($(date +%s) - start))"
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
