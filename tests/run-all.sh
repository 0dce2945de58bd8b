#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every test suite of the project; each suite is a command that exits 0
# on success.  Needs a built kernel (make kernel).  As root, the suites run
# with every other checkout of the project on this machine hidden
# (tests/isolate; FF_ISOLATE=0 turns that off).  Prints a line per suite
# (the suites' output is in build/check/) and "check: N passed, N failed"
# at the end.

set -u
cd "$(dirname "$0")/.."

# No suite may read another checkout of the project or its build tree: run
# them where every other checkout is hidden (tests/isolate).
[ -n "${FF_ISOLATED:-}" ] || exec tests/isolate "$0" "$@"
echo "=== other checkouts hidden: $FF_ISOLATED"

# usage: tests/run-all.sh [KERNEL...]   (default: $FF_KERNEL, or 6.1 and 6.12)
# The suites of a kernel's build run for each kernel named, with FF_KERNEL
# set; the others once, on the first.
kernels=${*:-${FF_KERNEL:-6.1 6.12}}
first=${kernels%% *}
last=${kernels##* }

# Two lanes, run side by side: a guest under TCG keeps one core busy, so
# the suites of one kernel run beside those of the other and the second
# core is not idle (FF_CHECK_LANES=1: one after the other).  A lane's
# suites run in order.  The suites that change a work tree (the harness's
# tree tests, changed.sh) are in the last kernel's lane, with the
# reporter's tests, which read 6.1's tree: nothing else edits a tree, and
# every kernel has its own build directory.  With one kernel, one lane.
lane1=()
lane2=()
# the lane of kernel $1
lane_add()
{
	local k=$1
	shift
	if [ "$k" = "$last" ]; then lane2+=("$@"); else lane1+=("$@"); fi
}

lane_add "$last" \
	"harness|FF_KERNEL=$last tests/harness/run.sh" \
	"kernel-report classifier against recorded splats|tests/harness/kernel-reports.sh" \
	"campaign ETA against recorded campaigns|tests/campaign/eta.sh" \
	"campaign --shard arguments|tests/campaign/shard-args.sh" \
	"site tables read by column name|tests/harness/table.sh"
[ -f tools/futex-fault-report/Makefile ] &&
	lane_add "$last" "futex-fault-report|make -C tools/futex-fault-report check"
# (sharding is the same on both kernels: on the first only, 6 min)
lane_add "$first" "$first: reduced campaign in two shards, reported as one|FF_KERNEL=$first tests/campaign/shard.sh"
for k in $kernels; do
	lane_add "$k" \
		"$k: futex selftests in the guest (with futex_fault)|FF_KERNEL=$k scripts/ff selftests" \
		"$k: zero cost of disabled sites|FF_KERNEL=$k tests/zero-cost.sh" \
		"$k: patch series, checkpatch --strict|FF_KERNEL=$k scripts/ff series" \
		"$k: reduced campaign end to end|FF_KERNEL=$k tests/campaign/run.sh"
done
# Each suite below runs on one kernel: its scripts are the same on both, and
# CI gives make check 90 min.  The developer's loop on the last kernel
# (6.12, the default), after its reduced campaign, its reference.  The
# anchor (scripts/anchor: a cold build of the pristine kernel, then its
# campaign, 886 s in CI) is in make check-robust.
lane_add "$last" "$last: scripts/changed against the reduced campaign, a planted regression|FF_KERNEL=$last tests/campaign/changed.sh"
# the races on two vCPUs (6.1: 137 s in a fresh clone's make check, 6.12:
# 147 s): FF_KERNEL=6.12 tests/campaign/races.sh by hand
lane_add "$first" "$first: scripts/campaign --races-only, the race cases on two vCPUs|FF_KERNEL=$first tests/campaign/races.sh"
# systematic fault injection (fail-nth) on one futex_drive scenario: about 3 min
lane_add "$first" "$first: scripts/campaign --nth, fail-nth over every call of a scenario|FF_KERNEL=$first tests/campaign/nth.sh"

if [ "${FF_CHECK_LANES:-2}" = 1 ] || [ ${#lane1[@]} = 0 ]; then
	lane2=("${lane1[@]}" "${lane2[@]}")
	lane1=()
fi

logs=${FF_CHECK_LOGS:-build/check}
rm -rf "$logs"
mkdir -p "$logs"
ntotal=$((${#lane1[@]} + ${#lane2[@]}))
# the reporter is built once, before the lanes: the campaigns of both run
# make in its directory
if [ -f tools/futex-fault-report/Makefile ]; then
	make -s -C tools/futex-fault-report all >"$logs/reporter-build.log" 2>&1 || {
		cat "$logs/reporter-build.log"
		echo "check: building tools/futex-fault-report failed"
		exit 1
	}
fi

# run_lane N SUITE...: each suite in turn, its output in $logs/N.II-*.log;
# a line when it starts and when it ends, with its time; a failed suite's
# last 150 lines.  "pass|NAME" or "fail|NAME" a suite in $logs/lane-N.
run_lane()
{
	local lane=$1 s name cmd t0 log rc i=0
	shift
	: > "$logs/lane-$lane"
	for s in "$@"; do
		name=${s%%|*}
		cmd=${s#*|}
		i=$((i + 1))
		log=$logs/$lane.$(printf '%02d' $i)-$(echo "$name" | tr -c 'A-Za-z0-9.\n' - | cut -c1-40).log
		echo "=== [lane $lane] start: $name: $cmd (log: $log)"
		t0=$SECONDS
		bash -c "$cmd" >"$log" 2>&1 < /dev/null
		rc=$?
		if [ $rc = 0 ]; then
			echo "pass|$name" >> "$logs/lane-$lane"
			echo "=== PASS $name ($((SECONDS - t0)) s)"
		else
			echo "fail|$name" >> "$logs/lane-$lane"
			{
				echo "=== FAIL $name: exit $rc after $((SECONDS - t0)) s; the last 150 lines of $log:"
				tail -n 150 "$log" | sed 's/^/  | /'
				echo "=== FAIL $name ($((SECONDS - t0)) s)"
			} > "$log.tail"
			cat "$log.tail"
		fi
		echo "=== $(cat "$logs"/lane-* | wc -l) of $ntotal suites done, $(cat "$logs"/lane-* | grep -c '^fail') failed, $((SECONDS - t_all)) s"
	done
}

t_all=$SECONDS
echo "=== $ntotal suites in $([ ${#lane1[@]} = 0 ] && echo one lane || echo "two lanes ($first, $last), side by side"); logs in $logs/"
pids=()
if [ ${#lane1[@]} -gt 0 ]; then
	run_lane 1 "${lane1[@]}" &
	pids+=($!)
fi
run_lane 2 "${lane2[@]}" &
pids+=($!)
# A background job of a script ignores SIGINT, and so do the suites it
# starts: on Ctrl-C or a TERM, every process of this run gets a TERM (the
# guests and campaigns stop as they do on one)
trap 'trap "" INT TERM; echo "check: interrupted, stopping every suite"; kill -TERM 0; wait; exit 130' INT TERM
wait "${pids[@]}"
trap - INT TERM

pass=$(cat "$logs"/lane-* | grep -c '^pass')
fail=$(cat "$logs"/lane-* | grep -c '^fail')
# a lane that died early leaves suites that never ran: they count as failed
missing=$((ntotal - pass - fail))
echo
grep -h '^fail' "$logs"/lane-* | sed 's/^fail|/failed: /'
[ $missing = 0 ] || echo "failed: $missing suites did not run"
fail=$((fail + missing))
echo "all suites took $((SECONDS - t_all)) s"
echo "check: $pass passed, $fail failed"
[ $fail = 0 ]
