#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of futex-fault-report --compare on the recorded fixtures: series v1
# (fixture-v1.tar.xz) against v2 (fixture.tar.xz), the fixture against itself,
# against a copy whose sources have blank lines and comments inserted above
# error paths, against copies made from the recorded data (a site that stops
# firing, an outcome that gets worse, a new kernel report, an errno that
# changes), bad input, and the pages in headless Chromium.
#
# usage: compare-tests.sh TOOLDIR
#   FF_TREE     work tree holding the fixtures' source blobs (default build/6.1/linux)
#   CHROMIUM    browser (default /usr/bin/chromium); SKIP_BROWSER=1 skips it

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tool=${1:?usage: compare-tests.sh TOOLDIR}
ffr=$tool/futex-fault-report

work=$(mktemp -d /tmp/ffr-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT

. "$repo/tests/tap.sh"
. "$here/fixtures.sh"
. "$here/chromium.sh"
export TAP_DIAG_FILE=$work/diag

tap_start

# the v2 fixture with its sources in src/, as a campaign leaves them; the v1
# fixture with its sources rebuilt (fixtures.sh)
fixture_unpack "$here/fixture.tar.xz" "$work/v2"
fx=$work/v2/fixture
fixture_v2_sources "$fx" "$fx/src"
fixture_unpack "$here/fixture-v1.tar.xz" "$work/v1"
fx1=$work/v1/fixture
fixture_v1_sources "$fx1"

# compare EXPECTED_STATUS WHAT ARGS...: run --compare, $rc its status, stdout in $work/out
compare()
{
	local want=$1 what=$2
	shift 2
	rc=0
	"$ffr" --compare "$@" >"$work/out" 2>"$work/diag" || rc=$?
	cat "$work/out" >> "$work/diag"
	tap_ok $(( rc != want )) "$what: exit status $rc"
}

# jqt WHAT FILTER FILE: the jq filter is true
jqt()
{
	jq -e "$2" "$3" >/dev/null 2>"$work/diag"
	tap_ok $? "$1"
}

# the normal reports of both, for the independent check of the categories
"$ffr" -q -o "$work/rep1" "$fx1" 2>"$work/diag"
tap_ok $? "report on the v1 fixture"
"$ffr" -q -o "$work/rep2" "$fx" 2>"$work/diag"
tap_ok $? "report on the v2 fixture"
grep -c '<svg' "$work/rep2/index.html" > "$work/diag"
[ "$(cat "$work/diag")" = 2 ] && grep -q 'id="chart-outcomes"' "$work/rep2/index.html" &&
	grep -q 'id="chart-coverage"' "$work/rep2/index.html"
tap_ok $? "the report's index.html has its two charts (outcomes per site, error-path coverage per file)"

# ------------------------------------------------------------ v1 -> v2

start=$(date +%s.%N)
compare 0 "v1 -> v2 (no regression in the default --fail-on)" -o "$work/c12" "$fx1" "$fx"
secs=$(echo "$(date +%s.%N) - $start" | bc)
tap_diag "v1 -> v2 took $secs s: $(grep -E 'verdict|categories' "$work/out" | tr -s ' ' | tr '\n' ';')"
for f in compare.json index.html files/waitwake.c.html files/core.c.html; do
	[ -s "$work/c12/$f" ]
	tap_ok $? "v1 -> v2: wrote $f"
done
python3 "$here/check_compare.py" sites "$work/c12" "$fx1" "$fx" > "$work/tap" 2>&1
st=$?
sed 's/^/#   /' "$work/tap"
cp "$work/tap" "$work/diag"
tap_ok $st "v1 -> v2: the sites matched by name, the 7 new in v2, the counts ($(grep -c '^ok' "$work/tap") checks)"
python3 "$here/check_compare.py" categories "$work/c12" "$fx1" "$work/rep1" "$fx" "$work/rep2" \
	> "$work/tap" 2>&1
st=$?
sed 's/^/#   /' "$work/tap"
cp "$work/tap" "$work/diag"
tap_ok $st "v1 -> v2: every error-path line's category derived independently ($(grep -c '^ok' "$work/tap") checks)"
# what series v2 changed: futex_fault() got the shared argument, so the
# marker lines of the sites that v1 had are deleted and new; seven sites are new
jqt "v1 -> v2: the seven sites new in v2 are present only in NEW" \
	'[.sites[] | select(.present == {"old": false, "new": true}) | .name] | sort ==
	 ["death_cmpxchg_eagain", "fixup_owner_cmpxchg_eagain", "get_key_gup_ro",
	  "lock_pi_update_cmpxchg_eagain", "unlock_pi_cmpxchg_eagain", "wake_op_atomic_eagain",
	  "wake_pi_cmpxchg_eagain"]' "$work/c12/compare.json"
jqt "v1 -> v2: wait_setup's marker is a deleted covered line (DCB) and a new covered one (GNC)" \
	'[.files[] | select(.file == "kernel/futex/waitwake.c") | .lines[] |
	  select(.function == "futex_wait_setup" and (.text | test("futex_fault\\(wait_get_user"))) |
	  .category] == ["DCB", "GNC"]' "$work/c12/compare.json"
