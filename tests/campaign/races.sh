#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/campaign --races-only end to end: the baseline, then the run
# "races" in a guest with two vCPUs (futex_drive race_unlock, race_waitv,
# race_requeue), and its report.  The run must have had its two CPUs and
# must reach the retry of futex_unlock_pi() that only a waiter on the other
# CPU opens ("goto pi_retry;", docs/error-paths.md "Races"); the report
# names the error-path lines the run ran beyond the baseline, in report.json
# and on the pages.  Then what --races refuses.  About 3 min under TCG.

set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
. "$repo/tests/tap.sh"
out=$FF_WORK/races-test
T=$(mktemp -d)
TAP_DIAG_FILE=$T/out
trap 'rm -rf "$T"' EXIT

tap_start
rm -rf "$out"
t0=$SECONDS
"$repo/scripts/campaign" --races-only -j 1 -o "$out" > "$T/out" 2>&1
rc=$?
tap_diag "scripts/campaign --races-only: $((SECONDS - t0)) s"
tap_ok $rc "scripts/campaign --races-only: status $rc (0)"

j=$out/runs/races/run.json
jq -e '.status == "ok" and .sites_enabled == [] and (.workloads | length) == 1
	and .workloads[0].name == "races" and .workloads[0].exit_status == 0' "$j" > /dev/null 2>&1
tap_ok $? "the run races: ok, no site on, its one workload exited 0: $(jq -c '{ status, w: .workloads }' "$j" 2>/dev/null | cut -c1-200)"
c=$out/campaign/guests/races/console.log
grep -q 'campaign: run races: sites' "$c" 2>/dev/null && ! grep -q 'planned for 2 CPUs' "$c"
tap_ok $? "its guest had the two CPUs it was planned for"
[ "$(jq -r '.runs | join(" ")' "$out/campaign.json" 2>/dev/null)" = "baseline races" ]
tap_ok $? "campaign.json: the runs baseline and races"

r=$out/report/report.json
jq -e '.runs[] | select(.name == "races") | .beyond_baseline.error_lines >= 1' "$r" > /dev/null 2>&1
tap_ok $? "report.json: the races ran error-path lines the baseline did not: $(jq -c '.runs[] | select(.name == "races") | .beyond_baseline | { lines_total, error_lines }' "$r" 2>/dev/null)"
# each error-path line beyond the baseline, as "file:line: its text"
jq -r '.runs[] | select(.name == "races") | .beyond_baseline.lines[] | select(.error_path)
	| "\(.file) \(.line)"' "$r" 2>/dev/null |
	while read -r f l; do
		printf '%s:%s: %s\n' "$f" "$l" "$(sed -n "${l}p" "$out/src/$f" | sed 's/^[[:space:]]*//')"
	done > "$T/lines"
while read -r line; do tap_diag "  $line"; done < "$T/lines"
grep -q '^kernel/futex/pi\.c:[0-9]*: goto pi_retry;$' "$T/lines"
tap_ok $? "among them futex_unlock_pi()'s 'goto pi_retry;' (race_unlock)"
grep -q 'id="run-races"' "$out/report/index.html" 2>/dev/null &&
	grep -q 'none; beyond the baseline it ran [0-9]* lines, [1-9][0-9]* on error paths: <a href="files/' \
		"$out/report/index.html"
tap_ok $? "index.html: the run's row lists its error-path lines, each a link"
grep -q 'class="run" href="../index.html#run-races"' "$out"/report/files/pi.c.html 2>/dev/null
tap_ok $? "files/pi.c.html: the lines the races reached name the run"

for bad in "--races --nth wake_op|not with --anchor or --nth" "--races-only -s wake_op_atomic|runs no site: no -s" \
	   "--races --shard 1/2|run the races in a campaign of their own"; do
	# shellcheck disable=SC2086 # the arguments are words
	"$repo/scripts/campaign" ${bad%%|*} -o "$T/no" > "$T/out" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q "${bad#*|}" "$T/out" && [ ! -e "$T/no" ]
	tap_ok $? "${bad%%|*}: status $rc (1), '${bad#*|}', nothing written"
done
tap_done "races"
