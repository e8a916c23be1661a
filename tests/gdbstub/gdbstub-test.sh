#!/bin/sh
# Guest side of the /proc/PID/gdb test (CONFIG_UTRACE_GDB, the utrace-gdb
# topic branch).
#
#   gdbstub-test.sh BINDIR [PART[:debug]]
#
# BINDIR holds 'target' (target.c) and 'perm' (perm.c), built by
# tests/build-programs.sh; fuzz.py is next to this script.  PART is open,
# perm, exec, kill, ctrlc, exit, pass, avx, fuzz, strace, bp, watch,
# cond, coexist or all (the default); ':debug' logs gdb's packets ('set debug remote 1') into the
# transcripts.
#
# The oracle of every gdb transcript is the same gdb commands through
# Debian's gdbserver, attached to a fresh copy of the same program in the
# same guest ('target extended-remote | gdbserver --once - --attach PID').
# Both transcripts are normalised (normalise() below: addresses, ids, and
# each known difference with its reason) and must be identical.  The
# runs under strace have no gdbserver run of their own (a ptracer
# excludes gdbserver): they are compared with gdbserver's run of the same
# commands without strace.
#
#   open    : /proc/PID/gdb stops every thread (a sleeping one stays
#             asleep, parked), a second open gets EBUSY,
#             closing lets them run again;
#   perm    : perm.c's matrix: opening is refused to whom PTRACE_ATTACH
#             refuses, with its errno (credentials, dumpable, YAMA's
#             ptrace_scope, kernel threads, own process, zombies);
#             a set-user-ID exec gains nothing under a user's tracer;
#   exec    : an exec ends the session (end of file, EIO, runs free);
#   kill    : threads, a breakpoint, memory write, registers, print, bt,
#             next, stepi, continue, kill;
#   ctrlc   : gdb's Ctrl-C (SIGINT to gdb) stops the running process;
#   exit    : continue to a normal exit (W), 'signal SIGTERM' (C, X);
#   pass    : a SIGUSR1 stop and its $_siginfo; 'handle SIGUSR1 nostop
#             noprint pass' (QPassSignals);
#   avx     : ymm0 and ymm1 read where vec_test() loaded them, ymm1
#             written, and what the program stores after it;
#   fuzz    : fuzz.py's malformed and random input, three seeds;
#   strace  : the kill session ending in detach while 'strace -f -p PID'
#             traces the process, which then exits normally, and strace
#             saw no SIGTRAP;
#   bp      : 'break *tick' hit three times (PC at the function, the
#             original bytes read through the inserted breakpoint, stepi
#             runs the instruction once, next, a Z0 on data refused),
#             delete, continue to the exit; alone, then while
#             'strace -f -p PID' traces the process (no SIGTRAP there);
#   watch   : 'watch counter' (Z2) set before the thread that writes it
#             first exists, two hits with their old and new values,
#             delete, continue to the exit; alone, then under strace;
#   cond    : conditional breakpoints evaluated in the target (gdb's
#             ConditionalBreakpoints: a condition on an argument, on
#             memory through a pointer, on a register, two conditions
#             at one address), the stub's packet log with a stop reply
#             for the true hits only, raw Z0 conditions (fuzz.py), and
#             a condition that faults (the oracle: gdb evaluating it);
#   coexist : 'strace -ff' of coexist.c alone, and while gdb hits
#             breakpoints and watchpoints in it through the stub: each
#             thread's normalised strace transcript is the same.
#
# Prints TAP; each transcript is printed between BEGIN/END lines, raw.
# Exit status 0 when everything passed, 4 (skip) on a kernel without
# /proc/PID/gdb, 1 otherwise.
bindir=${1:?usage: gdbstub-test.sh BINDIR [PART[:debug]]}
spec=${2:-all}
dir=$(cd "$(dirname "$0")" && pwd)
target=$(cd "$bindir" 2>/dev/null && pwd)/target
# gdb's data directory with its Python compiled (tests/build-programs.sh).
gdbdata=$(cd "$bindir/../gdb-data" 2>/dev/null && pwd)
only=${spec%%:*}
# want PART: PART is to run; a part's time is printed when the next begins.
part='' part_t0=0
want() {
	[ "$only" = all ] || [ "$only" = "$1" ] || return 1
	[ "$1" != "$part" ] || return 0
	part_time
	part=$1 part_t0=$(date +%s)
}
part_time() { [ -z "$part" ] || echo "# time: part $part took $(($(date +%s) - part_t0)) s"; }
dbg=0
case $spec in *:debug) dbg=1 ;; esac

if [ ! -e /proc/self/gdb ]; then
	echo "# skip: this kernel has no /proc/PID/gdb (CONFIG_UTRACE_GDB)"
	exit 4
fi