jqt "v1 -> v2: no lost line, verdict no regression, uncovered-new noted but not failing" \
	'.categories.LBC == 0 and .verdict == "no regression" and .regressions_failing == 0 and
	 .regression_counts["uncovered-new"] == .categories.UNC and .categories.UNC > 0 and
	 ([.regressions[] | select(.fails)] | length) == 0' "$work/c12/compare.json"
grep -q "^  verdict          no regression" "$work/out" &&
	grep -q "^  categories       CBC [0-9]* LBC 0 " "$work/out" &&
	grep -q "note uncovered-new        kernel/futex/core.c:211 (get_futex_key)" "$work/out"
tap_ok $? "v1 -> v2: the summary gives the verdict, the categories and the regressions"

compare 0 "v1 -> v2 with --fail-on lost-line" --fail-on lost-line -q -o "$work/c-x" "$fx1" "$fx"
compare 3 "v1 -> v2 with --fail-on all: uncovered-new fails" --fail-on all -q -o "$work/c-x" "$fx1" "$fx"
jqt "--fail-on all: compare.json says regression, exit_status 3" \
	'.verdict == "regression" and .exit_status == 3 and .regressions_failing == .categories.UNC' \
	"$work/c-x/compare.json"

# a report directory as OLD: its report.json names the results directory
compare 0 "the v1 report directory as OLD" -q -o "$work/c12r" "$work/rep1" "$fx"
cmp -s <(jq -S 'del(.old.argument)' "$work/c12/compare.json") \
	<(jq -S 'del(.old.argument)' "$work/c12r/compare.json")
tap_ok $? "a report directory as OLD gives the same compare.json"

# ------------------------------------------------------------ the fixture against itself

compare 0 "the fixture against itself" -o "$work/self" "$fx" "$fx"
jqt "the fixture against itself: no regression, only CBC and UBC, CBC = covered error-path lines" \
	'.verdict == "no regression" and (.regressions | length) == 0 and
	 ([.categories | to_entries[] | select(.key != "CBC" and .key != "UBC") | .value] | add) == 0 and
	 .categories.CBC == .new.error_lines_covered and
	 .categories.CBC + .categories.UBC == .new.error_lines_total' "$work/self/compare.json"
# the default OUT: NEW/compare
rm -rf "$fx/compare"
compare 0 "without -o" -q "$fx" "$fx"
[ -s "$fx/compare/compare.json" ]
tap_ok $? "without -o the comparison is in NEW/compare"
rm -rf "$fx/compare"

# ------------------------------------------------------------ inserted lines

