# SPDX-License-Identifier: GPL-2.0
"""Check what the plugin says of each fault of a run against the run's own
events and report.json.

usage: check_faults.py REPORT_JSON RUN REPORT_TXT

REPORT_TXT is `trace-cmd report -t -O futex_fault:faults=<report>/faults/RUN.tsv`
of the run's trace.  Every futex_fault_inject line must say an outcome (no
"[not in faults]"); the counts per outcome, and of the errno of the errors,
must be report.json's for the site; and each line's outcome must be what
the faulting task's own next events say, read here from the text, apart
from the reporter's engine (README.md "Outcome of each injected fault",
the rules the fixture's runs need: no io_uring, no lost events):

  - the task's last system call event before the fault is a sys_exit, or a
    sys_enter of exit or exit_group: exit;
  - else its next sys_exit, a -ERESTART* one skipped: error with that errno
    when negative, else recovered; its sched_process_exit first, or none:
    noreturn.

Prints what it checked; exit status 1 with the differences when they differ.
"""

import collections
import errno
import json
import re
import sys

LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+(\w+):\s+(.*)$")
EXIT_NRS = (60, 231)
RESTART = (512, 513, 514, 516)


def events(path):
    for text in open(path, errors="replace"):
        m = LINE.match(text)
        if m:
            yield int(m.group(2)), m.group(5), m.group(6)


def expected(evs, i, pid):
    """the outcome of the fault evs[i] of task pid, from the task's events"""
    last = None
    for p, name, body in reversed(evs[:i]):
        if p == pid and name in ("sys_enter", "sys_exit"):
            last = (name, body)
            break
    if not last or last[0] == "sys_exit":
        return "exit", "-"
    if int(re.match(r"NR (-?\d+)", last[1]).group(1)) in EXIT_NRS:
        return "exit", "-"
    for p, name, body in evs[i + 1:]:
        if p != pid:
            continue
        if name == "sched_process_exit":
            return "noreturn", "-"
        if name == "sys_exit":
            ret = int(re.match(r"NR -?\d+ = (-?\d+)", body).group(1))
            if -ret in RESTART:
                continue
            if ret < 0:
                return "error", errno.errorcode.get(-ret, "E%d" % -ret)
            return "recovered", "-"
    return "noreturn", "-"


def main():
    rep_path, run, txt = sys.argv[1:]
    rep = json.load(open(rep_path))
    evs = list(events(txt))
    oc = collections.defaultdict(collections.Counter)
    errs = collections.defaultdict(collections.Counter)
    bad = []
    for i, (pid, name, body) in enumerate(evs):
        if name != "futex_fault_inject":
            continue
        site = re.search(r"site=(\w+)", body).group(1)
        oc[site]
        m = re.search(r" outcome=(\w+)(?: errno=(\w+))?", body)
        if not m:
            bad.append("no outcome: " + body)
            continue
        got = (m.group(1), m.group(2) or "-")
        oc[site][got[0]] += 1
        if got[0] == "error":
            errs[site][got[1]] += 1
        want = expected(evs, i, pid)
        if got != want:
            bad.append("pid %d: %s, its events say %s" % (pid, got, want))
    # a site of the fixture fires in its own run only: the run's lines are all its faults
    for s in rep["sites"]:
        if s["name"] not in oc:
            continue
        want_oc = {k: v for k, v in s["outcomes"].items() if v}
        got_oc, got_errs = dict(oc[s["name"]]), dict(errs[s["name"]])
        if got_oc != want_oc or got_errs != s["errors_returned"]:
            bad.append("%s: lines say %s %s, report.json %s %s" % (
                s["name"], got_oc, got_errs, want_oc, s["errors_returned"]))
    if not oc:
        bad.append("no futex_fault_inject line")
    if bad:
        print("; ".join(bad)[:600])
        sys.exit(1)
    print("%s: %s, as report.json and each task's own next events say" % (run, "; ".join(
        "%s %s%s" % (site, dict(c), (" " + str(dict(errs[site]))) if errs[site] else "")
        for site, c in sorted(oc.items()))))


if __name__ == "__main__":
    main()
