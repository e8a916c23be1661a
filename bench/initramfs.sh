#!/usr/bin/env bash
# Build the initramfs that make bench boots from (bench/run.sh).
#
#   bench/initramfs.sh OUT.cpio FILE...
#
# The root file system of the benchmark guest, so that no virtio-9p
# request (whose completion lands at a host-dependent point of the guest's
# instruction stream) happens before or during a measured row: with the
# host's / as the root over 9p, two boots of one kernel differed by up to
# 2% (bench/README.md, "Determinism").  OUT.cpio (an uncompressed newc
# archive, so the kernel needs CONFIG_BLK_DEV_INITRD=y and no
# decompressor) holds:
#   - busybox (Debian's busybox-static) as every tool it has an applet
#     for, and dash as /bin/sh (the shell the guests run elsewhere);
#   - strace and getconf with the shared libraries they load (ldd);
#   - gdb with its libraries, libthread_db (which it loads itself), its
#     data (/usr/share/gdb) and the library of the Python it embeds
#     (without test/ and site-packages): about 130 MB, but with gdb over
#     9p its row still differed by up to 0.13% from boot to boot;
#   - gdbserver with its libraries (the gdb-cond-gdbserver row);
#   - each FILE (the guest scripts, the benchmark programs, modules, the
#     run's CONF) at its own host path, so the paths in a CONF hold.
# The archive is the same for the same inputs (sorted, owned by root,
# one fixed mtime).
set -euo pipefail

die() {
	echo "initramfs.sh: $*" >&2
	exit 1
}

[ $# -ge 1 ] || die "usage: initramfs.sh OUT.cpio FILE..."
out=$1
shift
busybox=/bin/busybox
[ -x "$busybox" ] || die "no $busybox: install Debian's busybox-static (make deps)"
# A dynamically linked busybox (Debian's package busybox) would need its
# libraries too: insist on the static one.
if readelf -l "$busybox" | grep -q 'program interpreter'; then
	die "$busybox is dynamically linked: install busybox-static (make deps), which replaces it"
fi
command -v cpio >/dev/null || die "cpio is not installed (make deps)"

stage=$(mktemp -d "${TMPDIR:-/tmp}/initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# Debian 12's merged /usr: /bin, /lib... are links into /usr.
for d in usr/bin usr/sbin usr/lib usr/lib64 etc proc sys dev tmp run var/tmp root; do
	mkdir -p "$stage/$d"
done
for d in bin sbin lib lib64; do
	ln -s usr/$d "$stage/$d"
done

# put SRC [DEST]: copy a host file into the image at DEST (default: its
# own path), following symlinks.
put() {
	local src=$1 dest=${2:-$1}
	[ -f "$src" ] || die "no file $src (it belongs in the initramfs)"
	mkdir -p "$stage$(dirname "$dest")"
	# Never write through a link: the applet links point to host paths.
	rm -f "$stage$dest"
	cp -L "$src" "$stage$dest"
}

# put_dynamic PROGRAM [DEST]: a dynamically linked program and every
# library ldd says it loads (and the dynamic loader), at their host paths.
put_dynamic() {
	local prog lib
	prog=$(command -v "$1") || die "$1 is not installed (make deps)"
	put "$prog" "${2:-$prog}"
	ldd "$prog" >"$stage/.ldd" 2>&1 || die "ldd $prog failed: $(cat "$stage/.ldd")"
	grep -q 'not found' "$stage/.ldd" && die "ldd $prog: a library is missing: $(grep 'not found' "$stage/.ldd")"
	# Lines are "libx.so => /path (addr)" or "/lib64/ld-linux... (addr)".
	while read -r lib; do
		[ -f "$stage$lib" ] || put "$lib"
	done < <(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' "$stage/.ldd")
	rm -f "$stage/.ldd"
}

# The kernel opens /dev/console for init before guest-init.sh mounts
# devtmpfs; without the node init starts with no stdin/stdout/stderr.
mknod "$stage/dev/console" c 5 1 2>/dev/null ||
	echo "initramfs.sh: cannot create /dev/console (not root?): the guest's init starts without a console" >&2

# One link per applet, to the path busybox runs as (/usr/bin/busybox).
"$busybox" --install -s "$stage/usr/bin" || die "busybox --install failed"
put "$busybox" "$(readlink "$stage/usr/bin/cat")"
rm -f "$stage/usr/bin/sh"
put_dynamic dash /bin/sh
put_dynamic strace /usr/bin/strace
put_dynamic getconf /usr/bin/getconf

# put_tree DIR: a directory tree at its host path (links kept as links).
put_tree() {
	[ -d "$1" ] || die "no directory $1 (it belongs in the initramfs)"
	mkdir -p "$stage$(dirname "$1")"
	cp -a "$1" "$stage$1"
}
if gdb=$(command -v gdb); then
	put_dynamic gdb "$gdb"
	libc=$(ldd "$gdb" | awk '$1 == "libc.so.6" { print $3 }')
	[ -f "$(dirname "$libc")/libthread_db.so.1" ] && put "$(dirname "$libc")/libthread_db.so.1"
	[ ! -d /usr/share/gdb ] || put_tree /usr/share/gdb
	py=$(ldd "$gdb" | sed -n 's/^[[:space:]]*libpython\(3\.[0-9]*\)\.so.*/\1/p')
	if [ -n "$py" ]; then
		put_tree "/usr/lib/python$py"
		rm -rf "$stage/usr/lib/python$py/test" "$stage/usr/lib/python$py/site-packages" \
			"$stage/usr/lib/python$py/dist-packages"
	fi
	# The gdb-cond-gdbserver row: gdbserver evaluates conditions too.
	if gdbserver=$(command -v gdbserver); then
		put_dynamic gdbserver "$gdbserver"
	else
		echo "initramfs.sh: no gdbserver on this host: the guest's gdb-cond-gdbserver row will say it is not installed (make deps)" >&2
	fi
else
	echo "initramfs.sh: no gdb on this host: the guest's gdb row will say it is not installed (make deps)" >&2
fi

for f in "$@"; do
	case $f in
	/*) put "$f" ;;
	*) die "'$f': files are placed at their own path, so it must be absolute" ;;
	esac
done

mkdir -p "$(dirname "$out")"
(
	cd "$stage"
	find . -mindepth 1 -exec touch -h -d 2020-01-01T00:00:00Z {} +
	find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet
) >"$out.tmp" || die "cpio failed"
mv "$out.tmp" "$out"
