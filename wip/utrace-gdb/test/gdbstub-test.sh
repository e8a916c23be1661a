#!/bin/sh
# Guest side of the /proc/PID/gdb test (CONFIG_UTRACE_GDB).
#
#   gdbstub-test.sh [PART[:debug]]
#
# target (built from target.c: gcc -g -O0 -pthread) and the
# expected-*.txt files are next to this script.
#
# Runs, against the target program:
#   open    : /proc/PID/gdb stops every thread, a second open gets EBUSY,
#             closing lets them run again;
#   exec    : an exec ends the session (end of file, EIO, runs free);
#   kill    : Debian's gdb through 'target extended-remote /proc/PID/gdb':
#             threads, a breakpoint (Z0: a uprobe), memory write,
#             registers, print, bt, next/stepi, continue, kill;
#   ctrlc   : gdb's Ctrl-C (SIGINT to gdb) stops the running process;
#   exit    : continue to a normal exit (W), 'signal SIGTERM' (C, X);
#   fuzz    : fuzz.py's malformed and random input, three seeds;
#   strace  : the same session (ending in detach) while 'strace -f -p PID'
#             traces the process, then the process exits normally, and
#             strace saw no SIGTRAP;
#   bp      : 'break *tick' hit three times (PC at the function, the
#             original bytes read through the inserted breakpoint, stepi
#             runs the instruction once, next, a Z0 on data refused),
#             delete, continue to the exit; alone, then while
#             'strace -f -p PID' traces the process (no SIGTRAP there).
# Prints TAP; each transcript is printed between BEGIN/END lines, raw,
# and compared after normalising addresses and ids with the expected-*.txt
# file.  Exit status 0 when everything passed.
dir=$(cd "$(dirname "$0")" && pwd)
# One word (the guest passes one): PART[:debug].  PART is open, exec,
# kill, ctrlc, exit, fuzz, strace, bp or all (the default); ':debug' logs gdb's packets
# ('set debug remote 1') into the transcripts.
spec=${1:-all}
only=${spec%%:*}
want() { [ "$only" = all ] || [ "$only" = "$1" ]; }
dbg=0
case $spec in *:debug) dbg=1 ;; esac
target=$dir/target
work=$(mktemp -d /tmp/gdbstub.XXXXXX)
cd "$work" || exit 1
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }
check() { if [ "$1" = 0 ]; then shift; ok "$@"; else shift; notok "$@"; fi; }

