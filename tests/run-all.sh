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

suites=(
	"harness|tests/harness/run.sh"
	"kernel-report classifier against recorded splats|tests/harness/kernel-reports.sh"
	"campaign ETA against recorded campaigns|tests/campaign/eta.sh"
	"site tables read by column name|tests/harness/table.sh"
	"futex selftests in the guest (with futex_fault)|scripts/ff selftests"
	"zero cost of disabled sites|tests/zero-cost.sh"
	"patch series, checkpatch --strict|scripts/ff series"
)
[ -f tools/futex-fault-report/Makefile ] &&
	suites+=("futex-fault-report|make -C tools/futex-fault-report check")
[ -x tests/campaign/run.sh ] &&
	suites+=("reduced campaign end to end|tests/campaign/run.sh")

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
