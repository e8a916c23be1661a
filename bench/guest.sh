#!/bin/sh
# Guest side of the benchmark (run by boot/guest-init.sh, see bench/run.sh).
#
#   guest.sh CONF
#
# CONF is a shell file written by bench/run.sh that sets
#   MODE       full or smoke (smoke: 1/100 of the iterations)
#   BIN        directory with the static benchmark programs (bench, tiny)
#   ENGINE_KO  the utrace syscall-counting sample module, or empty
#   ENGINE_WHY why ENGINE_KO is empty
#   TEST_UTRACE_KO   the utrace test module (lib/test_utrace.ko), or empty
#   TEST_UTRACE_WHY  why TEST_UTRACE_KO is empty
#   BENCH_KO   the counting engines of bench/kmod (utrace_bench.ko), or empty
#   BENCH_WHY  why BENCH_KO is empty
#
# bench/run.sh boots the guest from an initramfs (bench/initramfs.sh:
# busybox, dash, strace, gdb, the programs and the modules at their host
# paths), so no 9p request makes two boots differ (bench/README.md,
# "Determinism"); booted from the host's / over 9p it runs the same.
#
# Output, one line per benchmark (everything else is indented with "  | "):
#   result NAME UNIT VALUE     a measurement (guest time per operation)
#   fail NAME REASON           the program failed or printed no number
#   na NAME UNIT REASON        does not apply to this kernel
#   pending NAME UNIT REASON   not measurable yet (what is missing)
#   notmeasured NAME UNIT REASON  the tool or kernel cannot run it here
#                              (a program exiting with status 4: UNIT is -)
#
# Everything but gdb runs pinned to CPU 0, so a tracer and its tracee take
# turns on one CPU: the numbers are kernel path lengths, not cross-CPU wake-up
# latencies, and they are reproducible under QEMU -icount.  ASLR is off
# for the same reason (below).
# shellcheck disable=SC1090 # the CONF file named on the command line
. "$1"
export LC_ALL=C
taskset -p 1 $$ >/dev/null || echo "  | taskset failed: running unpinned"
# No address space randomization: where the stack and mmaps land changes
# how many page tables a fork copies, which shows as run-to-run spread.
echo 0 >/proc/sys/kernel/randomize_va_space || echo "  | cannot turn ASLR off"

# Programs run from tmpfs, so no timed exec waits for 9p.
mkdir -p /tmp/bin
cp "$BIN/bench" "$BIN/tiny" /tmp/bin/ || { echo "fail setup cannot copy $BIN"; exit 1; }
B=/tmp/bin/bench

has_utrace=no
zcat /proc/config.gz 2>/dev/null | grep -qx 'CONFIG_UTRACE=y' && has_utrace=yes
echo "# kernel $(uname -r), CONFIG_UTRACE=$has_utrace, mode $MODE"

# n FULL: the iteration count for this mode.
n() {
	if [ "$MODE" = smoke ]; then
		echo $((($1 + 99) / 100))
	else
		echo "$1"
	fi
}

# ps_dump: every user process with its state and where it sleeps, so a
# hang (a ptrace stop nobody resumes, a lost wake-up) can be told apart.
ps_dump() {
	for p in /proc/[0-9]*; do
		# User processes, and kernel threads only when running.
		[ -e "$p/exe" ] || grep -q '^State:.[RZ]' "$p/status" || continue
		printf '%s %s %s wchan=%s utime+stime=%s syscall=%s\n' "${p#/proc/}" \
			"$(cat "$p/comm")" "$(sed -n 's/^State:\t//p' "$p/status")" \
			"$(cat "$p/wchan")" "$(cut -d' ' -f14,15 "$p/stat")" \
			"$(cut -d' ' -f1 "$p/syscall")"
	done 2>/dev/null
}

