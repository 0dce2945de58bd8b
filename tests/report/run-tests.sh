#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests of futex-fault-report and plugin_futex_fault.so on the
# fixtures recorded from our kernel (record-fixture.sh): fixture.tar.xz from
# the kernel's interface v2, which every test runs on: the report's numbers
# against the kernel's counters and gcov, the site locator, bad input, the
# plugin in trace-cmd report, and the pages in headless Chromium; and
# fixture-v1.tar.xz, recorded from interface v1 (its sources are rebuilt from history)
# (fixture/src), so that reading v1 results stays tested.
#
# usage: run-tests.sh TOOLDIR
#   FF_TREE     work tree holding fixture.tar.xz's source blobs (default build/6.1/linux)
#   CHROMIUM    browser (default /usr/bin/chromium); SKIP_BROWSER=1 skips it

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tool=${1:?usage: run-tests.sh TOOLDIR}
ffr=$tool/futex-fault-report

n=0
fail=0
ok()     { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $*"; }
skip()   { n=$((n + 1)); echo "ok $n - # SKIP $*"; }

work=$(mktemp -d /tmp/ffr-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

. "$here/fixtures.sh"
. "$here/chromium.sh"

fixture_unpack "$here/fixture.tar.xz" "$work"
fx=$work/fixture

# the fixture's sources, from the kernel work tree's object store
src=$work/src
fixture_v2_sources "$fx" "$src"

report()
{
	"$ffr" --srctree "$src" "$@"
}

# ------------------------------------------------------------ the report

if report -q -o "$work/report" "$fx" 2>"$work/err"; then
	ok "report on the fixture"
else
	not_ok "report on the fixture: $(cat "$work/err")"
fi
for f in index.html report.json campaign.info baseline.info files/waitwake.c.html files/core.c.html; do
	[ -s "$work/report/$f" ] && ok "wrote $f" || not_ok "wrote $f"
done
python3 "$here/check_report.py" json "$work/report" "$fx" "$fx/gcno" "$src" > "$work/tap" 2>&1
sed -e 's/^\(not \)\{0,1\}ok [0-9]* - /&json: /' "$work/tap" | while read -r l; do echo "# $l"; done
grep -q "^not ok" "$work/tap" && not_ok "report.json checks (see above)" ||
	ok "report.json: $(grep -c '^ok' "$work/tap") checks against the site tables, gcov and lcov"

# the report does not depend on the number of worker processes
for a in -j1 -j3; do
	report -q $a -o "$work/report$a" "$fx" 2>/dev/null
	cmp -s "$work/report/report.json" "$work/report$a/report.json" &&
		ok "report.json with $a is the same" || not_ok "report.json with $a differs"
	diff -r "$work/report/faults" "$work/report$a/faults" >/dev/null &&
		ok "faults/ with $a is the same" || not_ok "faults/ with $a differs"
	rm -rf "$work/report$a"
done

# a second report replaces the first as a whole
touch "$work/report/stale"
report -q -o "$work/report" "$fx" 2>/dev/null
[ ! -e "$work/report/stale" ] && [ -s "$work/report/index.html" ] &&
	ok "a new report replaces the old directory" || not_ok "a new report replaces the old directory"

# sources in the results (src/kernel/futex/*.c): used before --srctree and
# campaign.json's srctree (which names the recording machine's tree)
rm -rf "$work/fx-src"
cp -r "$fx" "$work/fx-src"
mkdir -p "$work/fx-src/src"
cp -r "$src/kernel" "$work/fx-src/src/"
src_norm='del(.results, .kernel.gcno_dir, .kernel.gcno_dirs, .kernel.srctree)'
if "$ffr" -q -o "$work/report-src" "$work/fx-src" 2>"$work/src-err" &&
   [ "$(jq -r .kernel.srctree "$work/report-src/report.json")" = "$work/fx-src/src" ] &&
   cmp -s <(jq -S "$src_norm" "$work/report/report.json") \
	  <(jq -S "$src_norm" "$work/report-src/report.json"); then
	ok "sources in RESULTS/src: read without --srctree, the same report"
else
	not_ok "sources in RESULTS/src: $(head -c 300 "$work/src-err")"
fi
rm -rf "$work/report-src"
"$ffr" -q --srctree "$work/nowhere" -o "$work/report-src" "$work/fx-src" 2>"$work/src-err" &&
	[ "$(jq -r .kernel.srctree "$work/report-src/report.json")" = "$work/fx-src/src" ] &&
	grep -qF "warning: $work/fx-src/src: the results hold the sources: using them, not --srctree $work/nowhere" "$work/src-err" &&
	ok "sources in RESULTS/src are used before --srctree, with a warning" ||
	not_ok "RESULTS/src and --srctree: $(head -c 300 "$work/src-err")"
rm -rf "$work/report-src"

# ------------------------------------------------------------ bad input

# bad CASE EXPECTED_FILE_IN_MESSAGE: the results in $bad must fail cleanly
bad()
{
	local what=$1 file=$2 out=$work/bad-out rc=0

	rm -rf "$out"
	report -q -o "$out" "$bad" >"$work/bad-stdout" 2>"$work/bad-err" || rc=$?
	if [ $rc = 0 ]; then
		not_ok "$what: exit status 0"
	elif ! grep -qF -- "$file" "$work/bad-err"; then
		not_ok "$what: message does not name $file: $(head -c 300 "$work/bad-err")"
	elif [ -e "$out" ] || ls "$work"/bad-out.tmp-* >/dev/null 2>&1; then
		not_ok "$what: left a report behind"
	else
		ok "$what: exit $rc, names the file, no report ($(head -n1 "$work/bad-err" | cut -c1-150))"
	fi
}

fresh()
{
	rm -rf "$work/bad"
	cp -r "$fx" "$work/bad"
	bad=$work/bad
}

fresh
rm -rf "$bad"/*
bad "empty results directory" "$bad/campaign.json"

fresh
rm -rf "$bad/runs/baseline"
bad "no baseline" "$bad/runs"

fresh
f=$bad/runs/wait_get_value/trace.dat
head -c $(( $(stat -c %s "$f") / 2 )) "$fx/runs/wait_get_value/trace.dat" > "$f"
bad "truncated trace.dat" "$f"

fresh
f=$bad/runs/wake_op_atomic/trace.dat
python3 - "$f" <<'EOF'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for i in range(len(b) // 3, len(b) // 3 + 2048):
    b[i] = (b[i] * 7 + 13) & 0xff
open(p, "wb").write(bytes(b))
EOF
bad "corrupt trace.dat" "$f"

fresh
cp "$fx/bad/no-event.dat" "$bad/runs/wait_get_key/trace.dat"
bad "trace without the futex_fault event" "$bad/runs/wait_get_key/trace.dat"

fresh
rm "$bad/runs/wait_get_key/trace.dat"
bad "missing trace.dat" "$bad/runs/wait_get_key/trace.dat"

# A trace of pristine fail_futex (scripts/anchor), recorded from the anchor
# kernel at probability 10 % and cut to one page with trace-cmd split: its
# fail_futex:inject records (a kretprobe on should_fail(), where ret != 0)
# are its faults, as many as trace-cmd itself counts.
xz -dc "$here/anchor-p10.dat.xz" > "$work/anchor.dat"
want=$(trace-cmd report -i "$work/anchor.dat" 2>/dev/null | grep -c ' inject: .* ret=1$')
got=$("$ffr" --parse "$work/anchor.dat" 2>&1 | sed -n 's/.* records, \([0-9]*\) futex_fault_inject,.*/\1/p')
[ "$want" -gt 0 ] && [ "$got" = "$want" ] &&
	ok "a pristine fail_futex trace: its $got fail_futex:inject records are its faults" ||
	not_ok "a pristine fail_futex trace: --parse counted '${got}' faults, trace-cmd $want"
# and in a campaign whose table has no site fail_futex, an error naming it
fresh
cp "$work/anchor.dat" "$bad/runs/wait_get_key/trace.dat"
bad "a pristine fail_futex trace in a campaign of fault sites" "$bad/runs/wait_get_key/trace.dat"
grep -q "sites.txt has no site 'fail_futex'" "$work/bad-err" &&
	ok "a pristine fail_futex trace in a campaign of fault sites: it says the table lacks fail_futex" ||
	not_ok "a pristine fail_futex trace in a campaign of fault sites: $(head -c 300 "$work/bad-err")"

# traces whose event formats crash libtraceevent (and trace-cmd report):
# found by fuzz_trace when it still took whole files (fuzz/README.md)
for f in "$here"/libtraceevent-crash/*.dat; do
	fresh
	cp "$f" "$bad/runs/wait_get_key/trace.dat"
	bad "libtraceevent crashes on $(basename "$f")" "$bad/runs/wait_get_key/trace.dat"
	grep -q "crashed reading this trace (SIGSEGV)" "$work/bad-err" &&
		ok "$(basename "$f"): the crash is reported as a corrupt trace" ||
		not_ok "$(basename "$f"): $(head -c 300 "$work/bad-err")"
done
"$ffr" --parse "$here/libtraceevent-crash/print-fmt.dat" >/dev/null 2>"$work/bad-err"
grep -qF "$here/libtraceevent-crash/print-fmt.dat: crashed reading this trace" "$work/bad-err" &&
	ok "--parse names the trace that crashed libtraceevent" ||
	not_ok "--parse on a crashing trace: $(head -c 300 "$work/bad-err")"

# a crash or a kill leaves the previous report, and nothing else
fresh
cp "$here/libtraceevent-crash/print-fmt.dat" "$bad/runs/wait_get_key/trace.dat"
rm -rf "$work/keep" "$work/scratch"
mkdir -p "$work/keep/report" "$work/scratch"
echo previous > "$work/keep/report/index.html"
TMPDIR=$work/scratch report -q -o "$work/keep/report" "$bad" 2>/dev/null
rc=$?
[ $rc != 0 ] && [ "$(cat "$work/keep/report/index.html")" = previous ] &&
	[ -z "$(ls "$work/scratch")" ] && [ "$(ls "$work/keep")" = report ] &&
	ok "after a crash (exit $rc) the previous report and no scratch file are left" ||
	not_ok "after a crash: exit $rc, left $(ls "$work/keep" "$work/scratch" | tr '\n' ' ')"
# SIGTERM once the reporter has forked its worker
TMPDIR=$work/scratch "$ffr" --srctree "$src" -q -o "$work/keep/report" "$fx" 2>"$work/term-err" &
pid=$!
for i in $(seq 100); do
	pgrep -P $pid >/dev/null && break
	sleep 0.01
done
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] && [ "$(cat "$work/keep/report/index.html")" = previous ] &&
	[ -z "$(ls "$work/scratch")" ] && [ "$(ls "$work/keep")" = report ] &&
	grep -q "interrupted (SIGTERM): no report written" "$work/term-err" &&
	ok "SIGTERM: exit 143, says so, the previous report and no scratch file are left" ||
	not_ok "SIGTERM: exit $rc, $(head -c 200 "$work/term-err"), left $(ls "$work/keep" "$work/scratch" | tr '\n' ' ')"

fresh
cp "$fx/runs/baseline/gcov/core.gcda" "$bad/runs/wait_get_key/gcov/pi.gcda"
bad "gcov data from another build" "$bad/runs/wait_get_key/gcov/pi.gcda"

fresh
python3 - "$bad/runs/wake_op_atomic/gcov/waitwake.gcda" <<'EOF'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[4:8] = b"*80A"[::-1]          # the version of another gcc
open(p, "wb").write(bytes(b))
EOF
bad "gcov data from another compiler" "$bad/runs/wake_op_atomic/gcov/waitwake.gcda"

fresh
rm "$bad/gcno/requeue.gcno"
bad "missing .gcno" "requeue.gcda"

fresh
sed -i 's/"wait_get_value"\]/"no_such_site"]/' "$bad/runs/wait_get_value/run.json"
bad "run enables an unknown site" "$bad/runs/wait_get_value/run.json"

fresh
sed -i '/^wake_op_atomic /d' "$bad/runs/baseline/sites.txt"
bad "a run's table names a site missing from the baseline's" "$bad/runs/wait_get_value/sites.txt"

fresh
sed -i '/^wait_get_value /d' "$bad"/runs/*/sites.txt
mv "$bad/runs/wait_get_value/trace.dat" "$bad/runs/baseline/trace-2.dat"
rm -rf "$bad/runs/wait_get_value"
jq '.runs -= ["wait_get_value"]' "$fx/campaign.json" > "$bad/campaign.json"
bad "trace names a site missing from sites.txt" "$bad/runs/baseline/trace-2.dat"

fresh
sed -i 's/"layout_version": 1/"layout_version": 2/' "$bad/campaign.json"
bad "unknown layout version" "$bad/campaign.json"

fresh
jq '.kernel.gcov_dirs = ["kernel/futex", "../io_uring"]' "$fx/campaign.json" > "$bad/campaign.json"
bad "gcov_dirs leaving the tree" "$bad/campaign.json"

fresh
jq '.kernel.gcov_dirs = ["kernel/futex", "kernel/futex"]' "$fx/campaign.json" > "$bad/campaign.json"
bad "gcov_dirs naming a directory twice" "$bad/campaign.json"

# a further directory without its notes: neither gcno/io_uring nor the objtree's
fresh
jq '.kernel.gcov_dirs = ["kernel/futex", "io_uring"]' "$fx/campaign.json" > "$bad/campaign.json"
bad "gcov_dirs: a directory without .gcno" "io_uring"

# ... or with its notes but a run without its data
fresh
jq '.kernel.gcov_dirs = ["kernel/futex", "io_uring"]' "$fx/campaign.json" > "$bad/campaign.json"
mkdir -p "$bad/gcno/io_uring"
cp "$bad/gcno/core.gcno" "$bad/gcno/io_uring/"
bad "gcov_dirs: a run without that directory's .gcda" "$bad/runs/baseline/gcov/io_uring"

fresh
echo '{ "layout_version": 1, ' > "$bad/runs/wait_get_key/run.json"
bad "broken run.json" "$bad/runs/wait_get_key/run.json"

fresh
sed -i 's/^wait_get_key EFAULT /wait_get_key EBOGUS /' "$bad/runs/baseline/sites.txt"
bad "site table with an errno that is not one" "$bad/runs/baseline/sites.txt"
grep -qF "site 'wait_get_key': errno 'EBOGUS' is not an errno name" "$work/bad-err" &&
	ok "the message names the value EBOGUS" || not_ok "the message: $(head -c 300 "$work/bad-err")"

fresh
sed -i '1s/.*/# name file errno enabled hits injected/' "$bad/runs/baseline/sites.txt"
bad "site table header with file but no line and function" "$bad/runs/baseline/sites.txt"

# sources of another kernel, whose get_key_gup is marked by another name: the
# error names the tree and the site
rm -rf "$work/src-other"
cp -r "$src" "$work/src-other"
sed -i 's/futex_fault(get_key_gup,/futex_fault(get_key_gup_renamed,/' "$work/src-other"/kernel/futex/*.c
rm -rf "$work/bad-out"
"$ffr" -q --srctree "$work/src-other" -o "$work/bad-out" "$fx" 2>"$work/bad-err" &&
	not_ok "sources lacking a site of the table: exit 0" ||
	{ grep -qF "$work/src-other: site 'get_key_gup' of the site table: no 'futex_fault(get_key_gup,'" "$work/bad-err" &&
		[ ! -e "$work/bad-out" ] &&
		ok "sources lacking a site of the table: the error names the tree and the site, no report" ||
		not_ok "sources lacking a site of the table: $(head -c 300 "$work/bad-err")"; }

# sources in the results, one missing: the error names it
fresh
mkdir -p "$bad/src"
cp -r "$src/kernel" "$bad/src/"
rm "$bad/src/kernel/futex/requeue.c"
rm -rf "$work/bad-out"
"$ffr" -q -o "$work/bad-out" "$bad" 2>"$work/bad-err" &&
	not_ok "RESULTS/src without requeue.c: exit 0" ||
	{ grep -qF "$bad/src/kernel/futex/requeue.c: cannot read the source" "$work/bad-err" &&
		[ ! -e "$work/bad-out" ] &&
		ok "RESULTS/src without requeue.c: the error names it, no report" ||
		not_ok "RESULTS/src without requeue.c: $(head -c 300 "$work/bad-err")"; }

fresh
rm -rf "$work/nosrc"
"$ffr" -q --srctree "$work/nosrc" -o "$work/bad-out" "$bad" 2>"$work/bad-err" &&
	not_ok "missing sources: exit 0" ||
	{ grep -qF "$work/nosrc/kernel/futex" "$work/bad-err" && [ ! -e "$work/bad-out" ] &&
		ok "missing source tree: error names the file, no report" ||
		not_ok "missing source tree: $(head -c 200 "$work/bad-err")"; }

# ------------------------------------------------------------ findings
#
# Kernel reports put into a copy of the fixture's logs.  The texts are real,
# captured from our guests on 2026-12-03: splat-soft-lockup.txt is the dmesg of
# build/robust/obj-debug-20261203-092635/stress/out (lines 241-288, a debug
# kernel's soft lockup at boot), splat-int3.txt the console of
# build/robust/run-stress-smp2-s4 (lines 12-51: the int3 oops in
# futex_unlock_pi and the panic after it, \r line ends kept).

check_findings='
import json, sys
rep = json.load(open(sys.argv[1]))
f = rep["findings"]
problems = eval("(" + sys.argv[2] + ")", {"f": f, "rep": rep})
if problems:
    print(json.dumps(problems)[:600])
    sys.exit(1)
print("%d finding(s)%s" % (len(f), (": " + f[-1]["title"]) if f else ""))
'

# findings WHAT EXPR: report on $bad; EXPR (Python, f = report.json's findings) is
# [] when they are right
findings()
{
	local what=$1 want=$2 out=$work/findings-out msg
	rm -rf "$out"
	if ! report -q -o "$out" "$bad" 2>"$work/findings-err"; then
		not_ok "findings, $what: report failed: $(head -c 300 "$work/findings-err")"
		return
	fi
	if msg=$(python3 -c "$check_findings" "$out/report.json" "$want" 2>&1); then
		ok "findings, $what: $msg"
	else
		not_ok "findings, $what: $msg"
	fi
}

# page_shows WHAT RUN SITE TITLE CLEAN: the row of the run, linked to its site,
# the title, the stack HTML-escaped, baseline clean yes/no
page_shows()
{
	local what=$1 run=$2 site=$3 title=$4 clean=$5 idx=$work/findings-out/index.html
	if grep -qF "<tr id=\"finding-$run\" data-finding=\"$run\"><td><a href=\"#site-$site\">$site</a>" "$idx" &&
	   grep -qF "<summary class=\"title\">$title</summary>" "$idx" &&
	   grep -qF "&lt;/TASK&gt;" "$idx" &&
	   grep -q "baseline-clean\">$clean" "$idx"; then
		ok "findings, $what: index.html shows the row, title, stack, baseline clean $clean"
	else
		not_ok "findings, $what: index.html lacks the finding of $run"
	fi
}

fresh
findings "the fixture as recorded" '[] if f == [] and rep["baseline_reports"] == [] else f'
grep -qF 'No kernel report in <span data-k="runs_scanned">5</span> runs' "$work/findings-out/index.html" &&
	ok "findings: index.html says no kernel report in 5 runs" ||
	not_ok "findings: index.html lacks the no-report line"

lockup='watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [swapper/0:1]'
fresh
cat "$here/splat-soft-lockup.txt" >> "$bad/runs/wait_get_value/dmesg.txt"
findings "soft lockup in wait_get_value's dmesg" "
[] if len(f) == 1 and f[0]['run'] == 'wait_get_value' and f[0]['sites'] == ['wait_get_value']
  and f[0]['status'] == 'ok' and f[0]['title'] == '$lockup' and f[0]['source'] == 'dmesg.txt'
  and f[0]['stack'][0] == f[0]['title'] and len(f[0]['stack']) == 48
  and f[0]['stack'][21] == ' acpi_ps_parse_aml+0x95/0x36f' and f[0]['stack'][-1] == ' </TASK>'
  and f[0]['workloads'] == ['ffdrive'] and f[0]['baseline_clean'] is True
  and f[0]['baseline_same_title'] is False else f"
page_shows "soft lockup" wait_get_value wait_get_value "$lockup" yes

# the same report in the baseline: not clean, same title (numbers masked)
sed 's/stuck for 22s/stuck for 23s/' "$here/splat-soft-lockup.txt" >> "$bad/runs/baseline/dmesg.txt"
findings "the same soft lockup in the baseline too" "
[] if len(f) == 2 and f[0]['run'] == 'baseline' and f[0]['baseline_clean'] is False
  and f[1]['run'] == 'wait_get_value' and f[1]['title'] == '$lockup'
  and f[1]['baseline_clean'] is False and f[1]['baseline_same_title'] is True
  and rep['baseline_reports'] == ['$lockup'.replace('22s', '23s')] else f"
page_shows "soft lockup in the baseline too" wait_get_value wait_get_value "$lockup" no

# a crashed run with only its console: the oops up to its end trace, the panic after it
fresh
d=$bad/runs/wake_op_atomic
sed -i 's/"status": "ok"/"status": "crash"/' "$d/run.json"
rm "$d/dmesg.txt"
cp "$here/splat-int3.txt" "$d/console.txt"
findings "int3 oops on a crashed run's console" "
[] if len(f) == 1 and f[0]['run'] == 'wake_op_atomic' and f[0]['status'] == 'crash'
  and f[0]['sites'] == ['wake_op_atomic'] and f[0]['title'] == 'int3: 0000 [#1] SMP'
  and f[0]['source'] == 'console.txt' and f[0]['stack'][2] == 'RIP: 0010:futex_unlock_pi+0x58/0x5d8'
  and f[0]['stack'][-1] == '---[ end trace 0000000000000000 ]---'
  and f[0]['other_reports'] == ['Kernel panic - not syncing: Fatal exception in interrupt']
  and f[0]['baseline_clean'] is True else f"
page_shows "int3 oops" wake_op_atomic wake_op_atomic "int3: 0000 [#1] SMP" yes

# a hung run as the campaign keeps it: hang-wake_op_atomic/ holds the run.json,
# console.txt and stack.txt of wake_op_atomic's run in tests/campaign/mutants.sh
# (skip-unlock, 6.12, recorded 2026-12-07): the console from the run's start
# with the SysRq output and the trace buffer, the vCPUs read through QEMU's
# monitor.  The finding names the site, the stuck stack and the last fault,
# and gives the command that reproduces it.
fresh
d=$bad/runs/wake_op_atomic
rm -f "$d"/dmesg.txt "$d"/trace.dat*
cp "$here"/hang-wake_op_atomic/run.json "$here"/hang-wake_op_atomic/console.txt \
	"$here"/hang-wake_op_atomic/stack.txt "$d/"
hang_stack=$(head -n 1 "$d/stack.txt")
findings "a hung run with its vCPUs' stacks and trace buffer" "
[] if len(f) == 1 and f[0]['run'] == 'wake_op_atomic' and f[0]['status'] == 'hang'
  and 'in futex_wake_op+' in f[0]['health'] and 'last fault: site=wake_op_atomic' in f[0]['health']
  and '$hang_stack' in f[0]['stack']
  and (f[0]['source'] == 'console.txt' or
       (f[0]['source'] == 'stack.txt' and f[0]['title'] == 'hang: ' + f[0]['health']
        and any('futex_fault_inject: site=wake_op_atomic' in l for l in f[0]['stack'])))
  and f[0]['reproduce'] == 'scripts/repro $bad wake_op_atomic' else f"
grep -qF "<code class=\"repro\">scripts/repro $bad wake_op_atomic</code>" "$work/findings-out/index.html" &&
	ok "findings: index.html gives the command that reproduces the hang" ||
	not_ok "findings: index.html lacks the reproducer of the hang"
jq -e '[.findings[] | select(.run == "baseline") | .reproduce] | all(. == null)' \
	"$work/findings-out/report.json" >/dev/null &&
	ok "findings: no reproducer for the baseline" || not_ok "findings: a reproducer for the baseline"

# ------------------------------------------------------------ fail-nth

# an --nth campaign's nth.tsv (nth-get_robust_list.tsv: recorded by
# tests/campaign/nth.sh on 6.12, 2026-12-07), beside a copy of the fixture:
# summed per scenario in report.json and shown in index.html; a line that is
# not one is refused, naming the file and line, with no report written
fresh
cp "$here/nth-get_robust_list.tsv" "$bad/nth.tsv"
rm -rf "$work/nth-out"
if report -q -o "$work/nth-out" "$bad" 2>"$work/nth-err" &&
   jq -e '.nth == { calls: 16, runs: 48, injected: 32, errors: 32, succeeded: 0, failed: 0,
		    scenarios: [ { name: "get_robust_list", calls: 16, runs: 48, injected: 32,
				   errors: 32, succeeded: 0, failed: 0 } ] }' \
	"$work/nth-out/report.json" >/dev/null; then
	ok "nth.tsv: report.json sums get_robust_list's 48 (call, N) runs: 16 calls, 32 injected, 32 errors"
else
	not_ok "nth.tsv: report.json has $(jq -c .nth "$work/nth-out/report.json" 2>/dev/null) $(head -c 200 "$work/nth-err")"
fi
grep -qF '<tr><td>get_robust_list</td><td class="n">16</td><td class="n">48</td><td class="n">32</td><td class="n">32</td><td class="n">0</td><td class="n">0</td></tr>' \
	"$work/nth-out/index.html" &&
	ok "nth.tsv: index.html has the scenario's row" || not_ok "nth.tsv: no row in index.html"
jq -e '.nth == null' "$work/report/report.json" >/dev/null &&
	ok "no nth.tsv: report.json's nth is null" || not_ok "no nth.tsv: nth is not null"
sed -i '5s/\t2\t/\t0\t/' "$bad/nth.tsv"
rm -rf "$work/nth-out"
report -q -o "$work/nth-out" "$bad" 2>"$work/nth-err"
rc=$?
[ $rc = 1 ] && grep -qF "$bad/nth.tsv: line 5: not a line of nth.tsv" "$work/nth-err" && [ ! -e "$work/nth-out" ] &&
	ok "nth.tsv with call 0 on line 5: exit 1, file and line named, no report" ||
	not_ok "nth.tsv with call 0: rc $rc, $(head -c 200 "$work/nth-err")"

# ------------------------------------------------------------ fuzz regressions

# every input a fuzz target failed on (tests/report/fuzz/<target>/), and the
# fixture through the same targets, built with ASan and UBSan (make fuzz-regress)
fuzz_run()
{
	local t=$1 what=$2 bin=$tool/fuzz/build/$1.regress
	shift 2
	if [ ! -x "$bin" ]; then
		not_ok "$t: $bin not built (make -C tools/futex-fault-report fuzz-regress)"
	elif FFR_FUZZ_FIXTURE=$fx FFR_FUZZ_REPORT=$work/report/report.json \
	     ASAN_OPTIONS=max_allocation_size_mb=2048:detect_leaks=1 \
	     UBSAN_OPTIONS=halt_on_error=1 "$bin" "$@" > "$work/fuzz.out" 2>&1; then
		ok "$t under ASan+UBSan: $what ($# inputs)"
	else
		not_ok "$t under ASan+UBSan: $what: $(grep -m1 -E 'ERROR|runtime error' "$work/fuzz.out")"
	fi
}
for d in "$here"/fuzz/*/; do
	set -- "$d"*
	[ -e "$1" ] && fuzz_run "$(basename "$d")" "regression inputs" "$@"
done
mkdir -p "$work/records"
FFR_FUZZ_FIXTURE=$fx FFR_FUZZ_DUMP=$work/records "$tool/fuzz/build/fuzz_trace.regress" >/dev/null 2>&1
fuzz_run fuzz_trace "the fixture's records" "$work"/records/*
fuzz_run fuzz_report_json "the fixture's report.json" "$work/report/report.json"

# ------------------------------------------------------------ the plugin

plugdir=$work/plugins
mkdir -p "$plugdir"
cp "$tool/plugin_futex_fault.so" "$plugdir/"
trace=$fx/runs/wait_get_value/trace.dat
TRACEEVENT_PLUGIN_DIR=$plugdir trace-cmd report "$trace" > "$work/plain.txt" 2>"$work/plain.err"
line=$(grep -m1 futex_fault_inject "$work/plain.txt")
if echo "$line" | grep -qE "site=wait_get_value err=EFAULT uaddr=0x[0-9a-f]+ call_site=futex_wait_setup\+0x[0-9a-f]+$"; then
	ok "plugin: $(echo "$line" | sed 's/.*futex_fault_inject: *//')"
else
	not_ok "plugin output: $line"
fi
TRACEEVENT_PLUGIN_DIR=$plugdir trace-cmd report -O "futex_fault:report=$work/report/report.json" \
	"$trace" > "$work/rep.txt" 2>&1
want=$(python3 -c '
import json, sys
s = [s for s in json.load(open(sys.argv[1]))["sites"] if s["name"] == "wait_get_value"][0]
o = s["outcomes"]
print("[fired=%d recovered=%d error=%d exit=%d noreturn=%d recovery_lines=%d error_lines=%d]" % (
    s["fired"], o["recovered"], o["error"], o["exit"], o["noreturn"],
    s["recovery"]["lines_total"], s["recovery"]["error_lines"]))' "$work/report/report.json")
grep -m1 futex_fault_inject "$work/rep.txt" | grep -qF -- "$want" &&
	ok "plugin with -O futex_fault:report=: $want" ||
	not_ok "plugin with report: $(grep -m1 futex_fault_inject "$work/rep.txt")"
# report.json is read once, when the plugin is loaded: a broken one is said
# once, naming it, however many events follow, and its events print plain
echo '{ "sites": [' > "$work/broken.json"
TRACEEVENT_PLUGIN_DIR=$plugdir trace-cmd report -O "futex_fault:report=$work/broken.json" \
	"$trace" > "$work/rep-broken.txt" 2>&1
n_msg=$(grep -c "plugin_futex_fault: $work/broken.json: not valid JSON: line 2" "$work/rep-broken.txt")
[ "$n_msg" = 1 ] && ! grep futex_fault_inject "$work/rep-broken.txt" | grep -qF -e '[fired=' -e '[not in report]' &&
	ok "plugin with a broken report.json: one message naming it, events without annotation" ||
	not_ok "plugin with a broken report.json: $n_msg messages; $(grep -m1 futex_fault_inject "$work/rep-broken.txt")"
# even a trace without futex_fault_inject events (the baseline's) loads it
TRACEEVENT_PLUGIN_DIR=$plugdir trace-cmd report -O "futex_fault:report=$work/no-such.json" \
	"$fx/runs/baseline/trace.dat" > "$work/rep-none.txt" 2>&1
grep -qF "plugin_futex_fault: $work/no-such.json: No such file or directory" "$work/rep-none.txt" &&
	! grep -q futex_fault_inject "$work/rep-none.txt" &&
	ok "plugin reads report.json when loaded, not at the first event" ||
	not_ok "plugin on a trace without events did not read report.json: $(grep -m1 plugin_futex "$work/rep-none.txt")"
TRACEEVENT_PLUGIN_DIR=$plugdir trace-cmd list -O 2>/dev/null | grep -A1 "plugin:.*futex_fault" | grep -q "option:.*report" &&
	ok "trace-cmd list -O shows futex_fault:report" || not_ok "trace-cmd list -O lacks futex_fault:report"
n_events=$(grep -c futex_fault_inject "$work/plain.txt")
n_report=$(python3 -c 'import json,sys; print([s for s in json.load(open(sys.argv[1]))["sites"] if s["name"] == "wait_get_value"][0]["fired"])' "$work/report/report.json")
[ "$n_events" = "$n_report" ] && ok "trace-cmd report shows $n_events events, report.json fired $n_report" ||
	not_ok "trace-cmd report shows $n_events events, report.json fired $n_report"

# ------------------------------------------------------------ per-fault outcomes

# faults/<run>.tsv: one line per injected fault, for the plugin
# (-O futex_fault:faults=); report.json's runs name them
check_files='
import json, os, sys
rep, out = json.load(open(sys.argv[1])), sys.argv[2]
bad, n = [], 0
for r in rep["runs"]:
    want = "faults/%s.tsv" % r["name"] if r["injected"] else None
    if r["faults"] != want:
        bad.append("%s: faults %s" % (r["name"], r["faults"]))
        continue
    if not want:
        continue
    lines = open(os.path.join(out, want)).read().splitlines()
    if lines[:2] != ["# futex-fault-report faults/1", "# ts\tcpu\tpid\tsite\toutcome\terrno"] or \
       len(lines) - 2 != r["injected"]:
        bad.append("%s: %d lines for %d faults" % (want, len(lines) - 2, r["injected"]))
    ts = [int(l.split("\t")[0]) for l in lines[2:]]
    if ts != sorted(ts):
        bad.append(want + ": not in time order")
    n += 1
print("; ".join(bad) if bad else "%d runs with faults, one line each, in time order" % n)
sys.exit(1 if bad else 0)
'
if msg=$(python3 -c "$check_files" "$work/report/report.json" "$work/report" 2>&1); then
	ok "faults/<run>.tsv: $msg"
else
	not_ok "faults/<run>.tsv: $msg"
fi

# faults TRACE FILE OUT [-O ...]: trace-cmd report -t with the plugin and faults=FILE
faults()
{
	local trace=$1 file=$2 out=$3
	shift 3
	TRACEEVENT_PLUGIN_DIR=$plugdir trace-cmd report -t -O "futex_fault:faults=$file" "$@" \
		"$trace" > "$out" 2>&1
}

# each fault's line says its own outcome: the counts are report.json's, and
# each is what the task's own next events say (check_faults.py)
for r in $(jq -r '.runs[] | select(.faults) | .name' "$work/report/report.json"); do
	faults "$fx/runs/$r/trace.dat" "$work/report/faults/$r.tsv" "$work/faults-$r.txt"
	if msg=$(python3 "$here/check_faults.py" "$work/report/report.json" "$r" "$work/faults-$r.txt" 2>&1); then
		ok "plugin faults=: $msg"
	else
		not_ok "plugin faults=: $r: $msg"
	fi
done
line=$(grep -m1 futex_fault_inject "$work/faults-wait_get_value.txt")
echo "$line" | grep -qE "site=wait_get_value err=EFAULT uaddr=0x[0-9a-f]+ call_site=futex_wait_setup\+0x[0-9a-f]+ outcome=error errno=EAGAIN$" &&
	ok "plugin faults=: wait_get_value injects EFAULT, user space saw EAGAIN: $(echo "$line" | sed 's/.*futex_fault_inject: *//')" ||
	not_ok "plugin faults=: wait_get_value: $line"
grep -m1 futex_fault_inject "$work/faults-wake_op_atomic.txt" | grep -qE "call_site=futex_wake_op\+0x[0-9a-f]+ outcome=recovered$" &&
	ok "plugin faults=: wake_op_atomic's fault recovered, no errno" ||
	not_ok "plugin faults=: wake_op_atomic: $(grep -m1 futex_fault_inject "$work/faults-wake_op_atomic.txt")"
# with report= too: the fault's outcome, then the site's totals
faults "$trace" "$work/report/faults/wait_get_value.tsv" "$work/faults-both.txt" \
	-O "futex_fault:report=$work/report/report.json"
grep -m1 futex_fault_inject "$work/faults-both.txt" | grep -qE " outcome=error errno=EAGAIN \[fired=5 recovered=0 error=5 " &&
	ok "plugin faults= and report=: the fault's outcome, then the site's totals" ||
	not_ok "plugin faults= and report=: $(grep -m1 futex_fault_inject "$work/faults-both.txt")"

# each line is looked up by its own time stamp, CPU and pid: a file saying
# the third fault recovered makes that line, and only it, say so
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 5 { $5 = "recovered"; $6 = "-" } { print }' \
	"$work/report/faults/wait_get_value.tsv" > "$work/third.tsv"
faults "$trace" "$work/third.tsv" "$work/faults-third.txt"
got=$(grep futex_fault_inject "$work/faults-third.txt" | sed -n 's/.* outcome=\([a-z]*\).*/\1/p' | tr '\n' ' ')
[ "$got" = "error error recovered error error " ] &&
	ok "plugin faults=: each event its own line (the third made recovered: $got)" ||
	not_ok "plugin faults=: the third made recovered: $got"
# another run's file has none of this trace's faults
faults "$trace" "$work/report/faults/wake_op_atomic.tsv" "$work/faults-other.txt"
[ "$(grep futex_fault_inject "$work/faults-other.txt" | grep -c ' \[not in faults\]$')" = 5 ] &&
	ok "plugin faults= of another run: every event [not in faults]" ||
	not_ok "plugin faults= of another run: $(grep -m1 futex_fault_inject "$work/faults-other.txt")"

# bad_faults WHAT FILE MESSAGE: said once, naming the file, and the events
# are printed plain, the site's totals (report=) still with them
bad_faults()
{
	local what=$1 file=$2 msg=$3 out=$work/faults-bad.txt nmsg
	faults "$trace" "$file" "$out" -O "futex_fault:report=$work/report/report.json"
	nmsg=$(grep -cF -- "plugin_futex_fault: $file$msg" "$out")
	if [ "$nmsg" = 1 ] && [ "$(grep -c futex_fault_inject "$out")" = 5 ] &&
	   ! grep futex_fault_inject "$out" | grep -qF -e ' outcome=' -e '[not in faults]' &&
	   [ "$(grep futex_fault_inject "$out" | grep -c 'call_site=futex_wait_setup+0x[0-9a-f]* \[fired=5 ')" = 5 ]; then
		ok "plugin faults=, $what: one message naming it, plain event lines ($(grep -m1 plugin_futex_fault "$out"))"
	else
		not_ok "plugin faults=, $what: $nmsg messages; $(grep -m1 -e plugin_futex_fault -e futex_fault_inject "$out")"
	fi
}
good=$work/report/faults/wait_get_value.tsv
bad_faults "a missing file" "$work/no-such.tsv" ": No such file or directory"
printf '{ "sites": [] }\n' > "$work/f-json.tsv"
bad_faults "report.json given as faults" "$work/f-json.tsv" ":1: not a futex-fault-report faults file"
: > "$work/f-empty.tsv"
bad_faults "an empty file" "$work/f-empty.tsv" ":0: not a futex-fault-report faults file (empty or no header)"
head -c -1 "$good" > "$work/f-trunc.tsv"
bad_faults "the last line cut" "$work/f-trunc.tsv" ":7: truncated: the last line has no newline"
sed '4s/\t[0-9]*\t/\tx\t/' "$good" > "$work/f-cpu.tsv"
bad_faults "a cpu that is no number" "$work/f-cpu.tsv" ":4: cpu or pid is not a number"
sed '5s/error/erred/' "$good" > "$work/f-oc.tsv"
bad_faults "an unknown outcome" "$work/f-oc.tsv" ":5: not an outcome"
sed '6s/\tEAGAIN$/\t-/' "$good" > "$work/f-errno.tsv"
bad_faults "an error without errno" "$work/f-errno.tsv" ":6: an error needs an errno"
{ head -n 2 "$good"; tail -n +3 "$good" | sort -r; } > "$work/f-order.tsv"
bad_faults "lines out of time order" "$work/f-order.tsv" ":4: not in time order"
TRACEEVENT_PLUGIN_DIR=$plugdir trace-cmd list -O 2>/dev/null | grep -A3 "plugin:.*futex_fault" | grep -q "option:.*faults" &&
	ok "trace-cmd list -O shows futex_fault:faults" || not_ok "trace-cmd list -O lacks futex_fault:faults"

# ------------------------------------------------------------ the site locator

# v2's site table has no file, line and function: the reporter finds each
# site's futex_fault(<name>, marker in the sources and its function in gcov.
# Every site of the table is found on a line holding its marker; each site
# that ran is on a line its own run's gcov data counts as executed, in the
# function the kernel's call_site column names, or in one inlined into it
# (exit_robust_list into futex_cleanup: gcov knows the source's function,
# kallsyms only the one it was compiled into, and the trace's kallsyms
# lacks the inlined one).
check_locator='
import json, os, re, subprocess, sys, tempfile, shutil
rep, fx, src = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
base = [l.split()[0] for l in open(fx + "/runs/baseline/sites.txt") if not l.startswith("#")]
sites = {s["name"]: s for s in rep["sites"]}
bad = []
def executed(run, f, line):
    tmp = tempfile.mkdtemp()
    b = os.path.basename(f)[:-2]
    shutil.copy(fx + "/gcno/" + b + ".gcno", tmp)
    shutil.copy(fx + "/runs/" + run + "/gcov/" + b + ".gcda", tmp)
    out = subprocess.run(["gcov", "-t", "-j", "-o", ".", b + ".c"], cwd=tmp,
                         capture_output=True, text=True, check=True).stdout
    shutil.rmtree(tmp)
    for g in json.loads(out.splitlines()[0])["files"]:
        if os.path.basename(g["file"]) == b + ".c":
            return any(l["line_number"] == line and l["count"] > 0 for l in g["lines"])
    return False
ran, inlined = 0, []
for name in base:
    s = sites.get(name)
    if not s or not s.get("line_from_source") or s["line"] <= 0:
        bad.append("%s: not located" % name)
        continue
    text = open(os.path.join(src, s["file"])).read().splitlines()[s["line"] - 1]
    if "futex_fault(%s," % name not in text:
        bad.append("%s: %s:%d is not its marker" % (name, s["file"], s["line"]))
    if not s["run"]:
        continue
    cs = [l.split() for l in open(fx + "/runs/" + s["run"] + "/sites.txt") if l.startswith(name + " ")][0][-1]
    if cs == "-":
        continue
    ran += 1
    fn = re.sub(r"\+.*", "", cs)
    if s["function"] != fn:
        syms = subprocess.run(["trace-cmd", "report", "-f", fx + "/runs/" + s["run"] + "/trace.dat"],
                              capture_output=True, text=True).stdout.split()
        if fn not in syms or s["function"] in syms:
            bad.append("%s: function %s, call_site %s" % (name, s["function"], cs))
        else:
            inlined.append("%s in %s" % (s["function"], fn))
    if not executed(s["run"], s["file"], s["line"]):
        bad.append("%s: %s:%d not executed in run %s" % (name, s["file"], s["line"], s["run"]))
if bad or ran == 0:
    print("; ".join(bad)[:500] or "no site ran")
    sys.exit(1)
print("%d sites on their markers; the %d that ran on a line gcov ran, in call_site'"'"'s function (inlined: %s)" %
      (len(base), ran, ", ".join(inlined) or "none"))
'
if msg=$(python3 -c "$check_locator" "$work/report/report.json" "$fx" "$src" 2>&1); then
	ok "locator: $msg"
else
	not_ok "locator: $msg"
fi

# ------------------------------------------------------------ interface v2 in C

# the decoder and the plugin on the recorded v2 traces, the site locator's
# edge cases on copies of the fixture's sources (test_kernel_v2.c); the v1
# fixture's traces say which op each site's workload call was
fixture_unpack "$here/fixture-v1.tar.xz" "$work/v1"
fx1=$work/v1/fixture
# its sources rebuilt from the pristine tree and series v1 (fixtures.sh)
fixture_v1_sources "$fx1"
if "$here/test_kernel_v2" "$src" "$fx" "$fx1" > "$work/v2.tap" 2>&1; then
	ok "interface v2: $(grep -c '^ok' "$work/v2.tap") checks of the decoder, the plugin and the site locator"
else
	not_ok "interface v2: $(grep -m3 '^not ok' "$work/v2.tap" | tr '\n' ' ')"
fi
sed -e 's/^/# v2: /' "$work/v2.tap"

# ------------------------------------------------------------ interface v1

# fixture-v1.tar.xz, recorded from the kernel's interface v1 (the site table
# names file, line and function; futex_fault_inject has name, op and
# caller), with the sources rebuilt above in fixture/src: the reporter reads
# them from the results directory, no --srctree
if "$ffr" -q -o "$work/report-v1" "$fx1" 2>"$work/v1-err" &&
   [ "$(jq -r .kernel.srctree "$work/report-v1/report.json")" = "$fx1/src" ]; then
	ok "v1: report on the v1 fixture, from its own sources"
else
	not_ok "v1: report on the v1 fixture: $(head -c 300 "$work/v1-err")"
fi
python3 "$here/check_report.py" json "$work/report-v1" "$fx1" "$fx1/gcno" "$fx1/src" > "$work/tap" 2>&1
sed -e 's/^\(not \)\{0,1\}ok [0-9]* - /&v1 json: /' "$work/tap" | while read -r l; do echo "# $l"; done
grep -q "^not ok" "$work/tap" && not_ok "v1: report.json checks (see above)" ||
	ok "v1: report.json: $(grep -c '^ok' "$work/tap") checks against the site tables, gcov and lcov"
# v1's table says 0 for the line of a site that has not run: only those
# lines are looked up in the sources
check_v1_table='
import glob, json, sys
rep = json.load(open(sys.argv[1]))
t = {}
for p in sorted(glob.glob(sys.argv[2] + "/runs/*/sites.txt")):
    for l in open(p):
        c = l.split()
        if c and not c[0].startswith("#") and (c[0] not in t or int(c[2])):
            t[c[0]] = c
bad = [s["name"] for s in rep["sites"]
       if [s["file"], s["function"]] != [t[s["name"]][1], t[s["name"]][3]] or
          (s["line_from_source"] != (t[s["name"]][2] == "0")) or
          (not s["line_from_source"] and s["line"] != int(t[s["name"]][2]))]
print("%d sites, %d lines from the table, %d from the sources%s" % (len(rep["sites"]),
      sum(not s["line_from_source"] for s in rep["sites"]),
      sum(s["line_from_source"] for s in rep["sites"]), (": differ: " + " ".join(bad)) if bad else ""))
sys.exit(1 if bad else 0)
'
if msg=$(python3 -c "$check_v1_table" "$work/report-v1/report.json" "$fx1" 2>&1); then
	ok "v1: file and function from the kernel's table, its line where it gives one: $msg"
else
	not_ok "v1: sites and the kernel's table: $msg"
fi
line=$(TRACEEVENT_PLUGIN_DIR=$plugdir trace-cmd report "$fx1/runs/wait_get_value/trace.dat" 2>/dev/null |
	grep -m1 futex_fault_inject)
if echo "$line" | grep -qE "site=wait_get_value err=EFAULT op=FUTEX_WAIT_PRIVATE uaddr=0x[0-9a-f]+ caller=futex_wait_setup\+0x[0-9a-f]+$"; then
	ok "v1: plugin: $(echo "$line" | sed 's/.*futex_fault_inject: *//')"
else
	not_ok "v1: plugin output: $line"
fi

# ------------------------------------------------------------ the pages in a browser

if why=$(chromium_skip); then
	skip "headless Chromium: $why"
else
	chromium_dom "$work/report/index.html" /dev/null > "$work/index.html.dom"
	chromium_dom "$work/report/files/waitwake.c.html" /dev/null > "$work/waitwake.c.html.dom"
	python3 "$here/check_report.py" html "$work/report" "$work/index.html.dom" \
		"$work/waitwake.c.html.dom" > "$work/tap" 2>&1
	while read -r l; do echo "# html: $l"; done < "$work/tap"
	if [ -s "$work/index.html.dom" ] && ! grep -q "^not ok" "$work/tap"; then
		ok "Chromium: index.html and waitwake.c.html show report.json's numbers ($(grep -c '^ok' "$work/tap") checks)"
	else
		not_ok "Chromium: pages differ from report.json (see above)"
	fi
fi

echo "1..$n"
[ $fail = 0 ] || { echo "# $fail of $n failed"; exit 1; }
