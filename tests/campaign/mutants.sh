#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Planted regressions, each through scripts/changed against the reduced
# campaign of tests/campaign/run.sh (run that first: it is the reference).
# Each patch of tests/campaign/mutants/ (written against the 6.12 series)
# is applied to the work tree, built, the baseline and the sites the edit
# concerns run and compared with the reference; what the comparison must
# say:
#
#   wrong-errno    get_robust_list() returns -EINVAL where storing the length
#                  fails: errno-changed for get_robust_list_len, nothing else,
#                  status 3;
#   skip-unlock    futex_wake_op() keeps the hash-bucket locks across the
#                  fault-in and retry: wake_op_atomic's run hangs (its vCPU
#                  spins in the lock's slow path, the campaign stops the
#                  guest), a new-finding for it, status 3; and the command
#                  the report gives to reproduce it (scripts/repro) does;
#   leak-task      get_robust_list() leaks a task_struct reference on its
#                  -EFAULT path: not caught here (status 0, no regression),
#                  as nothing the campaign observes changes without
#                  kmemleak; tests/campaign/kmemleak.sh catches it on a
#                  kmemleak kernel;
#   stop-retry     futex_wake_op() returns -EFAULT after the fault-in instead
#                  of retrying: outcome-worse for wake_op_atomic, status 3;
#   retry-forever  a "faulted" flag never cleared makes its retry loop go
#                  round for ever: outcome-worse for wake_op_atomic (the
#                  faults end with the task killed), status 3;
#   extra-put      get_robust_list()'s error path drops a task reference it
#                  does not hold (a use after free): the kernel oopses, a
#                  new-finding for get_robust_list_len, status 3;
#   unlock-one     the fault path of futex_wake_op() unlocks one bucket of
#                  two: the baseline itself hangs (a real fault takes that
#                  path), "FAIL new-finding baseline", status 3;
#   skip-entry     exit_robust_list() stops before marking the entry whose
#                  next link it could not read: the waiter of futex_drive's
#                  robust scenario is never woken, its watchdog kills it,
#                  workload-failed for robust_fetch_next, status 3;
#   lost-wakeup    futex_wake_op()'s retry wakes one waiter of two: futex_drive
#                  finds the other still asleep after the call (a wrong
#                  result, exit status 4), workload-failed for
#                  wake_op_atomic, status 3;
#   swallow-error  get_robust_list() returns 0 where storing the length
#                  fails: futex_drive sees a success that stored nothing,
#                  workload-failed for get_robust_list_len, status 3;
#   noop-comment   a comment or blank line above an error path in the three
#                  functions of the reference's sites: status 0, no
#                  regression, no lost line.
#
# It prints the mutation score (caught: status 3), and the time each took.
# The work tree's files are restored and the kernel rebuilt afterwards,
# whatever happens.  About 30 min under TCG.  MUTANTS="wrong-errno
# noop-comment" runs some only.

set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
. "$repo/tests/tap.sh"
ref=$FF_WORK/campaign-test/results
tree=$(realpath -m "${FF_TREE:-$FF_WORK/linux}")
mutants=$repo/tests/campaign/mutants
T=$(mktemp -d)
TAP_DIAG_FILE=$T/out
edited=""

restore()
{
	local f

	for f in $edited; do
		cp "$T/orig/$f" "$tree/$f"
		touch "$tree/$f"
	done
	edited=""
}

finish()
{
	if [ -n "$edited" ] || [ -n "${built:-}" ]; then
		restore
		"$repo/scripts/ff" build > "$T/rebuild.log" 2>&1 ||
			echo "# the rebuild after restoring $tree failed: $T/rebuild.log"
	fi
	rm -rf "$T"
}
trap finish EXIT

# expect NAME: the status the comparison must give, and a jq filter true of
# its compare.json, with what it checks
expect()
{
	case $1 in
	wrong-errno)
		want=3
		check='[.regressions[] | [.category, .site, .fails]] == [["errno-changed", "get_robust_list_len", true]]
		       and (.sites[] | select(.name == "get_robust_list_len")
			    | .errno_changed | startswith("EINVAL 0 -> "))'
		what="errno-changed for get_robust_list_len (EINVAL where it was EFAULT), no other regression"
		;;
	skip-unlock)
		want=3
		check='([.regressions[] | select(.fails and .site == "wake_op_atomic") | .category]
			| index("new-finding") != null)
		       and any(.new_findings[]; .run == "wake_op_atomic" and .status == "hang")'
		what="new-finding for wake_op_atomic, whose run hung"
		;;
	leak-task)
		want=0
		check='.regressions_failing == 0 and .categories.LBC == 0'
		what="not caught: no regression (no kmemleak in the campaign's kernel; tests/campaign/kmemleak.sh)"
		;;
	noop-comment)
		want=0
		check='(.regressions | length) == 0 and .categories.LBC == 0 and .categories.UNC == 0'
		what="no regression at all, no lost line"
		;;
	stop-retry)
		want=3
		check='[.regressions[] | select(.fails) | [.category, .site]] | index([["outcome-worse", "wake_op_atomic"]]) != null'
		what="outcome-worse for wake_op_atomic (its faults no longer recovered)"
		;;
	retry-forever)
		want=3
		check='[.regressions[] | select(.fails) | [.category, .site]] | index([["outcome-worse", "wake_op_atomic"]]) != null'
		what="outcome-worse for wake_op_atomic (its faults now end in a killed task)"
		;;
	extra-put)
		want=3
		check='any(.new_findings[]; .run == "get_robust_list_len")'
		what="new-finding for get_robust_list_len (a use after free: the kernel oopses)"
		;;
	unlock-one)
		# the baseline itself hangs (a real fault of the atomic op takes
		# the path): scripts/changed says so without a comparison
		want=3
		check=baseline
		what="the baseline hangs on the new kernel: new-finding baseline"
		;;
	skip-entry)
		# the waiter of futex_drive's robust scenario is never told:
		# the scenario hangs until its watchdog kills it
		want=3
		check='[.regressions[] | select(.fails) | [.category, .site]] | index([["workload-failed", "robust_fetch_next"]]) != null'
		what="workload-failed for robust_fetch_next (futex_drive's robust scenario hung)"
		;;
	lost-wakeup)
		want=3
		check='[.regressions[] | select(.fails) | [.category, .site]] | index([["workload-failed", "wake_op_atomic"]]) != null'
		what="workload-failed for wake_op_atomic (futex_drive saw FUTEX_WAKE_OP lose its wakeup)"
		;;
	swallow-error)
		want=3
		check='[.regressions[] | select(.fails) | [.category, .site]] | index([["workload-failed", "get_robust_list_len"]]) != null'
		what="workload-failed for get_robust_list_len (futex_drive saw a success that stored nothing)"
		;;
	*)
		want=""
		;;
	esac
	repro=""
	[ "$1" != skip-unlock ] || repro=wake_op_atomic
}