echo "TAP version 13"
n=0
failed=0
# ok/notok MESSAGE: the test's name is MESSAGE up to its first " (", the
# same on every kernel and run (the harness compares rows by name); what
# follows (pids, addresses, states) goes to a diagnostic line.
result() { # ok|"not ok" MESSAGE
	n=$((n + 1))
	tname=${2%% (*}
	echo "$1 $n $tname"
	[ "$tname" = "$2" ] || echo "# ${2#"$tname" }"
}
ok() { result ok "$*"; }
notok() { failed=$((failed + 1)); result "not ok" "$*"; }
check() { if [ "$1" = 0 ]; then shift; ok "$@"; else shift; notok "$@"; fi; }
finish() {
	part_time
	echo "1..$n"
	cd /
	rm -rf "$work"
	[ $failed = 0 ]
	exit $?
}

work=$(mktemp -d /tmp/gdbstub.XXXXXX)
cd "$work" || exit 1
[ -x "$target" ] || { notok "the program is built ($target is missing: tests/build-programs.sh builds it)"; finish; }
if ! command -v gdb >/dev/null || ! command -v gdbserver >/dev/null; then
	notok "gdb and gdbserver are needed (scripts/deps.sh installs them)"
	finish
fi
[ -n "$gdbdata" ] || { notok "gdb's data directory is built ($bindir/../gdb-data is missing: tests/build-programs.sh builds it)"; finish; }

# wait_ready: up to 20 s for the background program to print "ready".
wait_ready() {
	i=0
	while ! grep -q ready target.out 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# start_target: run the target in the background, in a session and
# process group of its own as a program started from a shell is (Ctrl-C
# through gdbserver signals the process group of the program it attached
# to); sets pid.
start_target() {
	rm -f target.out
	setsid "$target" >target.out 2>&1 &
	pid=$!
	wait_ready
}

# start_strace SECONDS: 'strace -f -p' the target (killed after SECONDS),
# sets spid, and waits (up to 10 s) until the target shows a tracer.
start_strace() {
	timeout -s KILL "$1" strace -f -o strace.out -p "$pid" 2>strace.err &
	spid=$!
	i=0
	until grep -q "^TracerPid:[[:space:]]*[1-9]" /proc/"$pid"/status || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# strace_sees_calls_only NAME: strace.out has the target's three getpid()
# calls and no SIGTRAP (breakpoints are uprobes, steps are not signals).
strace_sees_calls_only() {
	c=$(grep -c "^[0-9]* *getpid(" strace.out)
	[ "$c" = 3 ]
	check $? "$1: strace saw every getpid() ($c)"
	! grep -q "SIGTRAP" strace.out
	check $? "$1: strace sees no SIGTRAP ($(grep -c SIGTRAP strace.out) lines)"
}

# under_strace NAME SESSION CHECKS: the session function SESSION (OUT
# SERVER) through the stub while 'strace -f -p PID' traces a fresh
# target; its transcript against gdbserver's run of the same session
# without strace (NAME.gdbserver, from both()), CHECKS (NAME TRANSCRIPT)
# on it, a normal exit of the target and of strace, which saw every call
# and no SIGTRAP.
under_strace() {
	start_target
	start_strace 180
	"$2" "$1-strace.stub" stub
	wait $pid
	st=$?
	wait $spid
	sst=$?
	show "$1-strace.stub" "$1-strace.stub"
	show "$1-strace" strace.out
	compare "$1-strace" "$1-strace.stub" "$1.gdbserver"
	"$3" "$1-strace" "$1-strace.stub"
	[ $st = 0 ]
	check $? "$1-strace: the target exited with 0 (status $st)"
	[ $sst = 0 ] && grep -q "+++ exited with 0 +++" strace.out
	check $? "$1-strace: strace exited normally and saw the exit with 0 (status $sst)"
	strace_sees_calls_only "$1-strace"
}

# states: the one-letter states of the target's threads, sorted.
states() {
	for s in /proc/"$pid"/task/*/stat; do
		sed 's/.*) \(.\).*/\1/' "$s"
	done | sort | tr -d '\n'
}

# wait_states WANT: up to 30 s for every thread to be in state WANT; the
# last look stays in $st.
wait_states() {
	i=0
	while [ $i -lt 300 ]; do
		st=$(states)
		[ -n "$st" ] && [ -z "$(echo "$st" | tr -d "$1")" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# wait_exact WANT: up to 30 s for the sorted states to be exactly WANT.
wait_exact() {
	i=0
	while [ $i -lt 300 ]; do
		[ "$(states)" = "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

show() { # NAME FILE
	echo "# BEGIN TRANSCRIPT $1"
	sed 's/^/# /' "$2"
	echo "# END TRANSCRIPT $1"
}

# normalise FILE: what differs between two runs of the same commands
# whatever the server, plus the differences between the stub and
# gdbserver that are known, each with its reason:
#  - addresses, process and thread ids (gdbserver names threads PID.TID);
#  - gdb's "get_tty_state failed" / "set_tty_state failed": gdb opens a
#    file as a serial line and its terminal ioctls fail (ENOTTY), as
#    Documentation/trace/utrace-gdb.rst says;
#  - "(process PID)" against "(Remote target)": gdbserver speaks the
#    multiprocess extensions, so gdb knows its pid; the stub does not;
#  - the argument of tick() at its first instruction ('break *tick', the
#    line of its '{'), before the function stored it: stack garbage,
#    different in every run;
#  - gdbserver's own messages go to gdbserver.err, not into the transcript;
#  - runs of spaces (the column padding of 'info threads').
tick_line=$(($(grep -n '^__attribute__((noinline)) int tick' "$dir/target.c" | cut -d: -f1) + 1))
normalise() {
	sed -e '/^[gs]et_tty_state failed: Inappropriate ioctl for device$/d' \
	    -e 's/0x[0-9a-f]\{1,16\}/ADDR/g' \
	    -e 's/Thread [0-9.]*/Thread TID/g' \
	    -e 's/LWP [0-9]*/LWP TID/g' \
	    -e 's/(process [0-9]*)/(Remote target)/g' \
	    -e "s/tick (n=-\\{0,1\\}[0-9]*) at target.c:$tick_line\$/tick (n=N) at target.c:$tick_line/" \
	    -e 's/  */ /g' \
	    "$1"
}

# compare NAME STUB-TRANSCRIPT SERVER-TRANSCRIPT
compare() {
	if ! grep -q '^== exit status' "$2" 2>/dev/null || ! grep -q '^== exit status' "$3" 2>/dev/null; then
		notok "$1: transcript as through gdbserver (a transcript is missing: '$2', '$3')"
		return
	fi
	normalise "$2" >"$2.norm"
	normalise "$3" >"$3.norm"
	if diff -u "$3.norm" "$2.norm" >"$2.diff"; then
		ok "$1: transcript as through gdbserver"
	else
		sed 's/^/# /' "$2.diff"
		notok "$1: transcript as through gdbserver (diff above: - gdbserver, + stub)"
	fi
}

# gdb_run [&] OUT SERVER SECONDS COMMAND...: gdb in batch mode on the
# target ($pid) through SERVER (stub: /proc/PID/gdb; gdbserver: gdbserver
# attached through a pipe), with the gdb commands COMMAND... ('-ex' each),
# output to OUT.  'set sysroot /': both read the program's files from
# the guest's own file system.  An empty debug-file-directory: gdb reads
# no separate debug information (libc6-dbg, if the machine has it), so
# the transcripts do not depend on what else is installed, and a gdb
# start-up costs a fifth of the instructions (1.4 G on the host with
# libc6-dbg, most of it inflating and indexing libc's DWARF; 0.3 G
# without).  Its data directory is the copy with its Python compiled
# (build-programs.sh says why).  With '&' gdb runs in the background,
# its pid in gpid, and the caller waits for it.  The program is $target
# unless $program names another.
gdb_run() {
	bg=0
	[ "$1" != "&" ] || { bg=1; shift; }
	out=$1 server=$2 secs=$3
	shift 3
	case $server in
	stub) conn=/proc/$pid/gdb ;;
	gdbserver) conn="| exec gdbserver --once - --attach $pid 2>>gdbserver.err" ;;
	esac
	set -- -iex 'set debug-file-directory' \
		-ex 'set pagination off' -ex 'set confirm off' \
		-ex 'set width 0' -ex 'set height 0' \
		-ex 'set print thread-events off' -ex 'set sysroot /' \
		-ex "set debug remote $dbg" \
		-ex "target extended-remote $conn" "$@"
	if [ $bg = 1 ]; then
		# --foreground: a signal that timeout passes on reaches gdb
		# alone, as a Ctrl-C reaches gdb and not its pipe's gdbserver.
		timeout --foreground -s KILL "$secs" gdb -nx -batch --data-directory="$gdbdata" "$@" "${program:-$target}" </dev/null >"$out" 2>&1 &
		gpid=$!
		return
	fi
	timeout -s KILL "$secs" gdb -nx -batch --data-directory="$gdbdata" "$@" "${program:-$target}" </dev/null >"$out" 2>&1
	echo "== exit status $?" >>"$out"
}

# session OUT SERVER END...: the main session, then END commands.
session() {
	out=$1 server=$2
	shift 2
	gdb_run "$out" "$server" 120 -ex 'info threads' -ex 'break tick' \
		-ex 'set var go = 1' -ex 'continue' -ex 'info registers rip' \
		-ex 'print n' -ex 'bt' -ex 'next' -ex 'print counter' \
		-ex 'stepi' -ex 'continue' -ex 'print n' "$@"
}

# both NAME WAIT-STATUS SESSION-FUNCTION ARGS...: run the session on a
# fresh target through gdbserver, then through the stub
# (SESSION-FUNCTION OUT SERVER ARGS...); compare the transcripts and check
# that each target ended with WAIT-STATUS.
both() {
	name=$1 want_st=$2 fn=$3
	shift 3
	for server in gdbserver stub; do
		start_target
		"$fn" "$name.$server" "$server" "$@"
		wait $pid
		st=$?
		show "$name.$server" "$name.$server"
		[ $st = "$want_st" ]
		check $? "$name: through $server the target ended with wait status $want_st ($st)"
	done
	compare "$name" "$name.stub" "$name.gdbserver"
}

# --- open, EBUSY, close ---
if want open; then
start_target
[ -e /proc/$pid/gdb ]
check $? "open: /proc/PID/gdb exists"
exec 3<>/proc/$pid/gdb
# main sleeps in read() on its pipe and stays asleep: a stop does not
# interrupt a sleeping call (the thread is parked).  The waker wakes from
# usleep() every 20 ms and then holds ('t').
wait_exact St
check $? "open: the waker stops, main stays asleep in read() (states $(states), want St)"
err=$( { : <>/proc/$pid/gdb; } 2>&1)
case $err in
*"busy"*) ok "open: a second opener gets EBUSY ($err)" ;;
*) notok "open: a second opener gets EBUSY (got '$err')" ;;
esac
exec 3>&-
wait_states S
check $? "open: closing lets every thread run (states $(states))"
kill -9 $pid
wait $pid 2>/dev/null
fi

# --- who may open: perm.c against PTRACE_ATTACH ---
if want perm; then
perm=$(cd "$bindir" && pwd)/perm
if [ ! -x "$perm" ]; then
	notok "perm: the program is built ($perm is missing)"
else
	timeout -s KILL 300 "$perm" >perm.out 2>&1
	st=$?
	while IFS='	' read -r verdict msg; do
		case $verdict in
		PASS) ok "$msg" ;;
		*) notok "$msg" ;;
		esac
	done <perm.out
	[ $st = 0 ]
	check $? "perm: the matrix ran to its end (exit status $st)"
fi
fi

# --- exec ends the session ---
# The file reaches only the memory it was opened for: an exec (which may
# gain privilege) lets the thread go, read() gets end of file, write() EIO.
if want exec; then
rm -f fifo
mkfifo fifo
sh -c 'echo ready; read -r x <fifo; exec sleep 60' >target.out 2>&1 &
pid=$!
wait_ready
exec 3<>/proc/$pid/gdb
# Asleep in open() of the fifo: parked, not interrupted, yet counted as
# stopped: the stop reply to '?' comes while it still sleeps.
reply=$(python3 -S -c "import sys; sys.path.insert(0, '$dir'); import fuzz
print(fuzz.exchange(3, '?') or 'none')")
st=$(states)
case $reply/$st in
T*/S) ok "exec: the shell, asleep in open() of the fifo, counts as stopped (reply '$reply', states $st)" ;;
*) notok "exec: the shell, asleep in open() of the fifo, counts as stopped (reply '$reply', states $st, want a T reply and S)" ;;
esac
# shellcheck disable=SC2016 # a gdb packet, not an expansion
printf '$c#63' >&3
wait_states S
check $? "exec: 'c' lets it run into read() (states $(states))"
echo go >fifo
timeout -s KILL 20 cat <&3 >exec.out
st=$?
check $st "exec: read() reaches end of file after the exec (status $st, read $(od -An -c exec.out | tr -s ' '))"
# The shell's printf does not say which errno: ask write(2) itself.
err=$(python3 -c '
import os
try:
    os.write(3, b"$?#3f")
    print("written")
except OSError as e:
    print(e.errno)')
[ "$err" = 5 ]
check $? "exec: write() fails with EIO (got '$err', EIO is 5)"
comm=$(cat /proc/$pid/comm)
[ "$comm" = sleep ] && wait_states S
check $? "exec: the new program runs, not held (comm $comm, states $(states))"
exec 3>&-
kill -9 $pid
wait $pid 2>/dev/null
fi

# --- the main session, ending in kill ---
if want kill; then
both gdb-kill 137 session -ex 'kill'
fi

# --- Ctrl-C: gdb's SIGINT handler sends 0x03 while it waits in continue ---
# shellcheck disable=SC2317 # called through both()
ctrlc() { # OUT SERVER
	gdb_run "&" "$1" "$2" 120 -ex 'echo resuming\n' -ex 'continue' \
		-ex 'info threads' -ex 'kill'
	# Running again in continue once gdb said 'resuming' and every
	# thread sleeps (the stop of the connect can be too short to see in
	# the threads' states).  timeout passes the SIGINT on to gdb.
	i=0
	until grep -q '^resuming$' "$1" || [ "$i" -ge 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	wait_states S
	sleep 1
	kill -INT "$gpid"
	wait "$gpid"
	echo "== exit status $?" >>"$1"
}
if want ctrlc; then
both gdb-ctrlc 137 ctrlc
fi

# --- exit (W) and death by a signal gdb sends (C, X) ---
# shellcheck disable=SC2317 # called through both()
short() { # OUT SERVER COMMANDS...
	out=$1 server=$2
	shift 2
	gdb_run "$out" "$server" 120 -ex 'break tick' -ex 'set var go = 1' \
		-ex 'continue' -ex 'delete' "$@"
}
if want exit; then
both gdb-exit 0 short -ex 'continue'
both gdb-signal 143 short -ex 'signal SIGTERM'
fi

# --- a signal stop and its siginfo ($_siginfo, qXfer:siginfo:read) ---
# The target raises SIGUSR1 once (tgkill: si_code SI_TKILL, -6); gdb
# stops there, prints the siginfo's fields, and the handler runs after.
if want pass; then
# shellcheck disable=SC2016 # $_siginfo is gdb's
both gdb-siginfo 0 short -ex 'set var sigs = 1' -ex 'continue' \
	-ex 'print $_siginfo.si_signo' -ex 'print $_siginfo.si_code' \
	-ex 'print $_siginfo.si_errno' -ex 'continue'
fi

# --- signals gdb passes without a stop (QPassSignals) ---
# 'handle SIGUSR1 nostop noprint pass', then the target raises SIGUSR1
# three times (its handler counts them, the exit status says so).  gdb
# hands the list to a server that offers QPassSignals: the stub then
# delivers them without a stop reply (its packet log has no T1e, gdb's
# number of SIGUSR1), and the transcript is gdbserver's.
if want pass; then
both gdb-pass 0 short -ex 'handle SIGUSR1 nostop noprint pass' \
	-ex 'set var sigs = 3' -ex 'continue'
start_target
gdb_run gdb-pass-log.stub stub 120 -ex 'set debug remote 1' \
	-ex 'handle SIGUSR1 nostop noprint pass' -ex 'set var go = 1' \
	-ex 'set var sigs = 3' -ex 'continue'
wait $pid
st=$?
show gdb-pass-log.stub gdb-pass-log.stub
c=$(grep -c 'QPassSignals:' gdb-pass-log.stub)
s1e=$(grep -c 'T1ethread' gdb-pass-log.stub)
[ "$st" = 0 ] && [ "$c" -ge 1 ] && [ "$s1e" = 0 ]
check $? "gdb-pass: the stub passes SIGUSR1 without a stop reply (exit status $st, QPassSignals packets $c, SIGUSR1 stop replies $s1e)"
fi

# --- vector registers: the ymm registers of AVX (the XSAVE regset) ---
# vec_test() loads {1..8} into ymm0 and {-1..-8} into ymm1 and stops at
# vec_here; gdb sets ymm1's last element to 99 and the program stores
# ymm1 into vec_out.  Besides the comparison, the stub's transcript must
# show those values (an error in both servers would compare equal).
if want avx; then
# shellcheck disable=SC2016 # $ymm0 etc. are gdb's
both gdb-avx 0 short -ex 'set var vecs = 1' -ex 'break *vec_here' \
	-ex 'break vec_done' -ex 'continue' -ex 'print $ymm0.v8_int32' \
	-ex 'print $ymm1.v8_int32' -ex 'print $xmm0.v4_int32' \
	-ex 'info registers ymm1' -ex 'set var $ymm1.v8_int32[7] = 99' \
	-ex 'print $ymm1.v8_int32' -ex 'continue' -ex 'print vec_out' \
	-ex 'continue'
r0=$(grep -c '^\$[0-9]* = {1, 2, 3, 4, 5, 6, 7, 8}$' gdb-avx.stub)
r1=$(grep -c '^\$[0-9]* = {-1, -2, -3, -4, -5, -6, -7, 99}$' gdb-avx.stub)
[ "$r0" = 1 ] && [ "$r1" = 2 ]
check $? "gdb-avx: the stub reads ymm0 and writes ymm1 (lines with ymm0's values $r0 of 1, with the written ymm1 $r1 of 2)"
fi

# --- bad input: malformed, oversized, truncated and random packets ---
if want fuzz; then
for seed in 1 2 3; do
	start_target
	msg=$(timeout -s KILL 300 python3 -S "$dir/fuzz.py" $pid $seed 300 2>&1)
	rc=$?
	echo "$msg" | sed 's/^/# /'
	# Once the file is closed the threads sleep in read() and in the
	# waker's usleep() loop; the waker wakes every 20 ms, so one look
	# may see it running (R, seen on the debug kernel in session 21).
	# Wait up to 30 s for a look where both sleep: a thread held (t) or
	# spinning (R) fails that.  The verdict is that look's: wait_states
	# leaves it in $st (another look could catch the waker awake, as on
	# the KASAN kernel in session 22).
	first=$(states)
	st=
	[ ! -d /proc/$pid ] || wait_states S
	kill -9 $pid
	wait $pid 2>/dev/null
	# 137 if it was still running; else how it ended (a signal that
	# the random C/S packets sent it, say).
	ws=$?
	case $rc/$st in
	0/SS | 0/) ok "fuzz: seed $seed: no hang, the process runs after close (states '$st', first seen '$first', wait status $ws)" ;;
	*) notok "fuzz: seed $seed: no hang, the process runs after close (status $rc, states '$st', first seen '$first', wait status $ws)" ;;
	esac
