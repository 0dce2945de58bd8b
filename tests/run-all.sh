#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every test suite of the project; each suite is a command that exits 0
# on success.  Needs a built kernel (make kernel).  As root, the suites run
# with every other checkout of the project on this machine hidden
# (tests/isolate; FF_ISOLATE=0 turns that off).  Prints a line per suite
# and "check: N passed, N failed" at the end.

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

suites=(
	"harness|FF_KERNEL=$first tests/harness/run.sh"
	"kernel-report classifier against recorded splats|tests/harness/kernel-reports.sh"
	"campaign ETA against recorded campaigns|tests/campaign/eta.sh"
	"campaign --shard arguments|tests/campaign/shard-args.sh"
	"site tables read by column name|tests/harness/table.sh"
)
[ -f tools/futex-fault-report/Makefile ] &&
	suites+=("futex-fault-report|make -C tools/futex-fault-report check")
# (sharding is the same on both kernels: on the first only, 6 min)
suites+=("$first: reduced campaign in two shards, reported as one|FF_KERNEL=$first tests/campaign/shard.sh")
for k in $kernels; do
	suites+=(
		"$k: futex selftests in the guest (with futex_fault)|FF_KERNEL=$k scripts/ff selftests"
		"$k: zero cost of disabled sites|FF_KERNEL=$k tests/zero-cost.sh"
		"$k: patch series, checkpatch --strict|FF_KERNEL=$k scripts/ff series"
		"$k: reduced campaign end to end|FF_KERNEL=$k tests/campaign/run.sh"
	)
done
# Each suite below runs on one kernel: its scripts are the same on both, and
# CI gives make check 90 min (a fresh clone's took 85 min with these on both
# kernels and the anchor).  The developer's loop on the last kernel (6.12,
# the default), after its reduced campaign, its reference.  The anchor
# (scripts/anchor: a cold build of the pristine kernel, then its campaign,
# 886 s in CI) is in make check-robust.
suites+=("$last: scripts/changed against the reduced campaign, a planted regression|FF_KERNEL=$last tests/campaign/changed.sh")
# the races on two vCPUs (6.1: 137 s in a fresh clone's make check, 6.12:
# 147 s): FF_KERNEL=6.12 tests/campaign/races.sh by hand
suites+=("$first: scripts/campaign --races-only, the race cases on two vCPUs|FF_KERNEL=$first tests/campaign/races.sh")
# systematic fault injection (fail-nth) on one futex_drive scenario: about 3 min
suites+=("$first: scripts/campaign --nth, fail-nth over every call of a scenario|FF_KERNEL=$first tests/campaign/nth.sh")

pass=0
fail=0
failed=()
t_all=$SECONDS
for s in "${suites[@]}"; do
	name=${s%%|*}
	cmd=${s#*|}
	echo "=== $name: $cmd"
	t0=$SECONDS
	if bash -c "$cmd"; then
		pass=$((pass + 1))
		echo "=== PASS $name ($((SECONDS - t0)) s)"
	else
		fail=$((fail + 1))
		failed+=("$name")
		echo "=== FAIL $name ($((SECONDS - t0)) s)"
	fi
done
echo
for f in "${failed[@]}"; do
	echo "failed: $f"
done
echo "all suites took $((SECONDS - t_all)) s"
echo "check: $pass passed, $fail failed"
[ $fail = 0 ]