# run NAME TIMEOUT COMMAND...: run one benchmark (a program or a function)
# and report its result line under NAME (the program's own name for it
# may differ).  After TIMEOUT seconds of guest time it is killed, and the
# process states are printed first.
run() {
	name=$1 tmo=$2
	shift 2
	echo "# bench: $name"
	rm -f /tmp/timedout
	# Let the work that the row before left behind (RCU callbacks that
	# free its tasks, vmstat and LRU work, its watchdog's exit) run now,
	# not in this row's first operations.  The guest idles meanwhile,
	# and under -icount its clock jumps from timer to timer, so the
	# wait costs little wall time and no measured time.
	sleep 2
	# The row's tasks get the same pids on every kernel, from 1000:
	# pids index a radix tree (the pid namespace's idr) that is as deep
	# as the largest live pid needs, and a kernel whose boot made a few
	# more tasks would otherwise look its pids up a level deeper at
	# times (bench/README.md, "Determinism").
	echo 999 >/proc/sys/kernel/ns_last_pid || echo "  | cannot set the next pid"
	"$@" >/tmp/out 2>&1 </dev/null &
	pid=$!
	(
		# Killed when the benchmark ends in time: take the sleep along,
		# so no stray timer wakes up during a later benchmark.
		trap 'kill $s 2>/dev/null; exit 0' TERM
		sleep "$tmo" &
		s=$!
		wait $s
		echo "killed after ${tmo}s; the user processes then:" >/tmp/timedout
		ps_dump >>/tmp/timedout
		kill -KILL $pid
	) &
	dog=$!
	wait $pid
	rc=$?
	kill $dog 2>/dev/null
	[ -f /tmp/timedout ] && sed 's/^/  | /' /tmp/timedout
	grep -v '^result ' /tmp/out | sed 's/^/  | /'
	res=$(grep '^result ' /tmp/out | tail -n 1)
	if [ $rc -eq 4 ]; then
		echo "notmeasured $name - $(tail -n 1 /tmp/out)"
	elif [ $rc -ne 0 ]; then
		echo "fail $name exit status $rc$([ -f /tmp/timedout ] && echo " (killed after ${tmo}s)")"
	elif [ -z "$res" ]; then
		echo "fail $name printed no result"
	else
		echo "$res" | sed "s/^result [^ ]* /result $name /"
	fi
}

# The counts: each row runs long enough that the deferred work of its
# operations (RCU callbacks, the page allocator's batches, timer ticks)
# falls into it in proportion.  Rows that create and reap tasks need
# 10 times more than they had before session 26: booted with one more
# file in the initramfs, thread-create-join moved by 0.44% at 2000
# threads and by 0.02% at 20000, attach-detach by 0.31% and 0.00%.
# ---- untraced: what every process pays for CONFIG_UTRACE=y ----
run getpid 120 $B getpid "$(n 200000)"
run fork-exit-wait 120 $B fork "$(n 10000)"
run execve-tiny 120 $B exec "$(n 10000)" /tmp/bin/tiny
run signal-handler 120 $B signal "$(n 30000)"
run signal-handler-detached 120 $B signal-detached "$(n 30000)"
run signal-mt 120 $B signal-mt "$(n 20000)"
run thread-create-join 120 $B thread "$(n 20000)"
run rseq-switch 120 $B rseq-switch "$(n 20000)"

# ---- ptrace ----
run ptrace-syscall 120 $B ptrace-syscall "$(n 10000)"
run singlestep 120 $B singlestep "$(n 20000)"
run attach-detach 120 $B attach-detach "$(n 50000)"
run peekdata 120 $B peekdata "$(n 100000)"
run process-vm-readv 120 $B vm-readv "$(n 2000)"
run tracefork 120 $B tracefork "$(n 5000)"
if command -v strace >/dev/null; then
	run strace-f 300 strace -f -o /dev/null $B workload "$(n 10000)"
else
	echo "notmeasured strace-f us/iteration strace is not installed (make deps)"
fi

# ---- counting every system call of a workload ----
w=$(n 10000)

# engine_count KO N: attach the syscount engine to a waiting workload
# process, let it run, check and print the count.  The module interface
# (samples/utrace/utrace-syscount.c): insmod KO pid=PID; /proc/NAME has
# one "TID COUNT" line per thread; rmmod NAME.  KO "-" runs the workload
# the same way with no engine: the untraced baseline must start the same
# way (a background child of this shell, released through a fifo), or
# the two differ by more than the engine costs.
engine_count() {
	ko=$1 mod=$(basename "$1" .ko)
	rm -f /tmp/go
	mkfifo /tmp/go || return 1
	$B workload "$2" wait </tmp/go &
	pid=$!
	exec 3>/tmp/go
	if [ "$ko" = - ]; then
		echo go >&3
		exec 3>&-
		wait $pid
		return
	fi
	insmod "$ko" pid=$pid || { exec 3>&-; wait $pid; return 1; }
	echo go >&3
	exec 3>&-
	wait $pid || { rmmod "$mod"; return 1; }
	count=$(awk '{ s += $2 } END { print s + 0 }' "/proc/$mod")
	rmmod "$mod" || return 1
	echo "engine counted $count system calls"
	# At least the 3 calls per iteration of the parent process.
	[ "$count" -ge $((3 * $2)) ] || { echo "engine count $count is too small"; return 1; }
}
run syscount-untraced 120 engine_count - "$w"
run syscount-strace-c 300 strace -c -o /tmp/strace-c $B workload "$w"
if [ $has_utrace = no ]; then
	echo "na syscount-utrace-engine us/iteration needs CONFIG_UTRACE=y"