# A copy of the fixture whose sources have a blank line and a comment above
# every error-path line.  The coverage data of the real build cannot know
# the new numbers, so gcov's JSON is shifted to them on the way: the
# reporter is given a gcov that runs gcov and moves every line number of
# the shifted copy's sources (its .gcno are the copy's) by the lines
# inserted above it.
cp -r "$fx" "$work/shift"
python3 - "$work/rep2" "$work/shift" > "$work/shift.map" <<'EOF'
import json, os, re, sys
rep, res = sys.argv[1], sys.argv[2]
shift = {}
for f in json.load(open(rep + "/report.json"))["files"]:
    page = open(os.path.join(rep, f["page"])).read()
    ep = sorted(int(m.group(1)) for m in re.finditer(r'<tr id="L(\d+)" class="\w+ ep"', page))
    if not ep:
        continue
    path = os.path.join(res, "src", f["file"])
    lines = open(path).read().split("\n")
    for ln in reversed(ep):
        lines[ln - 1:ln - 1] = ["", "\t/* a comment above an error path */"]
    open(path, "w").write("\n".join(lines))
    shift[os.path.basename(f["file"])] = ep
json.dump(shift, sys.stdout)
EOF
cat > "$work/gcov-shift" <<EOF
#!/usr/bin/env python3
import bisect, glob, json, os, subprocess, sys
out = subprocess.run(["gcov"] + sys.argv[1:], capture_output=True, text=True)
sys.stderr.write(out.stderr)
gcno = glob.glob("*.gcno")
if not gcno or not os.path.realpath(gcno[0]).startswith("$work/shift/"):
    sys.stdout.write(out.stdout)
    sys.exit(out.returncode)
shift = json.load(open("$work/shift.map"))
def moved(ep, ln):
    return ln + 2 * bisect.bisect_right(ep, ln)
for doc in out.stdout.splitlines():
    if not doc.strip():
        continue
    d = json.loads(doc)
    for f in d["files"]:
        ep = shift.get(os.path.basename(f["file"]))
        if not ep:
            continue
        for l in f["lines"]:
            l["line_number"] = moved(ep, l["line_number"])
        for fn in f["functions"]:
            fn["start_line"] = moved(ep, fn["start_line"])
            fn["end_line"] = moved(ep, fn["end_line"])
    print(json.dumps(d))
sys.exit(out.returncode)
EOF
chmod +x "$work/gcov-shift"
tap_diag "inserted $(jq '[.[] | length] | add * 2' "$work/shift.map") lines above $(jq '[.[] | length] | add' "$work/shift.map") error-path lines"
compare 0 "lines inserted above error paths" --gcov "$work/gcov-shift" --fail-on all -o "$work/c-shift" "$fx" "$work/shift"
jq -e --slurpfile self "$work/self/compare.json" \
	'.categories.LBC == 0 and .categories == $self[0].categories and (.regressions | length) == 0' \
	"$work/c-shift/compare.json" >/dev/null 2>"$work/diag"
tap_ok $? "lines inserted above error paths: no LBC, none new or deleted: the categories of the fixture against itself"
jqt "lines inserted above error paths: the lines moved (NEW's numbers are not OLD's)" \
	'[.files[].lines[] | select(.old_line != .new_line)] | length > 0' "$work/c-shift/compare.json"

# ------------------------------------------------------------ NEW derived from the recorded data

# wait_get_value's run with the baseline's trace: the site no longer fires
cp -r "$fx" "$work/stop"
cp "$fx/runs/baseline/trace.dat" "$work/stop/runs/wait_get_value/trace.dat"
compare 3 "a site that stopped firing" -o "$work/c-stop" "$fx" "$work/stop"
jqt "a site that stopped firing: one regression, site-stopped-firing of wait_get_value, failing" \
	'[.regressions[] | [.category, .site, .fails]] == [["site-stopped-firing", "wait_get_value", true]] and
	 (.sites[] | select(.name == "wait_get_value") | .fired == {"old": 5, "new": 0} and
	  .regressions == ["site-stopped-firing"])' "$work/c-stop/compare.json"
grep -q "FAIL site-stopped-firing  wait_get_value: fired 5 -> 0" "$work/out"
tap_ok $? "a site that stopped firing: the summary lists it"
compare 0 "a site that stopped firing, --fail-on none" --fail-on none -q -o "$work/c-stop" "$fx" "$work/stop"
compare 0 "a site that stopped firing, --fail-on lost-line,uncovered-new" \
	--fail-on lost-line,uncovered-new -q -o "$work/c-stop" "$fx" "$work/stop"