done
fi

# --- gdb and strace -f together, ending in detach ---
if want strace; then
start_target
session gdb-detach.gdbserver gdbserver -ex 'delete' -ex 'detach'
wait $pid
start_target
start_strace 150
session gdb-strace.stub stub -ex 'delete' -ex 'detach'
wait $pid
st=$?
wait $spid
sst=$?
show gdb-detach.gdbserver gdb-detach.gdbserver
show gdb-strace.stub gdb-strace.stub
show strace strace.out
compare gdb-strace gdb-strace.stub gdb-detach.gdbserver
[ $st = 0 ]
check $? "gdb-strace: the target ran to its end after detach (status $st)"
[ $sst = 0 ]
check $? "gdb-strace: strace exited normally (status $sst)"
grep -q "+++ exited with 0 +++" strace.out
check $? "gdb-strace: strace saw the process exit with 0"
strace_sees_calls_only gdb-strace
fi

# --- breakpoints: Z0 as uprobes, alone and next to strace -f ---
# 'break *tick': the PC gdb sees must be the function's address itself.
# always-inserted keeps the breakpoint in while the process is stopped,
# so that the memory read goes through its int3.  $rdi is tick()'s
# argument at its first instruction: 10 (the late thread), then 1, 2.
# shellcheck disable=SC2016 # gdb expressions, not expansions
# shellcheck disable=SC2317 # called through both() and under_strace()
bp_session() { # OUT SERVER
	gdb_run "$1" "$2" 150 \
		-ex 'set breakpoint always-inserted on' \
		-ex 'break *tick' \
		-ex 'set var go = 1' \
		-ex 'continue' \
		-ex 'printf "hit rdi=%d at-tick=%d\n", $rdi, $pc == (long)&tick' \
		-ex 'info registers rip' \
		-ex 'x/2xb $pc' \
		-ex 'stepi' \
		-ex 'printf "after-stepi %d\n", $pc - (long)&tick' \
		-ex 'continue' \
		-ex 'printf "hit rdi=%d at-tick=%d\n", $rdi, $pc == (long)&tick' \
		-ex 'next' \
		-ex 'continue' \
		-ex 'printf "hit rdi=%d at-tick=%d\n", $rdi, $pc == (long)&tick' \
		-ex 'delete' \
		-ex 'continue'
}