# wait_ready: up to 20 s for the background program to print "ready".
wait_ready() {
	i=0
	while ! grep -q ready target.out 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# start_target: run the target in the background; sets pid.
start_target() {
	rm -f target.out
	"$target" >target.out 2>&1 &
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

# states: the one-letter states of the target's threads, sorted.
states() {
	for s in /proc/"$pid"/task/*/stat; do
		sed 's/.*) \(.\).*/\1/' "$s"
	done | sort | tr -d '\n'
}

# wait_states WANT: up to 30 s for every thread to be in state WANT.
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

show() { # NAME FILE
	echo "# BEGIN TRANSCRIPT $1"
	sed 's/^/# /' "$2"
	echo "# END TRANSCRIPT $1"
}

# normalise: addresses, ids and the attach-time frame's address.
normalise() {
	sed -e 's/0x[0-9a-f]\{1,16\}/ADDR/g' \
	    -e "s/process $pid/process PID/g" \
	    -e 's/Thread [0-9]*/Thread TID/g' \
	    -e 's/LWP [0-9]*/LWP TID/g' \
	    -e "s|/proc/$pid/gdb|/proc/PID/gdb|g" \
	    -e 's/   */  /g' \
	    "$1"
}

compare() { # NAME RAW EXPECTED
	normalise "$2" >"$2.norm"
	if diff -u "$3" "$2.norm" >"$2.diff"; then
		ok "$1 transcript as expected"
	else
		sed 's/^/# /' "$2.diff"
		notok "$1 transcript as expected"
	fi
}

echo "TAP version 13"
[ -x "$target" ] || { echo "not ok 1 no $target (build target.c)"; exit 1; }

session() { # END-COMMANDS...
	timeout -s KILL 120 gdb -nx -batch \
		-ex 'set pagination off' -ex 'set confirm off' \
		-ex 'set width 0' -ex 'set height 0' \
		-ex 'set print thread-events off' \
		-ex "set debug remote $dbg" \
		-ex "target extended-remote /proc/$pid/gdb" \
		-ex 'info threads' \
		-ex 'break tick' \
		-ex 'set var go = 1' \
		-ex 'continue' \
		-ex 'info registers rip' \
		-ex 'print n' \
		-ex 'bt' \
		-ex 'next' \
		-ex 'print counter' \
		-ex 'stepi' \
		-ex 'continue' \
		-ex 'print n' \
		"$@" \
		"$target" </dev/null >gdb.out 2>&1
	echo "== exit status $?" >>gdb.out
}

# --- open, EBUSY, close ---
if want open; then
start_target
[ -e /proc/$pid/gdb ]
check $? "open: /proc/PID/gdb exists"
exec 3<>/proc/$pid/gdb
wait_states t
check $? "open: every thread stops (states $(states))"
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

# Permission: what PTRACE_ATTACH needs.  Own process: EPERM.  A process
# of the same (unprivileged) user that is not a descendant: YAMA's
# ptrace_scope 1 refuses both PTRACE_ATTACH and the open.
err=$( { : <>/proc/self/gdb; } 2>&1)
case $err in
*"not permitted"*) ok "open: own process refused ($err)" ;;
*) notok "open: own process refused (got '$err')" ;;
esac
start_target_as() { # SETPRIV-ARGS...
	rm -f target.out
	setpriv "$@" "$target" >target.out 2>&1 &
	pid=$!
	wait_ready
}
nobody="--reuid=65534 --regid=65534 --clear-groups"
# shellcheck disable=SC2086 # $nobody: words
start_target_as $nobody
scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null)
echo 1 >/proc/sys/kernel/yama/ptrace_scope
# shellcheck disable=SC2086
perr=$(timeout -s KILL 20 setpriv $nobody strace -o /dev/null -p $pid 2>&1 </dev/null)
# shellcheck disable=SC2086
gerr=$(setpriv $nobody sh -c ": <>/proc/$pid/gdb" 2>&1)
case $perr/$gerr in
*"not permitted"*/*"not permitted"*) ok "open: as PTRACE_ATTACH, refused to a non-ancestor (ptrace_scope 1; $gerr)" ;;
*) notok "open: as PTRACE_ATTACH, refused to a non-ancestor (ptrace_scope 1; strace: '$perr'; open: '$gerr')" ;;
esac
[ -z "$scope" ] || echo "$scope" >/proc/sys/kernel/yama/ptrace_scope
# shellcheck disable=SC2086
gerr=$(setpriv --reuid=1 --regid=1 --clear-groups sh -c ": <>/proc/$pid/gdb" 2>&1)
case $gerr in
*"denied"* | *"not permitted"*) ok "open: refused to another user ($gerr)" ;;
*) notok "open: refused to another user (got '$gerr')" ;;
esac
kill -9 $pid
wait $pid 2>/dev/null


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
wait_states t
check $? "exec: open stops the shell (states $(states))"
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

# --- gdb alone, ending in kill ---
if want kill; then
start_target
session -ex 'kill'
wait $pid
st=$?
show gdb-kill gdb.out
compare gdb-kill gdb.out "$dir/expected-gdb-kill.txt"
[ $st = 137 ]
check $? "gdb-kill: the target was killed (status $st)"

fi

# --- Ctrl-C: gdb's SIGINT handler sends 0x03 while it waits in continue ---
if want ctrlc; then
start_target
timeout -s KILL 120 gdb -nx -batch \
	-ex 'set pagination off' -ex 'set confirm off' \
	-ex 'set width 0' -ex 'set height 0' \
	-ex 'set print thread-events off' \
	-ex "target extended-remote /proc/$pid/gdb" \
	-ex 'continue' \
	-ex 'info threads' \
	-ex 'kill' \
	"$target" </dev/null >gdb.out 2>&1 &
gpid=$!
# Stopped by the connect, then running again in continue.
wait_states t && wait_states S
sleep 1
kill -INT $gpid
wait $gpid
echo "== exit status $?" >>gdb.out
wait $pid
st=$?
show gdb-ctrlc gdb.out
compare gdb-ctrlc gdb.out "$dir/expected-gdb-ctrlc.txt"
[ $st = 137 ]
check $? "gdb-ctrlc: the target was killed (status $st)"

fi

# --- exit (W) and death by a signal gdb sends (C, X) ---
if want exit; then
short() { # COMMANDS...
	timeout -s KILL 120 gdb -nx -batch \
		-ex 'set pagination off' -ex 'set confirm off' \
		-ex 'set width 0' -ex 'set height 0' \
		-ex 'set print thread-events off' \
		-ex "set debug remote $dbg" \
		-ex "target extended-remote /proc/$pid/gdb" \
		-ex 'break tick' \
		-ex 'set var go = 1' \
		-ex 'continue' \
		-ex 'delete' \
		"$@" \
		"$target" </dev/null >gdb.out 2>&1
	echo "== exit status $?" >>gdb.out
}
start_target
short -ex 'continue'
wait $pid
st=$?
show gdb-exit gdb.out
compare gdb-exit gdb.out "$dir/expected-gdb-exit.txt"
[ $st = 0 ]
check $? "gdb-exit: the target exited normally (status $st)"
start_target
short -ex 'signal SIGTERM'
wait $pid
st=$?
show gdb-signal gdb.out
compare gdb-signal gdb.out "$dir/expected-gdb-signal.txt"
[ $st = 143 ]
check $? "gdb-signal: the target died of the SIGTERM gdb sent (status $st)"
fi

# --- bad input: malformed, oversized, truncated and random packets ---
if want fuzz; then
for seed in 1 2 3; do
	start_target
	msg=$(timeout -s KILL 300 python3 -S "$dir/fuzz.py" $pid $seed 300 2>&1)
	rc=$?
	echo "$msg" | sed 's/^/# /'
	st=$(states)
	kill -9 $pid
	wait $pid 2>/dev/null
	# 137 if it was still running; else how it ended (a signal that
	# the random C/S packets sent it, say).
	ws=$?
	case $rc/$st in
	0/SS | 0/) ok "fuzz: seed $seed: no hang, the process runs after close (states '$st', wait status $ws)" ;;
	*) notok "fuzz: seed $seed: status $rc, states '$st', wait status $ws" ;;
	esac
done
fi

# --- gdb and strace -f together, ending in detach ---
if want strace; then
start_target
start_strace 150
session -ex 'delete' -ex 'detach'
wait $pid
st=$?
wait $spid
sst=$?
show gdb-strace gdb.out
show strace strace.out
compare gdb-strace gdb.out "$dir/expected-gdb-detach.txt"
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
bp_session() {
	timeout -s KILL 150 gdb -nx -batch \
		-ex 'set pagination off' -ex 'set confirm off' \
		-ex 'set width 0' -ex 'set height 0' \
		-ex 'set print thread-events off' \
		-ex "set debug remote $dbg" \
		-ex 'set breakpoint always-inserted on' \
		-ex "target extended-remote /proc/$pid/gdb" \
		-ex 'break *tick' \
		-ex 'set var go = 1' \
		-ex 'continue' \
		-ex 'printf "hit rdi=%d at-tick=%d\n", $rdi, $pc == (long)&tick' \
		-ex 'info registers rip' \
		-ex 'x/2xb $pc' \
		-ex 'break *(long)&counter' \
		-ex 'delete 2' \
		-ex 'stepi' \
		-ex 'printf "after-stepi %d\n", $pc - (long)&tick' \
		-ex 'continue' \
		-ex 'printf "hit rdi=%d at-tick=%d\n", $rdi, $pc == (long)&tick' \
		-ex 'next' \
		-ex 'continue' \
		-ex 'printf "hit rdi=%d at-tick=%d\n", $rdi, $pc == (long)&tick' \
		-ex 'delete' \
		-ex 'continue' \
		"$target" </dev/null >gdb.out 2>&1
	echo "== exit status $?" >>gdb.out
}

bp_checks() { # NAME
	h=$(grep "^hit rdi=" gdb.out | tr '\n' ' ')
	[ "$h" = "hit rdi=10 at-tick=1 hit rdi=1 at-tick=1 hit rdi=2 at-tick=1 " ]
	check $? "$1: three hits, each with the PC at tick ($h)"
	c=$(grep -c "hit Breakpoint 1, " gdb.out)
	[ "$c" = 3 ]
	check $? "$1: gdb reported Breakpoint 1 three times ($c)"
	grep -Eq "^rip +0x[0-9a-f]+ +0x[0-9a-f]+ <tick>$" gdb.out
	check $? "$1: info registers rip is tick's address ($(grep '^rip' gdb.out))"
	grep -Eq "<tick>:[[:space:]]+0x55[[:space:]]+0x48$" gdb.out
	check $? "$1: memory under the inserted breakpoint reads as the original bytes ($(grep '<tick>:' gdb.out | tr -s '\t' ' '))"
	grep -q "Cannot insert breakpoint 2" gdb.out
	check $? "$1: Z0 on data (no uprobe possible) is refused, and gdb says so"
	grep -q "^after-stepi 1$" gdb.out
	check $? "$1: stepi from the breakpoint runs push %rbp once ($(grep after-stepi gdb.out))"
	grep -q "exited normally" gdb.out
	check $? "$1: continue after delete runs to a normal exit"
}

if want bp; then
start_target
bp_session
wait $pid
st=$?
show gdb-bp gdb.out
bp_checks gdb-bp
[ $st = 0 ]
check $? "gdb-bp: the target exited with 0 (status $st)"

start_target
start_strace 180
bp_session
wait $pid
st=$?
wait $spid
sst=$?
show gdb-bp-strace gdb.out
show bp-strace strace.out
bp_checks gdb-bp-strace
[ $st = 0 ]
check $? "gdb-bp-strace: the target exited with 0 (status $st)"
[ $sst = 0 ] && grep -q "+++ exited with 0 +++" strace.out
check $? "gdb-bp-strace: strace exited normally and saw the exit with 0 (status $sst)"
strace_sees_calls_only gdb-bp-strace
fi

echo "1..$n"
cd /
rm -rf "$work"
[ $failed = 0 ]
