#!/usr/bin/env bash
# checkpatch.pl --strict on every patch of every topic branch (branches/).
# Every patch must be clean: 0 errors, 0 warnings, 0 checks.
. "$(dirname "$0")/../scripts/lib.sh"

dir=${1:-$TOP/branches}
pass=0 fail=0
for t in "${TOPICS[@]}"; do
	series=$dir/$t/series
	[ -f "$series" ] || continue
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		out=$(cd "$LINUX_DIR" && ./scripts/checkpatch.pl --strict --quiet --show-types --no-summary \
			--color=never "$dir/$t/$p" 2>&1) && st=0 || st=$?
		if [ $st -eq 0 ] && [ -z "$out" ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "checkpatch: $t/$p is not clean (checkpatch --strict):"
			printf '%s\n' "$out" | sed 's/^/    /'
		fi
	done <"$series"
done
echo "checkpatch: $pass patch(es) clean, $fail with findings"
echo "$pass $fail 0" >"$BUILD/results/check-checkpatch.counts"
[ $fail -eq 0 ]