bp_checks() { # NAME TRANSCRIPT
	h=$(grep "^hit rdi=" "$2" | tr '\n' ' ')
	[ "$h" = "hit rdi=10 at-tick=1 hit rdi=1 at-tick=1 hit rdi=2 at-tick=1 " ]
	check $? "$1: three hits, each with the PC at tick ($h)"
	grep -Eq "<tick>:[[:space:]]+0x55[[:space:]]+0x48$" "$2"
	check $? "$1: memory under the inserted breakpoint reads as the original bytes ($(grep '<tick>:' "$2" | tr -s '\t' ' '))"
	grep -q "^after-stepi 1$" "$2"
	check $? "$1: stepi from the breakpoint runs push %rbp once ($(grep after-stepi "$2"))"
}

if want bp; then
both gdb-bp 0 bp_session
bp_checks gdb-bp gdb-bp.stub

# A breakpoint in data: gdbserver writes an int3 there, uprobes cannot
# probe a writable mapping, so the stub refuses Z0 with an error (and gdb
# keeps using Z0 for the other breakpoints).  No gdbserver transcript.
start_target
gdb_run gdb-bpdata.stub stub 120 -ex 'set breakpoint always-inserted on' \
	-ex 'break *(long)&counter' -ex 'break *tick' -ex 'kill'
