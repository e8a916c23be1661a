#!/bin/sh
# Guest side: kmemleak, scanned on demand (the kasan kernel has no
# automatic scans).
#
#   kmemleak.sh boot    scan, then forget what was found: leaks of the
#                       boot are not ours (the row fails only if kmemleak
#                       is missing or off)
#   kmemleak.sh tests   scan again after the tests; every leak found since
#                       the boot scan is printed and fails the row
k=/sys/kernel/debug/kmemleak
[ -e "$k" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
if [ ! -w "$k" ]; then
	echo "# FAIL: no $k: build with CONFIG_DEBUG_KMEMLEAK=y, boot without kmemleak=off"
	exit 1
fi
# An object must be unreferenced and older than 5 s to be reported.
sleep 6
# The boot scan's "N new suspected memory leaks" line is about the boot,
# not about us: keep it off the console, which is scanned for reports
# (it stays in the kernel log).  The tests scan prints to the console.
if [ "$1" = boot ]; then
	level=$(cut -f1 /proc/sys/kernel/printk)
	echo 4 >/proc/sys/kernel/printk
fi
echo scan >"$k" || { echo "# FAIL: 'echo scan > $k' failed: kmemleak is off"; exit 1; }
[ "$1" != boot ] || echo "$level" >/proc/sys/kernel/printk
case $1 in
boot)
	n=$(grep -c '^unreferenced object' "$k")
	echo "# $n objects unreferenced after boot, forgotten"
	echo clear >"$k"
	;;
tests)
	echo scan >"$k"
	if grep -q '^unreferenced object' "$k"; then
		sed 's/^/# /' "$k"
		echo "# FAIL: $(grep -c '^unreferenced object' "$k") new leaks since the boot scan"
		exit 1
	fi
	echo "# no new leaks"
	;;
*)
	echo "# FAIL: usage: kmemleak.sh boot|tests"
	exit 1
	;;
esac
