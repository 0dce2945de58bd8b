#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The campaign's ETA (scripts/campaign-eta.jq) against campaigns recorded by
# scripts/campaign: eta-*/ hold their campaign/settings.json, their runs'
# run.json (the fields the ETA reads) and guests.txt (each guest's seconds
# and the runs it did; wK-N is worker K's Nth guest).  Checks that the ETA made before any site run is
# within 25 % of the time the site runs really took, that it follows -j and
# the batch size, that finished runs which took longer than planned make the
# rest longer, and that it ends at 0.  Host only, a second.

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
eta_jq=$repo/scripts/campaign-eta.jq
. "$repo/tests/tap.sh"

ok()
{
	tap_ok "$@"
}

# eta DIR JOBS BATCH DONE [SLOWDOWN]: the ETA for DIR's site runs when the
# first DONE of them are finished, run.json seconds of those times SLOWDOWN
eta()
{
	local d=$1 jobs=$2 batch=$3 done=$4 slow=${5:-1} i=0 r ov boot

	ov=$(jq '[ .seconds - ([ .workloads[].seconds ] | add), 0 ] | max' "$d/runs/baseline.json")
	boot=$(awk '$1 == "base" { print $2 }' "$d/guests.txt")
	boot=$(jq -n --argjson g "$boot" --argjson r "$(jq .seconds "$d/runs/baseline.json")" '$g - $r')
	for r in $(jq -r '.runs[].run | select(. != "baseline")' "$d/settings.json"); do
		echo "$r $((i % jobs)) $([ $i -lt "$done" ] && echo 1 || echo 0)"
		i=$((i + 1))
	done | jq -R -n -f "$eta_jq" --slurpfile s "$d/settings.json" \
		--slurpfile act <(jq --argjson k "$slow" '.seconds *= $k' "$d"/runs/*.json) \
		--argjson overhead "$ov" --argjson boot "$boot" --argjson batch "$batch"
}

tap_start

for d in "$repo"/tests/campaign/eta-*/; do
	name=$(basename "$d")
	runs=$(jq '[ .runs[] | select(.run != "baseline") ] | length' "$d/settings.json")
	# the recorded site phase: guest wK-N was worker K's Nth; the workers ran
	# side by side (-j = their number), each its guests one after the other
	guests=$(awk '$1 ~ /^w[0-9]+-/ { sub(/-.*/, "", $1); print $1 }' "$d/guests.txt" | sort -u | wc -l)
	real=$(awk '$1 ~ /^w[0-9]+-/ { w = $1; sub(/-.*/, "", w); t[w] += $2 }
		    END { for (w in t) if (t[w] > m) m = t[w]; print m }' "$d/guests.txt")
	first=$(eta "$d" "$guests" 8 0)
	awk -v e="$first" -v r="$real" 'BEGIN { exit !(e >= 0.75 * r && e <= 1.25 * r) }'
	ok $? "$name: the first ETA, $first s, is within 25 % of the $real s the $runs site runs took with -j $guests"
	one=$(eta "$d" 1 8 0)
	[ "$one" -gt "$first" ]
	ok $? "$name: with -j 1 the ETA is longer ($one s > $first s)"
	b1=$(eta "$d" "$guests" 1 0)
	[ "$b1" -gt "$first" ]
	ok $? "$name: with a boot per run (batch 1) it is longer ($b1 s > $first s)"
	half=$((runs / 2))
	[ "$half" -ge 1 ] || half=1
	as_planned=$(eta "$d" "$guests" 8 "$half")
	slow=$(eta "$d" "$guests" 8 "$half" 3)
	[ "$slow" -gt "$as_planned" ] && [ "$as_planned" -lt "$first" ]
	ok $? "$name: after $half runs the ETA shrinks ($as_planned s), more if those took 3 times as long ($slow s)"
	end=$(eta "$d" "$guests" 8 "$runs")
	[ "$end" = 0 ]
	ok $? "$name: with every run finished the ETA is 0 (got $end)"
done

tap_done "eta"
