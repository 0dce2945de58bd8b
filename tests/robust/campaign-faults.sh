#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What happens to a campaign when things go wrong, end to end on the real
# kernel under QEMU.  A reduced campaign of four quick sites, one guest per
# run (CAMPAIGN_BATCH=1), and then:
#
#   1. Ctrl-C in the middle of the site runs: exit 130, says how to resume,
#      leaves no guest running, keeps every finished run;
#   2. resume with -j 2: the rest is done by two guests, finished runs are
#      not redone, nothing half-written is left;
#   3. QEMU killed in the middle of a run: that run is recorded as a crash
#      with its console, the campaign goes on;
#   4. a guest panic during a run: recorded as a crash, the campaign goes on;
#   5. a full results file system: the campaign refuses to start a guest
#      (CAMPAIGN_MIN_FREE), and when the share fills during a run that run
#      is dropped, not recorded as finished; a resume after freeing space
#      completes it.
#
# Needs root (mounts a small tmpfs).  About 10 min under TCG.

set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
work=$(realpath -m "$FF_WORK")
T=$work/robust-campaign
C=$T/c
SITES=get_robust_list_len,get_robust_list_head,robust_fetch_next,wake_op_atomic
CAMPAIGN=$repo/scripts/campaign
export CAMPAIGN_BATCH=1

. "$repo/tests/tap.sh"

check()
{
	tap_ok "$@" || true
}

# cond CMD...: 0 if CMD succeeds, 1 otherwise (for check); none CMD...: the
# reverse
cond()
{
	"$@" >/dev/null 2>&1 && echo 0 || echo 1
}

none()
{
	"$@" >/dev/null 2>&1 && echo 1 || echo 0
}

# wait_for SECONDS CMD...: poll until CMD succeeds
wait_for()
{
	local t=$1 i=0
	shift
	while [ $i -lt "$t" ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}

guests_left()
{
	"$repo/scripts/ff" running "$1"/campaign/guests/*/ >/dev/null 2>&1
}

site_runs_done()
{
	ls -d "$C"/runs/*/ 2>/dev/null | grep -v -e '/baseline/$' -e '\.tmp/$' | grep -q .
}

in_progress()	# RUN: a guest of campaign $C is running it
{
	grep -qx "$1" "$C"/campaign/guests/*/progress 2>/dev/null
}

status_of()
{
	jq -r .status "$C/runs/$1/run.json" 2>/dev/null
}

mtimes()
{
	local d

	for d in "$C"/runs/*/; do
		case $d in *.tmp/) continue ;; esac
		echo "$(basename "$d") $(stat -c %Y "$d/run.json" 2>/dev/null)"
	done
}

cleanup()
{
	"$repo/scripts/ff" stop -s KILL "$C"/campaign/guests/*/ "$T"/full/c/campaign/guests/*/ 2>/dev/null || true
	mountpoint -q "$T/full" && umount "$T/full"
	return 0
}
trap cleanup EXIT

cleanup
rm -rf "$T"
mkdir -p "$T"
tap_start
make -s -C "$repo/tools/futex-fault-report" >/dev/null

# ------------------------------------------------------------ 1. Ctrl-C
echo "# 1. Ctrl-C during the site runs"
# A background job of a script starts with SIGINT ignored, which no trap can
# undo: restore the default, as in a terminal, and give it its own group.
python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execvp(sys.argv[1], sys.argv[1:])' "$CAMPAIGN" -o "$C" -s "$SITES" --no-report >"$T/1.log" 2>&1 &
pid=$!
# the baseline and map take about 3 min; then interrupt during a run
wait_for 900 site_runs_done
wait_for 120 eval 'ls "$C"/campaign/guests/w*/progress'
sleep 3
kill -INT -- -$pid
rc=0
wait $pid || rc=$?
check $([ $rc = 130 ]; echo $?) "interrupted campaign exits 130 (got $rc)"
check $(cond grep -q "resume with: scripts/campaign -r $C" "$T/1.log") "it says how to resume"
sleep 2
check $(none guests_left "$C") "no guest left running"
done1=$(mtimes)
echo "# finished before the interrupt: $(echo "$done1" | cut -d' ' -f1 | paste -sd' ')"
check $([ "$(echo "$done1" | wc -l)" -ge 2 ]; echo $?) "the baseline and at least one site run are kept"
bad=0
for r in $(echo "$done1" | cut -d' ' -f1); do
	[ "$(status_of "$r")" = ok ] || bad=1
done
check $bad "every kept run is complete (run.json with status ok)"

