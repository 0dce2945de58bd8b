#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/anchor end to end: the pristine kernel with its own fail_futex
# (built the first time: a cold build, 4-16 min), its campaign at one
# probability, its report and the comparison with the reduced campaign of
# tests/campaign/run.sh (run here first when there is none, about 3 min).
# Then the arguments scripts/campaign --anchor refuses.  About 4 min under
# TCG once the anchor kernel is built.  Part of make check-robust (in CI,
# with its cold build: 886 s).

set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
. "$repo/tests/tap.sh"
ours=$FF_WORK/campaign-test/results
out=$FF_WORK/anchor-test
T=$(mktemp -d)
TAP_DIAG_FILE=$T/out
trap 'rm -rf "$T"' EXIT

tap_start
if [ ! -f "$ours/report/report.json" ]; then
	echo "# no reduced campaign in $ours: tests/campaign/run.sh first"
	"$repo/tests/campaign/run.sh" > "$T/run.out" 2>&1 ||
		{ tail -n 20 "$T/run.out"; echo "Bail out! tests/campaign/run.sh failed: no campaign of ours to compare with"; exit 1; }
fi

rm -rf "$out"
t0=$SECONDS
"$repo/scripts/anchor" -p 10 --ours "$ours" -o "$out" > "$T/out" 2>&1
rc=$?
tap_diag "scripts/anchor -p 10: $((SECONDS - t0)) s"
tap_ok $rc "scripts/anchor -p 10: status $rc (0)"

t=$out/runs/baseline/sites.txt
[ "$("$repo/scripts/table" "$t" name 2>/dev/null)" = fail_futex ] &&
	[ "$("$repo/scripts/table" "$t" hits 2>/dev/null)" -gt 1000 ]
tap_ok $? "the anchor's table: one site, fail_futex, reached by the baseline: $(tail -n 1 "$t" 2>/dev/null)"
[ ! -e "$FF_WORK/anchor/linux/kernel/futex/fault.c" ] &&
	! grep -q futex_fault "$FF_WORK/anchor/linux/kernel/futex/core.c"
tap_ok $? "the anchor kernel's kernel/futex has none of the series"
jq -e '.policy.probability == 10 and .policy.times == -1 and .status == "ok"' \
	"$out/runs/fail_futex_p10/run.json" > /dev/null 2>&1
tap_ok $? "fail_futex_p10 ran at probability 10, times -1: $(jq -c .policy "$out/runs/fail_futex_p10/run.json" 2>/dev/null)"

r=$out/report/report.json
inj=$("$repo/scripts/table" "$out/runs/fail_futex_p10/sites.txt" injected 2>/dev/null)
jq -e --argjson inj "${inj:-0}" '.sites_fired == 1 and .sites_total == 1
	and (.sites[0] | .name == "fail_futex" and .fired > 0 and .fired == $inj)' \
	"$r" > /dev/null 2>&1
tap_ok $? "its report: fail_futex fired, as many faults as its table's $inj injections: $(jq -c \
	'.sites[0] | { name, fired }' "$r" 2>/dev/null)"
jq -e '.sites[0] | (.outcomes | add) == .fired' "$r" > /dev/null 2>&1
tap_ok $? "each fault has an outcome: $(jq -c '.sites[0].outcomes' "$r" 2>/dev/null)"
jq -e '.error_paths.lines_covered > .error_paths.lines_baseline' "$r" > /dev/null 2>&1
tap_ok $? "its faults ran error-path lines beyond the baseline: $(jq -c \
	'.error_paths | { lines_baseline, lines_covered, lines_total }' "$r" 2>/dev/null)"

c=$out/compare/compare.json
jq -e '[.sites[] | select(.name == "fail_futex") | .present.old and (.present.new | not)] == [true]
	and ([.sites[] | select(.present.new)] | length) > 1' "$c" > /dev/null 2>&1
tap_ok $? "the comparison: fail_futex only in the anchor, ours' sites beside it"
[ -f "$out/compare/index.html" ]
tap_ok $? "the comparison page"

# what --anchor refuses, before anything runs
for bad in "0|is not a probability" "5,x|expected probabilities" "101|is not a probability"; do
	"$repo/scripts/campaign" --anchor "${bad%%|*}" -o "$T/no" > "$T/out" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q "${bad#*|}" "$T/out" && [ ! -e "$T/no" ]
	tap_ok $? "--anchor ${bad%%|*}: status $rc (1), '${bad#*|}', nothing written"
done
"$repo/scripts/campaign" --anchor 10 -s wait_get_key -o "$T/no" > "$T/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "no -s or --shard" "$T/out"
tap_ok $? "--anchor with -s: status $rc (1), refused"
tap_done "anchor"
