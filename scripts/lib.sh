# shellcheck shell=bash
# Common settings and helpers for the workbench scripts.  Sourced, not run.
#
# Everything here is driven by the top-level Makefile, which exports
# TOP (the project checkout) and LINUX_DIR (the kernel work tree).

set -euo pipefail

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LINUX_DIR=${LINUX_DIR:-$TOP/build/linux}
BUILD=${BUILD:-$TOP/build}
REF_FILE=$TOP/linux.git-submodule-ref

# The topic branches, in stacking order.  Each is exported to branches/<name>/.
TOPICS=(stepping-fixes utrace-core utrace-ptrace utrace-gdb)

die() {
	echo "error: $*" >&2
	exit 1
}

note() {
	echo "==> $*" >&2
}

# ref_get KEY: print the value of KEY from linux.git-submodule-ref.
ref_get() {
	local v
	v=$(sed -n "s/^$1[[:space:]]*=[[:space:]]*//p" "$REF_FILE")
	[ -n "$v" ] || die "$REF_FILE has no '$1 = ...' line"
	printf '%s\n' "$v"
}

# ref_args: the pinned base as '--ref=KEY=VALUE' words, one a line, for
# the programs that describe it (tests/kcidb.py): ref_get is the one
# reader of linux.git-submodule-ref.
ref_args() {
	local k v
	for k in commit package version upstream tree; do
		v=$(ref_get "$k")
		printf -- '--ref=%s=%s\n' "$k" "$v"
	done
}

# kcidb_json OUT TABLE [OPTION...]: a side-by-side TABLE (compare.tsv,
# debug.tsv, ...) as one KernelCI (KCIDB) document OUT, by tests/kcidb.py
# with the pinned base, the series of branches/ and the kernels' compilers
# from build/out (tests/README.md, "KCIDB"); OPTIONs go to kcidb.py.
kcidb_json() {
	local out=$1 table=$2 base
	local -a base_opts
	shift 2
	base=$(ref_args)
	mapfile -t base_opts <<<"$base"
	rm -f "$out"
	"$TOP/tests/kcidb.py" --out-dir "$BUILD/out" "${base_opts[@]}" "$@" "$out" "$table" \
		--series "${TOPICS[@]/#/$TOP/branches/}"
}

kgit() {
	git -C "$LINUX_DIR" "$@"
}

# topic_parent NAME: the ref a topic branch is stacked on.
topic_parent() {
	local prev=base t
	for t in "${TOPICS[@]}"; do
		if [ "$t" = "$1" ]; then
			echo "$prev"
			return
		fi
		prev=$t
	done
	die "unknown topic branch '$1'"
}

# The fixed identity of the imported base commit (see linux.git-submodule-ref).
base_identity() {
	local author
	author=$(ref_get commit-author)
	export GIT_AUTHOR_NAME=${author% <*}
	export GIT_AUTHOR_EMAIL=${author##*<}
	GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL%>}
	export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME
	export GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_DATE
	GIT_AUTHOR_DATE=$(ref_get commit-date)
	export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
}

# Does the kernel work tree define CONFIG_UTRACE yet?
tree_has_utrace() {
	grep -rqx --include='Kconfig*' 'config UTRACE' "$LINUX_DIR/kernel" "$LINUX_DIR/init" \
		"$LINUX_DIR/arch/Kconfig" 2>/dev/null
}

# Does the kernel tree have the utrace test module (lib/test_utrace.c and its
# interface, which the bystander wrapper includes)?
tree_has_test_utrace() {
	[ -f "$LINUX_DIR/lib/test_utrace.c" ] && [ -f "$LINUX_DIR/lib/test_utrace_uapi.h" ]
}

# The kernels to build and compare: utrace-on only once CONFIG_UTRACE exists.
active_configs() {
	if tree_has_utrace; then
		echo utrace-off utrace-on
	else
		echo utrace-off
	fi
}

absent_reason() {
	tree_has_utrace ||
		echo "the kernel tree does not define CONFIG_UTRACE yet (utrace-core branch), so only utrace-off is built and run"
}

# build_base: the kernel of make bench's base column in $BUILD/out/base:
# the pristine base commit, in its own worktree ($BUILD/check/base-src,
# which the static checks share), with utrace-off's fragments (options of
# the series that base does not have are not checked: KCONFIG_NOT_YET).
build_base() {
	local src=$BUILD/check/base-src
	if [ ! -d "$src" ]; then
		note "checking out the base tree for the base column ($src)"
		kgit worktree add -q --detach "$src" base
	fi
	[ "$(git -C "$src" rev-parse HEAD)" = "$(kgit rev-parse 'base^{commit}')" ] ||
		die "$src is not at base: remove it ('git -C $LINUX_DIR worktree remove --force $src') and run again"
	LINUX_DIR=$src KCONFIG_NOT_YET=1 "$TOP/scripts/build.sh" base
}