tap_start
if [ ! -f "$ref/report/report.json" ]; then
	echo "Bail out! no reference campaign in $ref: run tests/campaign/run.sh first"
	exit 1
fi
mkdir -p "$T/orig"
total0=$SECONDS
tried=0
caught=0
caught_list=""
escaped_list=""
for name in ${MUTANTS:-wrong-errno skip-unlock leak-task stop-retry retry-forever extra-put unlock-one skip-entry lost-wakeup swallow-error noop-comment}; do
	p=$mutants/$name.patch
	expect "$name"
	if [ -z "$want" ] || [ ! -f "$p" ]; then
		tap_ok 1 "$name: a mutant of $mutants with an expectation"
		continue
	fi
	if ! git -C "$tree" apply --check "$p" > "$T/out" 2>&1; then
		tap_skip "$name" "$p does not apply to $tree (written against the 6.12 series)"
		continue
	fi
	files=$(git -C "$tree" apply --numstat "$p" | cut -f3)
	stale=""
	for f in $files; do
		cmp -s "$tree/$f" "$ref/src/$f" || stale+=" $f"
	done
	if [ -n "$stale" ]; then
		tap_ok 1 "$name: the work tree's$stale the reference's (restore it, rerun run.sh)"
		continue
	fi
	for f in $files; do
		mkdir -p "$T/orig/$(dirname "$f")"
		cp "$tree/$f" "$T/orig/$f"
	done
	edited=$files
	built=1
	git -C "$tree" apply "$p"
	out=$FF_WORK/mutants-test/$name
	rm -rf "$out"
	t0=$SECONDS
	"$repo/scripts/changed" -r "$ref" -o "$out" > "$T/out" 2>&1
	rc=$?
	secs=$((SECONDS - t0))
	if [ -n "$repro" ]; then
		# the report's command, run as it is given (with -o), on the
		# mutant's kernel before the work tree is restored
		cmd=$(jq -r --arg r "$repro" '.findings[] | select(.run == $r) | .reproduce // empty' \
		      "$out/report/report.json" 2>/dev/null)
		t1=$SECONDS
		rrc=1
		if [ -n "$cmd" ]; then
			eval "set -- $cmd"
			[ "$1" = scripts/repro ] && (cd "$repo" && scripts/repro -o "$T/repro" "${@:2}") > "$T/repro.log" 2>&1
			rrc=$?
		fi
		tap_diag "$name: '${cmd:-no command in the report}' took $((SECONDS - t1)) s, status $rrc: $(grep -E '^repro: ' "$T/repro.log" 2>/dev/null | tail -n 2 | tr '\n' ' ')"
		[ "$rrc" = 0 ] && [ "$(jq -r .status "$T/repro/runs/$repro/run.json" 2>/dev/null)" = hang ]
		tap_ok $? "$name: the report's reproducer ($cmd) hangs $repro again, and the baseline is clean"
	fi
	restore
	c=$out/compare/compare.json
	tap_diag "$name: scripts/changed took $secs s, status $rc; it said:" \
		"$(grep -E '^  (verdict|FAIL|note) ' "$T/out" | head -n 6 | sed 's/^  */ | /' | tr -s ' ' | tr -d '\n')"
	if [ "$name" != noop-comment ]; then
		tried=$((tried + 1))
		if [ $rc = 3 ]; then
			caught=$((caught + 1))
			caught_list+=" $name"
		else
			escaped_list+=" $name"
		fi
	fi
	tap_ok $(( rc != want )) "$name: status $rc ($want)"
	if [ "$check" = baseline ]; then
		grep -q '^  FAIL new-finding baseline: ' "$T/out"
	else
		jq -e "$check" "$c" > /dev/null 2>&1
	fi
	tap_ok $? "$name: $what"
done
tap_diag "mutation score: $caught of $tried caught (status 3:${caught_list:- none}; escaped:${escaped_list:- none})"
tap_diag "all the mutants: $((SECONDS - total0)) s"
tap_done "mutants"
