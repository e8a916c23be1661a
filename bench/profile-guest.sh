#!/bin/sh
# Guest side of bench/profile.sh: run one benchmark of bench/src/bench.c,
# pinned to CPU 0 and without ASLR as bench/guest.sh runs it.
#
#   profile-guest.sh CONF     (CONF sets BIN, NAME, N, ARG, KO and WRAP)
#
# KO, if set, is a module to load first (the utrace test module, for
# "engines"); its .text address goes to the log for profile.py.
# shellcheck disable=SC1090 # the CONF file named on the command line
. "$1"
taskset -p 1 $$ >/dev/null || echo "taskset failed: running unpinned"
echo 0 >/proc/sys/kernel/randomize_va_space
mkdir -p /tmp/bin
cp "$BIN/bench" /tmp/bin/ || { echo "profile: cannot copy $BIN/bench"; exit 1; }
if [ -n "${KO:-}" ]; then
	insmod "$KO" || { echo "profile: insmod $KO failed"; exit 1; }
	mod=$(basename "$KO" .ko)
	echo "profile: module text at $(cat "/sys/module/$mod/sections/.text")"
fi
# The same pids on every kernel, as bench/guest.sh gives each row.
echo 999 >/proc/sys/kernel/ns_last_pid || echo "profile: cannot set the next pid"
# WRAP, if set, is a command to run the benchmark under (its words).
# shellcheck disable=SC2086 # ARG: no word, or one; WRAP: words
${WRAP:-} /tmp/bin/bench "$NAME" "$N" ${ARG:-}
echo "profile: bench $NAME $N${ARG:+ $ARG} exit status $?"
