#!/usr/bin/env bash
# make slow's checks of the series that the kernel's robots (0-day, NIPA,
# the documentation maintainer's builds) run and make check does not,
# because they cost a build of their own:
#
#   w1          W=1 on the touched objects, in every active config (W=1
#               also runs kernel-doc on each compiled file)
#   kernel-doc  scripts/kernel-doc -none -Wall on the headers the series
#               adds or changes (include/linux/utrace.h, ...)
#   htmldocs    make htmldocs SPHINXDIRS=trace (the new .rst files)
#   clang       the touched objects built with LLVM=1 (utrace-on config)
#   i386        a whole ARCH=i386 kernel with CONFIG_UTRACE=n (the series
#               changes signal, ptrace and entry code for every arch)
#
#   checks/robot-checks.sh [PART...]    (default: every part, in this order)
#
# ROBOT_CONFIGS="CONFIG..." picks the configs of w1 (default: the active
# ones) and clang (default: utrace-on, the last of ROBOT_CONFIGS if set),
# e.g. while only one kernel is built.
#
# New findings only, as checks/static.sh: a finding counts when the base
# commit does not have the same message for the same file (line numbers
# ignored, repeats counted; checks/static/lib.sh).  The base is only
# built where the head has findings, in the same way (the base worktree
# of the static checks, build/check/base-src).  Each part builds in its
# own directories under build/check/robots/, never in build/out.  Prints
# each part's time; writes build/results/check-robots.counts (a part is
# passed, failed, or skipped when its tool is missing).
. "$(dirname "$0")/static/lib.sh"

