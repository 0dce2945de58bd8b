#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest (scripts/ff run), for scripts/bench: set up one
# benchmark variant, run perf bench futex, write what it printed to /mnt.
#
# usage: bench-guest.sh VARIANT BENCH...
#   VARIANT: v1 v2 (pristine kernels), v3 v4a v4b v5 (ours); see scripts/bench
#   BENCH_RUNTIME (3), BENCH_WAKE_REPEAT (10), BENCH_WAKE_THREADS (16)
#   BENCH_HOT_SITE (get_key_access): the site v4a and v4b switch on
#   BENCH_PROBABILITY (1): percent, v5
#   BENCH_V5_SITES: the sites v5 switches on (scripts/bench passes the
#   FUTEX_FAULT_RETRY sites)

set -eu

[ $# -ge 2 ] || { echo "usage: bench-guest.sh VARIANT BENCH..." >&2; exit 2; }
variant=$1
shift

dbg=/sys/kernel/debug
keys=$dbg/static_keys/futex_fault
ff=$dbg/fail_futex
out=/mnt
runtime=${BENCH_RUNTIME:-3}
repeat=${BENCH_WAKE_REPEAT:-10}
wthreads=${BENCH_WAKE_THREADS:-16}
hot=${BENCH_HOT_SITE:-get_key_access}

fail()
{
	echo "bench-guest: $variant: $*" >&2
	exit 3
}

# The variant must be running on the kernel it is meant for.
case $variant in
v1) [ ! -d $ff ] || fail "kernel has fail_futex: not a CONFIG_FAIL_FUTEX=n kernel" ;;
v2) [ -d $ff ] && [ ! -d $keys ] || fail "not a pristine CONFIG_FAIL_FUTEX=y kernel" ;;
*) [ -d $keys ] || fail "kernel without futex fault sites" ;;
esac

if [ -d $keys ]; then
	echo 0 > $keys/all
	echo 1 > $ff/reset
	echo 0 > $ff/verbose
	echo -1 > $ff/times
	echo 1 > $ff/interval
	echo 0 > $ff/probability
	echo N > $ff/task-filter
	echo N > $ff/ignore-private
fi

case $variant in
v4a)
	# the site is on, the policy never fails it
	echo 1 > $keys/$hot
	;;
v4b)
	# the policy would always fail it, but only in a task marked
	# make-it-fail: a sleeper that makes no futex call
	sleep 100000 </dev/null >/dev/null 2>&1 &
	sleeper=$!
	echo 1 > /proc/$sleeper/make-it-fail
	[ "$(cat /proc/self/make-it-fail)" = 0 ] || fail "the benchmark is marked make-it-fail"
	echo 100 > $ff/probability
	echo Y > $ff/task-filter
	echo 1 > $keys/$hot
	;;
v5)
	[ -n "${BENCH_V5_SITES:-}" ] || fail "BENCH_V5_SITES is empty"
	for s in $BENCH_V5_SITES; do
		echo 1 > $keys/$s
	done
	echo "${BENCH_PROBABILITY:-1}" > $ff/probability
	;;
esac

{
	echo "variant $variant"
	echo "cpus $(nproc)"
	echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	[ ! -d $keys ] || echo "sites_enabled $(cat $keys/all)"
} > $out/guest-info

cd /tmp
for b in "$@"; do
	case $b in
	hash|lock-pi) cmd="perf bench futex $b -s -r $runtime" ;;
	# not silent: each run's line, for a median less hurt by outliers
	wake|wake-parallel) cmd="perf bench --repeat $repeat futex $b -t $wthreads" ;;
	*) fail "unknown benchmark $b" ;;
	esac
	echo "$cmd" > $out/$b.cmd
	$cmd > $out/$b.txt 2>&1 || fail "$cmd failed: $(tail -n 3 $out/$b.txt)"
done

[ ! -f $ff/sites ] || cat $ff/sites > $out/sites.txt
[ ! -d $keys ] || echo 0 > $keys/all
# the guest ends when everything that holds its output is gone
[ -z "${sleeper:-}" ] || kill $sleeper
