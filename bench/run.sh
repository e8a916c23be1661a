#!/usr/bin/env bash
# make bench / make bench-smoke: measure what utrace costs.
#
#   bench/run.sh [--smoke] [--no-build]
#
# Builds the guest kernels (scripts/build.sh, as make compare does; skip
# with --no-build) and the static benchmark programs (bench/src ->
# build/bench), boots each kernel under QEMU with -icount (guest time is
# a function of the instructions executed, so results are deterministic)
# and runs bench/guest.sh in it.  bench/report.py then prints the table
# and writes:
#   full:   build/results/bench.tsv, bench.svg    (each kernel booted twice)
#   smoke:  build/results/bench-smoke.tsv, .svg   (each kernel once, 1/100
#           of the iterations: seconds of guest work, a check that every
#           benchmark still runs and prints a number; speed is not judged)
# Logs: build/results/bench[-smoke]/<kernel>-run<N>/{output,console}.log
# BENCH_RUNS=N boots each kernel N times instead (the value is the mean).
# The boots run BENCH_JOBS at a time (default: one per host CPU): each
# guest's clock counts its own instructions (-icount, sleep=off), so the
# numbers do not depend on what else the host runs.
# The full run has a third kernel, base (the pristine tree built like
# utrace-off, scripts/build.sh); BENCH_NO_BASE=1 leaves it out.
# The guests boot from an initramfs (bench/initramfs.sh, one per run
# number, build/results/bench[-smoke]/initramfs-runN.cpio), not from the
# host's / over 9p, so two boots of a kernel give the same numbers; the
# kernels need CONFIG_BLK_DEV_INITRD=y.  BENCH_PERTURB=1 gives run N > 1
# one file more, of (N - 1) * 100000 bytes (bench-pad-runN): the spread
# is then how far a row moves with input that is not its code, as
# another kernel's layout moves it (bench/README.md, "Determinism").
# BENCH_9P_ROOT=1 boots the old way (the host's / as the root, as make
# compare does).
#
# Exit status 1 when a benchmark fails or prints no number, a guest does
# not finish, or a console shows a kernel bug.  Missing a speed target
# does not fail the run (the table says so).
. "$(dirname "$0")/../scripts/lib.sh"

mode=full do_build=yes
for a in "$@"; do
	case $a in
	--smoke) mode=smoke ;;
	--no-build) do_build=no ;;
	-h | --help) sed -n '2,35p' "$0" && exit 0 ;;
	*) die "bench/run.sh: unknown argument '$a' (try --help)" ;;
	esac
done

if [ $mode = full ]; then
	runs=${BENCH_RUNS:-2} timeout=1200 silence=400 name=bench
else
	runs=${BENCH_RUNS:-1} timeout=400 silence=200 name=bench-smoke
fi
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive number of boots per kernel, not '$runs'"
res=$BUILD/results
out=$res/$name
bin=$BUILD/bench
read -r -a configs <<<"$(active_configs)"
absent=()
[ -z "$(absent_reason)" ] || absent=(--absent "utrace-on=$(absent_reason)")

if [ $do_build = yes ]; then
	"$TOP/scripts/build.sh" "${configs[@]}"
fi
# The full run also boots the pristine base tree, built like utrace-off:
# the base column, against which utrace-off must cost nothing.  The smoke
# run (make test) leaves it out: one more cold kernel build.
if [ $mode = full ] && [ -z "${BENCH_NO_BASE:-}" ]; then
	[ $do_build = no ] || build_base
	configs=(base "${configs[@]}")
fi
for c in "${configs[@]}"; do
	[ -f "$BUILD/out/$c/arch/x86/boot/bzImage" ] ||
		die "no $c kernel in $BUILD/out/$c: run 'make build' (or bench/run.sh without --no-build)"
	[ -n "${BENCH_9P_ROOT:-}" ] || grep -qx 'CONFIG_BLK_DEV_INITRD=y' "$BUILD/out/$c/.config" ||
		die "the $c kernel ($BUILD/out/$c/.config) has no initramfs support, and the bench boots from one" \
			"(bench/README.md, \"Determinism\"): add CONFIG_BLK_DEV_INITRD=y to kconfigs/base.config and" \
			"rebuild, or boot from the host's / over 9p with BENCH_9P_ROOT=1 (two boots then differ by up to 2%)"
done

# bench.c includes "test_utrace_uapi.h", the ABI of the utrace test module
# (lib/test_utrace_uapi.h of the kernel tree, from utrace-core on).
# Without it bench is built without the scale benchmarks (their rows say
# why).
test_utrace_inc=$LINUX_DIR/lib
tu_why=""
if [ ! -f "$test_utrace_inc/test_utrace_uapi.h" ]; then
	tu_why="no lib/test_utrace_uapi.h in the kernel tree ($test_utrace_inc): bench is built without the scale benchmarks"
	note "$tu_why"
fi

note "building the benchmark programs into $bin"
mkdir -p "$bin"
gcc -O2 -static -Wall -I"$test_utrace_inc" -I"$TOP/bench/kmod" -o "$bin/bench" "$TOP/bench/src/bench.c" -lpthread ||
	die "building bench/src/bench.c failed (above)"