who=robots
# ccache under CCACHE_BASEDIR hands the compiler relative paths, which its
# warnings then name ("../../linux/kernel/..."): keep them absolute, so
# that normalise strips the tree they come from.
unset CCACHE_BASEDIR
rdir=$chk/robots
tally=$rdir/tally
mkdir -p "$rdir"
parts=(w1 kernel-doc htmldocs clang i386)
[ $# -eq 0 ] || parts=("$@")

mapfile -t files < <(kgit diff --name-only --diff-filter=AM base HEAD -- '*.c' \
	':!tools/' ':!Documentation/' ':!scripts/')
mapfile -t headers < <(kgit diff --name-only --diff-filter=AM base HEAD -- '*.h' \
	':!tools/' ':!Documentation/' ':!scripts/')

# prepared SRC O CONFIG MAKEVAR...: build directory O for tree SRC,
# configured from the .config file CONFIG (olddefconfig) and prepared.
prepared() {
	local src=$1 o=$2 cfg=$3
	shift 3
	mkdir -p "$o"
	if ! cmp -s "$cfg" "$o/.config.from"; then
		cp "$cfg" "$o/.config"
		make -s -C "$src" O="$o" "$@" olddefconfig >/dev/null ||
			die "robots: configuring $o failed (make -C $src O=$o $* olddefconfig)"
		cp "$cfg" "$o/.config.from"
	fi
	make -s -C "$src" O="$o" "$@" -j"$(nproc)" prepare >"$o/prepare.log" 2>&1 ||
		die "robots: preparing $o failed ($o/prepare.log)"
}

# objects SRC O FILE... -- MAKEVAR...: the warnings of building each
# FILE's object in O, compiled afresh (so a second run sees them again);
# an object that does not build is a finding too.
objects() {
	local src=$1 o=$2 f
	shift 2
	local -a fs=()
	while [ "$1" != -- ]; do
		fs+=("$1")
		shift
	done
	shift
	for f in "${fs[@]}"; do
		rm -f "$o/${f%.c}.o"
		make -s -C "$src" O="$o" "$@" "${f%.c}.o" 2>&1 ||
			echo "$src/$f:0: error: the object does not build (make $* ${f%.c}.o)"
	done
}

# objects_part NAME CONFIG MAKEVAR...: build the touched objects of CONFIG
# with MAKEVARs on the head and, when that finds anything, the same
# objects on the base (those it has: a header's warnings come from the
# objects that include it).
objects_part() {
	local name=$1 c=$2 head=$rdir/$1-$2.head base=$rdir/$1-$2.base
	shift 2
	local -a built=() redo=()
	prepared "$LINUX_DIR" "$rdir/$name-$c" "$BUILD/out/$c/.config" "$@"
	for f in "${files[@]}"; do
		[ ! -f "$BUILD/out/$c/${f%.c}.o" ] || built+=("$f")
	done
	objects "$LINUX_DIR" "$rdir/$name-$c" "${built[@]}" -- "$@" | normalise "$LINUX_DIR" >"$head"
	: >"$base"
	if [ -s "$head" ]; then
		for f in "${built[@]}"; do
			! in_base "$f" || redo+=("$f")
		done
	fi
	if [ ${#redo[@]} -gt 0 ]; then
		base_tree
		prepared "$basesrc" "$rdir/$name-$c-base" "$BUILD/out/$c/.config" "$@"
		objects "$basesrc" "$rdir/$name-$c-base" "${redo[@]}" -- "$@" | normalise "$basesrc" >"$base"
	fi
	echo "robots: $name, $c config: ${#built[@]} object(s), $(wc -l <"$head") finding(s) on the head, base built for ${#redo[@]} file(s)"
	base_diff "$name" "$c" "the touched objects" "$head" "$base"
}

part_w1() {
	local c st=0
	for c in ${ROBOT_CONFIGS:-$(active_configs)}; do
		objects_part w1 "$c" CC="$cc" W=1 || st=1
	done
	return $st
}

part_clang() {
	local -a cs
	read -r -a cs <<<"${ROBOT_CONFIGS:-$(active_configs)}"
	local c=${cs[-1]}
	if ! command -v clang >/dev/null || ! command -v ld.lld >/dev/null; then
		skip "clang or ld.lld is not installed (apt-get install clang lld, or make deps)"
		return
	fi
	objects_part clang "$c" LLVM=1 CC="ccache clang"
}

part_kernel_doc() {
	local h head=$rdir/kernel-doc.head base=$rdir/kernel-doc.base
	for h in "${headers[@]}"; do
		(cd "$LINUX_DIR" && scripts/kernel-doc -none -Wall "$h" 2>&1) || true
	done | normalise "$LINUX_DIR" >"$head"
	: >"$base"
	for h in "${headers[@]}"; do
		in_base "$h" || continue
		base_tree
		(cd "$basesrc" && scripts/kernel-doc -none -Wall "$h" 2>&1) || true
	done | normalise "$basesrc" >"$base"
	echo "robots: kernel-doc: ${#headers[@]} header(s): ${headers[*]}"
	base_diff kernel-doc "" "the touched headers" "$head" "$base"
}

part_htmldocs() {
	local head=$rdir/htmldocs.head base=$rdir/htmldocs.base
	if ! command -v sphinx-build >/dev/null; then
		skip "sphinx-build is not installed (apt-get install python3-sphinx, or make deps)"
		return
	fi
	# docs SRC O: the findings of a fresh build (sphinx reports a warning
	# only when it reads the file again).
	docs() {
		rm -rf "$2"
		mkdir -p "$2"
		make -s -C "$1" O="$2" SPHINXDIRS=trace htmldocs >"$2/htmldocs.log" 2>&1 ||
			echo "$1/Documentation/trace/index.rst:0: ERROR: make htmldocs failed ($2/htmldocs.log)"
		sphinx_findings "$1" <"$2/htmldocs.log"
	}
	docs "$LINUX_DIR" "$rdir/htmldocs" >"$head"
	: >"$base"
	if [ -s "$head" ]; then
		base_tree
		docs "$basesrc" "$rdir/htmldocs-base" >"$base"
	fi
	echo "robots: htmldocs: $(wc -l <"$head") finding(s) on the head (html in $rdir/htmldocs/Documentation/output)"
	base_diff htmldocs "" "Documentation/trace" "$head" "$base"
}

# i386 SRC O: a whole 32-bit kernel of tree SRC in O (tinyconfig, the
# guest fragments without their 64-bit options, CONFIG_UTRACE=n); its
# warnings, and an error line when it does not build.
i386() {
	local src=$1 o=$2 frag=$rdir/i386.config
	mkdir -p "$o"
	grep -v -e '^CONFIG_64BIT=' -e '^CONFIG_IA32_EMULATION=' "$TOP/kconfigs/base.config" >"$frag"
	cat "$TOP/kconfigs/utrace-off.config" >>"$frag"
	{ make -s -C "$src" O="$o" ARCH=i386 tinyconfig &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "$frag" &&
		make -s -C "$src" O="$o" ARCH=i386 olddefconfig; } >"$o/config.log" 2>&1 ||
		die "robots: i386: configuring $o failed ($o/config.log)"
	! grep -q '^CONFIG_UTRACE=y' "$o/.config" || die "robots: i386: CONFIG_UTRACE=y in $o/.config"
	make -s -C "$src" O="$o" ARCH=i386 CC="$cc" -j"$(nproc)" vmlinux >"$o/build.log" 2>&1 ||
		echo "$src/init/main.c:0: error: the i386 kernel does not build ($o/build.log)" >>"$o/build.log"
	normalise "$src" <"$o/build.log"
}

# The base kernel is built only when the head's has findings.
part_i386() {
	local head=$rdir/i386.head base=$rdir/i386.base
	i386 "$LINUX_DIR" "$rdir/i386" >"$head"
	: >"$base"
	if [ -s "$head" ]; then
		base_tree
		i386 "$basesrc" "$rdir/i386-base" >"$base"
	fi
	echo "robots: i386: $(wc -l <"$head") finding(s) in the whole kernel (log: $rdir/i386/build.log)"
	base_diff i386 "" "the 32-bit kernel (CONFIG_UTRACE=n)" "$head" "$base"
}

skip() {
	echo "robots: $part: SKIPPED: $*"
	skipped=$((skipped + 1))
	skipping=1
}

passed=0 failed=0 skipped=0
: >"$tally"
for part in "${parts[@]}"; do
	fn=part_${part//-/_}
	declare -F "$fn" >/dev/null || die "robots: no part '$part' (parts: w1 kernel-doc htmldocs clang i386)"
	t0=$(date +%s) skipping=0
	if "$fn"; then
		[ $skipping -eq 1 ] || passed=$((passed + 1))
		verdict=clean
		[ $skipping -eq 0 ] || verdict=skipped
	else
		failed=$((failed + 1))
		verdict="NEW FINDINGS (above)"
	fi
	echo "robots: $part: $verdict ($(($(date +%s) - t0)) s)"
done
echo "robots: $passed part(s) clean, $failed with new findings, $skipped skipped"
echo "$passed $failed $skipped" >"$BUILD/results/check-robots.counts"
[ $failed -eq 0 ]
