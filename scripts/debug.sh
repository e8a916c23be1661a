#!/usr/bin/env bash
# make debug: the utrace-on kernel with the kernel's bug detectors runs
# every test program of make compare: the kernel's ptrace, x86 and seccomp
# selftests, the utrace engine tests, our ptrace conformance suite and the
# strace/gdb clients.
#
#   debug.sh [--boot | --judge] [KERNEL]
#
# --boot builds the kernel and runs the guest (it needs the test programs
# of tests/build-programs.sh, nothing of make compare); --judge compares
# the rows that guest left with make compare's.  make test runs the boot
# beside make compare's guests and the judging after them; without an
# option, both, one after the other.
#
# KERNEL is a config of kconfigs/ (default debug):
#   debug  lockdep, atomic-sleep, debugobjects, list debugging, full
#          preemption (make debug, part of make test)
#   kasan  KASAN and kmemleak (make slow): kmemleak scans once after
#          boot (what boot leaves is not ours: the scan forgets it) and once
#          after the tests; those two are rows of this kernel only
#   rt     PREEMPT_RT with lockdep (make slow); the rows that a documented
#          limit of the series changes there are listed, with the reason,
#          in tests/rt-differences.txt
#   base   the pristine base tree built like utrace-off (make slow): its
#          reference is utrace-off, not utrace-on, and the rows that the
#          series changes on purpose are listed, with the reason, in
#          tests/base-differences.txt (side_by_side.py --changed)
#
# It fails when the kernel's console shows any report (the same scan as
# make compare), or when a result differs from the utrace-on kernel's
# (base: utrace-off's) for the same test (make compare must have run
# first: it leaves build/results/utrace-on/results.tsv and kunit.tsv).  The KUnit suites
# built into the kernel run at its boot: each case is a row too, compared
# with utrace-on's.  Writes build/results/KERNEL.tsv,
# build/results/KERNEL.counts ("passed failed skipped" over its rows) and
# build/results/kcidb-KERNEL.json (the KERNEL column as a KCIDB document;
# the utrace-on column is make compare's kcidb.json).
. "$(dirname "$0")/lib.sh"

boot=1 judge=1
case "${1:-}" in
--boot) judge=0 && shift ;;
--judge) boot=0 && shift ;;
-*) die "usage: scripts/debug.sh [--boot | --judge] [KERNEL]" ;;
esac
name=${1:-debug}
res=$BUILD/results
out=$res/$name
refname=utrace-on
[ "$name" != base ] || refname=utrace-off
ref=$res/$refname/results.tsv
list=$BUILD/tests/runlist-$name
mkdir -p "$out"
rm -f "$res/$name.counts" "$res/$name.tsv" "$res/kcidb-$name.json"
[ $boot -eq 0 ] || rm -f "$out/booted"

fail() {
	echo "$name: $*" >&2
	echo "0 1 0" >"$res/$name.counts"
	exit 1
}

tree_has_utrace || fail "the kernel tree has no CONFIG_UTRACE: nothing to debug yet"
if [ $judge -eq 1 ]; then
	[ -f "$ref" ] || fail "no $refname results in $ref: run 'make compare' first"
	if grep -qx 'CONFIG_KUNIT=y' "$BUILD/out/$refname/.config" 2>/dev/null &&
		[ ! -f "$res/$refname/kunit.tsv" ]; then
		fail "no $refname KUnit rows in $res/$refname/kunit.tsv: run 'make compare' first"
	fi
fi
[ $boot -eq 0 ] || [ -f "$BUILD/tests/runlist" ] ||
	fail "no run list: run 'make compare' (tests/build-programs.sh) first"

if [ $boot -eq 1 ]; then
	if [ "$name" = base ]; then
		(build_base) || fail "building the base kernel failed (above)"
	else
		"$TOP/scripts/build.sh" "$name" || fail "building the $name kernel failed (above)"
	fi
fi

