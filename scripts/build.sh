#!/usr/bin/env bash
# make build: configure and build guest kernels out of tree.
#
# Usage: build.sh CONFIG...   (CONFIG = utrace-off, utrace-on, ...)
# Kernel NAME is kconfigs/base.config + kconfigs/NAME.config on top of
# tinyconfig, built from the kernel work tree as checked out (make tree
# leaves it on utrace-ptrace) into build/out/NAME.  One fixed O= directory
# per config and one CC keep ccache warm across runs.
#
# NAME "base" is the pristine base tree built like utrace-off (its
# fragments), for the base column of make bench: the caller points
# LINUX_DIR at a checkout of base (build_base in lib.sh).
. "$(dirname "$0")/lib.sh"

[ -e "$LINUX_DIR/.git" ] || die "no kernel tree in $LINUX_DIR: run 'make tree'"
jobs=$(nproc)
KBUILD_BUILD_TIMESTAMP=$(ref_get commit-date)
export KBUILD_BUILD_TIMESTAMP
export KBUILD_BUILD_USER=utrace KBUILD_BUILD_HOST=workbench
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Paths below build/ are hashed relative to the O= directory, so a fresh
# clone elsewhere (CI) hits the cache a previous build on this machine left.
export CCACHE_BASEDIR=$BUILD
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"

# fragments NAME: the fragment files of a config, in merge order.
fragments() {
	local name=$1
	[ "$name" != base ] || name=utrace-off
	local f=$TOP/kconfigs/$name.config
	[ -f "$f" ] || die "no fragment kconfigs/$1.config"
	echo "$TOP/kconfigs/base.config"
	# A fragment may pull in others: '# include: other.config'.
	sed -n 's/^# include: *//p' "$f" | while read -r inc; do echo "$TOP/kconfigs/$inc"; done
	echo "$f"
}

configure() {
	local name=$1 o=$BUILD/out/$1 gen=$BUILD/out/.kconfig-$1
	local -a frags
	mapfile -t frags < <(fragments "$name")
	mkdir -p "$o" "$gen"
	make -s -C "$LINUX_DIR" O="$gen" tinyconfig >/dev/null
	"$LINUX_DIR/scripts/kconfig/merge_config.sh" -m -O "$gen" "$gen/.config" "${frags[@]}" >/dev/null
	make -s -C "$LINUX_DIR" O="$gen" olddefconfig >/dev/null
	# KCONFIG_NOT_YET=1 (checks/series-build.sh): options of later
	# patches do not exist yet at this commit; see kconfig_verify.py.
	"$TOP/scripts/kconfig_verify.py" ${KCONFIG_NOT_YET:+--tree "$LINUX_DIR"} \
		"$gen/.config" "${frags[@]}" ||
		die "kernel config '$name' lost options (above): fix kconfigs/"
	# Only touch the real .config when it changes, so make stays incremental.
	cmp -s "$gen/.config" "$o/.config" || cp "$gen/.config" "$o/.config"
}

# build_id NAME: what a build of NAME is a function of: the committed tree,
# the config fragments, this script and the compiler.  Empty when the work
# tree has changes that are not committed: always build then.
build_id() {
	local f
	[ -z "$(kgit status --porcelain)" ] || return 0
	{
		kgit rev-parse 'HEAD^{tree}'
		for f in $(fragments "$1"); do sha256sum <"$f"; done
		sha256sum <"$0"
		echo "KCONFIG_NOT_YET=${KCONFIG_NOT_YET:-}"
		gcc --version | head -n1
	} | sha256sum | cut -d' ' -f1
}

build_one() {
	local name=$1 o=$BUILD/out/$1 t0 id
	t0=$(date +%s)
	# make test builds the same kernels for check, compare and bench-smoke:
	# without this, each no-op build (configure, then make walking the
	# tree) cost 35-70 s.
	id=$(build_id "$name")
	if [ -n "$id" ] && [ -f "$o/arch/x86/boot/bzImage" ] &&
		[ "$(cat "$o/.workbench-build-id" 2>/dev/null)" = "$id" ]; then
		note "$name is up to date ($(kgit rev-parse --short HEAD), build id ${id:0:12}): not rebuilt"
		return
	fi
	rm -f "$o/.workbench-build-id"
	configure "$name"
	note "building $name ($(kgit rev-parse --short HEAD) on $(kgit symbolic-ref -q --short HEAD || echo detached)) in $o"
	make -s -C "$LINUX_DIR" O="$o" CC="$cc" -j"$jobs" bzImage >"$o/build.log" 2>&1 || {
		tail -n 30 "$o/build.log" >&2
		die "building $name failed (full log: $o/build.log)"
	}
	if grep -qx 'CONFIG_MODULES=y' "$o/.config"; then
		make -s -C "$LINUX_DIR" O="$o" CC="$cc" -j"$jobs" modules >>"$o/build.log" 2>&1 || {
			tail -n 30 "$o/build.log" >&2
			die "building the modules of $name failed (full log: $o/build.log)"
		}
	fi
	[ -z "$id" ] || echo "$id" >"$o/.workbench-build-id"
	note "$name built in $(($(date +%s) - t0)) s"
}

[ $# -gt 0 ] || die "usage: build.sh CONFIG..."
for c in "$@"; do
	build_one "$c"
done
