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
# And that the results follow docs/results-layout.md: the campaign's own files
# in campaign/ (settings.json the guest's input), the sources in src/, the
# report in its default place, the command line recorded.  About 3 min under
# TCG.

set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
work=$FF_WORK
out=$work/campaign-test
rm -rf "$out"

"$repo/scripts/campaign" -o "$out/results" -s get_robust_list_len,wake_op_atomic,robust_fetch_next \
	2>&1 | tee "$out.log"
[ "${PIPESTATUS[0]}" = 0 ]

python3 - "$out/results" "$repo" "$out.log" <<'PY'
import filecmp, json, os, re, sys

res, repo, log = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
r = json.load(open(os.path.join(res, "report", "report.json")))
sites = {s["name"]: s for s in r["sites"]}
n = 0
fail = 0

def check(cond, what):
    global n, fail
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    if not cond:
        fail += 1

top = sorted(os.listdir(res))
check(top == ["campaign", "campaign.json", "gcno", "report", "runs", "src"],
      "results top level: %s" % top)
st = json.load(open(os.path.join(res, "campaign", "settings.json")))
runs = {x["run"]: x for x in st["runs"]}
check(st["times"] == 100 and sorted(runs) == ["baseline", "get_robust_list_len",
                                              "robust_fetch_next", "wake_op_atomic"],
      "settings.json: times 100, the baseline and the three runs planned")
check(all("interval" in w and w["timeout"] >= 10 and w["baseline_seconds"] > 0
          for x in st["runs"] if x["run"] != "baseline" for w in x["workloads"]),
      "settings.json: every site-run workload has its interval, timeout and baseline seconds")
check(st["selected"] == ["get_robust_list_len", "wake_op_atomic", "robust_fetch_next"],
      "settings.json: the sites asked for, for a resume")
src = os.path.join(res, "src", "kernel", "futex")
tree = os.path.join(json.load(open(os.path.join(res, "campaign.json")))["kernel"]["srctree"],
                    "kernel", "futex")
names = sorted(f for f in os.listdir(tree) if f.endswith((".c", ".h")))
check(names and sorted(os.listdir(src)) == names and
      filecmp.cmpfiles(src, tree, names, shallow=False)[0] == names,
      "src/kernel/futex: the %d sources of the work tree" % len(names))
# io_uring/futex.c beside kernel/futex where the kernel profiles it (6.12)
camp = json.load(open(os.path.join(res, "campaign.json")))
objtree = camp["kernel"]["objtree"]
uring = os.path.isfile(os.path.join(objtree, "io_uring", "futex.gcno"))
dirs = ["kernel/futex"] + (["io_uring"] if uring else [])
check(camp["kernel"]["gcov_dirs"] == dirs and st["gcov_dirs"] == dirs,
      "campaign.json and settings.json: gcov_dirs %s" % camp["kernel"]["gcov_dirs"])
files = {f["file"]: f for f in r["files"]}
if uring:
    utree = os.path.join(camp["kernel"]["srctree"], "io_uring", "futex.c")
    check(filecmp.cmp(os.path.join(res, "src", "io_uring", "futex.c"), utree, shallow=False) and
          sorted(os.listdir(os.path.join(res, "src", "io_uring"))) == ["futex.c"] and
          sorted(os.listdir(os.path.join(res, "gcno", "io_uring"))) == ["futex.gcno"],
          "src/io_uring/futex.c and gcno/io_uring/futex.gcno copied, nothing else of io_uring")
    check(all(os.path.isfile(os.path.join(res, "runs", x, "gcov", "io_uring", "futex.gcda"))
              for x in runs),
          "every run has gcov/io_uring/futex.gcda")
    u = files.get("io_uring/futex.c")
    check(u is not None and u["lines"]["total"] > 100 and
          not any(f.startswith("io_uring/") and f != "io_uring/futex.c" for f in files),
          "report.json: io_uring/futex.c in the coverage (%s lines), no io_uring header"
          % (u["lines"]["total"] if u else "no"))
    check(all(sites[n]["file"] == "io_uring/futex.c" and sites[n]["function"] not in ("?", None)
              for n in ("io_uring_futex_alloc", "io_uring_futexv_alloc")),
          "the io_uring sites are located in io_uring/futex.c: %s" %
          [(sites[n]["file"], sites[n]["line"], sites[n]["function"])
           for n in ("io_uring_futex_alloc", "io_uring_futexv_alloc") if n in sites])
else:
    check("io_uring/futex.c" not in files and
          not os.path.exists(os.path.join(res, "gcno", "io_uring")),
          "no io_uring coverage on a kernel that does not profile it")
cmd = open(os.path.join(res, "campaign", "command")).read()
check("-s get_robust_list_len,wake_op_atomic,robust_fetch_next" in cmd, "campaign/command: %s" % cmd.strip())
eta = re.findall(r"progress: (\d+)/3 runs, .* about (\d+) min (\d+) s left", log)
check(len(eta) >= 1 and eta[-1][0] == "3" and eta[-1][1:] == ("0", "0"),
      "progress lines with an ETA, 0 left at the end: %s" % eta)

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
