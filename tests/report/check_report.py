#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of a futex-fault-report output against its inputs.

usage: check_report.py json REPORT_DIR RESULTS_DIR GCNO_DIR SRCTREE
         report.json against the kernel's own site tables and an
         independent gcov run; campaign.info against report.json
       check_report.py html REPORT_DIR INDEX_DOM FILE_DOM
         numbers shown in the pages (Chromium's --dump-dom) against report.json
Prints TAP lines; exit status 1 on any failure.
"""

import json
import os
import re
import shutil
import subprocess
import sys

from ffcheck import Numbers, check, gcov_files, main, table


def gcov_lines(gcno_dir, gcda_dir, exclude=("fault.c",)):
    """(lines with a record, lines executed) over kernel/futex/*, by gcov -j."""
    lines = {}
    for f in gcov_files(gcno_dir, gcda_dir, ["-b"]):
        # gcov resolves "kernel/futex/../locking/x.h" only where that
        # path exists: normalise it here, so that the result does not
        # depend on the machine, and count the files directly in
        # kernel/futex/ as the reporter does
        name = os.path.normpath(f["file"])
        if not re.search(r"(^|/)kernel/futex/[^/]+$", name) or \
           os.path.basename(name) in exclude:
            continue
        for ln in f["lines"]:
            key = (os.path.basename(name), ln["line_number"])
            lines[key] = lines.get(key, 0) + ln["count"]
    return len(lines), sum(1 for v in lines.values() if v > 0)


def check_json(report_dir, results, gcno_dir, srctree):
    rep = json.load(open(os.path.join(report_dir, "report.json")))
    base = table(os.path.join(results, "runs/baseline/sites.txt"))
    check(rep["schema"] == "futex-fault-report/1", "schema futex-fault-report/1")
    check(rep["sites_total"] == len(base),
          "sites_total %d = sites in the baseline table %d" % (rep["sites_total"], len(base)))
    for key in ("error_paths", "coverage", "outcomes", "sites", "files", "runs"):
        check(key in rep, "report.json has %s" % key)
    ep = rep["error_paths"]
    check(0 < ep["lines_covered"] <= ep["lines_total"], "error_paths.lines_covered %d <= lines_total %d"
          % (ep["lines_covered"], ep["lines_total"]))
    check(ep["lines_baseline"] + ep["lines_injection_only"] == ep["lines_covered"],
          "error-path lines: baseline + injection only = covered")
    fired = 0
    for s in rep["sites"]:
        for key in ("name", "file", "line", "function", "errno", "fired", "outcomes", "recovery"):
            if key not in s:
                check(False, "site %s has %s" % (s.get("name"), key))
        if not s["run"]:
            continue
        t = table(os.path.join(results, "runs", s["run"], "sites.txt"))[s["name"]]
        check(s["fired"] == int(t["injected"]),
              "%s: fired %d = the kernel's injected count %s" % (s["name"], s["fired"], t["injected"]))
        check(sum(s["outcomes"].values()) == s["fired"], "%s: outcomes add up to fired" % s["name"])
        check(s["recovery"]["lines_total"] == len(s["recovery"]["lines"]),
              "%s: recovery lines listed" % s["name"])
        src = os.path.join(srctree, s["file"])
        if s["line"] > 0 and os.path.exists(src):
            text = open(src).read().splitlines()[s["line"] - 1]
            check(s["name"] in text or s["name"].upper() in text,
                  "%s: line %d is the site's marker" % (s["name"], s["line"]))
        fired += s["fired"] > 0
    check(fired == rep["sites_fired"], "sites_fired %d = sites with fired > 0" % fired)
    by = {s["name"]: s for s in rep["sites"]}
    want = {"wait_get_key": "error", "wake_op_atomic": "recovered", "robust_fetch_next": "exit"}
    for name, oc in want.items():
        if name in by and by[name]["fired"]:
            check(by[name]["outcomes"][oc] == by[name]["fired"],
                  "%s: every fault's outcome is %s" % (name, oc))

    # coverage against an independent gcov run
    total, hit = gcov_lines(gcno_dir, os.path.join(results, "runs/baseline/gcov"))
    cov = rep["coverage"]["lines"]
    check(cov["total"] == total and cov["baseline"] == hit,
          "baseline lines %d/%d = gcov's %d/%d" % (cov["baseline"], cov["total"], hit, total))

    # the lcov tracefile says the same as report.json
    lh = lf = 0
    for line in open(os.path.join(report_dir, "campaign.info")):
        if line.startswith("LH:"):
            lh += int(line[3:])
        elif line.startswith("LF:"):
            lf += int(line[3:])
    check(lf == cov["total"] and lh == cov["campaign"],
          "campaign.info LH/LF %d/%d = report.json %d/%d" % (lh, lf, cov["campaign"], cov["total"]))
    if shutil.which("lcov"):
        out = subprocess.run(["lcov", "--summary", os.path.join(report_dir, "campaign.info")],
                             capture_output=True, text=True)
        check(out.returncode == 0 and ("(%d of %d lines)" % (lh, lf)) in out.stdout + out.stderr,
              "lcov --summary reads campaign.info")


def check_html(report_dir, index_dom, file_dom):
    rep = json.load(open(os.path.join(report_dir, "report.json")))
    p = Numbers()
    p.feed(open(index_dom).read())
    v = p.values
    check(len(v) > 10, "index.html (as Chromium rendered it) shows %d numbers" % len(v))
    ep = rep["error_paths"]
    expect = {
        "sites_total": rep["sites_total"],
        "sites_fired": rep["sites_fired"],
        "error_paths.lines.total": ep["lines_total"],
        "error_paths.lines.campaign": ep["lines_covered"],
        "error_paths.lines.baseline": ep["lines_baseline"],
        "error_paths.lines_never": ep["lines_never"],
        "error_paths.branches.total": ep["branches_total"],
        "error_paths.branches.campaign": ep["branches_covered"],
        "coverage.lines.total": rep["coverage"]["lines"]["total"],
        "coverage.lines.baseline": rep["coverage"]["lines"]["baseline"],
        "coverage.lines.campaign": rep["coverage"]["lines"]["campaign"],
        "coverage.branches.campaign": rep["coverage"]["branches"]["campaign"],
    }
    for k, o in rep["outcomes"].items():
        expect["outcomes." + k] = o
    for k, want in expect.items():
        check(v.get(k) == want, "index.html %s = %s (report.json %s)" % (k, v.get(k), want))
    check(len(p.sites) == len(rep["sites"]), "index.html lists %d sites" % len(p.sites))
    for s in rep["sites"]:
        row = p.sites.get(s["name"], {})
        shown = (row.get("fired"), row.get("outcomes.recovered"), row.get("outcomes.error"),
                 row.get("outcomes.exit"), row.get("recovery.lines_total"))
        want = (s["fired"], s["outcomes"]["recovered"], s["outcomes"]["error"],
                s["outcomes"]["exit"], s["recovery"]["lines_total"])
        if s["fired"] or shown != want:
            check(shown == want, "index.html row %s %s = report.json %s" % (s["name"], shown, want))

    f = Numbers()
    f.feed(open(file_dom).read())
    name = os.path.basename(file_dom)
    entry = [x for x in rep["files"] if os.path.basename(x["page"]) + ".dom" == name]
    check(len(entry) == 1, "%s is a page of report.json" % name)
    if entry:
        e = entry[0]
        for k1, k2 in (("lines", "lines"), ("error_lines", "error_lines"), ("branches", "branches")):
            for sub in ("total", "baseline", "campaign"):
                got = f.values.get("%s.%s" % (k1, sub))
                check(got == e[k2][sub], "%s %s.%s = %s (report.json %s)"
                      % (name, k1, sub, got, e[k2][sub]))
        row = p.files.get(e["file"], {})
        check(row.get("lines.campaign") == e["lines"]["campaign"],
              "index.html file row %s lines.campaign = %s" % (e["file"], row.get("lines.campaign")))


if __name__ == "__main__":
    sys.exit(main(__doc__, {"json": check_json, "html": check_html}))
