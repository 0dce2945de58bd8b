#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The default campaign on a debug kernel: lockdep (PROVE_LOCKING),
# DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, DEBUG_LIST, SLUB_DEBUG_ON, kmemleak, hung-task
# and soft-lockup detectors (scripts/ff's debug fragment, FF_DEBUG=1), built
# in $FF_WORK/obj-debug beside the normal kernel; with --kasan, on a KASAN
# kernel instead (generic KASAN over SLUB, FF_KASAN=1, in $FF_WORK/obj-kasan).
# Every site runs with its workloads; a splat in a run (a KASAN report among
# them) is a finding, reported in the HTML with its site, its stack, and
# whether the baseline (the same workloads, nothing injected) was clean.
#
#   tests/robust/debug-campaign.sh [--kasan] [-r]     -r: resume the last one
#
# Exits 0 when every run finished and no run has a splat; otherwise lists
# them and exits 1.  Takes about an hour under TCG (lockdep and slab debugging make
# the guest several times slower; KASAN about twice as slow).

set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
work=$(realpath -m "$FF_WORK")
kind=debug
if [ "${1:-}" = --kasan ]; then
	kind=kasan
	shift
fi
case $kind in
debug) export FF_DEBUG=1; marker=CONFIG_PROVE_LOCKING ;;
kasan) export FF_KASAN=1; marker=CONFIG_KASAN ;;
esac
export FF_OBJ=$work/obj-$kind
# a debug guest is several times slower: give a run more time
export CAMPAIGN_RUN_TIMEOUT=${CAMPAIGN_RUN_TIMEOUT:-600}
out=$work/$kind-campaign
rep=$work/$kind-report

if [ "${1:-}" != -r ] || [ ! -f "$out/campaign.json" ]; then
	# configure once (a new .config would rebuild everything: 13-20 min)
	grep -q "^$marker=y" "$FF_OBJ/.config" 2>/dev/null ||
		"$repo/scripts/ff" config || exit 1
	"$repo/scripts/ff" build || exit 1
	rm -rf "$out" "$rep"
	"$repo/scripts/campaign" -o "$out" --report-dir "$rep"
	rc=$?
else
	"$repo/scripts/campaign" -r "$out" --report-dir "$rep"
	rc=$?
fi
[ -f "$rep/report.json" ] || { echo "$kind campaign: no report (campaign exit $rc)"; exit 1; }

python3 - "$kind" "$out" "$rep/report.json" <<'PY'
import json, os, sys

kind, out, rep = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
runs = sorted(d for d in os.listdir(os.path.join(out, "runs")) if not d.endswith(".tmp"))
pairs = 0
bad = []
for r in runs:
    j = json.load(open(os.path.join(out, "runs", r, "run.json")))
    pairs += len(j.get("workloads", []))
    if j["status"] != "ok" or j.get("health"):
        bad.append((r, j["status"], j.get("health", "")))
sites = len([r for r in runs if r != "baseline"])
print(kind + " campaign: %d site runs, %d site x workload pairs, sites fired %d/%d"
      % (sites, pairs, rep["sites_fired"], rep["sites_total"]))
for r, st, h in bad:
    print(kind + " campaign: finding: %s: %s: %s" % (r, st, h))
print(kind + " campaign: %d runs with a splat, crash or hang" % len(bad))
sys.exit(1 if bad else 0)
PY
