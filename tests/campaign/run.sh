#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A reduced campaign end to end: the baseline, the workload map and three
# sites whose outcomes differ, then the report.  Asserts that each site fired,
# that its recovery lines are in report.json, and that the outcomes are the
# expected ones:
#   get_robust_list_len  the error reaches user space (EFAULT)
#   wake_op_atomic     a retry site: the call recovers
#   robust_fetch_next  raised while the task exits (robust list walk)
# About 3 min under TCG.

set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${FF_WORK:-$repo/build}
out=$work/campaign-test
rm -rf "$out"

"$repo/scripts/campaign" -o "$out/results" --report-dir "$out/report" \
	-s get_robust_list_len,wake_op_atomic,robust_fetch_next

python3 - "$out/report/report.json" <<'PY'
import json, sys

r = json.load(open(sys.argv[1]))
sites = {s["name"]: s for s in r["sites"]}
n = 0
fail = 0

def check(cond, what):
    global n, fail
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    if not cond:
        fail += 1

expect = {"get_robust_list_len": "error", "wake_op_atomic": "recovered",
          "robust_fetch_next": "exit"}
check(r["sites_total"] >= 57, "sites_total %d >= 57" % r["sites_total"])
check(r["sites_fired"] == 3, "sites_fired %d == 3" % r["sites_fired"])
for name, outcome in expect.items():
    s = sites[name]
    o = s["outcomes"]
    check(s["fired"] > 0, "%s fired %d times" % (name, s["fired"]))
    check(s["fired"] == s["table_injected"],
          "%s: %d events = the kernel's injected count %d" % (name, s["fired"], s["table_injected"]))
    check(s["run_status"] == "ok", "%s: run status %s" % (name, s["run_status"]))
    check(o[outcome] > 0 and o[outcome] >= s["fired"] // 2,
          "%s: mostly %s (%s)" % (name, outcome, o))
    check(s["recovery"]["lines_total"] > 0 and len(s["recovery"]["lines"]) > 0,
          "%s: %d recovery lines in report.json" % (name, s["recovery"]["lines_total"]))
check(sites["get_robust_list_len"]["errors_returned"].get("EFAULT", 0) > 0,
      "get_robust_list_len: EFAULT returned to user space")
check(r["error_paths"]["lines_covered"] > r["error_paths"]["lines_baseline"],
      "error-path lines: campaign %d > baseline %d" % (r["error_paths"]["lines_covered"],
                                                      r["error_paths"]["lines_baseline"]))
print("1..%d" % n)
print("campaign: %d passed, %d failed" % (n - fail, fail))
sys.exit(1 if fail else 0)
PY
