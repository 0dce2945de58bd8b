#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Collect and render what scripts/bench measured.

usage: bench-report.py collect RUNS_DIR DYNAMIC.json
       bench-report.py reporter DIR REPORTER.json
       bench-report.py render --work DIR --out DIR --doc DOC.md [--command CMD]

CMD is what made the figures when DIR/timing does not say (scripts/bench
writes, per step, the command line and the overrides in effect there).

collect reads the guest runs of the dynamic step, reporter the timings of the
reporter step; render writes results.json, results.md and plot.svg and
replaces the generated part of the doc (between its bench:begin and bench:end
markers) with the tables.
"""

import argparse
import glob
import json
import os
import re
import statistics
import sys

# bench -> (regexp, unit, True when higher is better)
BENCHES = {
    "hash": (r"Averaged (\d+) operations/sec \(\+- ([\d.]+)%\)", "ops/s", True),
    "lock-pi": (r"Averaged (\d+) operations/sec \(\+- ([\d.]+)%\)", "ops/s", True),
    "wake": (r"Wokeup \d+ of \d+ threads in ([\d.]+) ms \(\+-([\d.]+)%\)", "ms", False),
    "wake-parallel": (r"Avg per-thread latency \(waking \d+/\d+ threads\) in ([\d.]+) ms "
                      r"\(\+-([\d.]+)%\)", "ms", False),
}
VARIANTS = {
    "v1": "pristine 6.1, CONFIG_FAIL_FUTEX=n",
    "v2": "pristine 6.1, CONFIG_FAIL_FUTEX=y, nothing enabled",
    "v3": "ours, all sites compiled in, all disabled",
    "v4a": "ours, hot site on, probability 0",
    "v4b": "ours, hot site on, task-filter, another task marked",
    "v5": "ours, every retry site on, firing at a low probability",
}
BUILDS = {"v1": "pristine-n", "v2": "pristine-y", "v3": "ours-y"}
HOT = ["core:get_futex_key", "waitwake:futex_wait_setup", "waitwake:futex_wait",
       "waitwake:futex_wake", "pi:futex_lock_pi", "pi:futex_unlock_pi",
       "requeue:futex_requeue", "syscalls:do_futex", "syscalls:__x64_sys_futex"]


def die(msg):
    sys.exit("bench-report: error: %s" % msg)


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        if default is None:
            raise
        return default


def keyvals(text):
    out = {}
    for line in text.splitlines():
        k, _, v = line.partition(" ")
        if k:
            out[k] = v.strip()
    return out


# ---------------------------------------------------------------- collect

def collect(runs_dir, out):
    session = keyvals(read(os.path.join(runs_dir, "session")))
    variants = session["variants"].split()
    runs = []
    for d in sorted(glob.glob(os.path.join(runs_dir, "r*-*"))):
        if not os.path.isdir(d):
            continue
        m = re.match(r"r(\d+)-(\w+)$", os.path.basename(d))
        if not m:
            continue
        rep, variant = int(m.group(1)), m.group(2)
        info = keyvals(read(os.path.join(d, "out/guest-info"), ""))
        result = read(os.path.join(d, "result"), "none").strip()
        injected = hits = None
        sites = read(os.path.join(d, "out/sites.txt"), "")
        if sites:
            hits = injected = 0
            for line in sites.splitlines():
                f = line.split()
                if line.startswith("#") or len(f) < 8:
                    continue
                hits += int(f[6])
                injected += int(f[7])
        for bench, (regexp, unit, higher) in BENCHES.items():
            text = read(os.path.join(d, "out/%s.txt" % bench), "")
            if not text and bench not in session["benches"].split():
                continue
            mm = re.search(regexp, text)
            value = float(mm.group(1)) if mm else None
            # wake, wake-parallel: the median of the runs of this boot
            per_run = [float(x) for x in re.findall(r"^\[Run \d+\]: .* in ([\d.]+) ms", text, re.M)]
            if mm and per_run:
                value = statistics.median(per_run)
            runs.append({
                "rep": rep,
                "variant": variant,
                "position": (variants.index(variant) - (rep - 1)) % len(variants)
                if variant in variants else None,
                "bench": bench,
                "value": value,
                "perf_runs": len(per_run),
                "perf_stddev_pct": float(mm.group(2)) if mm else None,
                "unit": unit,
                "higher_is_better": higher,
                "result": result,
                "accel": read(os.path.join(d, "accel"), "?").strip(),
                "guest_cpus": info.get("cpus"),
                "clocksource": info.get("clocksource"),
                "sites_enabled": info.get("sites_enabled"),
                "site_hits": hits,
                "site_injected": injected,
                "host_load": read(d + ".load", "").strip(),
                "guest_seconds": int(read(os.path.join(d, "seconds"), "0") or 0),
            })
    with open(out, "w") as f:
        json.dump({"session": session, "runs": runs}, f, indent=1)
    bad = [r for r in runs if r["value"] is None]
    print("bench-report: %d measurements in %s%s" %
          (len(runs) - len(bad), out, ", %d failed" % len(bad) if bad else ""), file=sys.stderr)


# ---------------------------------------------------------------- reporter

def reporter(d, out):
    ffr, tc = [], []
    records = lines = None
    for path in sorted(glob.glob(os.path.join(d, "ffr-*.time"))):
        t0, t1 = map(float, read(path).split()[:2])
        ffr.append(t1 - t0)
        m = re.search(r"(\d+) records, (\d+) futex_fault_inject", read(path[:-5] + ".out"))
        if m:
            records = int(m.group(1))
    for path in sorted(glob.glob(os.path.join(d, "tc-*.time"))):
        t0, t1 = map(float, read(path).split()[:2])
        tc.append(t1 - t0)
        lines = int(read(path[:-5] + ".out").split()[0])
    if not ffr or not tc or not records:
        die("reporter: no timings in %s" % d)
    res = {
        "trace": read(os.path.join(d, "trace")).strip(),
        "trace_bytes": int(read(os.path.join(d, "trace-bytes"))),
        "records": records,
        "trace_cmd_lines": lines,
        "host_load": read(os.path.join(d, "load"), "").strip(),
        "trace_cmd_version": read(os.path.join(d, "trace-cmd-version"), "").strip(),
        "futex_fault_report_seconds": ffr,
        "trace_cmd_report_seconds": tc,
        "futex_fault_report_events_per_s": records / statistics.median(ffr),
        "trace_cmd_report_events_per_s": records / statistics.median(tc),
    }
    res["speedup"] = statistics.median(tc) / statistics.median(ffr)
    with open(out, "w") as f:
        json.dump(res, f, indent=1)


# ---------------------------------------------------------------- render

def summarise(dyn):
    """Medians, spread and ratios to v1 per (bench, variant)."""
    runs = [r for r in dyn["runs"] if r["value"] is not None]
    variants = dyn["session"]["variants"].split()
    benches = [b for b in dyn["session"]["benches"].split() if b in BENCHES]
    table = {}
    for b in benches:
        higher = BENCHES[b][2]
        base = {r["rep"]: r["value"] for r in runs if r["bench"] == b and r["variant"] == "v1"}
        for v in variants:
            vals = {r["rep"]: r["value"] for r in runs if r["bench"] == b and r["variant"] == v}
            if not vals:
                continue
            xs = sorted(vals.values())
            med = statistics.median(xs)
            # cost: time per operation relative to v1, paired by repetition
            ratios = sorted((base[k] / x if higher else x / base[k])
                            for k, x in vals.items() if k in base and x and base[k])
            failed = sum(1 for r in dyn["runs"] if r["bench"] == b and r["variant"] == v
                         and r["value"] is None)
            hits = [r["site_hits"] for r in dyn["runs"] if r["bench"] == b and r["variant"] == v
                    and r["site_hits"] is not None]
            inj = [r["site_injected"] for r in dyn["runs"] if r["bench"] == b and r["variant"] == v
                   and r["site_injected"] is not None]
            # the best repetition: other processes on the host only ever slow a
            # guest down, so the fastest boot is the least disturbed one
            best = xs[-1] if higher else xs[0]
            vbase = sorted(base.values())
            best1 = (vbase[-1] if higher else vbase[0]) if vbase else None
            table.setdefault(b, {})[v] = {
                "n": len(xs),
                "best": best,
                "cost_ratio_best": (best1 / best if higher else best / best1)
                if best and best1 else None,
                "failed": failed,
                "median": med,
                "min": xs[0],
                "max": xs[-1],
                "spread_pct": 100.0 * (xs[-1] - xs[0]) / med if med else None,
                "cost_ratio_median": statistics.median(ratios) if ratios else None,
                "cost_ratio_min": ratios[0] if ratios else None,
                "cost_ratio_max": ratios[-1] if ratios else None,
                "site_hits_per_boot": statistics.median(hits) if hits else None,
                "site_injected_per_boot": statistics.median(inj) if inj else None,
            }
    return table


def fmt_val(x, unit):
    if x is None:
        return "-"
    if unit == "ops/s":
        return "%d" % round(x)
    return "%.4f" % x


def fmt_ratio(s):
    if s.get("cost_ratio_median") is None:
        return "-"
    return "%.3f (%.3f-%.3f)" % (s["cost_ratio_median"], s["cost_ratio_min"], s["cost_ratio_max"])


def dynamic_md(dyn, table):
    ses = dyn["session"]
    variants = ses["variants"].split()
    accel = ses.get("accel", "?")
    out = []
    out.append("Session %s to %s, %s guests (%s vCPUs seen by the guest), %s repetitions "
               "per variant, order rotated every repetition; host load average (1/5/15 min) "
               "%s at the start, %s at the end, on %s host CPUs." %
               (ses.get("start"), ses.get("end"), accel,
                ",".join(sorted({str(r["guest_cpus"]) for r in dyn["runs"]})),
                ses.get("reps"), ses.get("load_start"), ses.get("load_end", "?"),
                ses.get("host_cpus")))
    out.append("")
    if accel != "kvm":
        out.append("**Under TCG these ratios reflect QEMU's emulation, not hardware**: every guest "
                   "instruction is translated, a NOP costs about what any simple instruction "
                   "costs, and the other guests on the host move the figures. Run the same "
                   "command where KVM works for real figures.")
        out.append("")
    out.append("Cost = time per operation relative to v1 (median of the per-repetition ratios, "
               "min-max in brackets): 1.000 is v1's speed, 1.050 is 5 % slower. Spread = "
               "(max - min) / median of the variant's own values. Best = the fastest "
               "repetition, and its cost against v1's fastest: other processes on the host "
               "only ever slow a guest down, so the fastest boot is the least disturbed.")
    out.append("")
    out.append("| bench | variant | median | unit | spread | cost vs v1 | best | best vs v1 "
               "| site hits / injected per boot |")
    out.append("| --- | --- | ---: | --- | ---: | --- | ---: | ---: | --- |")
    for b, per in table.items():
        unit = BENCHES[b][1]
        for v in variants:
            s = per.get(v)
            if not s:
                continue
            hi = "-" if s["site_hits_per_boot"] is None else "%d / %d" % (
                s["site_hits_per_boot"], s["site_injected_per_boot"])
            fail = " (%d failed)" % s["failed"] if s["failed"] else ""
            out.append("| %s | %s | %s | %s | %.1f %% | %s | %s | %s | %s |" %
                       (b, v + fail, fmt_val(s["median"], unit), unit, s["spread_pct"] or 0,
                        fmt_ratio(s), fmt_val(s.get("best"), unit),
                        "-" if s.get("cost_ratio_best") is None
                        else "%.3f" % s["cost_ratio_best"], hi))
    out.append("")
    out.append("Site hits and injections are read from fail_futex/sites once per boot, after "
               "all the benchmarks of that boot: they cover the four benchmarks together.")
    return out


def static_md(st):
    b = st["builds"]
    names = [("v1", "pristine-n"), ("v2", "pristine-y"), ("v3-v5", "ours-y")]
    names = [(v, n) for v, n in names if n in b]
    out = []
    out.append("| .text bytes | " + " | ".join("%s (%s)" % (v, n) for v, n in names) +
               " | ours - v1 |")
    out.append("| --- |" + " ---: |" * (len(names) + 1))
    objs = sorted({o for n in b.values() for o in n["objects"]},
                  key=lambda o: ["core", "syscalls", "pi", "requeue", "waitwake", "fault"].index(o))
    for o in objs:
        row = [b[n]["objects"].get(o, {}).get("text") for _, n in names]
        out.append("| kernel/futex/%s.o | " % o + " | ".join("-" if x is None else str(x) for x in row) +
                   " | %+d |" % ((row[-1] or 0) - (row[0] or 0)))
    row = [b[n]["futex_text"] for _, n in names]
    out.append("| kernel/futex/*.o | " + " | ".join(map(str, row)) + " | %+d |" % (row[-1] - row[0]))
    row = [b[n]["vmlinux_text"] for _, n in names]
    if None not in row:
        out.append("| vmlinux .text section | " + " | ".join(map(str, row)) + " | %+d |" % (row[-1] - row[0]))
    row = [b[n].get("vmlinux_function_bytes") for _, n in names]
    if None not in row:
        out.append("| vmlinux, sum of function sizes | " + " | ".join(map(str, row)) +
                   " | %+d |" % (row[-1] - row[0]))
        out.append("")
        out.append("vmlinux's .text section ends on an alignment boundary, so its size hides "
                   "most of the change; the sum of the function sizes (`nm -S`, types t/T/w/W) "
                   "shows it.")
    out.append("")
    out.append("Source commits (build/linux): " + ", ".join(
        "%s %s" % (n, (b[n].get("source_commit") or "?")[:12]) for _, n in names) + ".")
    out.append("")

    ours = b.get("ours-y")
    if ours:
        entries = [ours["sites"].get(s, {}).get("entries", 0) for s in st["sites"]]
        multi = ["%s (%d: %s)" % (s, ours["sites"][s]["entries"],
                                  ", ".join(ours["sites"][s]["functions"]))
                 for s in st["sites"] if ours["sites"].get(s, {}).get("entries", 0) > 1]
        none = [s for s in st["sites"] if not ours["sites"].get(s)]
        sizes = {}
        for s in ours["sites"].values():
            for n in s.get("nop_bytes", []):
                sizes[n] = sizes.get(n, 0) + 1
        out.append("**__jump_table entries per site** (ours): %d sites, %d entries (%s); "
                   "%d sites with exactly one, %s; %s." %
                   (len(st["sites"]), sum(entries),
                    ", ".join("%d NOPs of %s bytes" % (c, n) for n, c in sorted(sizes.items(), key=str)),
                    entries.count(1),
                    "more than one (the compiler duplicated the code): " + "; ".join(multi)
                    if multi else "none with more than one",
                    "sites without an entry: " + " ".join(none) if none else "no site without one"))
        out.append("")

    out.append("**Non-injecting path** per function: instructions (bytes) reachable from the "
               "entry with every __jump_table entry in its default state, every other branch "
               "both ways. NOPs = site NOPs on that path.")
    out.append("")
    out.append("| function | " + " | ".join(v for v, _ in names) + " | ours - v1 | NOPs |")
    out.append("| --- |" + " ---: |" * (len(names) + 2))
    for f in HOT:
        cells = []
        vals = []
        for _, n in names:
            r = b[n]["functions"].get(f)
            cells.append("%d (%d)" % (r["instructions"], r["bytes"]) if r else "-")
            vals.append(r)
        if not vals[0] or not vals[-1]:
            continue
        out.append("| %s | %s | %+d (%+d) | %d |" %
                   (f.split(":")[1], " | ".join(cells),
                    vals[-1]["instructions"] - vals[0]["instructions"],
                    vals[-1]["bytes"] - vals[0]["bytes"], vals[-1]["nops_on_path"]))
    tot = []
    for _, n in names:
        fs = [r for k, r in b[n]["functions"].items() if not k.startswith("fault:")]
        tot.append((sum(r["instructions"] for r in fs), sum(r["bytes"] for r in fs),
                    sum(r["nops_on_path"] for r in fs)))
    out.append("| all of core, syscalls, pi, requeue, waitwake | %s | %+d (%+d) | %d |" %
               (" | ".join("%d (%d)" % t[:2] for t in tot), tot[-1][0] - tot[0][0],
                tot[-1][1] - tot[0][1], tot[-1][2]))
    out.append("")
    pol = []
    for v, n in names:
        fs = b[n]["functions"]
        direct = sum(r["should_fail_calls"] for k, r in fs.items() if not k.startswith("fault:"))
        reach = sorted(k.split(":")[1] for k, r in fs.items()
                       if not k.startswith("fault:") and r["reaches_policy_via"])
        ff = sum(r["futex_fault_calls"] for r in fs.values())
        pol.append("%s: %d direct calls to should_fail*() on non-injecting paths, %d calls to "
                   "__futex_fault(), %d functions that reach should_fail*()%s" %
                   (v, direct, ff, len(reach), "" if not reach else " (" + ", ".join(reach[:6]) +
                    (", ..." if len(reach) > 6 else "") + ")"))
    out.append("**Policy code reachable without injecting** (from the functions of core, "
               "syscalls, pi, requeue, waitwake, through the futex functions they call): " +
               "; ".join(pol) + ".")
    return out


def static_full_md(st):
    b = st["builds"]
    names = [n for n in ("pristine-n", "pristine-y", "ours-y") if n in b]
    out = ["| function | " + " | ".join(names) + " | total instructions (ours) | NOPs on path | "
           "site entries | incomplete |", "| --- |" + " ---: |" * (len(names) + 3) + " --- |"]
    keys = sorted({k for n in names for k in b[n]["functions"]})
    for k in keys:
        cells = []
        for n in names:
            r = b[n]["functions"].get(k)
            cells.append("%d (%d)" % (r["instructions"], r["bytes"]) if r else "-")
        r = b[names[-1]]["functions"].get(k) or {}
        out.append("| %s | %s | %s | %s | %s | %s |" %
                   (k, " | ".join(cells), r.get("total_instructions", "-"),
                    r.get("nops_on_path", "-"), r.get("jump_entries", "-"),
                    "yes" if r.get("incomplete") else ""))
    return out


def reporter_md(rep):
    med_f = statistics.median(rep["futex_fault_report_seconds"])
    med_t = statistics.median(rep["trace_cmd_report_seconds"])
    return [
        "| tool, end to end on the same trace | median s | events/s |",
        "| --- | ---: | ---: |",
        "| `futex-fault-report --parse` | %.2f | %.2f M |" % (med_f, rep["futex_fault_report_events_per_s"] / 1e6),
        "| `trace-cmd report` (output counted by `wc -l`) | %.2f | %.2f M |" % (med_t, rep["trace_cmd_report_events_per_s"] / 1e6),
        "",
        "%d events (%d lines from trace-cmd), %.1f MB trace, %d runs each, alternated; "
        "futex-fault-report is %.1fx faster. Host load %s. %s." %
        (rep["records"], rep["trace_cmd_lines"] or 0, rep["trace_bytes"] / 1e6,
         len(rep["futex_fault_report_seconds"]), rep["speedup"], rep["host_load"],
         rep["trace_cmd_version"] or "trace-cmd"),
    ]


def plot_svg(dyn, table, path):
    variants = dyn["session"]["variants"].split()
    benches = list(table)
    colors = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]
    allmax = [s["cost_ratio_max"] for per in table.values() for s in per.values()
              if s["cost_ratio_max"]]
    top = max([1.2] + allmax) * 1.05
    W, H, left, bottom, topm = 760, 380, 60, 60, 50
    ph = H - bottom - topm
    gw = (W - left - 20) / max(1, len(benches))
    bw = gw * 0.8 / max(1, len(variants))

    def y(v):
        return topm + ph - ph * v / top

    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="12">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="20" font-size="14">perf bench futex: time per operation relative '
         'to v1 (median, min-max whiskers)</text>' % left,
         '<text x="%d" y="38" fill="#555">%s guests; %s</text>' %
         (left, dyn["session"].get("accel", "?"),
          "under TCG the ratio reflects emulation, not hardware"
          if dyn["session"].get("accel") != "kvm" else "KVM")]
    step = 0.2 if top < 2 else 0.5 if top < 5 else 1.0
    t = 0.0
    while t <= top:
        s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (left, W - 20, y(t), y(t)))
        s.append('<text x="%d" y="%.1f" text-anchor="end">%.1f</text>' % (left - 5, y(t) + 4, t))
        t += step
    s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="black" stroke-dasharray="4 3"/>' %
             (left, W - 20, y(1), y(1)))
    for i, b in enumerate(benches):
        x0 = left + i * gw + gw * 0.1
        for j, v in enumerate(variants):
            st = table[b].get(v)
            if not st or st["cost_ratio_median"] is None:
                continue
            x = x0 + j * bw
            s.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s">'
                     '<title>%s %s: %.3f</title></rect>' %
                     (x, y(st["cost_ratio_median"]), bw - 2, y(0) - y(st["cost_ratio_median"]),
                      colors[j % len(colors)], b, v, st["cost_ratio_median"]))
            cx = x + (bw - 2) / 2
            s.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="black"/>' %
                     (cx, cx, y(st["cost_ratio_min"]), y(st["cost_ratio_max"])))
        s.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' %
                 (left + i * gw + gw / 2, H - bottom + 18, b))
    for j, v in enumerate(variants):
        x = left + j * 110
        s.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' %
                 (x, H - 22, colors[j % len(colors)]))
        s.append('<text x="%d" y="%d">%s</text>' % (x + 16, H - 12, v))
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def read_steps(w, default_command):
    """The last run of each step: [(step, seconds, started, command)]."""
    steps = []
    for line in read(os.path.join(w, "timing"), "").splitlines():
        f = line.split(None, 3)
        if len(f) >= 3 and f[1].isdigit():
            steps.append((f[0], int(f[1]), f[2], f[3] if len(f) == 4 else default_command))
    return steps


def provenance_md(steps, dyn):
    """Which command made the figures, when, and with which accelerator."""
    measured = [s for s in steps if s[0] != "render"] or steps
    by_cmd = {}
    for name, _, started, cmd in measured:
        by_cmd.setdefault(cmd, []).append((name, started))
    parts = []
    for cmd, st in by_cmd.items():
        days = sorted({d[:10] for _, d in st})
        parts.append("`%s` (%s; %s)" % (cmd, ", ".join(n for n, _ in st),
                                        " to ".join([days[0], days[-1]] if len(days) > 1
                                                    else days)))
    text = "Made by " + "; ".join(parts) if parts else "Made by an unrecorded command"
    if dyn:
        ses = dyn["session"]
        accel = ses.get("accel", "?")
        why = ses.get("accel_why")
        if accel == "kvm":
            text += "; guests under KVM"
        else:
            text += "; guests under %s%s" % ("TCG" if accel == "tcg" else accel,
                                              ": " + why if why else "")
    return text + ". Raw data in bench/results.json."


def render(args):
    w = args.work
    st = json.load(open(os.path.join(w, "static.json"))) if os.path.exists(os.path.join(w, "static.json")) else None
    dyn = json.load(open(os.path.join(w, "dynamic.json"))) if os.path.exists(os.path.join(w, "dynamic.json")) else None
    rep = json.load(open(os.path.join(w, "reporter.json"))) if os.path.exists(os.path.join(w, "reporter.json")) else None
    if not (st or dyn or rep):
        die("render: nothing measured in %s" % w)
    os.makedirs(args.out, exist_ok=True)
    table = summarise(dyn) if dyn else None
    steps = read_steps(w, args.command)
    results = {"command": args.command,
               "steps": [{"step": n, "seconds": t, "started": d, "command": c}
                         for n, t, d, c in steps],
               "variants": VARIANTS, "static": st,
               "dynamic": {"session": dyn["session"], "summary": table, "runs": dyn["runs"]}
               if dyn else None,
               "reporter": rep}
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)

    md = [provenance_md(steps, dyn), ""]
    md.append("Variants: " + "; ".join("**%s** %s" % (k, v) for k, v in VARIANTS.items()) + ".")
    md.append("")
    if table:
        md.append("### Dynamic: perf bench futex in the guest")
        md.append("")
        md += dynamic_md(dyn, table)
        md.append("")
        md.append("![cost relative to v1](../bench/plot.svg)")
        md.append("")
        plot_svg(dyn, table, os.path.join(args.out, "plot.svg"))
    if st:
        md.append("### Static: the built objects")
        md.append("")
        md += static_md(st)
        md.append("")
    if rep:
        md.append("### Reporter speed")
        md.append("")
        md += reporter_md(rep)
        md.append("")
    measured = [x for x in steps if x[0] != "render"]
    if measured:
        md.append("Last run of each step: " + ", ".join(
            "%s %d min %02d s (%s)" % (n, t // 60, t % 60, d) for n, t, d, _ in measured) + ".")
        md.append("")
    full = list(md)
    if st:
        full += ["### Every function: non-injecting path, instructions (bytes)", ""]
        full += static_full_md(st)
        full.append("")
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("\n".join(full).replace("](../bench/plot.svg)", "](plot.svg)"))

    if args.doc and os.path.exists(args.doc):
        doc = read(args.doc)
        begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
        if begin not in doc or end not in doc:
            die("render: %s has no %s ... %s markers" % (args.doc, begin, end))
        head, rest = doc.split(begin, 1)
        _, tail = rest.split(end, 1)
        with open(args.doc, "w") as f:
            f.write(head + begin + "\n" + "\n".join(md) + "\n" + end + tail)
    # the headline on the terminal
    if table:
        print("\n".join(l for l in dynamic_md(dyn, table) if l.startswith("|") or
                        l.startswith("**Under")))
    if rep:
        print("\n".join(reporter_md(rep)))
    print("bench-report: wrote %s/results.json, results.md%s%s" %
          (args.out, ", plot.svg" if table else "", ", and the table in " + args.doc
           if args.doc and os.path.exists(args.doc) else ""), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("collect")
    p.add_argument("runs")
    p.add_argument("out")
    p = sub.add_parser("reporter")
    p.add_argument("dir")
    p.add_argument("out")
    p = sub.add_parser("render")
    p.add_argument("--work", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--doc")
    p.add_argument("--command", default="make bench",
                   help="what made the figures, where DIR/timing does not say")
    args = ap.parse_args()
    if args.cmd == "collect":
        collect(args.runs, args.out)
    elif args.cmd == "reporter":
        reporter(args.dir, args.out)
    else:
        render(args)


if __name__ == "__main__":
    main()
