#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/changed, the developer's loop, against the reduced campaign of
# tests/campaign/run.sh (run that first: it is the reference).
#
# Which sites an edit selects (--list, on a scratch copy of the reference's
# sources, no kernel needed):
#   - no edit: nothing to run (status 4);
#   - a comment above a function: outside any function, nothing to run;
#   - an edit inside futex_wake_op(): wake_op_atomic, whose call is there;
#   - an edit on a line a site's reference run recovered through: that site;
#   - bad arguments: a clear error, status 1.
# Then the loop end to end on the real work tree: a planted regression in
# futex_wake_op() (-EFAULT from the atomic op no longer retried), built,
# the baseline and wake_op_atomic run, compared with the reference: the
# fault that was recovered now reaches user space, status 3, outcome-worse
# for wake_op_atomic; and the time it took.  Then a wrong errno planted in
# get_robust_list(): errno-changed for get_robust_list_len.  The work tree
# is restored and rebuilt afterwards, whatever happens.  About 5 min under
# TCG.

set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
. "$repo/tests/tap.sh"
ref=$FF_WORK/campaign-test/results
tree=$(realpath -m "${FF_TREE:-$FF_WORK/linux}")
T=$(mktemp -d)
TAP_DIAG_FILE=$T/out
edited=""

restore()
{
	if [ -n "$edited" ]; then
		cp "$T/orig" "$tree/$edited"
		touch "$tree/$edited"
		"$repo/scripts/ff" build > "$T/rebuild.log" 2>&1 ||
			echo "# the rebuild after restoring $tree/$edited failed: $T/rebuild.log"
	fi
	rm -rf "$T"
}
trap restore EXIT

tap_start
if [ ! -f "$ref/report/report.json" ]; then
	echo "Bail out! no reference campaign in $ref: run tests/campaign/run.sh first"
	exit 1
fi

# a scratch tree: the reference's sources and the work tree's Makefile
mkdir -p "$T/tree"
cp "$tree/Makefile" "$T/tree/"
cp -r "$ref/src/." "$T/tree/"
list()
{
	FF_TREE=$T/tree "$repo/scripts/changed" --list -r "$ref" > "$T/out" 2>&1
}

list
rc=$?
tap_ok $(( rc != 4 )) "no edit: status $rc (4), nothing to run" &&
	grep -q "nothing changed" "$T/out"
tap_ok $? "no edit: it says nothing changed"

w=kernel/futex/waitwake.c
cp "$ref/src/$w" "$T/waitwake.c"
sed -i '/^int futex_wake_op(/i /* a comment above futex_wake_op() */' "$T/tree/$w"
list
rc=$?
tap_ok $(( rc != 4 )) "a comment above a function: status $rc (4)"
grep -q "outside any function" "$T/out" && ! grep -q "wake_op_atomic" "$T/out"
tap_ok $? "a comment above a function: outside any function, no site"

cp "$T/waitwake.c" "$T/tree/$w"
sed -i 's/unlikely(op_ret != -EFAULT && op_ret != -EAGAIN)/unlikely(op_ret != -EAGAIN)/' "$T/tree/$w"
cmp -s "$T/waitwake.c" "$T/tree/$w"
tap_ok $(( $? == 0 )) "the planted edit applies to the reference's $w"
list
rc=$?
tap_ok $rc "an edit in futex_wake_op(): status $rc (0)"
grep -q "functions the edit touches: futex_wake_op (kernel/futex/waitwake.c)$" "$T/out"
tap_ok $? "an edit in futex_wake_op(): the touched function is futex_wake_op alone"
grep -q "^  wake_op_atomic (in a touched function" "$T/out" && grep -q "sites: 1 of" "$T/out"
tap_ok $? "an edit in futex_wake_op(): wake_op_atomic is the one site run"
grep -q "get_robust_list_len\|robust_fetch_next" "$T/out"
tap_ok $(( $? == 0 )) "an edit in futex_wake_op(): not the robust-list sites"
cp "$T/waitwake.c" "$T/tree/$w"