# wake_op_atomic's recorded trace, cut by trace-cmd split between the faults
# injected into its first futex(FUTEX_WAKE_OP) call and that call's
# sys_exit: how the trace of a run ends when the call never returns (it
# hangs, or the kernel dies in it).  Its faults, all recovered in OLD, are
# noreturn in NEW: an outcome that got worse.
cut_trace()
{
	trace-cmd report -t "$1" 2>/dev/null | awk -v site="$2" '
		/ futex_fault_inject: / && index($0, "site=" site " ") && !task {
			task = $1
		}
		task && $1 == task && / futex_fault_inject: / {
			last = $3
		}
		task && $1 == task && / sys_exit: / {
			printf "%.9f\n", (last + $3) / 2
			exit
		}'
}
cp -r "$fx" "$work/worse"
wtrace=$fx/runs/wake_op_atomic/trace.dat
end=$(cut_trace "$wtrace" wake_op_atomic)
rm -f "$work"/cut.dat*
trace-cmd split -i "$wtrace" -o "$work/cut.dat" 0 "$end" >"$work/diag" 2>&1 &&
	mv "$work/cut.dat.1" "$work/worse/runs/wake_op_atomic/trace.dat"
tap_ok $? "trace-cmd split cuts wake_op_atomic's trace at $end s"
trace-cmd report "$work/worse/runs/wake_op_atomic/trace.dat" > "$work/cut.txt" 2>/dev/null
trace-cmd report "$wtrace" 2>/dev/null | head -n "$(wc -l < "$work/cut.txt")" | cmp -s - "$work/cut.txt" &&
	tail -n 1 "$work/cut.txt" | grep -q " futex_fault_inject: .*site=wake_op_atomic "
tap_ok $? "the cut trace is the recorded one up to its last injected fault ($(grep -c futex_fault_inject "$work/cut.txt") faults)"
compare 3 "an outcome that got worse" -o "$work/c-worse" "$fx" "$work/worse"
jqt "an outcome that got worse: one regression, outcome-worse of wake_op_atomic, failing" \
	'[.regressions[] | [.category, .site, .fails]] == [["outcome-worse", "wake_op_atomic", true]] and
	 .verdict == "regression" and .exit_status == 3 and .regressions_failing == 1 and
	 (.sites[] | select(.name == "wake_op_atomic") | .regressions == ["outcome-worse"] and
	  .fired.old > 0 and .fired.new == .fired.old and
	  .outcomes.recovered == {"old": .fired.old, "new": 0} and
	  .outcomes.noreturn == {"old": 0, "new": .fired.new} and
	  .outcome_worse == "noreturn 0 -> \(.fired.new) (recovered \(.fired.old) -> 0)")' \
	"$work/c-worse/compare.json"
grep -q "^  verdict          REGRESSION: 1 regression in --fail-on" "$work/out" &&
	grep -qE "^  FAIL outcome-worse +wake_op_atomic: noreturn 0 -> [1-9][0-9]* \(recovered [1-9][0-9]* -> 0\)$" "$work/out"
tap_ok $? "an outcome that got worse: the summary says REGRESSION and names the site and category"
grep -qF '<tr data-regression="outcome-worse"><td>outcome-worse</td><td class="bad">yes</td><td><a href="#site-wake_op_atomic">wake_op_atomic</a>' \
	"$work/c-worse/index.html"
tap_ok $? "an outcome that got worse: index.html lists it as failing, linked to the site"
compare 3 "an outcome that got worse, --fail-on outcome-worse" --fail-on outcome-worse -q \
	-o "$work/c-worse2" "$fx" "$work/worse"
compare 0 "an outcome that got worse, --fail-on site-stopped-firing,new-finding" \
	--fail-on site-stopped-firing,new-finding -q -o "$work/c-worse2" "$fx" "$work/worse"
jqt "an outcome that got worse, not in --fail-on: listed, not failing" \
	'[.regressions[] | [.category, .fails]] == [["outcome-worse", false]] and .verdict == "no regression"' \
	"$work/c-worse2/compare.json"

