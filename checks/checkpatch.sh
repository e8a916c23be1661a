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
		# checkpatch's spdxcheck.py wants Debian's python3 (ply, git modules),
		# not whatever python3 comes first in PATH.  UNKNOWN_COMMIT_ID is off:
		# the imported tree has no upstream history to look Fixes: ids up in.
		out=$(cd "$LINUX_DIR" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet --show-types --no-summary --ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES \
			--color=never "$dir/$t/$p" 2>&1) && st=0 || st=$?
		if [ "$st" -eq 0 ] && [ -z "$out" ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "checkpatch: $t/$p is not clean (checkpatch --strict):"
			printf '%s\n' "$out" | sed 's/^/    /'
		fi
	done <"$series"
done
# FILE_PATH_CHANGES ("added ... file(s), does MAINTAINERS need
# updating?") fires for every patch that adds a file without touching
# MAINTAINERS, even when a directory pattern covers the file.  Check what
# it stands for instead: every file the series adds belongs to a
# MAINTAINERS section other than THE REST (the checked-out top branch).
top=${TOPICS[${#TOPICS[@]} - 1]}
added=$(kgit diff --name-only --diff-filter=A base "$top") ||
	die "checkpatch: cannot list the files base..$top adds: is $LINUX_DIR a 'make tree' checkout?"
while read -r f; do
	[ -n "$f" ] || continue
	secs=$(cd "$LINUX_DIR" && ./scripts/get_maintainer.pl --no-git --no-git-fallback --sections -f "$f" 2>/dev/null) ||
		secs=
	if ! grep -qv -e '^[A-Z]:' -e '^$' -e '^THE REST$' <<<"$secs"; then
		fail=$((fail + 1))
		echo "checkpatch: $f (added by the series) has no MAINTAINERS section: add an F: pattern that covers it"
	fi
done <<<"$added"
echo "checkpatch: $pass patch(es) clean, $fail with findings"
echo "$pass $fail 0" >"$BUILD/results/check-checkpatch.counts"
[ $fail -eq 0 ]
