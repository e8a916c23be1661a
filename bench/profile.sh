#!/usr/bin/env bash
# make profile: where the kernel spends its instructions in one benchmark,
# per function, on utrace-off and utrace-on side by side.
#
#   bench/profile.sh NAME [N [ARG]]  (NAME as in bench/src/bench.c, e.g.
#                                   ptrace-syscall; N as bench takes it,
#                                   default 2100; ARG for the benchmarks
#                                   that take one, e.g. K of "engines")
#
# PROFILE_CONFIGS="utrace-on cand" profiles the kernels in build/out/NAME
# for each NAME instead of the active configs: to measure a change to the
# series, build it into a directory of its own (make O=build/out/cand
# with utrace-on's .config) and profile it beside utrace-on.
#
# PROFILE_WRAP="strace -c -o /tmp/out" runs the benchmark under that
# command (strace and busybox are in the guest's initramfs), e.g. to see
# what the syscount-strace-c row of make bench spends.
#
# "engines" runs on utrace-on only, with bench/kmod/utrace_bench.ko
# loaded: its functions are rows too ("utrace_bench:ub_syscall_entry"),
# so the cost of an engine splits into what the core spends and what the
# engine's callback spends.  Compare two K to get one engine's share.
#
# Boots each built kernel twice under TCG, from an initramfs
# (bench/initramfs.sh, as make bench does: no 9p request lands in the
# measured code), with -icount so that the boot (delay calibration, timer
# ticks) is the same in both, with the tbprof plugin
# (bench/src/tbprof.c), which counts the instructions executed in every
# block of kernel text: once running the benchmark N times, once 2N
# times.  The difference of the two runs is the extra operations without
# the boot and setup, so profile.py prints instructions per operation
# (a system call for ptrace-syscall, a step for singlestep...) for every
# function that differs, and the totals.  Counts are exact instruction
# counts, not samples; timer interrupts add a little noise.
# Output: build/results/profile/NAME.txt (and the raw counts beside it).
. "$(dirname "$0")/../scripts/lib.sh"

name=${1:?usage: bench/profile.sh NAME [N] (a benchmark of bench/src/bench.c)}
n=${2:-2100}
arg=${3:-}
[[ $n =~ ^[1-9][0-9]*$ ]] || die "profile: N must be a positive number of iterations, not '$n'"
out=$BUILD/results/profile
bin=$BUILD/bench
mkdir -p "$out" "$bin"
read -r -a configs <<<"${PROFILE_CONFIGS:-$(active_configs)}"
ko=""
if [ "$name" = engines ]; then
	[[ $arg =~ ^[0-9]+$ ]] || die "profile: engines needs K, the number of engines (e.g. 'make profile P=engines A=2')"
	configs=(utrace-on)
	ko=$(bench_module "$bin")
fi
# A wrapped run is another measurement: its files get their own names.
tag=$name${arg:+-$arg}${PROFILE_WRAP:+-wrapped}
for c in "${configs[@]}"; do
	[ -f "$BUILD/out/$c/arch/x86/boot/bzImage" ] ||
		die "no $c kernel in $BUILD/out/$c: run 'make build' first"
done
gcc -O2 -shared -fPIC -Wall -o "$bin/tbprof.so" "$TOP/bench/src/tbprof.c" ||
	die "building the tbprof plugin (bench/src/tbprof.c) failed (above)"
gcc -O2 -static -Wall -I"$LINUX_DIR/lib" -I"$TOP/bench/kmod" -o "$bin/bench" "$TOP/bench/src/bench.c" -lpthread ||
	die "building bench/src/bench.c failed (above)"

# One CONF per N, both in one initramfs: the same bytes in every guest.
files=("$TOP/boot/guest-init.sh" "$TOP/bench/profile-guest.sh" "$bin/bench")
[ -z "$ko" ] || files+=("$ko")
for k in $n $((2 * n)); do
	printf 'BIN=%s\nNAME=%s\nN=%s\nARG=%s\nKO=%s\nWRAP="%s"\n' "$bin" "$name" "$k" "$arg" "$ko" "${PROFILE_WRAP:-}" >"$out/$tag-$k.conf"
	files+=("$out/$tag-$k.conf")
done
note "profile: building the guests' initramfs $out/initramfs.cpio"
"$TOP/bench/initramfs.sh" "$out/initramfs.cpio" "${files[@]}" ||
	die "profile: building the initramfs failed (above)"

args=()
for c in "${configs[@]}"; do
	for k in $n $((2 * n)); do
		dir=$out/$tag-$c-$k
		mkdir -p "$dir"
		note "profile: $c, bench $name $k $arg"
		"$TOP/boot/qemu.py" --kernel "$BUILD/out/$c/arch/x86/boot/bzImage" --icount \
			--initrd "$out/initramfs.cpio" --plugin "$bin/tbprof.so,out=$dir/blocks.txt" \
			--script "$TOP/bench/profile-guest.sh" --args "$out/$tag-$k.conf" \
			--out "$dir" --timeout 900 --silence 300 ||
			die "profile: the $c guest did not finish (logs in $dir)"
		grep -q "^profile: bench $name $k${arg:+ $arg} exit status 0" "$dir/output.log" ||
			die "profile: bench $name $k $arg failed in the $c guest: see $dir/output.log"
		[ -s "$dir/blocks.txt" ] || die "profile: tbprof wrote no counts ($dir/blocks.txt)"
	done
	spec="$c=$BUILD/out/$c/System.map,$out/$tag-$c-$n/blocks.txt,$out/$tag-$c-$((2 * n))/blocks.txt"
	if [ -n "$ko" ]; then
		# The module must sit at the same address in both runs.
		at=$(sed -n 's/^profile: module text at //p' "$out/$tag-$c-$n/output.log")
		at2=$(sed -n 's/^profile: module text at //p' "$out/$tag-$c-$((2 * n))/output.log")
		if [ -z "$at" ] || [ "$at" != "$at2" ]; then
			die "profile: the test module's .text moved between the two runs, or was not printed (see $out/$tag-$c-*/output.log)"
		fi
		spec+=",$ko@$at"
	fi
	args+=("$spec")
done
# Operations bench ran: N, or for the benchmarks that take the median of
# rounds (they print "rounds of P"), a warm-up and 7 rounds of P.
ops() {
	local p
	p=$(sed -n 's/^rounds of \([0-9]*\),.*/\1/p' "$out/$tag-${configs[0]}-$1/output.log")
	if [ -n "$p" ]; then echo $((8 * p)); else echo "$1"; fi
}
"$TOP/bench/profile.py" --top "${PROFILE_TOP:-40}" --iterations $(($(ops $((2 * n))) - $(ops "$n"))) "${args[@]}" | tee "$out/$tag.txt"