# a kernel report in wake_op_atomic's log: a new finding of that site
cp -r "$fx" "$work/splat"
cat "$here/splat-soft-lockup.txt" >> "$work/splat/runs/wake_op_atomic/dmesg.txt"
compare 3 "a new kernel report" -q -o "$work/c-splat" "$fx" "$work/splat"
jqt "a new kernel report: new-finding of wake_op_atomic, its title" \
	'[.regressions[] | [.category, .site]] == [["new-finding", "wake_op_atomic"]] and
	 (.new_findings[0].title | startswith("watchdog: BUG: soft lockup")) and
	 (.sites[] | select(.name == "wake_op_atomic") | .regressions == ["new-finding"])' \
	"$work/c-splat/compare.json"
# the same report in OLD too: nothing new
compare 0 "the same kernel report in OLD and NEW" -q -o "$work/c-splat2" "$work/splat" "$work/splat"

# a workload that checks its results failed in wake_op_atomic's run: the
# recorded run.json with its workload marked as one that checks ("checks",
# as the campaign writes it for futex_drive) and the exit status 4 that
# futex_drive gives a lost wakeup (tests/campaign/mutants.sh, lost-wakeup)
set_workload()	# DIR RUN CHECKS STATUS
{
	jq --argjson c "$3" --argjson st "$4" '.workloads[0] += { checks: $c, exit_status: $st }' \
		"$1/runs/$2/run.json" > "$1/runs/$2/run.json.new" &&
		mv "$1/runs/$2/run.json.new" "$1/runs/$2/run.json"
}
cp -r "$fx" "$work/wfail"
set_workload "$work/wfail" wake_op_atomic true 4
compare 3 "a checking workload that failed" -o "$work/c-wfail" "$fx" "$work/wfail"
jqt "a checking workload that failed: workload-failed of wake_op_atomic, failing, nothing else" \
	'[.regressions[] | [.category, .site, .fails]] == [["workload-failed", "wake_op_atomic", true]] and
	 .regressions[0].title == "run wake_op_atomic: workload ffdrive exited 4 (0 in OLD)" and
	 (.sites[] | select(.name == "wake_op_atomic") | .regressions == ["workload-failed"])' \
	"$work/c-wfail/compare.json"
grep -qF "  FAIL workload-failed      wake_op_atomic: run wake_op_atomic: workload ffdrive exited 4 (0 in OLD)" "$work/out"
tap_ok $? "a checking workload that failed: the summary names the run, the workload and its status"
cp -r "$fx" "$work/wfail-base"
set_workload "$work/wfail-base" baseline true -9
compare 3 "a checking workload killed in the baseline" -q -o "$work/c-wfail-base" "$fx" "$work/wfail-base"
jqt "a checking workload killed in the baseline: workload-failed of no site, the signal named" \
	'[.regressions[] | [.category, .site]] == [["workload-failed", null]] and
	 (.regressions[0].title | test("killed by signal 9"))' "$work/c-wfail-base/compare.json"
# failing in OLD already, or a workload that does not check: nothing
compare 0 "a checking workload failing in OLD and NEW" -q -o "$work/c-wfail2" "$work/wfail" "$work/wfail"
cp -r "$fx" "$work/wfail-nocheck"
set_workload "$work/wfail-nocheck" wake_op_atomic false 4
compare 0 "a workload that does not check, exit status 4" -q -o "$work/c-wfail3" "$fx" "$work/wfail-nocheck"
compare 0 "a checking workload that failed, --fail-on without workload-failed" \
	--fail-on site-stopped-firing,outcome-worse,errno-changed,new-finding -q -o "$work/c-wfail4" "$fx" "$work/wfail"

