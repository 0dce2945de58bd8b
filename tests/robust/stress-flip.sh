#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the flip stress test: `perf bench futex` hash, lock-pi and
# requeue --pi (private and shared) run in loops beside stress-flip, which
# flips the sites and the policy while its own workers make futex calls.
# Then the kernel log must have gained no warning, BUG, oops or lockdep
# report.  perf's tasks never fail (task-filter is on, only stress-flip's
# workers have make-it-fail): they reach the sites while keys are patched.
#
# usage: stress-flip.sh BINARY SECONDS [stress-flip options...]
#
# FF_ROBUST_PERF=0 leaves perf out.  Writes the kernel log lines the run added
# to $FF_ROBUST_OUT/stress-flip.dmesg (default /mnt).  Exit status: that of
# stress-flip, or 1 if the log shows a problem or perf failed.

set -eu

usage()
{
	echo "usage: $0 BINARY SECONDS [stress-flip options...]" >&2
	exit 2
}

[ $# -ge 2 ] || usage
bin=$1
secs=$2
shift 2
out=${FF_ROBUST_OUT:-/mnt}
perf=${FF_ROBUST_PERF:-1}
splat='WARNING:|BUG:|Oops|general protection|Kernel panic|lockdep|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called|INFO: task .* blocked|soft lockup|UBSAN|KASAN|int3: '

[ -x "$bin" ] || { echo "stress-flip.sh: no executable $bin" >&2; exit 2; }
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
echo "stress-flip.sh: $(nproc) CPUs, kernel $(uname -r)"

before=$(dmesg | wc -l)
pids=
perflog=$out/stress-flip.perf
: > "$perflog"
if [ "$perf" = 1 ] && perf bench futex hash -r 1 -t 1 >/dev/null 2>&1; then
	# each loop runs until the deadline; runtimes of 2 s keep the tail short
	end=$(( $(cut -d. -f1 /proc/uptime) + secs ))
	for b in "hash -r 2 -t 2" "hash -r 2 -t 2 -S" "lock-pi -r 2 -t 2" "lock-pi -r 2 -t 2 -S" \
		 "requeue --pi -t 4 -q 1" "requeue --pi -t 4 -q 1 -S"; do
		(
			n=0
			while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
				# shellcheck disable=SC2086
				if ! perf bench futex $b -s >/dev/null 2>&1; then
					echo "perf bench futex $b failed" >> "$perflog"
				fi
				n=$((n + 1))
			done
			echo "perf bench futex $b: $n runs" >> "$perflog"
		) &
		pids="$pids $!"
	done
	echo "stress-flip.sh: perf bench futex hash, lock-pi, requeue --pi (private, shared) in loops"
else
	echo "stress-flip.sh: without perf bench"
fi

rc=0
"$bin" -t "$secs" "$@" || rc=$?
for p in $pids; do
	wait "$p" || true
done
[ -s "$perflog" ] && sed 's/^/  /' "$perflog"
if grep -q failed "$perflog"; then
	echo "stress-flip.sh: perf bench failed beside the flips"
	rc=1
fi

dmesg | tail -n +"$((before + 1))" > "$out/stress-flip.dmesg" || true
if grep -E "$splat" "$out/stress-flip.dmesg" >/dev/null; then
	echo "stress-flip.sh: the kernel log shows a problem:"
	grep -E -A20 "$splat" "$out/stress-flip.dmesg" | head -60
	rc=1
else
	echo "stress-flip.sh: kernel log clean ($(wc -l < "$out/stress-flip.dmesg") new lines)"
fi
exit $rc
