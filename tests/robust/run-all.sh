#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-robust: the longer robustness suites.  Needs a built kernel
# (make kernel) and root.  Prints a line per suite and
# "check-robust: N passed, N failed" at the end.
#
# ROBUST_SKIP="name ..." skips suites by their short name (campaign-faults,
# anchor, kmemleak, kernel, kernel-debug, fuzz, debug-campaign,
# kasan-campaign).

set -u
cd "$(dirname "$0")/../.."

suites=(
	"campaign-faults|Ctrl-C, -j 2 resume, QEMU killed, guest panic, full share|tests/robust/campaign-faults.sh"
	"anchor|scripts/anchor end to end: the pristine kernel's fail_futex against a reduced campaign of ours|tests/campaign/anchor.sh"
	"kmemleak|a leaked task_struct reference (mutant leak-task) caught by scripts/changed on a kmemleak kernel (6.12)|tests/campaign/kmemleak.sh"
)
[ -x tests/robust/run-kernel.sh ] && suites+=(
	"kernel|debugfs hostile writes and the key-flipping stress, normal kernel|tests/robust/run-kernel.sh"
)
[ -x tests/robust/fuzz.sh ] && suites+=(
	"fuzz|coverage-guided fuzzing of the reporter and the plugin|tests/robust/fuzz.sh"
)
suites+=(
	"debug-campaign|the default campaign on the debug kernel (lockdep, slab and object debugging, kmemleak)|tests/robust/debug-campaign.sh"
	"kasan-campaign|the default campaign on a KASAN kernel (generic KASAN over SLUB)|tests/robust/debug-campaign.sh --kasan"
)
[ -x tests/robust/run-kernel.sh ] && suites+=(
	"kernel-debug|debugfs hostile writes and the stress, debug kernel|FF_OBJ=${FF_WORK:-build/${FF_KERNEL:-6.12}}/obj-debug tests/robust/run-kernel.sh"
)

pass=0
fail=0
failed=()
t_all=$SECONDS
for s in "${suites[@]}"; do
	short=${s%%|*}
	rest=${s#*|}
	name=${rest%%|*}
	cmd=${rest#*|}
	case " ${ROBUST_SKIP:-} " in
	*" $short "*) echo "=== SKIP $short"; continue ;;
	esac
	echo "=== $short: $name: $cmd"
	t0=$SECONDS
	if bash -c "$cmd"; then
		pass=$((pass + 1))
		echo "=== PASS $short ($((SECONDS - t0)) s)"
	else
		fail=$((fail + 1))
		failed+=("$short")
		echo "=== FAIL $short ($((SECONDS - t0)) s)"
	fi
done
echo
for f in "${failed[@]}"; do
	echo "failed: $f"
done
echo "all suites took $((SECONDS - t_all)) s"
echo "check-robust: $pass passed, $fail failed"
[ $fail = 0 ]
