#!/usr/bin/env bash
# make tree: create or refresh the kernel work tree.
#
#  - imports the pinned linux-source tarball into a git repository with a
#    fixed identity and date, tags it 'base' and checks its tree id against
#    linux.git-submodule-ref;
#  - applies branches/<topic>/series with 'git am' as the stacked branches
#    stepping-fixes -> utrace-core -> utrace-ptrace, and checks out the last.
#
# On an existing tree it never discards work: it refuses when the tree has
# uncommitted changes or branch commits that are not in branches/.
. "$(dirname "$0")/lib.sh"

want_tree=$(ref_get tree)
tarball=$(ref_get tarball)
stamp=$LINUX_DIR/.git/utrace-applied

import_base() {
	[ -f "$tarball" ] || die "$tarball not found: install $(ref_get package)=$(ref_get version)"
	local tmp=$LINUX_DIR.import.$$
	rm -rf "$tmp"
	mkdir -p "$tmp"
	note "importing $tarball into $LINUX_DIR"
	tar -xf "$tarball" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q -b import
	# Debian's tarball carries a top-level .gitignore that ignores '/*':
	# add everything explicitly.
	git -C "$tmp" add -f .
	(base_identity && git -C "$tmp" commit -q -m "$(ref_get commit-subject)")
	git -C "$tmp" tag base
	mv "$tmp" "$LINUX_DIR"
}

verify_base() {
	local have
	have=$(kgit rev-parse -q --verify 'base^{tree}' 2>/dev/null) ||
		die "$LINUX_DIR has no 'base' tag: move it away and run 'make tree' again"
	[ "$have" = "$want_tree" ] ||
		die "base tree id mismatch in $LINUX_DIR: have $have, linux.git-submodule-ref wants $want_tree. Wrong tarball version? Move the tree away and re-import."
	have=$(kgit rev-parse 'base^{commit}')
	[ "$have" = "$(ref_get commit)" ] ||
		die "base commit id mismatch in $LINUX_DIR: have $have, linux.git-submodule-ref wants $(ref_get commit) (same tree, other identity or date): the exported base-commit: lines would differ. Move the tree away and re-import with 'make tree'."
}

# A digest of branches/ as committed here: what the kernel branches were built from.
branches_digest() {
	(cd "$TOP" && find branches -type f \( -name '*.patch' -o -name series \) | LC_ALL=C sort |
		xargs -r sha1sum) | sha1sum | cut -d' ' -f1
}

branch_heads() {
	local t
	for t in "${TOPICS[@]}"; do
		printf '%s %s\n' "$t" "$(kgit rev-parse -q --verify "refs/heads/$t" || echo none)"
	done
}

apply_branches() {
	local parent t series p who
	kgit checkout -q --detach base
	for t in "${TOPICS[@]}"; do
		parent=$(topic_parent "$t")
		kgit checkout -q -B "$t" "$parent"
		series=$TOP/branches/$t/series
		[ -f "$series" ] || continue
		while read -r p; do
			case "$p" in '' | '#'*) continue ;; esac
			# Committed as its author, at its date: the same commit ids
			# on every machine, with or without a git identity there.
			who=$(git mailinfo -k /dev/null /dev/null <"$TOP/branches/$t/$p")
			GIT_COMMITTER_NAME=$(sed -n 's/^Author: //p' <<<"$who") \
				GIT_COMMITTER_EMAIL=$(sed -n 's/^Email: //p' <<<"$who") \
				kgit am -q --committer-date-is-author-date "$TOP/branches/$t/$p" || {
				kgit am --abort || true
				die "branches/$t/$p does not apply on $t: fix the patch (or rebase the branch and 'make export')"
			}
		done <"$series"
		note "$t: $(kgit rev-list --count "$parent..$t") patch(es)"
	done
	{
		branches_digest
		branch_heads
	} >"$stamp"
}

if [ ! -d "$LINUX_DIR/.git" ]; then
	[ ! -e "$LINUX_DIR" ] || die "$LINUX_DIR exists but is not a git tree: move it away"
	mkdir -p "$(dirname "$LINUX_DIR")"
	import_base
	verify_base
	apply_branches
	note "kernel tree ready in $LINUX_DIR, on branch $(kgit symbolic-ref --short HEAD)"
	exit 0
fi

verify_base
if [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$(branches_digest)" ] &&
	[ "$(tail -n +2 "$stamp")" = "$(branch_heads)" ]; then
	note "kernel tree is up to date with branches/"
	exit 0
fi
if [ -n "$(kgit status --porcelain --untracked-files=normal | head -n1)" ]; then
	die "$LINUX_DIR has uncommitted changes: commit them on their topic branch and 'make export', or stash them; 'make tree' will not overwrite them"
fi
if "$TOP/scripts/export.sh" --check-only >/dev/null 2>&1; then
	{
		branches_digest
		branch_heads
	} >"$stamp"
	note "kernel branches match branches/"
	exit 0
fi
if [ ! -f "$stamp" ] || [ "$(tail -n +2 "$stamp")" != "$(branch_heads)" ]; then
	die "the kernel branches have commits that are not in branches/: run 'make export' and commit branches/ to keep them, or reset the branches; 'make tree' will not discard them"
fi
note "branches/ changed: re-applying it to $LINUX_DIR"
apply_branches