wait $pid
show gdb-bpdata.stub gdb-bpdata.stub
grep -q "Cannot insert breakpoint 1" gdb-bpdata.stub &&
	! grep -q "Cannot insert breakpoint 2" gdb-bpdata.stub
check $? "gdb-bpdata: Z0 on data is refused, and gdb says so; Z0 on text still works"

under_strace gdb-bp bp_session bp_checks
fi

# --- hardware watchpoints (Z2: perf hw_breakpoint events, no signal) ---
# Set while only two threads exist: the first write is by the third
# thread (tick(10)), created later, then by main (tick(1)).  No stepping
# while the watchpoint is armed (the session needs none): TCG can hang
# on a write watchpoint combined with a single-step.
# shellcheck disable=SC2317 # called through both()
watch_session() { # OUT SERVER
	gdb_run "$1" "$2" 150 -ex 'watch counter' -ex 'set var go = 1' \
		-ex 'continue' -ex 'continue' -ex 'delete' -ex 'continue'
}
watch_checks() { # NAME TRANSCRIPT
	v=$(grep -E "^(Old|New) value = " "$2" | tr '\n' ' ')
	[ "$v" = "Old value = 0 New value = 10 Old value = 10 New value = 11 " ]
	check $? "$1: two hits, by the new thread and by main, with their values ($v)"
}
if want watch; then
both gdb-watch 0 watch_session
watch_checks gdb-watch gdb-watch.stub

