#!/bin/sh
# Guest side of the utrace-on+bystander column of make compare.
#
#   guest.sh RUNLIST [MODULE.ko]
#
# Loads the test module (MODULE.ko, by default the booted kernel's
# $UTRACE_KBUILD/lib/test_utrace.ko: boot/qemu.py passes the kernel's
# build directory), runs RUNLIST with tests/run-tests.sh with every
# program started through the bystander wrapper (built by tests/build-programs.sh
# next to the run list, in bystander/), then checks that every engine was
# released, that no callback came after its barrier and that no child
# went without its engine, and unloads the module.  BYSTANDER_OPTS, if
# set, are options for the wrapper (e.g. "-n 4 -e 27fc"; see bystander.c).
#
# The engine selftests (ksft-utrace/) are left out: they load and unload
# the module themselves, and the bystander engines would keep it loaded;
# make compare shows their rows as n/a in this column.
#
# The last line is "# bystander: module ok: ..." or "# bystander: module
# FAILED: ..."; scripts/compare.sh fails the run without the former.
# Nothing runs without the module: no plan line then, so every row of the
# column is missing.
list=$1
ko=${2:-${UTRACE_KBUILD:+$UTRACE_KBUILD/lib/test_utrace.ko}}
here=$(cd "$(dirname "$0")" && pwd)
wrapper=$(dirname "$list")/bystander/bystander
sys=/sys/module/test_utrace

fatal() {
	echo "# bystander: module FAILED: $*"
	exit 1
}

[ -n "$ko" ] || fatal "no module: UTRACE_KBUILD is not set and no MODULE.ko was given"
[ -f "$ko" ] || fatal "$ko does not exist: build the utrace-on kernel with CONFIG_TEST_UTRACE=m"
[ -x "$wrapper" ] || fatal "no wrapper $wrapper: run tests/build-programs.sh"
insmod "$ko" || fatal "insmod $ko failed"
[ -c /dev/test_utrace ] || fatal "insmod $ko gave no /dev/test_utrace"

run=/tmp/bystander.runlist
grep -v '^ksft-utrace/' "$list" >"$run"
echo "# bystander: $(grep -c '^ksft-utrace/' "$list") ksft-utrace program(s) left out"
echo "# bystander: wrapper options: ${BYSTANDER_OPTS:-none}"
sh "$here/../run-tests.sh" "$run" "$wrapper${BYSTANDER_OPTS:+ $BYSTANDER_OPTS}"

# Every session is closed once the last process holding it is gone; give
# stragglers (reaped by init) a moment.
i=0
while [ "$(cat "$sys/parameters/live")" != 0 ] && [ $i -lt 20 ]; do
	sleep 0.5
	i=$((i + 1))
done
p() { cat "$sys/parameters/$1"; }
live=$(p live)
late=$(p late)
errs=$(p clone_errors)
echo "# bystander: engines attached $(p attached), released $(p released), live $live; callbacks $(p calls), bounce stops $(p bounced); late callbacks $late, clone attach errors $errs"
why=""
[ "$live" = 0 ] || why="$why, $live engine(s) not released"
[ "$late" = 0 ] || why="$why, $late callback(s) after a barrier"
[ "$errs" = 0 ] || why="$why, $errs child(ren) without the engine"
if ! rmmod test_utrace || [ -d "$sys" ]; then
	why="$why, rmmod test_utrace failed"
fi
if [ -n "$why" ]; then
	echo "# bystander: module FAILED: ${why#, }"
	exit 1
fi
echo "# bystander: module ok: every engine released, module unloaded"
