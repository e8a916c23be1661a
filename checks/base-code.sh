#!/usr/bin/env bash
# CONFIG_UTRACE=n costs nothing: utrace-off's vmlinux must be the pristine
# base tree's code, function by function, but for the functions that
# checks/base-code-differences.txt lists with their reason (the stepping
# fix).  Part of make slow; needs the base kernel (make bench or
# 'scripts/debug.sh base' builds it) and utrace-off (make build).
#
#   checks/base-code.sh
#
# The comparison itself: checks/base_code.py.  Its report goes to
# build/results/base-code.txt.
. "$(dirname "$0")/../scripts/lib.sh"

base=$BUILD/out/base/vmlinux
off=$BUILD/out/utrace-off/vmlinux
out=$BUILD/results/base-code.txt
for k in "$base" "$off"; do
	[ -f "$k" ] || die "base-code: no $k: build it ('make build' for utrace-off, 'scripts/debug.sh base' or 'make bench' for base)"
done
mkdir -p "$(dirname "$out")"
if "$TOP/checks/base_code.py" --allow "$TOP/checks/base-code-differences.txt" \
	"$base" "$off" >"$out"; then
	grep -v '^$' "$out" | sed 's/^/base-code: /'
else
	grep -E '^(DIFFERS|UNCHANGED)' "$out" >&2 || true
	tail -n 1 "$out" >&2
	die "base-code: utrace-off's code differs from base's beyond checks/base-code-differences.txt (above; $out): CONFIG_UTRACE=n must compile to the base code"
fi
