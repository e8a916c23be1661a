#!/usr/bin/env bash
# Every patch of the series must build in every config that exists at that
# patch (bisectability).  Checks out each commit of base..utrace-ptrace in
# the kernel work tree in turn, builds incrementally in the same O=
# directories as 'make build', and returns to the branch it was on.
#
# A commit that only touches tools/, Documentation/ or MAINTAINERS (no
# file that the kernel build reads) inherits the verdict of its parent: it
# cannot change the kernel build, so building it again proves nothing.
#
#   checks/series-build.sh [FROM]
#
# FROM (a topic branch or commit, e.g. utrace-core) limits the run to the
# commits after it: a topic that changed, when the ones below it were
# built before.  The default is the whole series from base.
. "$(dirname "$0")/../scripts/lib.sh"

last=${TOPICS[-1]}
from=${1:-base}
kgit rev-parse -q --verify "$from^{commit}" >/dev/null ||
	die "series-build: '$from' is not a branch or commit of the kernel tree"
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
	if "$TOP/scripts/build.sh" "${cfgs[@]}" >"$BUILD/results/series-build.log" 2>&1; then
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