under_strace gdb-watch watch_session watch_checks
fi

# --- breakpoint conditions evaluated in the target (Z0 with bytecode) ---
# tick() runs as tick(10) (the late thread, counter 0), tick(1), tick(2),
# tick(3) (counter 13 on entry).  Breakpoint 1 (after the prologue) is
# true at tick(2) only; 2 and 3 share tick's first instruction, so one
# Z0 carries both conditions: 2 is true at tick(10), 3 at tick(3).  Both
# servers evaluate the conditions themselves (gdbserver too offers
# ConditionalBreakpoints), so gdb hears of three hits; the stub's packet
# log must show three breakpoint stop replies, not one per hit (eight).
# shellcheck disable=SC2016 # gdb expressions, not expansions
# shellcheck disable=SC2317 # called through both()
cond_session() { # OUT SERVER [COMMAND...]
	out=$1 server=$2
	shift 2
	gdb_run "$out" "$server" 150 "$@" \
		-ex 'break tick if n == 2' \
		-ex 'break *tick if *cptr == 0' \
		-ex 'break *tick if $rdi == 3 && counter > 12' \
		-ex 'set var go = 1' \
		-ex 'continue' \
		-ex 'printf "hit rdi=%d counter=%d\n", $rdi, counter' \
		-ex 'continue' \
		-ex 'printf "hit n=%d counter=%d\n", n, counter' \
		-ex 'continue' \
		-ex 'printf "hit rdi=%d counter=%d\n", $rdi, counter' \
		-ex 'info breakpoints' \
		-ex 'continue'
}
if want cond; then
both gdb-cond 0 cond_session
h=$(grep '^hit ' gdb-cond.stub | tr '\n' ' ')
[ "$h" = "hit rdi=10 counter=0 hit n=2 counter=11 hit rdi=3 counter=13 " ]
check $? "gdb-cond: three hits, where the conditions are true ($h)"