# an error-path line get_robust_list_len's reference run ran beyond the baseline
read -r f l < <(jq -r '.sites[] | select(.name == "get_robust_list_len") |
	.recovery.lines[] | select(.error_path and (.file | startswith("kernel/futex/"))) | "\(.file) \(.line)"' \
	"$ref/report/report.json" | head -n 1)
if [ -n "${f:-}" ]; then
	sed -i "${l}s|\$| /* edited */|" "$T/tree/$f"
	list
	grep -q "^  get_robust_list_len (.*its recovery ran in one" "$T/out"
	tap_ok $? "an edit at $f:$l, where get_robust_list_len's run recovered: it is selected"
	cp "$ref/src/$f" "$T/tree/$f"
else
	tap_ok 1 "get_robust_list_len has recovery lines in kernel/futex in $ref"
fi

"$repo/scripts/changed" -r "$T/nowhere" --list > "$T/out" 2>&1
rc=$?
tap_ok $(( rc != 1 )) "-r a missing directory: status $rc (1)" &&
	grep -q "error: -r $T/nowhere" "$T/out"
tap_ok $? "-r a missing directory: the error names it"
mkdir -p "$T/half"
cp "$ref/campaign.json" "$T/half/"
"$repo/scripts/changed" -r "$T/half" --list > "$T/out" 2>&1
rc=$?
tap_ok $(( rc != 1 )) "-r a directory that is no complete campaign: status $rc (1)" &&
	grep -q "not a complete campaign" "$T/out"
tap_ok $? "-r a directory that is no complete campaign: it says so"

# ---------------------------------------------------------------- end to end

cp "$tree/$w" "$T/orig"
if ! cmp -s "$tree/$w" "$ref/src/$w"; then
	tap_ok 1 "the work tree's $w is the reference's (restore it, rerun run.sh)"
	tap_done "changed"
	exit
fi
edited=$w
sed -i 's/unlikely(op_ret != -EFAULT && op_ret != -EAGAIN)/unlikely(op_ret != -EAGAIN)/' "$tree/$w"
out=$FF_WORK/changed-test
rm -rf "$out"
t0=$SECONDS
"$repo/scripts/changed" -r "$ref" -o "$out" > "$T/out" 2>&1
rc=$?
secs=$((SECONDS - t0))
tap_diag "scripts/changed, from the edit to the comparison: $secs s"
tap_ok $(( rc != 3 )) "the planted regression: status $rc (3, a regression)"
c=$out/compare/compare.json
jq -e '[.regressions[] | select(.category == "outcome-worse" and .site == "wake_op_atomic" and .fails)]
	| length == 1' "$c" > /dev/null 2>&1
tap_ok $? "compare.json: outcome-worse for wake_op_atomic, failing"
jq -e '.sites[] | select(.name == "wake_op_atomic")
	| .outcomes.recovered.old > 0 and .outcomes.recovered.new == 0 and .outcomes.error.new > 0' \
	"$c" > /dev/null 2>&1
tap_ok $? "compare.json: wake_op_atomic recovered before, never after, errors after: $(jq -c \
	'.sites[] | select(.name == "wake_op_atomic") | .outcomes | with_entries(select(.key == "recovered" or .key == "error"))' "$c" 2>/dev/null)"
jq -e '[.regressions[] | select(.category == "lost-line" and .function == "futex_wake_op"
	and (.text | test("goto retry")))] | length > 0' "$c" > /dev/null 2>&1
tap_ok $? "compare.json: the retry of futex_wake_op() reported as lost error-path lines"
[ "$(jq -c '.runs' "$out/campaign.json")" = '["baseline","wake_op_atomic"]' ] &&
	[ ! -d "$out/campaign/guests/map" ]
tap_ok $? "the new campaign ran the baseline and wake_op_atomic only, and no map guest"
[ -f "$out/compare/index.html" ] && [ -f "$out/campaign/reference/runs/wake_op_atomic/trace.dat" ]
tap_ok $? "the comparison page, and the reference's runs copied beside the results"

# A second planted regression: get_robust_list() returns -EINVAL where
# putting the length fails, not -EFAULT (the wrong errno)
cp "$T/orig" "$tree/$w"
touch "$tree/$w"
y=kernel/futex/syscalls.c
cp "$tree/$y" "$T/orig"
edited=$y
sed -i '/futex_fault(get_robust_list_len,/{n;n;s/return -EFAULT;/return -EINVAL;/}' "$tree/$y"
cmp -s "$T/orig" "$tree/$y"
tap_ok $(( $? == 0 )) "the wrong-errno edit applies to $y"
out=$FF_WORK/changed-test-errno
rm -rf "$out"
t0=$SECONDS
"$repo/scripts/changed" -r "$ref" -o "$out" > "$T/out" 2>&1
rc=$?
tap_diag "scripts/changed, the wrong errno: $((SECONDS - t0)) s"
tap_ok $(( rc != 3 )) "the wrong errno: status $rc (3, a regression)"
c=$out/compare/compare.json
jq -e '[.regressions[] | select(.category == "errno-changed" and .site == "get_robust_list_len" and .fails)]
	| length == 1' "$c" > /dev/null 2>&1
tap_ok $? "compare.json: errno-changed for get_robust_list_len, failing: $(jq -c \
	'.sites[] | select(.name == "get_robust_list_len") | .errno_changed' "$c" 2>/dev/null)"
jq -e '[.regressions[] | select(.category != "errno-changed" and .fails)] | length == 0' \
	"$c" > /dev/null 2>&1
tap_ok $? "the wrong errno: no other failing regression"
tap_done "changed"
