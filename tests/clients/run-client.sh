#!/usr/bin/env bash
# Guest side of one real-client test: run a real ptrace client (strace or
# gdb) on the fixed workload, print its raw transcript, check it.
#
#   run-client.sh CLIENT BINDIR
#
# CLIENT is one of: strace-f strace-c strace-seccomp gdb gdb-watch (the
# gdb ones run gdb in batch mode on tests/clients/CLIENT.gdb).  BINDIR holds
# the workload and its helper (built by tests/build-programs.sh into
# build/tests/clients).
#
# Output (run-tests.sh indents it below the program's KTAP result):
#   '# BEGIN TRANSCRIPT clients/CLIENT', the raw transcript with every line
#   prefixed '# ', '# END TRANSCRIPT clients/CLIENT' (the host extracts,
#   normalises and compares it between kernels: tests/clients/transcripts.py),
#   then check.py's TAP.  Exit status: check.py's (0 pass, 1 fail, 4 skip).
#
# Each client run is bounded by a timeout.  gdb occasionally spins at start
# under QEMU TCG: a gdb run that times out is run once more, and the output
# says so, in a line the host turns into a row of its own, 'clients/CLIENT
# retry' (tests/clients/transcripts.py: flaky after a retry, never a
# silent pass):
#   '# clients: CLIENT: runs N of at most MAX, timed out T'
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
client=$1
bindir=$(cd "$2" 2>/dev/null && pwd) || bindir=$2
workload=$bindir/workload
kind=${client%%-*} # strace or gdb
# Seconds per run; a gdb run takes about 4 s under TCG, strace about 1 s.
# CLIENT_RUN_TIMEOUT changes it (the harness's unit test of the retry).
per_run=${CLIENT_RUN_TIMEOUT:-40}

fail() {
	echo "# clients: $client: $*"
	echo "not ok 1 setup"
	exit 1
}
skip() {
	echo "ok 1 setup # SKIP $*"
	exit 4
}

if [ ! -x "$workload" ] || [ ! -x "$bindir/workload-helper" ]; then
	fail "$workload or its helper is missing: run tests/build-programs.sh on the host"
fi
command -v python3 >/dev/null || fail "python3 is not installed on the host (run make deps)"

case $client in
strace-f) cmd=(strace -f -s 200 -o trace "$workload") ;;
strace-c) cmd=(strace -c -S name -o trace "$workload") ;;
strace-seccomp) cmd=(strace -f --seccomp-bpf -e "trace=%process,getpid" -s 200 -o trace "$workload") ;;
gdb | gdb-watch)
	# No separate debug information, as in the gdbstub test
	# (tests/gdbstub/gdbstub-test.sh, gdb_run(), says why): the
	# transcript does not depend on whether the machine has libc6-dbg.
	cmd=(gdb -nx -batch -iex 'set debug-file-directory' -x "$here/$client.gdb" "$workload") ;;
*) fail "unknown client (see the usage in $0)" ;;
esac
tool=$(command -v "${cmd[0]}") || skip "${cmd[0]} is not installed on the host (run make deps: strace, gdb or gdb-minimal)"
cmd[0]=$tool
if [ "$kind" = gdb ]; then
	# gdb's data directory with its Python compiled (build-programs.sh).
	gdbdata=$(cd "$bindir/../gdb-data" 2>/dev/null && pwd) ||
		fail "gdb's data directory $bindir/../gdb-data is missing: run tests/build-programs.sh on the host"
	cmd=("${cmd[0]}" --data-directory="$gdbdata" "${cmd[@]:1}")
fi

max_runs=1
[ "$kind" != gdb ] || max_runs=2
work=$(mktemp -d /tmp/client.XXXXXX)
cd "$work"

# run_once: the client in an empty environment; sets rc (137: timed out)
# and counts the runs and the time-outs.
runs=0 timeouts=0
run_once() {
	rm -f trace stdout stderr
	runs=$((runs + 1))
	rc=0
	if [ "$kind" = gdb ]; then
		env -i HOME="$work" timeout -s KILL "$per_run" "${cmd[@]}" >stdout 2>&1 </dev/null || rc=$?
	else
		env -i HOME="$work" timeout -s KILL "$per_run" "${cmd[@]}" >stdout 2>stderr </dev/null || rc=$?
	fi
	[ $rc -ne 137 ] || timeouts=$((timeouts + 1))
}

start=$(date +%s)
run_once
if [ $rc -eq 137 ] && [ $runs -lt $max_runs ]; then
	echo "# clients: $client: gdb timed out after ${per_run}s (the known gdb start-up spin under TCG?); retrying once"
	run_once
	[ $rc -ne 137 ] || echo "# clients: $client: gdb timed out again after ${per_run}s"
fi
echo "# clients: $client: ran for $(($(date +%s) - start))s, exit status $rc"
[ $max_runs -eq 1 ] || echo "# clients: $client: runs $runs of at most $max_runs, timed out $timeouts"

{
	echo "== client $client"
	echo "== command ${cmd[*]}"
	if [ "$kind" = gdb ]; then
		echo "== output"
		cat stdout
	else
		echo "== trace"
		cat trace 2>/dev/null || true
		echo "== stdout"
		cat stdout
		echo "== stderr"
		cat stderr
	fi
	echo "== exit status $rc"
} >transcript

echo "# BEGIN TRANSCRIPT clients/$client"
sed 's/^/# /' transcript
echo "# END TRANSCRIPT clients/$client"

rc=0
# -S: no site-packages; importing them costs about a second under TCG.
python3 -S "$here/check.py" "$client" transcript || rc=$?
cd /
rm -rf "$work"
exit $rc