elif [ -z "$ENGINE_KO" ]; then
	echo "pending syscount-utrace-engine us/iteration $ENGINE_WHY"
else
	run syscount-utrace-engine 300 engine_count "$ENGINE_KO" "$w"
fi

# ---- scale: utrace engines, through the test module ----
# lib/test_utrace.c: /dev/test_utrace, one session per open file, engines
# attached by ioctl (bench/src/bench.c: engines, attach-threads).  Loaded
# once for all scale rows; afterwards every engine must have been
# released (the module counts them: "live") and the module must unload,
# or an engine leaked.
#
# attach-N-threads: 1000 threads, or fewer if this guest's limits are
# lower (half of threads-max and pid_max, about 400 KB of available
# memory per thread); the row is named after the number measured.
nt=1000
for lim in $(($(cat /proc/sys/kernel/threads-max) / 2)) $(($(cat /proc/sys/kernel/pid_max) / 2)) \
	$(($(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo) / 400)); do
	[ "$lim" -lt "$nt" ] && nt=$lim
done
scale_rows() { # KIND REASON: the attach row as na, pending or fail
	u2=" ns/attach"
	[ "$1" = fail ] && u2=""
	echo "$1 attach-$nt-threads$u2 $2"
}
engine_rows() { # KIND REASON: every engines row as na, pending or fail
	u1=" ns/call"
	[ "$1" = fail ] && u1=""
	for k in 0 1 2 4 8 16; do
		echo "$1 engines-$k-per-event$u1 $2"
	done
}
# A manual run's CONF may lack TEST_UTRACE_KO: then use the booted
# kernel's build directory (boot/qemu.py passes it as UTRACE_KBUILD).
if [ -z "${TEST_UTRACE_KO+set}" ] && [ -n "${UTRACE_KBUILD:-}" ]; then
	TEST_UTRACE_KO=$UTRACE_KBUILD/lib/test_utrace.ko
	[ -f "$TEST_UTRACE_KO" ] || { TEST_UTRACE_WHY="no $TEST_UTRACE_KO"; TEST_UTRACE_KO=""; }
fi
# load_for ROWS KO WHY: load module KO for the rows that the function
# ROWS prints; returns 0 when it is loaded.  Otherwise ROWS prints them
# as na (no utrace), pending (no KO given: WHY) or fail (insmod failed).
load_for() {
	if [ $has_utrace = no ]; then
		$1 na CONFIG_UTRACE=n
	elif [ -z "$2" ]; then
		$1 pending "$3"
	elif ! insmod "$2" 2>/tmp/insmod.err; then
		sed 's/^/  | /' /tmp/insmod.err
		$1 fail "insmod $2 failed: $(tail -n 1 /tmp/insmod.err)"
	else
		return 0
	fi
	return 1
}
# engines-K-per-event: K engines of bench/kmod/utrace_bench.ko, which only
# count.  Each attachment holds the module, so rmmod fails while an
# engine is still attached: then one leaked.
if load_for engine_rows "${BENCH_KO:-}" "${BENCH_WHY:-no utrace_bench module given}"; then
	for k in 0 1 2 4 8 16; do
		run engines-$k-per-event 120 $B engines "$(n 200000)" $k
	done
	t=0
	until rmmod utrace_bench 2>/tmp/rmmod.err; do
		t=$((t + 1))
		if [ $t -ge 10 ]; then
			sed 's/^/  | /' /tmp/rmmod.err
			echo "fail utrace_bench-unload rmmod utrace_bench failed for 10 s: an engine leaked"
			break
		fi
		sleep 1
	done
fi