start_target
cond_session gdb-cond-log.stub stub -ex 'set debug remote 1'
wait $pid
st=$?
show gdb-cond-log.stub gdb-cond-log.stub
z=$(grep -c 'Sending packet: .Z0,[0-9a-f]*,1;X' gdb-cond-log.stub)
b=$(grep -c 'Packet received: T05.*swbreak' gdb-cond-log.stub)
[ "$st" = 0 ] && [ "$z" -ge 2 ] && [ "$b" = 3 ]
check $? "gdb-cond: the stub evaluates the conditions (exit status $st, Z0 packets with conditions $z, breakpoint stop replies $b of 3)"

# The same at the protocol level (fuzz.py): Z0's checks of bytecode, and
# evaluations that fail (an endless loop, a stack overflow, a read that
# faults) stop the thread, false conditions let it run to its exit.
start_target
tick=$(nm "$target" | awk '$3 == "tick" { print $1 }')
go=$(nm "$target" | awk '$3 == "go" { print $1 }')
msg=$(timeout -s KILL 120 python3 -S "$dir/fuzz.py" "$pid" cond "$tick" "$go" 2>&1)
rc=$?
echo "$msg" | sed 's/^/# /'
wait $pid
st=$?
[ $rc = 0 ] && [ $st = 0 ]
check $? "gdb-cond: raw Z0 conditions (fuzz.py status $rc, target's exit status $st: $(echo "$msg" | tail -n 1))"

# A condition that faults in the target counts as true there; gdb then
# evaluates it, fails too, and stops with its error, as where gdb alone
# evaluates it.  That is the oracle: gdbserver's bytecode reads ignore a
# fault (ax.cc does not check agent_mem_read()), so there the condition
# reads garbage, is false, and the program runs to its end.
# shellcheck disable=SC2317 # called through both()
condfault() { # OUT SERVER
	how=auto
	[ "$2" = stub ] || how=host
	gdb_run "$1" "$2" 120 -ex "set breakpoint condition-evaluation $how" \
		-ex 'break tick if *(int *)8 == 1' -ex 'set var go = 1' \
		-ex 'continue' -ex 'kill'
}
both gdb-condfault 137 condfault
grep -q "Cannot access memory at address 0x8" gdb-condfault.stub
check $? "gdb-condfault: gdb stops with its own error at a condition that faults ($(grep -c 'Cannot access memory' gdb-condfault.stub) lines)"
fi

