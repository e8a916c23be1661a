#!/usr/bin/env bash
# sparse (C=2) over the touched C files built in one config, new findings
# only (base diff and cache: lib.sh).
#
#   checks/static/sparse.sh CONFIG FILE...
. "$(dirname "$0")/lib.sh"

static_args sparse.sh "$@"
shift

# run_sparse SRC O FILE: sparse findings for one object (C=2 forces the check).
# shellcheck disable=SC2317 # called through reuse and store
run_sparse() {
	local src=$1 o=$2 f=$3
	{ make -s -C "$src" O="$o" CC="$cc" C=2 "${f%.c}.o" 2>&1 || true; } | normalise "$src"
}

cache_dirs "$c"
rc=0
for f in "$@"; do
	reuse "${hcache:+$hcache/sparse.$(slug "$f")}" "$chk/head.sparse" run_sparse "$LINUX_DIR" "$o" "$f"
	key=$bcache/sparse.$(slug "$f")
	if [ -f "$key" ]; then
		cached=$((cached + 1))
	elif in_base "$f"; then
		base_prepare "$c"
		store "$key" run_sparse "$basesrc" "$bo" "$f"
	else
		store "$key" true
	fi
	base_diff sparse "$c" "$f" "$chk/head.sparse" "$key" || rc=1
done
cache_summary sparse "$c"
echo "done sparse $c" >>"$tally"
exit $rc
