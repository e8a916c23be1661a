#!/bin/sh
# Guest side: the utrace engine selftests (tools/testing/selftests/utrace)
# with this kernel's test module.
#
#   utrace-engines.sh PROGRAM
#
# Loads $UTRACE_KBUILD/lib/test_utrace.ko (boot/qemu.py passes the booted
# kernel's build directory as UTRACE_KBUILD), runs PROGRAM (its TAP output
# gives one row per test), then checks that every engine was released, no
# callback ran after its barrier, and the module unloads.  Exit status 4
# (skip) on a kernel without CONFIG_UTRACE; any other problem fails.
prog=$1
sys=/sys/module/test_utrace

if ! grep -q '^Utrace:' /proc/self/status; then
	echo "# skip: this kernel has no CONFIG_UTRACE"
	exit 4
fi
ko=${UTRACE_KBUILD:-}/lib/test_utrace.ko
if [ -z "${UTRACE_KBUILD:-}" ] || [ ! -f "$ko" ]; then
	echo "# FAIL: no test module at '$ko' (UTRACE_KBUILD='${UTRACE_KBUILD:-}'): build with CONFIG_TEST_UTRACE=m"
	exit 1
fi
insmod "$ko" || { echo "# FAIL: insmod $ko"; exit 1; }

"$prog"
rc=$?

live=$(cat "$sys/parameters/live")
late=$(cat "$sys/parameters/late")
echo "# engines attached $(cat "$sys/parameters/attached"), released $(cat "$sys/parameters/released"), live $live, late callbacks $late"
if [ "$live" != 0 ] || [ "$late" != 0 ]; then
	echo "# FAIL: $live engine(s) not released, $late callback(s) after a barrier"
	rc=1
fi
if ! rmmod test_utrace; then
	echo "# FAIL: rmmod test_utrace (an engine still holds it)"
	rc=1
fi
exit $rc