# --- strace sees the same with and without gdb (coexistence) ---
# coexist.c has a thread asleep in read() through every stop that gdb
# makes: the stub must leave it asleep (a stop that interrupted it shows
# as ERESTARTSYS and a restarted read()).  strace -ff writes one file per
# thread, so the threads' interleaving (two CPUs) does not matter; each
# file, normalised (ids, addresses, the sender of SIGUSR2, the value
# rt_sigreturn gives back to the spin loop), must be the same with and
# without gdb, signal lines included.
coexist=$(cd "$bindir" && pwd)/coexist
# coexist_run NAME [GDB-COMMAND...]: one run under 'strace -ff -o NAME';
# with commands, gdb runs them through the stub and sends the signal.
coexist_run() {
	name=$1
	shift
	rm -f target.out "$name".*
	setsid "$coexist" >target.out 2>&1 &
	pid=$!
	wait_ready
	timeout -s KILL 150 strace -ff -o "$name" -p "$pid" 2>"$name-strace.err" &
	spid=$!
	i=0
	until grep -q "^TracerPid:[[:space:]]*[1-9]" /proc/"$pid"/status || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ $# = 0 ]; then
		kill -USR2 "$pid"
	else
		program=$coexist gdb_run "$name.gdb" stub 150 \
			-ex 'handle SIGUSR2 nostop noprint pass' \
			-ex "shell kill -USR2 $pid" "$@"
		show "$name.gdb" "$name.gdb"
	fi
	wait $pid
	st=$?
	wait $spid
	sst=$?
	[ $st = 0 ] && [ $sst = 0 ]
	check $? "$name: the workload and strace exited normally (status $st, strace $sst)"
	# The thread ids: main's is the pid; the worker's file has its
	# getppid() calls, the sleeper's its read().
	wtid=none stid=none
	for f in "$name".*; do
		t=${f##*.}
		case $t in *[!0-9]*|"$pid") continue ;; esac
		if grep -q '^getppid(' "$f"; then wtid=$t; else stid=$t; fi
	done
	for who in main worker sleeper; do
		case $who in
		main) f=$name.$pid ;;
		worker) f=$name.$wtid ;;
		*) f=$name.$stid ;;
		esac
		sed -e "s/\b$pid\b/PID/g" -e "s/\b$wtid\b/WTID/g" -e "s/\b$stid\b/STID/g" \
		    -e 's/0x[0-9a-f]*/ADDR/g' -e 's/si_pid=[0-9]*/si_pid=N/' \
		    -e 's/^\(rt_sigreturn(.*=\) [0-9-]*$/\1 N/' "$f" >"$name.$who" 2>/dev/null
		show "$name.$who" "$name.$who"
	done
}
# shellcheck disable=SC2016 # gdb expressions, not expansions
if want coexist; then
coexist_run coexist-alone
coexist_run coexist-gdb -ex 'break coexist_step' -ex 'continue' -ex 'print i' \
	-ex 'continue' -ex 'print i' -ex 'continue' -ex 'print i' \
	-ex 'delete' -ex 'watch watched' -ex 'continue' -ex 'continue' \
	-ex 'delete' -ex 'continue'
for who in main worker sleeper; do
	if [ -s coexist-alone.$who ] && diff -u coexist-alone.$who coexist-gdb.$who >coexist.$who.diff; then
		ok "coexist: strace's transcript of the $who thread is the same with gdb attached through the stub ($(wc -l <coexist-gdb.$who) lines)"
	else
		sed 's/^/# /' coexist.$who.diff
		notok "coexist: strace's transcript of the $who thread is the same with gdb attached through the stub (diff above: - alone, + with gdb)"
	fi
done
! grep -q SIGTRAP coexist-gdb.main coexist-gdb.worker coexist-gdb.sleeper && grep -q SIGUSR2 coexist-gdb.main
check $? "coexist: strace saw SIGUSR2 and no SIGTRAP"
# The sleeper's read() is the one of the alone run: one call, one byte.
[ "$(grep -c '^read(' coexist-gdb.sleeper)" = 1 ] && grep -q '^read(3, "x", 1) *= 1$' coexist-gdb.sleeper
check $? "coexist: the sleeper's read() slept through gdb's stops ($(grep -c '^read(' coexist-gdb.sleeper) read lines: $(grep '^read(' coexist-gdb.sleeper | tr '\n' ' '))"
h=$(grep -E '^\$[0-9]+ = [0-9]+$|^(Old|New) value = ' coexist-gdb.gdb | sed 's/^\$[0-9]* = /i=/' | tr '\n' ' ')
[ "$h" = "i=1 i=2 i=3 Old value = 0 New value = 1 Old value = 1 New value = 2 " ]
check $? "coexist: gdb hit the breakpoint three times and the watchpoint twice ($h)"
fi

finish
