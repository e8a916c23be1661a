#!/usr/bin/env bash
# coccinelle: what 'make coccicheck MODE=report' reports for the touched
# C files, i.e. every rule of the kernel's scripts/coccinelle with its own
# '// Options:' and the kernel's include paths; new findings only (base
# diff and cache: lib.sh).  Coccinelle does not see the config: the
# caller gives each file once, with the first config that builds it.
#
#   checks/static/coccinelle.sh CONFIG FILE...
#
# (Not through C=2 CHECK=scripts/coccicheck: that also checks
# scripts/mod/empty.c and aborts the build on the first rule that needs
# OCaml.)  Rules with OCaml scripts cannot run with Debian's spatch; they
# are counted and named, not hidden.  One spatch per rule over all the
# files, as coccicheck does for a directory, and one rule per core at a
# time: a run per rule and file paid spatch's start-up and the rule's
# parse each time and was most of 'make test'.  The findings are the
# same: spatch matches each file on its own.
. "$(dirname "$0")/lib.sh"

static_args coccinelle.sh "$@"
shift

mapfile -t cocci_rules < <(grep -L -E '@(script|initialize|finalize):ocaml' -r "$LINUX_DIR/scripts/coccinelle" --include='*.cocci' | LC_ALL=C sort)
mapfile -t cocci_ocaml < <(grep -l -E '@(script|initialize|finalize):ocaml' -r "$LINUX_DIR/scripts/coccinelle" --include='*.cocci' | LC_ALL=C sort)

# run_coccinelle SRC O FILE...: the findings of every rule for the FILEs.
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

cache_dirs "$c" "${cocci_rules[@]}"
need=()
for f in "$@"; do
	key=$bcache/coccinelle.$(slug "$f")
	if [ -f "$key" ]; then
		cached=$((cached + 1))
	elif in_base "$f"; then
		need+=("$f")
	else
		store "$key" true
	fi
done
reuse "${hcache:+$hcache/coccinelle.$(printf '%s\n' "$@" | sha256sum | cut -c1-16)}" \
	"$chk/head.coccinelle.all" run_coccinelle "$LINUX_DIR" "$o" "$@"
if [ ${#need[@]} -gt 0 ]; then
	base_prepare "$c"
	run_coccinelle "$basesrc" "$bo" "${need[@]}" >"$chk/base.coccinelle.all"
	for f in "${need[@]}"; do
		store "$bcache/coccinelle.$(slug "$f")" for_file "$f" "$chk/base.coccinelle.all"
	done
fi
rc=0
for f in "$@"; do
	for_file "$f" <"$chk/head.coccinelle.all" >"$chk/head.coccinelle"
	base_diff coccinelle "$c" "$f" "$chk/head.coccinelle" "$bcache/coccinelle.$(slug "$f")" || rc=1
done
cache_summary coccinelle "$c"
echo "static: coccinelle, $c config: ran ${#cocci_rules[@]} kernel rules over $# file(s); not runnable without OCaml scripting: ${#cocci_ocaml[@]} (${cocci_ocaml[*]##*/})"
echo "done coccinelle $c" >>"$tally"
exit $rc