# wait_get_key's run given wait_get_value's recorded trace, with the two
# sites' numbers swapped in its event format (trace-cmd convert writes the
# file uncompressed; the numbers have as many digits, so no offset moves):
# the faults of futex_wait_setup()'s key lookup now end as those of its
# value read do, in EAGAIN where they were EFAULT: an error path that
# returns another errno.
swap_sites()	# IN OUT SITE1 SITE2
{
	trace-cmd convert --compression none -i "$1" -o "$2.raw" >/dev/null 2>&1 &&
	python3 - "$2.raw" "$2" "$3" "$4" <<'EOF'
import re, sys
raw, out, a, b = sys.argv[1:]
data = open(raw, "rb").read()
ids = {}
for s in (a, b):
    m = re.findall(rb'\{ (\d+), "' + s.encode() + rb'" \}', data)
    if len(m) != 1:
        sys.exit("%s: %d entries for %s in the print fmt" % (raw, len(m), s))
    ids[s] = m[0]
if len(ids[a]) != len(ids[b]):
    sys.exit("the numbers of %s and %s differ in length" % (a, b))
def entry(n, s):
    return b'{ ' + n + b', "' + s.encode() + b'" }'
hold = b'\xff' * len(ids[a])
data = data.replace(entry(ids[a], a), entry(hold, a))
data = data.replace(entry(ids[b], b), entry(ids[a], b))
data = data.replace(entry(hold, a), entry(ids[b], a))
open(out, "wb").write(data)
EOF
}
cp -r "$fx" "$work/errno"
swap_sites "$fx/runs/wait_get_value/trace.dat" "$work/errno/runs/wait_get_key/trace.dat" \
	wait_get_key wait_get_value 2>"$work/diag"
tap_ok $? "wait_get_value's trace with the numbers of wait_get_key and wait_get_value swapped"
trace-cmd report "$work/errno/runs/wait_get_key/trace.dat" 2>/dev/null > "$work/swapped.txt"
trace-cmd report "$fx/runs/wait_get_value/trace.dat" 2>/dev/null | sed 's/site=wait_get_value /site=wait_get_key /' |
	cmp -s - "$work/swapped.txt" && grep -q "site=wait_get_key " "$work/swapped.txt"
tap_ok $? "the swapped trace reads as the recorded one, its faults named wait_get_key ($(grep -c futex_fault_inject "$work/swapped.txt"))"
compare 3 "an error path that returns another errno" -o "$work/c-errno" "$fx" "$work/errno"
jqt "another errno: one regression, errno-changed of wait_get_key, failing, no other" \
	'[.regressions[] | [.category, .site, .fails]] == [["errno-changed", "wait_get_key", true]] and
	 (.sites[] | select(.name == "wait_get_key") | .regressions == ["errno-changed"] and
	  .outcomes.error == {"old": 5, "new": 5} and
	  .errors_returned == {"EFAULT": {"old": 5, "new": 0}, "EAGAIN": {"old": 0, "new": 5}} and
	  .errno_changed == "EAGAIN 0 -> 5 (its run in OLD: EFAULT 5 -> 0)")' "$work/c-errno/compare.json"
grep -qx "  FAIL errno-changed        wait_get_key: EAGAIN 0 -> 5 (its run in OLD: EFAULT 5 -> 0)" "$work/out"
tap_ok $? "another errno: the summary names the site, the errno and OLD's"
grep -qF '<tr data-regression="errno-changed"><td>errno-changed</td><td class="bad">yes</td><td><a href="#site-wait_get_key">wait_get_key</a></td><td>EAGAIN 0 -&gt; 5' \
	"$work/c-errno/index.html"
tap_ok $? "another errno: index.html lists it as failing, linked to the site"
compare 0 "another errno, --fail-on site-stopped-firing,outcome-worse,new-finding" \
	--fail-on site-stopped-firing,outcome-worse,new-finding -q -o "$work/c-errno2" "$fx" "$work/errno"

# ------------------------------------------------------------ bad input

# bad WANT WHAT TEXT ARGS...: exit status WANT, TEXT on stderr, no OUT left
bad()
{
	local want=$1 what=$2 text=$3 out=$work/bad-out
	shift 3
	rm -rf "$out"
	rc=0
	"$ffr" --compare -q -o "$out" "$@" >/dev/null 2>"$work/diag" || rc=$?
	[ $rc = "$want" ] && grep -qF -- "$text" "$work/diag" && [ ! -e "$out" ] &&
		! ls "$work"/bad-out.* >/dev/null 2>&1
	tap_ok $? "bad input, $what: exit $rc, names it, no OUT ($(head -n1 "$work/diag" | cut -c1-120))"
}

