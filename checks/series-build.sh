#!/usr/bin/env bash
# Every patch of the series must build in every config that exists at that
# patch (bisectability).  Checks out each commit of base..utrace-ptrace in
# the kernel work tree in turn, builds incrementally in the same O=
# directories as 'make build', and returns to the branch it was on.
#
# The config fragments describe the whole series: an option that a later
# patch adds (the sample engines, the KUnit suite) is not checked at a
# commit that does not define it yet (KCONFIG_NOT_YET, see build.sh).
#
# A commit that only touches tools/, Documentation/ or MAINTAINERS (no
# file that the kernel build reads) inherits the verdict of its parent: it
# cannot change the kernel build, so building it again proves nothing.
#
#   checks/series-build.sh [FROM [TO]]
#
# FROM (a topic branch or commit, e.g. utrace-core) limits the run to the
# commits after it: a topic that changed, when the ones below it were
# built before.  TO (default: the last topic) ends the run at that
# commit.  The default is the whole series from base.
#
# The kernel tree may be a git worktree of the main one (LINUX_DIR=...,
# BUILD=... with LINUX_DIR=$BUILD/linux keeps ccache's relative paths, so
# the cache stays warm): the long run then leaves the main tree free.
. "$(dirname "$0")/../scripts/lib.sh"

from=${1:-base}
last=${2:-${TOPICS[-1]}}
for r in "$from" "$last"; do
	kgit rev-parse -q --verify "$r^{commit}" >/dev/null ||
		die "series-build: '$r' is not a branch or commit of the kernel tree"
done
[ -z "$(kgit status --porcelain --untracked-files=normal | head -n1)" ] ||
	die "series-build needs a clean kernel tree: commit or stash your changes in $LINUX_DIR"
orig=$(kgit symbolic-ref -q --short HEAD || kgit rev-parse HEAD)
trap 'kgit checkout -q "$orig"' EXIT

pass=0 fail=0
mapfile -t commits < <(kgit rev-list --reverse "$from..$last")
for c in "${commits[@]}"; do
	subj=$(kgit log -1 --format='%h %s' "$c")
	if [ -z "$(kgit diff --name-only "$c^" "$c" -- . ':!tools/' ':!Documentation/' ':!MAINTAINERS' | head -n1)" ]; then
		echo "series-build: $subj: touches no kernel build input"
		pass=$((pass + 1))
		continue
	fi
	kgit checkout -q "$c"
	read -r -a cfgs <<<"$(active_configs)"
	if KCONFIG_NOT_YET=1 "$TOP/scripts/build.sh" "${cfgs[@]}" >"$BUILD/results/series-build.log" 2>&1; then
		echo "series-build: $subj: builds (${cfgs[*]})"
		pass=$((pass + 1))
	else
		echo "series-build: $subj: DOES NOT BUILD (${cfgs[*]}):"
		tail -n 25 "$BUILD/results/series-build.log" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done
echo "series-build: ${#commits[@]} commit(s): $pass build, $fail do not"
echo "$pass $fail 0" >"$BUILD/results/check-series-build.counts"
[ $fail -eq 0 ]
