#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/campaign --nth end to end, on one futex_drive scenario,
# get_robust_list: its 16 calls (8 for the task itself, 8 for its parent),
# each reaching two fault sites (get_robust_list_len, get_robust_list_head),
# so fail-nth N = 1 and 2 inject and N = 3 is not reached, for every call.
# Then the report of that campaign, and what --nth refuses.  About 2 min
# under TCG.

set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
. "$repo/tests/tap.sh"
out=$FF_WORK/nth-test
T=$(mktemp -d)
TAP_DIAG_FILE=$T/out
trap 'rm -rf "$T"' EXIT

tap_start
rm -rf "$out"
t0=$SECONDS
CAMPAIGN_NTH_TIMEOUT=300 "$repo/scripts/campaign" --nth get_robust_list -j 1 -o "$out" > "$T/out" 2>&1
rc=$?
tap_diag "scripts/campaign --nth get_robust_list: $((SECONDS - t0)) s"
tap_ok $rc "scripts/campaign --nth get_robust_list: status $rc (0)"

t=$out/nth.tsv
[ "$(head -n 1 "$t" 2>/dev/null)" = "$(printf 'scenario\tcall\tnth\tstatus\tresult')" ] &&
	[ "$(tail -n +2 "$t" | cut -f1 | sort -u)" = get_robust_list ]
tap_ok $? "nth.tsv: its header, lines of get_robust_list only ($(($(wc -l < "$t" 2>/dev/null || echo 1) - 1)) lines)"
grep -qx 'nth: get_robust_list: 16 calls' "$out/runs/nth/stdout.txt" 2>/dev/null
tap_ok $? "the scenario's thread made 16 futex calls"
# every call: N = 1 and 2 injected (EFAULT), N = 3 not reached, in that order
awk -F '\t' 'NR > 1 {
		w = "?"
		if ($5 ~ /: injected, returned -1 EFAULT$/)
			w = "i"
		else if ($5 ~ /: not reached, returned 0$/)
			w = "n"
		r[$2] = r[$2] $3 ":" w " "
		if ($4 != 0)
			bad++
	}
	END {
		for (k = 1; k <= 16; k++)
			if (r[k] != "1:i 2:i 3:n ") {
				print "call " k ": " r[k]
				exit 1
			}
		exit bad > 0
	}' "$t" > "$T/why" 2>&1
tap_ok $? "each of the 16 calls: N = 1, 2 injected EFAULT, N = 3 not reached, the scenario ran through $(cat "$T/why")"
jq -e '.policy.probability == 0 and .policy.times == -1 and .status == "ok"
	and (.sites_enabled | length) > 50' "$out/runs/nth/run.json" > /dev/null 2>&1
tap_ok $? "the run nth: every site on, probability 0, times -1: $(jq -c '{ policy, n: (.sites_enabled | length) }' \
	"$out/runs/nth/run.json" 2>/dev/null)"

r=$out/report/report.json
jq -e '[.sites[] | select(.fired > 0) | .name] | sort == ["get_robust_list_head", "get_robust_list_len"]' \
	"$r" > /dev/null 2>&1
tap_ok $? "its report: the two sites fired, no other: $(jq -c '[.sites[] | select(.fired > 0) | { name, fired }]' \
	"$r" 2>/dev/null)"
jq -e '([.sites[].fired] | add) == 32 and .outcomes.error == 32' "$r" > /dev/null 2>&1
tap_ok $? "32 faults, each returned as an error: $(jq -c .outcomes "$r" 2>/dev/null)"
grep -q '^campaign: nth: 1 scenarios, 16 calls, 48 (call, N) runs: 32 injected (32 returned an error, 0 succeeded), 0 with' "$T/out"
tap_ok $? "the summary: $(grep '^campaign: nth: ' "$T/out" | cut -c1-160)"

for bad in "wake_op,nosuch|no futex_drive scenario 'nosuch'" "Wake|expected futex_drive scenarios"; do
	"$repo/scripts/campaign" --nth "${bad%%|*}" -o "$T/no" > "$T/out" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q "${bad#*|}" "$T/out" && [ ! -e "$T/no" ]
	tap_ok $? "--nth ${bad%%|*}: status $rc (1), '${bad#*|}', nothing written"
done
"$repo/scripts/campaign" --nth wake_op --anchor 10 -o "$T/no" > "$T/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "one or the other" "$T/out"
tap_ok $? "--nth with --anchor: status $rc (1), refused"
tap_done "nth"