bad 1 "missing OLD" "$work/nowhere: no such directory" "$work/nowhere" "$fx"
bad 1 "missing NEW" "$work/nowhere: no such directory" "$fx" "$work/nowhere"
mkdir -p "$work/empty"
bad 1 "neither results nor report" "$work/empty: neither a results directory" "$fx" "$work/empty"
mkdir -p "$work/corrupt"
echo '{ "schema": "futex-fault-report/1", ' > "$work/corrupt/report.json"
bad 1 "corrupt report.json" "$work/corrupt/report.json: not valid JSON: line 2" "$work/corrupt" "$fx"
echo '{ "schema": "something-else" }' > "$work/corrupt/report.json"
bad 1 "report.json of another schema" "$work/corrupt/report.json: not a futex-fault-report report" "$work/corrupt" "$fx"
jq --arg r "$work/gone" '.results = $r' "$work/rep1/report.json" > "$work/corrupt/report.json"
bad 1 "report.json naming a results directory that is gone" "$work/corrupt/report.json: names the results directory $work/gone" "$work/corrupt" "$fx"
bad 2 "unknown --fail-on category" "--fail-on: unknown category 'lost-lines'" --fail-on site-stopped-firing,lost-lines "$fx" "$fx"
bad 2 "one argument" "usage:" "$fx"
cp -r "$fx" "$work/broken"
echo '{ "layout_version": 1, ' > "$work/broken/runs/wait_get_key/run.json"
bad 1 "a broken run.json in NEW" "$work/broken/runs/wait_get_key/run.json" "$fx" "$work/broken"
# an older comparison stays as it was when the new one fails
mkdir -p "$work/keep"
echo previous > "$work/keep/index.html"
"$ffr" --compare -q -o "$work/keep" "$fx" "$work/broken" 2>/dev/null
rc=$?
[ $rc = 1 ] && [ "$(cat "$work/keep/index.html")" = previous ] && [ "$(ls "$work/keep")" = index.html ] &&
	! ls "$work"/keep.* >/dev/null 2>&1
tap_ok $? "a failed comparison (exit $rc) leaves the previous OUT as it was"
# and a new one replaces it whole
"$ffr" --compare -q -o "$work/keep" "$fx" "$fx" 2>"$work/diag" && [ -s "$work/keep/compare.json" ] &&
	[ "$(grep -c previous "$work/keep/index.html")" = 0 ]
tap_ok $? "a comparison replaces the previous OUT as a whole"

# ------------------------------------------------------------ the pages in a browser

if why=$(chromium_skip); then
	tap_skip "the compare pages in headless Chromium" "$why"
else
	for p in c12/index.html c12/files/waitwake.c.html c-stop/index.html c-worse/index.html \
		 c-errno/index.html rep2/index.html; do
		chromium_dom "$work/$p" "$work/console" > "$work/dom"
		grep ':CONSOLE' "$work/console" > "$work/diag"
		[ -s "$work/dom" ] && [ ! -s "$work/diag" ] && grep -q '</html>' "$work/dom"
		tap_ok $? "Chromium loads $p with no console message"
		case $p in
		*/index.html)
			[ "$(grep -o '<svg' "$work/dom" | wc -l)" -ge 2 ]
			tap_ok $? "Chromium: $p has its SVG charts"
			;;
		esac
		case $p in
		c12/index.html | c-stop/index.html | c-worse/index.html | c-errno/index.html)
			python3 "$here/check_compare.py" dom "$work/${p%/index.html}" "$work/dom" > "$work/tap" 2>&1
			st=$?
			sed 's/^/#   /' "$work/tap"
			cp "$work/tap" "$work/diag"
			tap_ok $st "Chromium: $p shows compare.json's numbers and verdict"
			;;
		esac
	done
fi

tap_done compare-tests.sh
