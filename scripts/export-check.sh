#!/usr/bin/env bash
# make export-check: fail when kernel work exists only in the kernel tree.
# Nothing in build/ survives a session: every change must be committed on
# its topic branch, exported with 'make export' and committed here.
. "$(dirname "$0")/lib.sh"

if [ ! -d "$LINUX_DIR/.git" ]; then
	echo "export-check: no kernel tree in $LINUX_DIR, nothing to lose"
	exit 0
fi
rc=0
# No 'git ... | head' in an assignment: under pipefail git's SIGPIPE
# would end the script without a word.
dirty=$(kgit status --porcelain --untracked-files=normal)
if [ -n "$dirty" ]; then
	echo "export-check: $LINUX_DIR has uncommitted changes:" >&2
	printf '%s\n' "$dirty" | sed -n '1,20s/^/  /p' >&2
	echo "  -> commit them on the right topic branch, then 'make export' and commit branches/." >&2
	rc=1
fi
if ! kgit symbolic-ref -q HEAD >/dev/null; then
	stray=$(kgit rev-list -n 5 HEAD --not "${TOPICS[@]}" base)
	if [ -n "$stray" ]; then
		echo "export-check: detached HEAD has commits on no topic branch:" >&2
		kgit log --oneline HEAD --not "${TOPICS[@]}" base | sed 's/^/  /' >&2
		echo "  -> cherry-pick them onto their topic branch and 'make export'." >&2
		rc=1
	fi
fi
if ! "$TOP/scripts/export.sh" --check-only; then
	echo "  -> run 'make export', review 'git diff branches/', and commit it." >&2
	rc=1
fi
if [ -n "$(git -C "$TOP" status --porcelain -- branches | head -n1)" ]; then
	echo "export-check: branches/ has changes not committed to the project repository:" >&2
	git -C "$TOP" status --short -- branches | sed 's/^/  /' >&2
	echo "  -> 'git add branches && git commit'." >&2
	rc=1
fi
[ $rc -eq 0 ] && echo "export-check: every kernel commit is in branches/"
exit $rc