gcc -O2 -static -nostdlib -fno-stack-protector -Wall -o "$bin/tiny" "$TOP/bench/src/tiny.c" ||
	die "building bench/src/tiny.c failed (above)"

# The utrace syscall-counting sample engine (samples/utrace, utrace-core).
engine_ko=$BUILD/out/utrace-on/samples/utrace/utrace-syscount.ko
engine_why=""
if [ ! -f "$engine_ko" ]; then
	engine_why="not built yet: no $engine_ko (the sample engine comes with the utrace-core branch)"
	engine_ko=""
fi

# The utrace test module (lib/test_utrace.c, CONFIG_TEST_UTRACE=m) for the
# scale rows.
tu_ko=$BUILD/out/utrace-on/lib/test_utrace.ko
if [ -n "$tu_why" ]; then
	tu_ko=""
elif [ ! -f "$tu_ko" ]; then
	tu_why="not built yet: no $tu_ko (CONFIG_TEST_UTRACE=m in the utrace-on kernel)"
	tu_ko=""
fi

# The counting engines of the engines-K-per-event rows (bench/kmod).
bench_ko="" bench_why=""
if [ -f "$BUILD/out/utrace-on/Module.symvers" ]; then
	note "building bench/kmod/utrace_bench.ko against the utrace-on kernel"
	bench_ko=$(bench_module "$bin")
else
	bench_why="no utrace-on kernel with modules in $BUILD/out/utrace-on (Module.symvers)"
fi

rm -rf "$out"
mkdir -p "$out"
# One CONF for every boot; one initramfs per run number, the same bytes
# in each unless BENCH_PERTURB is set (see the top).
conf=$out/guest.conf
cat >"$conf" <<-EOF
	MODE=$mode
	BIN=$bin
	ENGINE_KO=$engine_ko
	ENGINE_WHY='$engine_why'
	TEST_UTRACE_KO=$tu_ko
	TEST_UTRACE_WHY='$tu_why'
	BENCH_KO=$bench_ko
	BENCH_WHY='$bench_why'
EOF
if [ -z "${BENCH_9P_ROOT:-}" ]; then
	files=("$TOP/boot/guest-init.sh" "$TOP/bench/guest.sh" "$conf" "$bin/bench" "$bin/tiny")
	for ko in "$engine_ko" "$tu_ko" "$bench_ko"; do
		[ -z "$ko" ] || files+=("$ko")
	done
	for r in $(seq 1 "$runs"); do
		pad=()
		if [ "$r" -gt 1 ] && [ -z "${BENCH_PERTURB:-}" ]; then
			ln -f "$out/initramfs-run1.cpio" "$out/initramfs-run$r.cpio"
			continue
		elif [ "$r" -gt 1 ]; then
			head -c $(((r - 1) * 100000)) /dev/zero >"$out/bench-pad-run$r"
			pad=("$out/bench-pad-run$r")
		fi
		note "building the guests' initramfs $out/initramfs-run$r.cpio"
		"$TOP/bench/initramfs.sh" "$out/initramfs-run$r.cpio" "${files[@]}" "${pad[@]}" ||
			die "building the initramfs of run $r failed (above)"
	done
else
	note "BENCH_9P_ROOT is set: the guests boot from the host's / over 9p (two boots differ by up to 2%)"
fi
# boot_one CONFIG RUN: one guest (BENCH_JOBS of them at once, see the
# top); its verdict goes to DIR/boot.rc, read once all have ended.
boot_one() {
	local c=$1 r=$2 dir=$out/$1-run$2 st=0
	note "bench ($mode): booting $c, run $r of $runs (log: $dir/output.log)"
	local root=()
	[ -n "${BENCH_9P_ROOT:-}" ] || root=(--initrd "$out/initramfs-run$r.cpio")
	run_guest "bench: $c run $r" "$c" "$dir" --icount "${root[@]}" \
		--script "$TOP/bench/guest.sh" --args "$conf" \
		--timeout "$timeout" --silence "$silence" || st=1
	echo "$st" >"$dir/boot.rc"
}

jobs_max=${BENCH_JOBS:-$(nproc)}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || die "BENCH_JOBS must be a positive number of guests at once, not '$jobs_max'"
rc=0
logs=()
for c in "${configs[@]}"; do
	cols=""
	for r in $(seq 1 "$runs"); do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
			wait -n || true
		done
		boot_one "$c" "$r" &
		cols+=${cols:+,}$out/$c-run$r/output.log
	done
	logs+=("$c=$cols")
done
wait
for c in "${configs[@]}"; do
	for r in $(seq 1 "$runs"); do
		[ "$(cat "$out/$c-run$r/boot.rc" 2>/dev/null)" = 0 ] || rc=1
	done
done

"$TOP/bench/report.py" --mode $mode --tsv "$res/$name.tsv" --svg "$res/$name.svg" \
	"${absent[@]}" "${logs[@]}" || rc=1
[ $rc -eq 0 ] || echo "bench: FAILED (above); the guest logs are in $out" >&2
exit $rc
