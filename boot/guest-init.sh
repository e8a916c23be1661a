#!/bin/sh
# PID 1 of the test guest.
#
# The guest's root is the host's own filesystem, read-only over virtio-9p,
# so Debian's binaries (sh, timeout, strace, gdb) and the test programs
# built under build/ are all visible at their host paths.  This script
# mounts the kernel filesystems and writable tmpfs places, runs the script
# named by UTRACE_SCRIPT= on the kernel command line (unknown name=value
# parameters become init's environment), and ends the guest.
#
# Two serial ports: ttyS0 carries the kernel console (console.log, scanned
# for oopses), ttyS1 carries the script's own output (results), so kernel
# messages never split a result line.
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts -o mode=0620,ptmxmode=0666 devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
for d in /tmp /run /var/tmp /root; do
	mount -t tmpfs -o mode=1777 tmpfs "$d"
done
hostname guest
# No address space randomisation in any guest (the benchmarks had it off
# already).  QEMU's TCG keys the code it translated by virtual address:
# each process that mapped a library at a new address had it translated
# again.  One run of the gdbstub program alone on utrace-on: 1.49 M
# translated blocks and one flush of QEMU's whole 1 GiB translation
# cache with randomisation, 0.31 M and no flush without, and 35% less
# host CPU (132.6 s -> 86.2 s).  Where a process's mappings land is not
# what the guests test, and it is the same on every kernel compared.
echo 0 >/proc/sys/kernel/randomize_va_space
export HOME=/root TMPDIR=/tmp LANG=C.UTF-8

out=/dev/ttyS1
[ -c "$out" ] || out=/dev/console
stty -F "$out" raw -echo 2>/dev/null

if [ -n "${UTRACE_SCRIPT:-}" ] && [ -r "$UTRACE_SCRIPT" ]; then
	echo "# guest: $(uname -r) running $UTRACE_SCRIPT" >"$out"
	# shellcheck disable=SC2086 # UTRACE_ARGS: words, none when empty
	sh "$UTRACE_SCRIPT" $UTRACE_ARGS >"$out" 2>&1 </dev/null
	echo "# guest: script exit status $?" >"$out"
else
	echo "# guest: no readable UTRACE_SCRIPT (got '${UTRACE_SCRIPT:-}')" >"$out"
fi
echo "# guest: power off" >"$out"
sync
# QEMU runs with -no-reboot, so a reboot ends it; no ACPI needed.
echo b >/proc/sysrq-trigger
