#!/usr/bin/env bash
# sparse (C=2) and coccinelle (coccicheck MODE=report, plus our own rules in
# checks/cocci/) over the C files the series touches, in every active
# config.  A finding counts as new when the base tree does not have the
# same message for the same file (line numbers ignored, repeats counted);
# the base's own findings are listed separately, never hidden in ours.
. "$(dirname "$0")/../scripts/lib.sh"

chk=$BUILD/check
basesrc=$chk/base-src
mkdir -p "$chk" "$BUILD/results"
kgit rev-parse HEAD >/dev/null # no kernel tree (no HEAD): stop here
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
export CCACHE_BASEDIR=$BUILD
KBUILD_BUILD_TIMESTAMP=$(ref_get commit-date)
export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER=utrace KBUILD_BUILD_HOST=workbench

mapfile -t files < <(kgit diff --name-only --diff-filter=AM base HEAD -- '*.c' \
	':!tools/' ':!Documentation/' ':!scripts/')
if [ ${#files[@]} -eq 0 ]; then
	echo "static: the series touches no kernel C file yet: nothing for sparse or coccinelle"
	echo "0 0 0" >"$BUILD/results/check-static.counts"
	exit 0
fi

# A clean checkout of the base, built with the same configs, gives the
# base's own findings for the same files.  They are a pure function of the
# base tree, the config, the tools, the rules and this script, so they are
# kept outside the clone, under that key, as ccache keeps objects: a fresh
# clone (CI) on a machine that ran the checks before needs neither the
# base checkout nor its prepare (about 8 of the 12 minutes of this check).
# WORKBENCH_CACHE=DIR puts the cache elsewhere; deleting it is always safe.
cache_root=${WORKBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/utrace-workbench}

# base_dir CONFIG [REV]: the cache directory of the findings in REV's tree
# (default: the base) for CONFIG.
base_dir() {
	local key
	key=$({
		kgit rev-parse "${2:-base}^{tree}"
		cat "$BUILD/out/$1/.config"
		sparse --version 2>&1
		spatch --version 2>&1 | head -n1
		gcc --version | head -n1
		cat "$0" "${cocci_rules[@]}"
	} | sha256sum | cut -d' ' -f1)
	echo "$cache_root/base-findings/$key"
}

# head_dir CONFIG: the same for the work tree's HEAD, so that make test
# does not run the same spatch and sparse again on a kernel tree it has
# already checked (CI after a local run); empty, i.e. no cache, while the
# work tree has uncommitted changes.
head_dir() {
	[ -z "$(kgit status --porcelain)" ] || return 0
	base_dir "$1" HEAD
}

# reuse KEY OUT CMD...: OUT gets the cache file KEY, or the output of CMD,
# which is stored under KEY (no KEY: CMD, nothing stored).
reuse() {
	local key=$1 out=$2
	shift 2
	if [ -n "$key" ] && [ -f "$key" ]; then
		cp "$key" "$out"
		head_reused=$((head_reused + 1))
		return
	fi
	"$@" >"$out"
	[ -z "$key" ] || { cp "$out" "$key.tmp" && mv "$key.tmp" "$key"; }
}

# base_prepare CONFIG: the base worktree, configured and prepared for
# CONFIG in $chk/base-out-CONFIG, once per run and only when a base
# finding is not in the cache.
declare -A base_prepared=()
base_prepare() {
	local c=$1 o=$BUILD/out/$1 bo=$chk/base-out-$1
	[ -z "${base_prepared[$c]:-}" ] || return 0
	if [ ! -d "$basesrc" ]; then
		note "checking out the base tree for reference findings ($basesrc)"
		kgit worktree add -q --detach "$basesrc" base
	fi
	mkdir -p "$bo"
	if ! cmp -s "$o/.config" "$bo/.config"; then
		cp "$o/.config" "$bo/.config"
		make -s -C "$basesrc" O="$bo" CC="$cc" olddefconfig >/dev/null
		make -s -C "$basesrc" O="$bo" CC="$cc" -j"$(nproc)" prepare >/dev/null 2>&1 ||
			die "preparing the base tree for $c failed in $bo"
	fi
	base_prepared[$c]=1
}

# in_base FILE: is FILE in the base tree (else it has no base findings)?
in_base() {
	kgit cat-file -e "base:$1" 2>/dev/null
}

# store KEY CMD...: the output of CMD into the cache file KEY, whole or not
# at all (set -e stops the script when CMD fails).
store() {
	local key=$1
	shift
	"$@" >"$key.tmp"
	mv "$key.tmp" "$key"
}

# normalise ROOT: "ROOT/path:line:col: msg" -> "path: msg" (sparse and
# coccicheck output), so head and base findings compare by file and text.
normalise() {
	sed -E -e "s#^$1/##" -e 's#^(\.\./)+##' |
		sed -E -n 's#^([^: ]+\.[ch]):[0-9]+(:[0-9-]+)?:? #\1: #p' | LC_ALL=C sort
}

# run_sparse SRC O FILE: sparse findings for one object (C=2 forces the check).
run_sparse() {
	local src=$1 o=$2 f=$3
	{ make -s -C "$src" O="$o" CC="$cc" C=2 "${f%.c}.o" 2>&1 || true; } | normalise "$src"
}

# run_coccinelle SRC O FILE...: what 'make coccicheck MODE=report' reports
# for the FILEs, i.e. every rule of scripts/coccinelle with its own
# '// Options:' and the kernel's include paths.  (Not through C=2
# CHECK=scripts/coccicheck: that also checks scripts/mod/empty.c and aborts
# the build on the first rule that needs OCaml.)  Rules with OCaml scripts
# cannot run with Debian's spatch; they are counted and named in the
# summary, not hidden.  One spatch per rule over all the files, as
# coccicheck does for a directory, and one rule per core at a time: a run
# per rule and file paid spatch's start-up and the rule's parse each time
# and was most of 'make test'.  The findings are the same: spatch
# matches each file on its own.
run_coccinelle() {
	local src=$1 o=$2 rule i=0
	local -a inc
	shift 2
	local -a paths=("${@/#/$src/}")
	local tmp
	tmp=$(mktemp -d)
	inc=(-I "$src/arch/x86/include" -I "$o/arch/x86/include/generated"
		-I "$src/include" -I "$o/include" -I "$src/arch/x86/include/uapi"
		-I "$o/arch/x86/include/generated/uapi" -I "$src/include/uapi"
		-I "$o/include/generated/uapi" --include "$src/include/linux/kconfig.h")
	for rule in "${cocci_rules[@]}"; do
		# At most nproc rules at once: wait for the oldest batch.
		if [ $((i % $(nproc))) -eq 0 ]; then wait; fi
		run_rule "$rule" "$tmp/$i" &
		i=$((i + 1))
	done
	wait
	cat "$tmp"/* 2>/dev/null | normalise "$src"
	rm -rf "$tmp"
}

# run_rule RULE OUT: one rule over $paths (see run_coccinelle) into OUT.
run_rule() {
	local rule=$1 out=$2 opts p
	opts=$(sed -n 's#^// Options:##p' "$rule" | head -n1)
	# shellcheck disable=SC2086 # $opts: the rule's spatch options, as words
	if ! spatch -D report --no-show-diff --very-quiet --cocci-file "$rule" $opts \
		"${inc[@]}" "${paths[@]}" >"$out" 2>/dev/null; then
		for p in "${paths[@]}"; do
			echo "$p:0: coccinelle rule $(basename "$rule") failed to run"
		done >>"$out"
	fi
}

# for_file FILE [FINDINGS]: the lines of FINDINGS or stdin ("path:
# message") about FILE.
for_file() {
	awk -v f="$1: " 'index($0, f) == 1' "${@:2}"
}

mapfile -t cocci_rules < <(grep -L -E '@(script|initialize|finalize):ocaml' -r "$LINUX_DIR/scripts/coccinelle" --include='*.cocci' | LC_ALL=C sort)
mapfile -t cocci_ocaml < <(grep -l -E '@(script|initialize|finalize):ocaml' -r "$LINUX_DIR/scripts/coccinelle" --include='*.cocci' | LC_ALL=C sort)

# numbered FILE: each line with its occurrence count, sorted, so that comm
# takes a multiset difference.  Line numbers inside a message ("preceding
# lock on line 504") move when the series adds lines above them, so they
# are masked too.
numbered() {
	sed -E 's/\<line [0-9]+/line N/g' "$1" | awk '{print $0 "\t" ++n[$0]}' | LC_ALL=C sort
}

new_total=0 base_total=0 checked=0
declare -A cocci_done=() bad=() # bad: the file/config pairs with new findings
for c in $(active_configs); do
	o=$BUILD/out/$c
	bo=$chk/base-out-$c
	[ -f "$o/.config" ] || die "no $o/.config: run 'make build' first"
	bcache=$(base_dir "$c")
	hcache=$(head_dir "$c")
	mkdir -p "$bcache" ${hcache:+"$hcache"}
	cached=0 head_reused=0
	built=() cocci=() need=()
	for f in "${files[@]}"; do
		[ -f "$o/${f%.c}.o" ] || continue # not built in this config
		built+=("$f")
		# Coccinelle does not see the config: one run per file is enough.
		[ -z "${cocci_done[$f]:-}" ] || continue
		cocci+=("$f")
		cocci_done[$f]=1
		key=$bcache/coccinelle.$(echo "$f" | tr / _)
		if [ -f "$key" ]; then
			cached=$((cached + 1))
		elif in_base "$f"; then
			need+=("$f")
		else
			store "$key" true
		fi
	done
	if [ ${#cocci[@]} -gt 0 ]; then
		reuse "${hcache:+$hcache/coccinelle.$(printf '%s\n' "${cocci[@]}" | sha256sum | cut -c1-16)}" \
			"$chk/head.coccinelle.all" run_coccinelle "$LINUX_DIR" "$o" "${cocci[@]}"
	fi
	if [ ${#need[@]} -gt 0 ]; then
		base_prepare "$c"
		run_coccinelle "$basesrc" "$bo" "${need[@]}" >"$chk/base.coccinelle.all"
		for f in "${need[@]}"; do
			store "$bcache/coccinelle.$(echo "$f" | tr / _)" \
				for_file "$f" "$chk/base.coccinelle.all"
		done
	fi
	for f in "${built[@]}"; do
		checked=$((checked + 1))
		tools=(sparse)
		[ "${cocci_done[$f]}" = 1 ] && tools+=(coccinelle)
		for tool in "${tools[@]}"; do
			key=$bcache/$tool.$(echo "$f" | tr / _)
			if [ "$tool" = sparse ]; then
				reuse "${hcache:+$hcache/sparse.$(echo "$f" | tr / _)}" \
					"$chk/head.sparse" run_sparse "$LINUX_DIR" "$o" "$f"
				if [ -f "$key" ]; then
					cached=$((cached + 1))
				elif in_base "$f"; then
					base_prepare "$c"
					store "$key" run_sparse "$basesrc" "$bo" "$f"
				else
					store "$key" true
				fi
			else
				for_file "$f" <"$chk/head.coccinelle.all" >"$chk/head.coccinelle"
			fi
			# Lines in head beyond what the base has (multiset difference).
			new=$(LC_ALL=C comm -23 <(numbered "$chk/head.$tool") <(numbered "$key") | cut -f1)
			if [ -n "$new" ]; then
				echo "static: NEW $tool findings in $f ($c config):"
				bad[$c:$f]=1
				printf '%s\n' "$new" | sed 's/^/    /'
				new_total=$((new_total + $(printf '%s\n' "$new" | wc -l)))
			fi
			if [ -s "$key" ]; then
				echo "static: (base's own $tool findings in $f, $c config, not ours: $(wc -l <"$key"))"
				base_total=$((base_total + $(wc -l <"$key")))
			fi
		done
		# Our own coccinelle rules, on the head version of the file.
		[ "${cocci_done[$f]}" = 1 ] || continue
		cocci_done[$f]=2
		for rule in "$TOP"/checks/cocci/*.cocci; do
			[ -f "$rule" ] || continue
			out=$(spatch --very-quiet -D report --no-show-diff --sp-file "$rule" \
				"$LINUX_DIR/$f" 2>/dev/null | sed "s#$LINUX_DIR/##") || true
			if [ -n "$out" ]; then
				echo "static: $(basename "$rule") finds in $f:"
				bad[$c:$f]=1
				printf '%s\n' "$out" | sed 's/^/    /'
				new_total=$((new_total + $(printf '%s\n' "$out" | wc -l)))
			fi
		done
	done
	echo "static: $c config: $cached base finding file(s) reused from $bcache"
	if [ -z "$hcache" ]; then
		echo "static: $c config: uncommitted changes in the kernel tree: head findings computed, not cached"
	else
		echo "static: $c config: $head_reused head finding file(s) of this very tree ($(kgit rev-parse --short 'HEAD^{tree}')) reused from $hcache"
	fi
done
echo "static: coccinelle ran ${#cocci_rules[@]} kernel rules + $(find "$TOP/checks/cocci" -maxdepth 1 -name '*.cocci' | wc -l) of ours; not runnable without OCaml scripting: ${#cocci_ocaml[@]} (${cocci_ocaml[*]##*/})"
echo "static: $checked file/config pair(s) checked with sparse and coccinelle: $new_total new finding(s), $base_total in the base"
# One count per file/config pair: a pair with new findings fails.
echo "$((checked - ${#bad[@]})) ${#bad[@]} 0" >"$BUILD/results/check-static.counts"
[ $new_total -eq 0 ]
