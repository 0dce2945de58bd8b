#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A reduced campaign run as two shards, one after the other as two machines
# would run them (scripts/campaign --shard 1/2 and 2/2, the same -s), then
# reported as one (futex-fault-report -o OUT SHARD1 SHARD2).  Checks that
# each shard ran its own baseline and map and the runs of its sites only
# (the 1st and 3rd sites asked for, the 2nd and 4th), made no report, and
# recorded which shard it is; that the merged report has every site's run
# in the order asked for, shard 1's baseline; and that it is the report of
# the same runs as one results directory (shard 1's baseline and every
# shard's site runs, as a campaign run whole leaves them): report.json the
# same after jq -S, but "results" and the paths under the results directory.
# About 3 min a shard under TCG.

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
. "$repo/tests/tap.sh"
out=$FF_WORK/campaign-shard-test
ffr=$repo/tools/futex-fault-report/futex-fault-report
sites=get_robust_list_len,wake_op_atomic,robust_fetch_next,wait_get_value
rm -rf "$out"
mkdir -p "$out"
export TAP_DIAG_FILE=$out/diag

tap_start

make -s -C "$repo/tools/futex-fault-report" futex-fault-report >"$out/diag" 2>&1
tap_ok $? "futex-fault-report built" || { tap_done "campaign shards"; exit 1; }

for i in 1 2; do
	t0=$SECONDS
	"$repo/scripts/campaign" --shard $i/2 -o "$out/s$i" -s $sites 2>&1 | tee "$out/s$i.log"
	tap_ok "${PIPESTATUS[0]}" "shard $i/2: campaign finished in $((SECONDS - t0)) s"
done

# shard I: the I-th site asked for and every 2nd after it
mine=([1]=get_robust_list_len,robust_fetch_next [2]=wake_op_atomic,wait_get_value)
for i in 1 2; do
	s=$out/s$i
	jq -e --argjson i $i --arg sites $sites --arg mine "${mine[$i]}" '
		.shard == { index: $i, count: 2, sites: ($sites | split(",")) }
		and .runs == [ "baseline" ] + ($mine | split(","))
		and (.kernel.build_id | type) == "string"' "$s/campaign.json" >/dev/null 2>"$out/diag"
	tap_ok $? "shard $i/2: campaign.json says the shard, the sites split, its runs ${mine[$i]} and the build ID"
	[ "$(ls "$s/runs")" = "$(printf '%s\n' baseline ${mine[$i]//,/ } | sort)" ] && [ ! -e "$s/report" ] &&
		[ "$(ls "$s/campaign/map" | wc -l)" -gt 0 ]
	tap_ok $? "shard $i/2: its baseline, map and runs ($(ls "$s/runs" | paste -sd' ')), no report"
	grep -q "campaign: shard $i/2 done; once all 2 are, their report: futex-fault-report -o DIR" "$s.log"
	tap_ok $? "shard $i/2: says how to make the report"
done

t0=$SECONDS
"$ffr" -o "$out/merged" "$out/s2" "$out/s1" > "$out/merged.log" 2>"$out/diag"
tap_ok $? "the merged report, in $((SECONDS - t0)) s"
jq -e --arg s1 "$out/s1" --arg s2 "$out/s2" --arg sites $sites '
	.results == "\($s1), \($s2)" and .runs[0].name == "baseline"
	and [ .runs[1:][].name ] == ($sites | split(","))
	and .sites_fired == 4 and ([ .sites[] | select(.run != null) ] | length) == 4' \
	"$out/merged/report.json" >/dev/null 2>"$out/diag"
tap_ok $? "merged: the shards named, the baseline then the 4 runs in the order asked for, every site fired: $(jq -c '[.sites_fired, [.runs[].name]]' "$out/merged/report.json")"

# the same runs as one results directory: shard 1's, with shard 2's runs
w=$out/whole
mkdir -p "$w/runs"
cp -r "$out/s1/gcno" "$out/s1/src" "$w/"
cp -r "$out/s1/runs/baseline" "$w/runs/"
for r in ${sites//,/ }; do
	for i in 1 2; do
		[ ! -d "$out/s$i/runs/$r" ] || cp -r "$out/s$i/runs/$r" "$w/runs/"
	done
done
jq --arg sites $sites 'del(.shard) | .runs = [ "baseline" ] + ($sites | split(","))' \
	"$out/s1/campaign.json" > "$w/campaign.json"
"$ffr" -q -o "$out/whole-report" "$w" 2>"$out/diag"
tap_ok $? "report of the runs as one results directory"
# "results" and the paths under the results directory name where they are
norm()
{
	jq -S --arg dir "$2" '
		def under: if startswith($dir + "/") then "RESULTS" + ltrimstr($dir) else . end;
		.results = "RESULTS" | .kernel.srctree |= under | .kernel.gcno_dir |= under
		| .kernel.gcno_dirs |= map(under)' "$1"
}
norm "$out/whole-report/report.json" "$w" > "$out/whole.json"
norm "$out/merged/report.json" "$out/s1" > "$out/merged.json"
diff -u "$out/whole.json" "$out/merged.json" > "$out/diag"
tap_ok $? "merged report.json = that one's (jq -S, but results and the paths under it)"

tap_done "campaign shards"
