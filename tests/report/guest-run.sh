#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside a futex-fault guest (scripts/ff run): one run of a campaign
# in the layout of docs/results-layout.md, written to /mnt.
#
# usage: guest-run.sh RUN_NAME SITE... -- WORKLOAD...
#   FF_TIMES (default 5), FF_PROBABILITY (100), FF_INTERVAL (1): fail_futex policy
#   FF_BUF (default 8000): trace-cmd buffer, KiB per CPU
#   FF_KALLSYMS_GREP: record only the kernel symbols matching this ERE

set -eu

run=$1
shift
sites=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	sites="$sites $1"
	shift
done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: guest-run.sh RUN SITE... -- WORKLOAD..." >&2; exit 2; }

dbg=/sys/kernel/debug
keys=$dbg/static_keys/futex_fault
# the .gcda of kernel/futex, under the build directory's name as the
# kernel knows it (/proc/self/cwd: see patches/local)
gcov=$(find $dbg/gcov -type d -path '*/kernel/futex' | head -n 1)
out=/mnt
times=${FF_TIMES:-5}
prob=${FF_PROBABILITY:-100}
interval=${FF_INTERVAL:-1}

[ -d $keys ] || { echo "guest-run: $keys missing: kernel without futex-fault" >&2; exit 3; }
[ -n "$gcov" ] || { echo "guest-run: no $dbg/gcov/.../kernel/futex: kernel without gcov on kernel/futex" >&2; exit 3; }

# Fixtures only: keep the trace small by recording a kallsyms cut down to
# the symbols matching FF_KALLSYMS_GREP (the futex code the callers are in).
if [ -n "${FF_KALLSYMS_GREP:-}" ]; then
	grep -E "$FF_KALLSYMS_GREP" /proc/kallsyms > /tmp/kallsyms
	mount --bind /tmp/kallsyms /proc/kallsyms
fi

mkdir -p $out/gcov
echo 1 > $dbg/gcov/reset
echo "$prob" > $dbg/fail_futex/probability
echo "$interval" > $dbg/fail_futex/interval
echo "$times" > $dbg/fail_futex/times
echo 0 > $dbg/fail_futex/verbose
# some sites start enabled (the former fail_futex points): only ours run
echo 0 > $keys/all
for s in $sites; do
	echo 1 > $keys/$s
done

cmd="trace-cmd record -q -b ${FF_BUF:-8000} -e futex_fault -e raw_syscalls -e sched:sched_process_exit -o $out/trace.dat -- $*"
t0=$(cut -d' ' -f1 /proc/uptime)
status=0
$cmd > $out/stdout.txt 2>&1 || status=$?
t1=$(cut -d' ' -f1 /proc/uptime)

cat $dbg/fail_futex/sites > $out/sites.txt
for s in $sites; do
	echo 0 > $keys/$s
done
for f in $gcov/*.gcda; do
	cat "$f" > $out/gcov/"$(basename "$f")"
done
dmesg > $out/dmesg.txt

# trace-cmd's own exit status is the workload's
enabled=
for s in $sites; do
	enabled="$enabled${enabled:+, }\"$s\""
done
cat > $out/run.json <<EOF
{
  "layout_version": 1,
  "run": "$run",
  "sites_enabled": [$enabled],
  "policy": { "probability": $prob, "interval": $interval, "times": $times, "verbose": 0 },
  "status": "ok",
  "seconds": $(echo "$t1 $t0" | awk '{ print $1 - $2 }'),
  "workloads": [
    { "name": "ffdrive", "command": "$*", "exit_status": $status }
  ],
  "trace_command": "$cmd"
}
EOF
