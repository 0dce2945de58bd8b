#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the debugfs fuzz test: run debugfs-fuzz, then check that the
# kernel log gained no warning, BUG, oops or lockdep report meanwhile.
#
# usage: debugfs-fuzz.sh BINARY [debugfs-fuzz options...]
#
# Run as root in a guest of scripts/ff run (debugfs on /sys/kernel/debug).
# Writes the kernel log lines the run added to $FF_ROBUST_OUT/debugfs-fuzz.dmesg
# (default /mnt).  Exit status: that of debugfs-fuzz, or 1 if the log shows a
# problem.

set -eu

usage()
{
	echo "usage: $0 BINARY [debugfs-fuzz options...]" >&2
	exit 2
}

[ $# -ge 1 ] || usage
bin=$1
shift
out=${FF_ROBUST_OUT:-/mnt}
splat='WARNING:|BUG:|Oops|general protection|Kernel panic|lockdep|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called|INFO: task .* blocked|soft lockup|kmemleak|UBSAN|KASAN|int3: '

[ -x "$bin" ] || { echo "debugfs-fuzz.sh: no executable $bin" >&2; exit 2; }
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug

before=$(dmesg | wc -l)
rc=0
"$bin" "$@" || rc=$?
dmesg | tail -n +"$((before + 1))" > "$out/debugfs-fuzz.dmesg" || true

if grep -E "$splat" "$out/debugfs-fuzz.dmesg" >/dev/null; then
	echo "debugfs-fuzz.sh: the kernel log shows a problem:"
	grep -E -A20 "$splat" "$out/debugfs-fuzz.dmesg" | head -60
	rc=1
else
	echo "debugfs-fuzz.sh: kernel log clean ($(wc -l < "$out/debugfs-fuzz.dmesg") new lines)"
fi
exit $rc