# Every program of make compare: with ptrace on utrace, seccomp_bpf, the
# x86 selftests and the strace/gdb clients all drive utrace stops too.
only=(--only "$name=stress-ng/")
changed=()
[ "$name" != base ] || changed=(--changed "$name=$TOP/tests/base-differences.txt")
# PREEMPT_RT: the rows a documented limit of the series there changes.
[ "$name" != rt ] || changed=(--changed "$name=$TOP/tests/rt-differences.txt")
kmemleak=false
if grep -qx 'CONFIG_DEBUG_KMEMLEAK=y' "$BUILD/out/$name/.config"; then
	kmemleak=true
	only+=(--only "$name=kmemleak/")
fi
rc=0
if [ $boot -eq 1 ]; then
	: >"$list"
	! $kmemleak || echo "kmemleak/boot 300 sh $TOP/tests/kmemleak.sh boot" >>"$list"
	cat "$BUILD/tests/runlist" >>"$list"
	# Debian's stress-ng ptrace stressor, bounded: tracers and tracees forked
	# in a loop on two CPUs; a row of the debug kernels only.
	[ "$name" = base ] ||
		echo "stress-ng/ptrace 180 stress-ng --ptrace 2 --timeout 60s --metrics-brief" >>"$list"
	! $kmemleak || echo "kmemleak/tests 300 sh $TOP/tests/kmemleak.sh tests" >>"$list"
	note "booting the $name kernel, $(grep -vc '^#' "$list") test programs (log: $out/output.log)"
	boot_guest "$name" "$name" "$TOP/tests/run-tests.sh" "$list" "$out" || rc=1
	# What --judge reads: whether the guest finished, its console was
	# clean and its results were complete.
	echo "$rc" >"$out/booted"
	[ $judge -eq 1 ] || exit $rc
fi
[ -f "$out/booted" ] || fail "the $name guest has not run: 'scripts/debug.sh --boot $name' first"
[ "$(cat "$out/booted")" = 0 ] || rc=1
refs=("$ref")
cols=("$name=$out/results.tsv")
if grep -qx 'CONFIG_KUNIT=y' "$BUILD/out/$name/.config"; then
	kunit_rows "$name" "$out" || rc=1
	cols+=("$name=$out/kunit.tsv")
	[ ! -f "$res/$refname/kunit.tsv" ] || refs+=("$res/$refname/kunit.tsv")
fi

# The reference kernel's rows of the same suites, and all its KUnit rows
# (a case missing here reads 'missing'), as the reference column.
suites=$(awk -F'\t' 'NR > 1 { print $1 }' "$out/results.tsv" | sort -u)
awk -F'\t' -v s="$suites" 'BEGIN { n = split(s, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
	FNR == 1 { if (NR == 1) print; next } ($1 in want) || $1 ~ /^kunit\//' "${refs[@]}" >"$out/reference.tsv"
"$TOP/tests/side_by_side.py" "$res/$name.tsv" "$refname=$out/reference.tsv" "${cols[@]}" \
	--known "$TOP/tests/known-failures.txt" "${only[@]}" "${changed[@]}" >"$out/compare.txt" || {
	grep -E '<>|fail|missing|UNCHANGED' "$out/compare.txt" >&2 || tail -n 20 "$out/compare.txt" >&2
	echo "$name: the $name kernel's results differ from $refname's or fail (full: $out/compare.txt)" >&2
	rc=1
}
tail -n 1 "$out/compare.txt"
# The same rows for KernelCI (tests/README.md, "KCIDB"), this kernel's
# column only: the reference column is make compare's kcidb.json.
kcidb_json "$res/kcidb-$name.json" "$res/$name.tsv" --leave-out "$refname" || rc=1

# Which words fail a row: tests/verdicts.py.  A failed run counts one
# failure at least.
counts=$("$TOP/tests/verdicts.py" counts "$res/$name.tsv") || counts="0 1 0"
read -r p f s <<<"$counts"
[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
echo "$p $f $s" >"$res/$name.counts"
exit $rc
