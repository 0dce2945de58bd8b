#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# record-splats - record real kernel reports for tests/harness/kernel-reports.sh
#
# usage: tests/harness/record-splats.sh [OUTDIR]   (default tests/harness/splats)
#
# Builds the debug kernel with kernel/configs/ff-lkdtm.config in
# $FF_WORK/obj-lkdtm (FF_DEBUG=1: lockdep, DEBUG_LIST, hung-task and
# soft-lockup detectors; lkdtm and UBSAN on top) and provokes reports through
# /sys/kernel/debug/provoke-crash/DIRECT, one guest at a time:
#
#   lkdtm-dmesg.txt      the dmesg (as a campaign run keeps it) after WARNING,
#                        CORRUPT_LIST_ADD, CORRUPT_LIST_DEL, ARRAY_BOUNDS and a
#                        HUNG_TASK left for 70 s; the kernel survives these
#   lkdtm-spinlockup.txt the console of SPINLOCKUP taken twice: lockdep's
#                        recursive locking, then the CPU spins: soft lockup
#                        and RCU stall until the timeout stops the guest
#   lkdtm-bug.txt        the console of BUG (kernel BUG at, invalid opcode, panic)
#   lkdtm-exception.txt  the console of EXCEPTION (NULL dereference, Oops, panic)
#
# The consoles are taken at loglevel 7 so that warnings reach them.  About
# 15 min under TCG, most of it the kernel build.

set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
ff=$repo/scripts/ff
FF_REPO=$repo . "$repo/scripts/kernel.sh"
work=$(realpath -m "$FF_WORK")
out=${1:-$repo/tests/harness/splats}
export FF_OBJ=$work/obj-lkdtm FF_DEBUG=1 FF_FRAGMENTS=$repo/kernel/configs/ff-lkdtm.config
runs=$work/record-splats

mkdir -p "$out" "$runs"
"$ff" config
"$ff" build

direct=/sys/kernel/debug/provoke-crash/DIRECT

# guest NAME TIMEOUT CMD: boot, run CMD; a crash or hang is what we want
guest()
{
	local name=$1 t=$2
	shift 2
	FF_TIMEOUT=$t FF_APPEND=loglevel=7 FF_RUN_DIR=$runs/$name "$ff" run -- sh -c "$*" ||
		echo "record-splats: $name: guest ended with status $? (expected for a fatal report)" >&2
}

# (one line: scripts/ff run quotes the command for the guest's sh, which has no $'\n')
guest nonfatal 300 "test -w $direct || { echo no lkdtm; exit 1; };" \
	"for t in WARNING CORRUPT_LIST_ADD CORRUPT_LIST_DEL ARRAY_BOUNDS; do echo \$t > $direct; done;" \
	"echo HUNG_TASK > $direct 2>/dev/null & sleep 70; dmesg > /mnt/lkdtm-dmesg.txt"
[ -s "$runs/nonfatal/out/lkdtm-dmesg.txt" ] || { echo "record-splats: no dmesg from the nonfatal guest" >&2; exit 1; }
cp "$runs/nonfatal/out/lkdtm-dmesg.txt" "$out/lkdtm-dmesg.txt"

guest spinlockup 150 "echo SPINLOCKUP > $direct; echo SPINLOCKUP > $direct"
cp "$runs/spinlockup/console.log" "$out/lkdtm-spinlockup.txt"
guest bug 120 "echo BUG > $direct"
cp "$runs/bug/console.log" "$out/lkdtm-bug.txt"
guest exception 120 "echo EXCEPTION > $direct"
cp "$runs/exception/console.log" "$out/lkdtm-exception.txt"

# the guest's command line names this checkout (init=, ff_cwd=): no path
# of the recording machine stays in the repository
sed -i "s#$repo#<checkout>#g" "$out"/lkdtm-*.txt
! grep -l "$repo" "$out"/lkdtm-*.txt || { echo "record-splats: $repo still named" >&2; exit 1; }

echo "record-splats: recorded on $(date -u +%F) from $(cat "$FF_OBJ/include/config/kernel.release") in $out:"
ls -l "$out"