# bench_module DIR: build bench/kmod (utrace_bench.ko, the counting engines
# of make bench's engines-K-per-event rows) against the utrace-on kernel
# in DIR/kmod and print the module's path.  An out-of-tree module: a tool
# of the workbench, not part of the series.
bench_module() {
	local dir=$1/kmod o=$BUILD/out/utrace-on
	[ -f "$o/Module.symvers" ] ||
		die "no utrace-on kernel with modules in $o (Module.symvers): run 'make build'"
	rm -rf "$dir"
	cp -r "$TOP/bench/kmod" "$dir"
	make -s -C "$LINUX_DIR" O="$o" M="$dir" modules >"$dir/build.log" 2>&1 || {
		cat "$dir/build.log" >&2
		die "building bench/kmod/utrace_bench.ko failed (above, $dir/build.log)"
	}
	echo "$dir/utrace_bench.ko"
}

# run_guest WHO CONFIG OUT QEMU-ARGS...: boot kernel CONFIG with boot/qemu.py
# (QEMU-ARGS: its --script, --args, limits and the rest), logs in OUT; note
# how long the guest ran and scan its console for kernel bug reports.
# Messages start with WHO.  Returns 1 if the guest did not finish by
# itself or the console shows a report.
run_guest() {
	local who=$1 c=$2 out=$3 st=0 t0
	shift 3
	mkdir -p "$out"
	t0=$(date +%s)
	"$TOP/boot/qemu.py" --kernel "$BUILD/out/$c/arch/x86/boot/bzImage" --out "$out" "$@" || {
		echo "$who: the guest did not finish by itself (see $out/output.log, $out/console.log)" >&2
		st=1
	}
	note "$who guest ran for $(($(date +%s) - t0)) s"
	if ! "$TOP/boot/consolescan.py" "$out/console.log" >"$out/console-scan.txt"; then
		cat "$out/console-scan.txt" >&2
		echo "$who: the kernel reported a bug in its console (above, $out/console.log): this fails the run" >&2
		st=1
	fi
	return $st
}

# boot_guest WHO CONFIG SCRIPT ARG OUT: run_guest with guest SCRIPT (given
# ARG), and parse its KTAP into OUT/results.tsv.  Returns 1 if the guest
# did not finish, the console shows a report, or the results are
# incomplete.
boot_guest() {
	local who=$1 c=$2 script=$3 arg=$4 out=$5 st=0
	# The guest prints a program's output when it ends (run-tests.sh):
	# the silence limit must outlast the longest program timeout of the
	# run list (gdbstub/gdbstub: 1200 s), or a slow kernel (KASAN) is
	# killed while a program runs within its own limit.
	run_guest "$who" "$c" "$out" --script "$script" --args "$arg" \
		--timeout 2700 --silence 1300 || st=1
	if ! "$TOP/tests/ktap.py" --kernel "$c" --may-skip "$TOP/tests/may-skip.txt" \
		"$out/output.log" >"$out/results.tsv"; then
		echo "$who: the results are incomplete (above)" >&2
		st=1
	fi
	return $st
}

# kunit_rows WHO OUT: the KUnit results in OUT/console.log (a kernel with
# CONFIG_KUNIT=y runs its built-in suites at boot), read by the kernel's
# own parser (OUT/kunit.json, its report OUT/kunit.txt), as one row per
# case in OUT/kunit.tsv (tests/kunit_rows.py).  Failing cases are rows
# like any other; returns 1 only when there are no KUnit results at all.
kunit_rows() {
	local who=$1 out=$2
	rm -f "$out/kunit.json"
	# kunit.py exits 1 when a case fails: the rows say which.
	python3 "$LINUX_DIR/tools/testing/kunit/kunit.py" parse --json="$out/kunit.json" \
		"$out/console.log" >"$out/kunit.txt" 2>&1 || true
	if ! "$TOP/tests/kunit_rows.py" "$out/kunit.json" >"$out/kunit.tsv"; then
		tail -n 20 "$out/kunit.txt" >&2
		echo "$who: no KUnit results from a kernel with CONFIG_KUNIT=y (above; $out/kunit.txt, $out/console.log): this fails the run" >&2
		return 1
	fi
	note "$who KUnit: $(grep -o 'Testing complete.*' "$out/kunit.txt" || echo "$(($(wc -l <"$out/kunit.tsv") - 1)) cases")"
}
