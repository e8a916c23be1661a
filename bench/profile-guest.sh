#!/bin/sh
# Guest side of bench/profile.sh: run one benchmark of bench/src/bench.c,
# pinned to CPU 0 and without ASLR as bench/guest.sh runs it.
#
#   profile-guest.sh CONF     (CONF sets BIN, NAME and N)
# shellcheck disable=SC1090 # the CONF file named on the command line
. "$1"
taskset -p 1 $$ >/dev/null || echo "taskset failed: running unpinned"
echo 0 >/proc/sys/kernel/randomize_va_space
mkdir -p /tmp/bin
cp "$BIN/bench" /tmp/bin/ || { echo "profile: cannot copy $BIN/bench"; exit 1; }
/tmp/bin/bench "$NAME" "$N"
echo "profile: bench $NAME $N exit status $?"
