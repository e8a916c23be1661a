#!/usr/bin/env bash
# make check: every static check of the series.  Runs them all, then fails
# if any failed, so one run shows every problem.
#
#   checks/run.sh [--no-series]
#
# --no-series (used by 'make test'): skip the per-patch builds.  Building
# every patch of the series in both configs costs a full kernel rebuild
# for each patch that touches a widely included header, which does not fit
# CI's budget on two cores; the run says so and counts it as skipped,
# never as passed.  Run plain 'make check' before sending the series.
. "$(dirname "$0")/../scripts/lib.sh"

series=1
[ "${1:-}" = "--no-series" ] && series=0
mkdir -p "$BUILD/results"
rc=0
"$TOP/checks/checkpatch.sh" || rc=1
# shellcheck disable=SC2046 # one argument per config name
"$TOP/scripts/build.sh" $(active_configs) || rc=1
"$TOP/checks/static.sh" || rc=1
"$TOP/checks/ptrace-symbols.sh" || rc=1
if [ $series -eq 1 ]; then
	"$TOP/checks/series-build.sh" || rc=1
else
	echo "check: SKIPPED per-patch builds of the $(kgit rev-list --count "base..${TOPICS[-1]}") commits (run 'make check' for them)"
	echo "0 0 1" >"$BUILD/results/check-series-build.counts"
fi
if [ $rc -ne 0 ]; then
	echo "check: FAILED (see the findings above)"
else
	echo "check: OK"
fi
exit $rc
