#!/bin/sh
# Guest-side test runner (run by boot/guest-init.sh).
#
#   run-tests.sh RUNLIST [WRAPPER]
#
# RUNLIST has one test program per line: "SUITE TIMEOUT COMMAND...", where
# SUITE names the program in the results, TIMEOUT is in seconds and
# COMMAND is run by sh.  '#' lines are comments.  A TIMEOUT of SKIP
# means the program is not run at all, and COMMAND is the reason (shown
# as a skip, so the table says why it is absent).
#
# Output is KTAP: one top-level result per program, with the program's own
# TAP (kselftest_harness) indented below it as its subtests.  Each program
# runs in a fresh tmpfs directory, in its own session, with default signal
# dispositions, no stdin, and is killed with its process group (SIGKILL)
# when it outlives TIMEOUT.
#
# WRAPPER, if given, is a program that every COMMAND is started through
# ("WRAPPER sh -c COMMAND", inside the session, the timeout and the
# default dispositions; split into words, so it may carry options):
# tests/bystander/bystander, which attaches a second utrace engine to
# every process of the program.
list=$1
wrapper=${2:-}
n=$(grep -c '^[^#]' "$list")
echo "KTAP version 1"
echo "1..$n"
[ -z "$wrapper" ] || echo "# every program runs through $wrapper"
i=0
while read -r suite tmo cmd; do
	case "$suite" in '' | '#'*) continue ;; esac
	i=$((i + 1))
	echo "# suite: $suite"
	if [ "$tmo" = SKIP ]; then
		echo "ok $i $suite # SKIP $cmd"
		continue
	fi
	dir=$(mktemp -d /tmp/test.XXXXXX)
	start=$(date +%s)
	# shellcheck disable=SC2086 # WRAPPER: words, none when empty
	(cd "$dir" && exec setsid timeout -s KILL "$tmo" env --default-signal $wrapper sh -c "$cmd") \
		>"$dir.out" 2>&1 </dev/null
	rc=$?
	secs=$(($(date +%s) - start))
	sed 's/^/    /' "$dir.out"
	if [ $rc -ne 0 ] && [ $secs -ge "$tmo" ]; then
		echo "not ok $i $suite # TIMEOUT after ${tmo}s"
	elif [ $rc -eq 0 ]; then
		echo "ok $i $suite # time=${secs}s"
	elif [ $rc -eq 4 ]; then
		echo "ok $i $suite # SKIP exit status 4"
	else
		echo "not ok $i $suite # exit=$rc time=${secs}s"
	fi
	rm -rf "$dir" "$dir.out"
done <"$list"
