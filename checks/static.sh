#!/usr/bin/env bash
# make check's static analysis of the C files the series touches, in every
# active config, one script per check (checks/static/):
#
#   sparse.sh      sparse (C=2), every config that builds the file
#   coccinelle.sh  the kernel's coccinelle rules (coccicheck MODE=report),
#                  once per file
#   cocci-ours.sh  our rules, checks/cocci/*.cocci, once per file
#
# New findings only: the first two diff against the same file in the base
# tree, sharing one findings cache (checks/static/lib.sh).  Every check
# runs, then this fails if any found something new.
. "$(dirname "$0")/static/lib.sh"

here=$TOP/checks/static
mapfile -t files < <(kgit diff --name-only --diff-filter=AM base HEAD -- '*.c' \
	':!tools/' ':!Documentation/' ':!scripts/')
if [ ${#files[@]} -eq 0 ]; then
	echo "static: the series touches no kernel C file yet: nothing for sparse or coccinelle"
	echo "0 0 0" >"$BUILD/results/check-static.counts"
	exit 0
fi

: >"$tally"
checked=0 broken=0
# run_check CHECK CONFIG FILE...: one check; a check that stopped before
# its end (no 'done' line) is an error of its own, not a finding.
run_check() {
	"$here/$1.sh" "${@:2}" && return
	grep -qx "done $1 $2" "$tally" && return
	echo "static: checks/static/$1.sh stopped in the $2 config (above): its findings are incomplete; fix what it says and run 'make check' again"
	broken=$((broken + 1))
}

declare -A cocci_done=()
for c in $(active_configs); do
	o=$BUILD/out/$c
	[ -f "$o/.config" ] || die "no $o/.config: run 'make build' first"
	built=() cocci=()
	for f in "${files[@]}"; do
		[ -f "$o/${f%.c}.o" ] || continue # not built in this config
		built+=("$f")
		# Coccinelle does not see the config: one run per file is enough.
		[ -z "${cocci_done[$f]:-}" ] || continue
		cocci+=("$f")
		cocci_done[$f]=1
	done
	checked=$((checked + ${#built[@]}))
	[ ${#built[@]} -eq 0 ] || run_check sparse "$c" "${built[@]}"
	[ ${#cocci[@]} -eq 0 ] || run_check coccinelle "$c" "${cocci[@]}"
	[ ${#cocci[@]} -eq 0 ] || run_check cocci-ours "$c" "${cocci[@]}"
done
# sum WORD: the total of the 'WORD N' lines of the tally.
sum() {
	awk -v w="$1" '$1 == w { n += $2 } END { print n + 0 }' "$tally"
}
new_total=$(sum new)
nbad=$(awk '$1 == "bad"' "$tally" | sort -u | wc -l)
echo "static: $checked file/config pair(s) checked with sparse and coccinelle: $new_total new finding(s), $(sum base) in the base"
# One count per file/config pair: a pair with new findings fails; so
# does each check that could not finish.
echo "$((checked - nbad)) $((nbad + broken)) 0" >"$BUILD/results/check-static.counts"
[ "$new_total" -eq 0 ] && [ "$broken" -eq 0 ]