# ------------------------------------------------------------ 2. resume -j 2
echo "# 2. resume with two guests"
rc=0
"$CAMPAIGN" -r "$C" -j 2 --no-report >"$T/2.log" 2>&1 || rc=$?
check $rc "resume -j 2 exits 0"
bad=0
for r in baseline ${SITES//,/ }; do
	[ "$(status_of "$r")" = ok ] || { bad=1; echo "# $r: '$(status_of "$r")'"; }
done
check $bad "baseline and all four site runs are ok"
bad=0
while read -r r t; do
	[ "$(stat -c %Y "$C/runs/$r/run.json")" = "$t" ] || { bad=1; echo "# $r was redone"; }
done <<<"$done1"
check $bad "runs finished before the interrupt were not redone"
check $(none eval 'ls -d "$C"/runs/*.tmp "$C"/campaign/guests/*/progress | grep .') "no half-written run, no stale progress file"
check $(cond ls -d "$C/campaign/guests/w0-1" "$C/campaign/guests/w1-1") "two guests ran (w0-*, w1-*)"
check $(cond jq -e '.runs | index("wake_op_atomic")' "$C/campaign.json") "campaign.json lists the runs"

# ------------------------------------------------------------ 3. QEMU killed
echo "# 3. QEMU killed during a run"
keep=$(mtimes | grep -v '^wake_op_atomic ')
rm -rf "$C/runs/wake_op_atomic"
"$CAMPAIGN" -r "$C" --no-report >"$T/3.log" 2>&1 &
pid=$!
if wait_for 300 in_progress wake_op_atomic; then
	sleep 2
	"$repo/scripts/ff" stop -s KILL "$C"/campaign/guests/*/
fi
rc=0
wait $pid || rc=$?
check $rc "the campaign goes on after its guest is killed (exit $rc)"
check $([ "$(status_of wake_op_atomic)" = crash ]; echo $?) "the killed run is recorded as a crash"
check $(cond test -s "$C/runs/wake_op_atomic/console.txt") "its console is kept"
check $(cond grep -q "run wake_op_atomic: crash: QEMU was killed by signal 9" "$T/3.log") "the campaign says so"
bad=0
while read -r r t; do
	[ "$(stat -c %Y "$C/runs/$r/run.json")" = "$t" ] || bad=1
done <<<"$keep"
check $bad "the other runs are untouched"

# ------------------------------------------------------------ 4. guest panic
echo "# 4. a guest panic during a run"
rm -rf "$C/runs/wake_op_atomic"
cp "$C/campaign/settings.json" "$T/settings.json"
jq '(.workloads[] | select(.name == "drive") | .command) = "echo c > /proc/sysrq-trigger"' \
	"$T/settings.json" > "$C/campaign/settings.json"
rc=0
"$CAMPAIGN" -r "$C" --no-report >"$T/4.log" 2>&1 || rc=$?
cp "$T/settings.json" "$C/campaign/settings.json"
check $rc "the campaign goes on after a panic (exit $rc)"
check $([ "$(status_of wake_op_atomic)" = crash ]; echo $?) "the panicked run is recorded as a crash"
check $(cond grep -q -i "sysrq" "$C/runs/wake_op_atomic/console.txt") "its console shows the panic"

# ------------------------------------------------------------ 5. full share
echo "# 5. a full results file system"
mkdir -p "$T/full"
rm -rf "$C/runs/wake_op_atomic" "$C/runs/get_robust_list_len"
# room for the two runs to redo: uncompressed traces are a few MiB each
size=$(( $(du -sk "$C" | cut -f1) + 32768 ))
mount -t tmpfs -o size=${size}k futex-fault-test "$T/full"
cp -a "$C" "$T/full/c"
F=$T/full/c
rc=0
CAMPAIGN_MIN_FREE=100000 "$CAMPAIGN" -r "$F" --no-report >"$T/5a.log" 2>&1 || rc=$?
check $([ $rc != 0 ]; echo $?) "too little space: the campaign refuses to start a guest (exit $rc)"
check $(cond grep -q "MiB free in $F" "$T/5a.log") "and names the directory and the free space"
# leave about 100 KiB: a trace of get_robust_list_len is about 450 KiB
free=$(df -Pk "$T/full" | awk 'NR == 2 { print $4 }')
dd if=/dev/zero of="$T/full/filler" bs=1k count=$((free - 100)) status=none 2>/dev/null
rc=0
CAMPAIGN_MIN_FREE=0 "$CAMPAIGN" -r "$F" --no-report >"$T/5b.log" 2>&1 || rc=$?
check $([ $rc != 0 ]; echo $?) "the share fills during a run: the campaign stops (exit $rc)"
check $(cond grep -q "full" "$T/5b.log") "and says the file system is full"
first=$(ls -d "$F/runs/get_robust_list_len" "$F/runs/wake_op_atomic" 2>/dev/null | head -n1)
ok=0
for d in $first; do
	[ "$(jq -r .status "$d/run.json" 2>/dev/null)" = ok ] || ok=1
done
check $ok "no run is recorded as finished without its files"
check $(none eval 'ls -d "$F"/runs/*.tmp | grep .') "no half-written run is left"
rm -f "$T/full/filler"
rc=0
CAMPAIGN_MIN_FREE=1 "$CAMPAIGN" -r "$F" --no-report >"$T/5c.log" 2>&1 || rc=$?
check $rc "after freeing space the resume completes (exit $rc)"
bad=0
for r in get_robust_list_len wake_op_atomic; do
	[ "$(jq -r .status "$F/runs/$r/run.json" 2>/dev/null)" = ok ] || bad=1
done
check $bad "both runs are now complete"

tap_diag "logs in $T"
tap_done "campaign faults"
