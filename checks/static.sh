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
head=$(kgit rev-parse HEAD)
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
export KBUILD_BUILD_TIMESTAMP="$(ref_get commit-date)" KBUILD_BUILD_USER=utrace KBUILD_BUILD_HOST=workbench

mapfile -t files < <(kgit diff --name-only --diff-filter=AM base HEAD -- '*.c' \
	':!tools/' ':!Documentation/' ':!scripts/')
if [ ${#files[@]} -eq 0 ]; then
	echo "static: the series touches no kernel C file yet: nothing for sparse or coccinelle"
	echo "0 0 0" >"$BUILD/results/check-static.counts"
	exit 0
fi

# A clean checkout of the base, built with the same configs, gives the
# base's own findings for the same files.
if [ ! -d "$basesrc" ]; then
	note "checking out the base tree for reference findings ($basesrc)"
	kgit worktree add -q --detach "$basesrc" base
fi

# normalise: "path:line:col: msg" -> "path: msg" (sparse and coccicheck output).
normalise() {
	sed -E -n 's#^(\.\./)*([^: ]+\.[ch]):[0-9]+(:[0-9-]+)?:? #\2: #p' | LC_ALL=C sort
}

# run_checker SRC O FILE CHECKARGS...: sparse or coccicheck output for one object.
run_checker() {
	local src=$1 o=$2 f=$3
	shift 3
	make -s -C "$src" O="$o" CC="$cc" C=2 "$@" "${f%.c}.o" 2>&1 | normalise || true
}

new_total=0 base_total=0 checked=0
for c in $(active_configs); do
	o=$BUILD/out/$c
	bo=$chk/base-out-$c
	[ -f "$o/.config" ] || die "no $o/.config: run 'make build' first"
	mkdir -p "$bo"
	if ! cmp -s "$o/.config" "$bo/.config"; then
		cp "$o/.config" "$bo/.config"
		make -s -C "$basesrc" O="$bo" CC="$cc" olddefconfig >/dev/null
		make -s -C "$basesrc" O="$bo" CC="$cc" -j"$(nproc)" prepare >/dev/null 2>&1 ||
			die "preparing the base tree for $c failed in $bo"
	fi
	for f in "${files[@]}"; do
		[ -f "$o/${f%.c}.o" ] || continue # not built in this config
		checked=$((checked + 1))
		for tool in sparse coccinelle; do
			if [ $tool = sparse ]; then
				args=()
			else
				args=(CHECK="scripts/coccicheck" MODE=report)
			fi
			run_checker "$LINUX_DIR" "$o" "$f" "${args[@]}" >"$chk/head.$tool"
			key=$chk/base.$c.$tool.$(echo "$f" | tr / _)
			if [ ! -f "$key" ]; then
				if [ -f "$basesrc/$f" ]; then
					run_checker "$basesrc" "$bo" "$f" "${args[@]}" >"$key"
				else
					: >"$key"
				fi
			fi
			# Lines in head beyond what the base has (multiset difference).
			new=$(LC_ALL=C comm -23 <(awk '{print $0 "\t" ++n[$0]}' "$chk/head.$tool") \
				<(awk '{print $0 "\t" ++n[$0]}' "$key") | cut -f1)
			if [ -n "$new" ]; then
				echo "static: NEW $tool findings in $f ($c config):"
				printf '%s\n' "$new" | sed 's/^/    /'
				new_total=$((new_total + $(printf '%s\n' "$new" | wc -l)))
			fi
			if [ -s "$key" ]; then
				echo "static: (base's own $tool findings in $f, $c config, not ours: $(wc -l <"$key"))"
				base_total=$((base_total + $(wc -l <"$key")))
			fi
		done
		# Our own coccinelle rules, on the head version of the file.
		for rule in "$TOP"/checks/cocci/*.cocci; do
			[ -f "$rule" ] || continue
			out=$(spatch --very-quiet -D report --no-show-diff --sp-file "$rule" \
				"$LINUX_DIR/$f" 2>/dev/null | sed "s#$LINUX_DIR/##") || true
			if [ -n "$out" ]; then
				echo "static: $(basename "$rule") finds in $f:"
				printf '%s\n' "$out" | sed 's/^/    /'
				new_total=$((new_total + $(printf '%s\n' "$out" | wc -l)))
			fi
		done
	done
done
echo "static: $checked file/config pair(s) checked with sparse and coccinelle: $new_total new finding(s), $base_total in the base"
if [ $new_total -eq 0 ]; then
	echo "$checked 0 0" >"$BUILD/results/check-static.counts"
else
	echo "0 $checked 0" >"$BUILD/results/check-static.counts"
fi
[ $new_total -eq 0 ]