tu=/sys/module/test_utrace/parameters
if load_for scale_rows "${TEST_UTRACE_KO:-}" "${TEST_UTRACE_WHY:-no test_utrace module given}"; then
	run attach-$nt-threads 300 $B attach-threads "$(n 7)" $nt
	# Engines are released when the core drops its last reference, at the
	# latest when their thread is reaped: all benchmark processes are.
	t=0
	while [ "$(cat $tu/live)" != 0 ] && [ $t -lt 10 ]; do
		sleep 1
		t=$((t + 1))
	done
	echo "  | test_utrace: $(cat $tu/attached) engines attached, $(cat $tu/released) released," \
		"$(cat $tu/live) live, $(cat $tu/late) late callbacks"
	late=$(cat $tu/late) live=$(cat $tu/live)
	if ! rmmod test_utrace; then
		echo "fail test_utrace-unload rmmod test_utrace failed with $live engines live: an engine leaked"
	elif [ "$late" != 0 ]; then
		echo "fail test_utrace-unload $late callbacks came after utrace_barrier() said none would"
	fi
fi

# gdb: every call of bp_hit is a breakpoint hit (gdb stops, steps over
# the breakpoint, continues); the program times its own loop, and gdb
# must report the right number of hits.  gdb may use both CPUs.
#
# Guest time is not wall time here: under -icount with sleep=off, while
# the guest only waits (for 9p, say gdb paging in its 10 MB binary from a
# busy host), its clock jumps from timer to timer, so minutes of guest
# time can pass in seconds.  A watchdog in guest time then fires on a gdb
# that is merely waiting for its disk (session 15: the 400 s watchdog of
# the row killed such a gdb after one attempt, with 17 ticks of CPU time).
# So a gdb attempt is judged by the CPU time it used: one that has spent
# 60 s of CPU without finishing spins (gdb 13 in this guest sometimes
# did, at start-up or after the program exited, on the legacy kernel
# too); it is shown (process states) and killed.  When the program's
# result and gdb's hit count are already out, the measurement stands;
# otherwise it is retried, 3 attempts in all, then the row is "not
# measured" with that reason, never a number.  gdb failing in any other
# way, or a wrong hit count, fails the row.  gdb runs last: the
# benchmarks after a killed gdb ran slower.

