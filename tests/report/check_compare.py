#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of futex-fault-report --compare's compare.json against its inputs.

usage: check_compare.py categories COMPARE_DIR OLD_RESULTS OLD_REPORT NEW_RESULTS NEW_REPORT
         the category of every error-path line, derived here on its own: the
         sources of both results (src/), gcov's JSON on each side's .gcno and
         every run's .gcda (counts and function ranges), the error-path lines
         as the normal reports' annotated pages mark them (class "ep"), and a
         longest common subsequence of each file's lines keyed on function
         and whitespace-collapsed text
       check_compare.py sites COMPARE_DIR OLD_RESULTS NEW_RESULTS
         the sites matched by name, against the baselines' site tables
       check_compare.py dom COMPARE_DIR INDEX_DOM
         the numbers index.html shows (Chromium's --dump-dom) against compare.json
Prints TAP lines (without a plan); exit status 1 on any failure.
"""

import glob
import json
import os
import re
import sys

from ffcheck import Numbers, check, gcov_files, main, table


def gcov_side(results, files):
    """{file: ({line: campaign count}, [(start, end, name)])} for the report's files."""
    runs = sorted(d for d in glob.glob(os.path.join(results, "runs/*")) if os.path.isdir(d))
    counts = {f: {} for f in files}
    funcs = {f: set() for f in files}
    for run in runs:
        gcda = os.path.join(run, "gcov")
        if not os.path.isdir(gcda):
            continue
        for f in gcov_files(os.path.join(results, "gcno"), gcda):
            m = re.search(r"(kernel/futex/[^/]+)$", os.path.normpath(f["file"]))
            if not m or m.group(1) not in counts:
                continue
            rel = m.group(1)
            for ln in f["lines"]:
                c = counts[rel]
                c[ln["line_number"]] = c.get(ln["line_number"], 0) + ln["count"]
            for fn in f["functions"]:
                funcs[rel].add((fn["start_line"], fn["end_line"], fn["name"]))
    return {f: (counts[f], sorted(funcs[f])) for f in files}


def ep_lines(report, page):
    """error-path code lines, as the annotated page marks them"""
    text = open(os.path.join(report, page)).read()
    return {int(m.group(1)) for m in re.finditer(r'<tr id="L(\d+)" class="\w+ ep"', text)}


def function_of(funcs, line):
    best = None
    for start, end, name in funcs:
        if start <= line <= end and (best is None or end - start < best[1] - best[0]):
            best = (start, end, name)
    if not best:
        return ""
    name = best[2]
    if name.startswith("__do_sys_"):
        return name[9:]
    if name.startswith("__do_compat_sys_"):
        return "compat_" + name[16:]
    return name


def keys(lines, funcs):
    return [function_of(funcs, i + 1) + "\n" + " ".join(t.split()) for i, t in enumerate(lines)]


def lcs_pairs(a, b):
    """(i, j) 1-based pairs, or (i, 0) deleted, (0, j) new, in order"""
    n, m = len(a), len(b)
    pre = 0
    while pre < n and pre < m and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < n - pre and suf < m - pre and a[n - 1 - suf] == b[m - 1 - suf]:
        suf += 1
    A, B = a[pre:n - suf], b[pre:m - suf]
    rn, rm = len(A), len(B)
    t = [[0] * (rm + 1) for _ in range(rn + 1)]
    for i in range(rn - 1, -1, -1):
        row, nxt, ai = t[i], t[i + 1], A[i]
        for j in range(rm - 1, -1, -1):
            if ai == B[j]:
                row[j] = nxt[j + 1] + 1
            else:
                row[j] = nxt[j] if nxt[j] > row[j + 1] else row[j + 1]
    out = [(i + 1, i + 1) for i in range(pre)]
    i = j = 0
    while i < rn or j < rm:
        if i < rn and j < rm and A[i] == B[j]:
            out.append((pre + i + 1, pre + j + 1))
            i += 1
            j += 1
        elif i < rn and (j == rm or t[i + 1][j] >= t[i][j + 1]):
            out.append((pre + i + 1, 0))
            i += 1
        else:
            out.append((0, pre + j + 1))
            j += 1
    out += [(n - suf + k + 1, m - suf + k + 1) for k in range(suf)]
    return out


def category(o, n, oc, nc, oep, nep):
    """o, n: line numbers (0: absent); oc, nc: {line: count}; oep, nep: error-path lines"""
    ocode, ncode = bool(o) and o in oc, bool(n) and n in nc
    oe, ne = ocode and o in oep, ncode and n in nep
    if not oe and not ne:
        return None
    ocov, ncov = ocode and oc[o] > 0, ncode and nc[n] > 0
    if o and n:
        if ocode and ncode:
            return {(1, 1): "CBC", (1, 0): "LBC", (0, 1): "GBC", (0, 0): "UBC"}[(ocov, ncov)]
        if ncode:
            return "GIC" if ncov else "UIC"
        return "ECB" if ocov else "EUB"
    if n:
        return "GNC" if ncov else "UNC"
    return "DCB" if ocov else "DUB"


def check_categories(cmp_dir, old_res, old_rep, new_res, new_rep):
    cmp = json.load(open(os.path.join(cmp_dir, "compare.json")))
    sides = []
    for res, rep in ((old_res, old_rep), (new_res, new_rep)):
        r = json.load(open(os.path.join(rep, "report.json")))
        files = {f["file"]: f["page"] for f in r["files"]}
        sides.append((res, rep, files, gcov_side(res, files)))
    names = sorted(set(sides[0][2]) | set(sides[1][2]))
    check(sorted(f["file"] for f in cmp["files"]) == names,
          "compare.json lists the files of both reports (%d)" % len(names))
    totals = {k: 0 for k in cmp["categories"]}
    byfile = {f["file"]: f for f in cmp["files"]}
    for name in names:
        per = []
        for res, rep, files, cov in sides:
            if name in files:
                text = open(os.path.join(res, "src", name)).read().split("\n")
                if text and text[-1] == "":
                    text.pop()
                counts, funcs = cov[name]
                per.append((text, counts, ep_lines(rep, files[name]), funcs))
            else:
                per.append(([], {}, set(), []))
        (ot, oc, oep, of), (nt, nc, nep, nf) = per
        want = {k: 0 for k in totals}
        lines = []
        for o, n in lcs_pairs(keys(ot, of), keys(nt, nf)):
            c = category(o, n, oc, nc, oep, nep)
            if c:
                want[c] += 1
                lines.append((c, o or None, n or None))
        got = byfile.get(name, {}).get("categories")
        check(got == want, "%s: categories %s" % (name, " ".join(
            "%s %d" % (k, v) for k, v in want.items() if v) or "none") +
            ("" if got == want else " (compare.json: %s)" % got))
        got_lines = [(l["category"], l["old_line"], l["new_line"])
                     for l in byfile.get(name, {}).get("lines", [])]
        check(got_lines == lines, "%s: the %d error-path lines, their numbers and categories" %
              (name, len(lines)))
        for k in want:
            totals[k] += want[k]
    check(cmp["categories"] == totals, "totals: %s" % " ".join(
        "%s %d" % (k, v) for k, v in totals.items()))
    lost = sum(1 for r in cmp["regressions"] if r["category"] == "lost-line")
    unc = sum(1 for r in cmp["regressions"] if r["category"] == "uncovered-new")
    check(lost == totals["LBC"] and unc == totals["UNC"],
          "lost-line regressions %d = LBC, uncovered-new %d = UNC" % (lost, unc))


def check_sites(cmp_dir, old_res, new_res):
    cmp = json.load(open(os.path.join(cmp_dir, "compare.json")))
    old, new = (list(table(os.path.join(res, "runs/baseline/sites.txt")))
                for res in (old_res, new_res))
    by = {s["name"]: s for s in cmp["sites"]}
    check(sorted(by) == sorted(set(old) | set(new)),
          "compare.json has the %d sites of both tables" % len(set(old) | set(new)))
    only_new = sorted(set(new) - set(old))
    only_old = sorted(set(old) - set(new))
    got_new = sorted(n for n, s in by.items() if s["present"] == {"old": False, "new": True})
    got_old = sorted(n for n, s in by.items() if s["present"] == {"old": True, "new": False})
    check(got_new == only_new, "new in NEW: %s" % (" ".join(only_new) or "none"))
    check(got_old == only_old, "only in OLD: %s" % (" ".join(only_old) or "none"))
    for side, res in (("old", old_res), ("new", new_res)):
        injected = {}
        for p in glob.glob(os.path.join(res, "runs/*/sites.txt")):
            run = os.path.basename(os.path.dirname(p))
            t = table(p)
            if run in t:
                injected[run] = int(t[run]["injected"])
        bad = [n for n, v in injected.items() if by[n]["fired"][side] != v]
        check(not bad, "%s: fired = the kernel's injected count of each site's run (%d sites)%s" %
              (side, len(injected), (": differ " + " ".join(bad)) if bad else ""))
        bad = [n for n, s in by.items() if s["present"][side] and
               sum(v[side] for v in s["outcomes"].values()) != s["fired"][side]]
        check(not bad, "%s: outcomes add up to fired" % side)


def check_dom(cmp_dir, dom):
    cmp = json.load(open(os.path.join(cmp_dir, "compare.json")))
    p = Numbers()
    text = open(dom).read()
    p.feed(text)
    check(p.svgs >= 2, "index.html has %d inline SVG charts" % p.svgs)
    check(p.titles > 2 * p.svgs, "the charts have a <title> per bar segment (%d titles)" % p.titles)
    want = {"regressions_failing": cmp["regressions_failing"],
            "old.sites_fired": cmp["old"]["sites_fired"], "new.sites_total": cmp["new"]["sites_total"],
            "new.error_lines_covered": cmp["new"]["error_lines_covered"]}
    for k, v in cmp["categories"].items():
        want["categories." + k] = v
    for k, v in cmp["regression_counts"].items():
        want["regression_counts." + k] = v
    bad = {k: (p.values.get(k), v) for k, v in want.items() if p.values.get(k) != v}
    check(not bad, "index.html shows compare.json's %d headline numbers%s" %
          (len(want), (": differ " + json.dumps(bad)) if bad else ""))
    verdict = "REGRESSION" if cmp["verdict"] == "regression" else "no regression"
    check(('id="verdict">%s<' % verdict) in text, "index.html's verdict: %s" % verdict)


if __name__ == "__main__":
    sys.exit(main(__doc__, {"categories": check_categories, "sites": check_sites,
                            "dom": check_dom}))
