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
		"$k: scripts/changed against it, a planted regression|FF_KERNEL=$k tests/campaign/changed.sh"
	)
done
# pristine fail_futex against the first kernel's reduced campaign (after it):
# a cold build of the pristine kernel, then about 4 min
suites+=("$first: scripts/anchor, pristine fail_futex against the reduced campaign|FF_KERNEL=$first tests/campaign/anchor.sh")
# the races on two vCPUs, on the first kernel only (6.1: 137 s in a fresh
# clone's make check, 6.12: 147 s; the whole make check took 85 min there
# with both, near CI's 90): FF_KERNEL=6.12 tests/campaign/races.sh by hand
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
