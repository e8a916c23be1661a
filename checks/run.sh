#!/usr/bin/env bash
# make check: every static check of the series.  Runs them all, then fails
# if any failed, so one run shows every problem.
. "$(dirname "$0")/../scripts/lib.sh"

mkdir -p "$BUILD/results"
rc=0
"$TOP/checks/checkpatch.sh" || rc=1
"$TOP/scripts/build.sh" $(active_configs) || rc=1
"$TOP/checks/static.sh" || rc=1
"$TOP/checks/series-build.sh" || rc=1
if [ $rc -ne 0 ]; then
	echo "check: FAILED (see the findings above)"
else
	echo "check: OK"
fi
exit $rc