# cpu_ticks PID: the user and system time of PID in clock ticks (0 when
# it is gone).
cpu_ticks() {
	# shellcheck disable=SC2046 # two numbers, split on purpose
	set -- $(cut -d' ' -f14,15 "/proc/$1/stat" 2>/dev/null) 0 0
	echo $(($1 + $2))
}
# gdb_start N HOW: gdb in the background (its pid in g) on a program
# making N breakpoint hits.  HOW ptrace: gdb runs the program; otherwise
# the program runs first and waits for gdb to set bp_go, and gdb attaches
# to it (once it runs bench, not the shell's child before its exec):
# stub through /proc/PID/gdb; the cond-* rows with 'break bp_hit if
# $rdi == -1' (false on the N timed hits, true once after them:
# bench breakpoint-cond), cond-ptrace by ptrace with gdb evaluating the
# condition, cond-gdbserver through gdbserver and cond-stub through
# /proc/PID/gdb, which both evaluate it themselves.
gdb_start() {
	n=$1 how=$2
	if [ "$how" = ptrace ]; then
		prog=
		: >/tmp/gdb-prog.out
		taskset 3 gdb -batch -nx -iex 'set debuginfod enabled off' \
			-ex 'break bp_hit' -ex 'ignore 1 1000000000' -ex run \
			-ex 'info breakpoints' --args $B breakpoint "$n" >/tmp/gdb.out 2>&1 &
		g=$!
		return
	fi
	bmode=breakpoint-cond
	[ "$how" != stub ] || bmode=breakpoint-attach
	$B $bmode "$n" >/tmp/gdb-prog.out 2>&1 &
	prog=$!
	i=0
	until [ "$(readlink /proc/$prog/exe)" = "$B" ] || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	case $how in
	stub) set -- -ex "target extended-remote /proc/$prog/gdb" \
		-ex 'break bp_hit' -ex 'ignore 1 1000000000' ;;
	# The program's files from the guest's own file system, not read
	# through gdbserver.
	cond-stub) set -- -ex 'set sysroot /' -ex "target extended-remote /proc/$prog/gdb" ;;
	cond-gdbserver) set -- -ex 'set sysroot /' \
		-ex "target extended-remote | exec gdbserver --once - --attach $prog 2>/dev/null" ;;
	cond-ptrace) set -- -ex "attach $prog" -ex 'set breakpoint condition-evaluation host' ;;
	esac
	# A register only: gdb compiles no bytecode for a read of bp_go (a
	# symbol without debug information) and would evaluate the condition
	# itself, through every server.
	# shellcheck disable=SC2016 # a gdb expression, not an expansion
	[ "$how" = stub ] ||
		set -- "$@" -ex 'break bp_hit if $rdi == -1'
	set -- "$@" -ex 'set var *(int *)&bp_go = 1' -ex continue -ex 'info breakpoints'
	[ "$how" = stub ] || set -- "$@" -ex continue
	taskset 3 gdb -batch -nx -iex 'set debuginfod enabled off' "$@" $B >/tmp/gdb.out 2>&1 &
	g=$!
}
# gdb_hits N HOW: gdb_start, judged and retried as above; prints the
# program's and gdb's output.
gdb_hits() {
	spin=$((60 * $(getconf CLK_TCK)))
	for try in 1 2 3; do
		gdb_start "$1" "$2"
		while [ -e /proc/$g ] && ! grep -q '^State:.Z' /proc/$g/status 2>/dev/null &&
			[ "$(cpu_ticks $g)" -lt $spin ]; do
			sleep 1
		done
		if ! [ "$(cpu_ticks $g)" -ge $spin ]; then
			wait $g
			st=$?
			[ -z "$prog" ] || wait $prog || st=$?
			cat /tmp/gdb-prog.out /tmp/gdb.out
			return $st
		fi
		echo "gdb attempt $try used 60 s of CPU without finishing; the processes:"
		ps_dump
		kill -KILL $g $prog
		wait $g $prog
		cat /tmp/gdb-prog.out /tmp/gdb.out
		if grep -q '^result ' /tmp/gdb-prog.out /tmp/gdb.out && grep -q "already hit $1 time" /tmp/gdb.out; then
			echo "(the program and gdb's report were complete: the number stands)"
			return 0
		fi
	done
	echo "gdb did not finish in 3 attempts of 60 s of CPU (it spins in this guest at times; see bench/README.md)"
	return 4
}
if command -v gdb >/dev/null; then
	hits=$(n 1000)
	# The row's own watchdog is in guest time (see above): generous, so
	# that it only ends a gdb that sleeps for good.
	run gdb-breakpoint 3600 gdb_hits "$hits" ptrace
	grep -q "already hit $hits time" /tmp/out || grep -q '^gdb did not finish' /tmp/out ||
		echo "fail gdb-breakpoint gdb did not report $hits breakpoint hits"
	# The same hits with gdb attached through the stub (utrace-gdb).
	if [ -e /proc/self/gdb ]; then
		run gdb-breakpoint-stub 3600 gdb_hits "$hits" stub
		grep -q "already hit $hits time" /tmp/out || grep -q '^gdb did not finish' /tmp/out ||
			echo "fail gdb-breakpoint-stub gdb did not report $hits breakpoint hits"
	else
		echo "na gdb-breakpoint-stub us/hit this kernel has no /proc/PID/gdb (CONFIG_UTRACE_GDB)"
	fi
	# A breakpoint whose condition is false: N hits, then one true.
	for how in ptrace gdbserver stub; do
		if [ $how = stub ] && [ ! -e /proc/self/gdb ]; then
			echo "na gdb-cond-stub us/hit this kernel has no /proc/PID/gdb (CONFIG_UTRACE_GDB)"
			continue
		fi
		if [ $how = gdbserver ] && ! command -v gdbserver >/dev/null; then
			echo "notmeasured gdb-cond-gdbserver us/hit gdbserver is not installed (make deps)"
			continue
		fi
		run gdb-cond-$how 3600 gdb_hits "$hits" cond-$how
		grep -q "already hit 1 time" /tmp/out || grep -q '^gdb did not finish' /tmp/out ||
			echo "fail gdb-cond-$how gdb did not report the one true hit"
	done
else
	for r in gdb-breakpoint gdb-breakpoint-stub gdb-cond-ptrace gdb-cond-gdbserver gdb-cond-stub; do
		echo "notmeasured $r us/hit gdb is not installed (make deps)"
	done
fi

echo "# bench: done"
