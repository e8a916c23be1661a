#!/usr/bin/env bash
# The "one ptrace, two ways to stop" check: with CONFIG_UTRACE=y the
# legacy ptrace stop machinery must not be built (ptrace stops are utrace
# stops, kernel/ptrace_utrace.c), and the code both configurations share
# must be in both kernels.  Reads System.map of the built kernels.
#
#   checks/ptrace-symbols.sh   (after 'scripts/build.sh utrace-off utrace-on')
. "$(dirname "$0")/../scripts/lib.sh"

# Only in legacy ptrace: the tracee sleeps in ptrace_stop().  The static
# ones are inlined into their callers, so System.map shows only some;
# all are looked for as definitions in the preprocessed kernel/signal.c.
legacy=(ptrace_stop ptrace_notify)
legacy_src=(ptrace_stop ptrace_do_notify ptrace_notify ptrace_signal)
# Only with ptrace on utrace.
engine=(ptrace_utrace_event ptrace_utrace_jobctl_trap ptrace_utrace_stop_enter
	ptrace_utrace_stop_leave utrace_own_stop)
# Shared by both: the request side, in both System.maps ...
shared=(ptrace_attach ptrace_check_attach ptrace_request)
# ... and the parts of a stop.  ptrace_utrace.c calls them, so they are
# global with CONFIG_UTRACE; without it they are static and GCC inlines
# them into ptrace_stop() (the cost of base), so utrace-off is checked
# in the preprocessed kernel/signal.c, not in System.map.
stop_parts=(ptrace_notify_info ptrace_stop_enter ptrace_stop_sleep
	ptrace_stop_leave ptrace_signal_info)

rc=0
# has MAP SYMBOL: SYMBOL is a text symbol in MAP (static ones included;
# gcc may suffix clones, e.g. ptrace_stop.part.0 or .constprop.0).
has() {
	grep -Eq " [tT] $2(\.[a-z]+\.[0-9]+)?\$" "$1"
}
# judge FOUND WANT SYMBOL WHERE: SYMBOL was found (1) or not (0) in
# WHERE; it must be there (WANT present) or not (absent).
judge() {
	local found=$1 want=$2 sym=$3 where=$4
	if [ "$found" = 1 ]; then
		[ "$want" = present ] && return
		echo "ptrace-symbols: FAIL: $sym is in $where; it must not be built there (see kernel/ptrace_utrace.c)"
	else
		[ "$want" = absent ] && return
		echo "ptrace-symbols: FAIL: $sym is missing from $where"
	fi
	rc=1
}
# expect MAP WANT SYMBOL NAME: SYMBOL in the System.map of kernel NAME.
expect() {
	local found=0
	! has "$1" "$3" || found=1
	judge $found "$2" "$3" "the $4 kernel"
}

if [ ! -f "$LINUX_DIR/kernel/ptrace_utrace.c" ]; then
	echo "ptrace-symbols: SKIPPED: the tree has no ptrace on utrace (utrace-ptrace branch)"
	echo "0 0 1" >"$BUILD/results/check-ptrace-symbols.counts"
	exit 0
fi
off=$BUILD/out/utrace-off/System.map
on=$BUILD/out/utrace-on/System.map
for map in "$off" "$on"; do
	[ -s "$map" ] || die "ptrace-symbols: no $map: build the kernels first ('scripts/build.sh utrace-off utrace-on')"
done
for s in "${legacy[@]}"; do
	expect "$off" present "$s" utrace-off
	expect "$on" absent "$s" utrace-on
done
# defines I SYMBOL: preprocessed source I has a definition of SYMBOL.
defines() {
	grep -Eq "^(static )?(inline )?(int|bool|void) $2\(" "$1"
}
for c in utrace-off utrace-on; do
	make -s -C "$LINUX_DIR" O="$BUILD/out/$c" kernel/signal.i >/dev/null 2>&1 ||
		die "ptrace-symbols: cannot preprocess kernel/signal.c for $c (build it first)"
done
# expect_src CONFIG WANT SYMBOL: kernel/signal.c defines SYMBOL for CONFIG.
expect_src() {
	local found=0
	! defines "$BUILD/out/$1/kernel/signal.i" "$3" || found=1
	judge $found "$2" "$3" "kernel/signal.c for $1"
}
for s in "${legacy_src[@]}"; do
	expect_src utrace-off present "$s"
	expect_src utrace-on absent "$s"
done
for s in "${engine[@]}"; do
	expect "$off" absent "$s" utrace-off
	expect "$on" present "$s" utrace-on
done
for s in "${shared[@]}"; do
	expect "$off" present "$s" utrace-off
	expect "$on" present "$s" utrace-on
done
for s in "${stop_parts[@]}"; do
	expect_src utrace-off present "$s"
	expect "$on" present "$s" utrace-on
done
n=$(( ${#legacy[@]} + ${#legacy_src[@]} + ${#engine[@]} + ${#shared[@]} + ${#stop_parts[@]} ))
if [ $rc -eq 0 ]; then
	echo "ptrace-symbols: OK ($n symbols, both kernels)"
	echo "1 0 0" >"$BUILD/results/check-ptrace-symbols.counts"
else
	echo "0 1 0" >"$BUILD/results/check-ptrace-symbols.counts"
fi
exit $rc
