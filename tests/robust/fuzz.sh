#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Coverage-guided fuzzing of futex-fault-report and plugin_futex_fault.so:
# libFuzzer targets built by clang with ASan and UBSan
# (tools/futex-fault-report/fuzz/README.md), seeded from the recorded
# fixture (tests/report/fixture.tar.xz) and a campaign's results, each run
# for a bounded time.  Prints executions and time per target; exits 1 on
# any crash, sanitizer report, leak or timeout, keeping the input in
# $FUZZ_OUT/<target>/ (crash-*, leak-*, timeout-*, oom-*).
#
# usage: tests/robust/fuzz.sh [SECONDS_PER_TARGET]        (default 120)
#   FUZZ_OUT      corpora, logs, crashing inputs (default build/fuzz)
#   FUZZ_TARGETS  the targets to run (default: fuzz_trace fuzz_gcov fuzz_report_json fuzz_plugin)
#   FUZZ_RESULTS  campaign results for more seeds (default results/final, if there)
#   FF_TREE       kernel work tree holding the fixture's sources (default build/6.1/linux)
#   FUZZ_CC       clang (default clang)

set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
secs=${1:-120}
tool=$repo/tools/futex-fault-report
out=${FUZZ_OUT:-$repo/build/fuzz}
targets=${FUZZ_TARGETS:-fuzz_trace fuzz_gcov fuzz_report_json fuzz_plugin}
results=${FUZZ_RESULTS:-$repo/results/final}
tree=${FF_TREE:-$repo/build/6.1/linux}

case $secs in
''|*[!0-9]*) echo "usage: $0 [SECONDS_PER_TARGET]" >&2; exit 2 ;;
esac
command -v "${FUZZ_CC:-clang}" >/dev/null ||
	{ echo "fuzz.sh: no ${FUZZ_CC:-clang} (apt-get install clang)" >&2; exit 2; }

mkdir -p "$out"
echo "$0 $*" > "$out/command"
make -s -C "$tool" all fuzz-build FUZZ_CC="${FUZZ_CC:-clang}"

# ------------------------------------------------------------ seeds

fx=$out/fixture
rm -rf "$fx"
tar -C "$out" -xJf "$repo/tests/report/fixture.tar.xz"
export FFR_FUZZ_FIXTURE=$fx

seeds()
{
	rm -rf "$out/$1/seeds"
	mkdir -p "$out/$1/seeds" "$out/$1/corpus"
	echo "$out/$1/seeds"
}

# the records of each fixture trace, and of the smallest of the campaign's
# traces (1 CPU), as fuzz_trace takes them
s=$(seeds fuzz_trace)
FFR_FUZZ_DUMP=$s "$tool/fuzz/build/fuzz_trace" >/dev/null
if [ -d "$results/runs" ]; then
	t=$(ls -S "$results"/runs/*/trace.dat 2>/dev/null | tail -n 1)
	if [ -n "$t" ]; then
		rm -rf "$out/results-trace"
		mkdir -p "$out/results-trace/runs/results"
		cp "$t" "$out/results-trace/runs/results/trace.dat"
		FFR_FUZZ_FIXTURE=$out/results-trace FFR_FUZZ_DUMP=$s \
			"$tool/fuzz/build/fuzz_trace" >/dev/null 2>&1 || true
	fi
fi

# gcov's JSON for each fixture run, as the reporter runs it; one seed the
# baseline's and a run's split by a form feed line
s=$(seeds fuzz_gcov)
objs=$(cd "$fx/gcno" && ls *.gcno | sed 's/\.gcno$/.c/')
for r in "$fx"/runs/*; do
	g=$out/gcov-scratch
	rm -rf "$g"
	mkdir -p "$g"
	ln -s "$fx"/gcno/*.gcno "$g/"
	ln -s "$r"/gcov/*.gcda "$g/" 2>/dev/null || true
	(cd "$g" && ${GCOV:-gcov} -t -j -b -o . $objs > "$s/$(basename "$r").json" 2>/dev/null) || true
	rm -rf "$g"
done
{ cat "$s/baseline.json"; printf '\f\n'; cat "$s/wait_get_value.json"; } > "$s/baseline+wait_get_value.json"
# and each object's document alone (smaller inputs, more executions)
split -l 1 -d "$s/baseline.json" "$s/baseline-object-"

# report.json: the fixture's (if its sources are in the kernel tree), the
# campaign's, and a small hand-written one
s=$(seeds fuzz_report_json)
printf '{"sites": [{"name": "wait_get_value", "fired": 3, "outcomes": {"recovered": 1, "error": 2}, "recovery": {"lines_total": 6, "error_lines": 5}}]}\n' \
	> "$s/small.json"
src=$out/src
rm -rf "$src"
mkdir -p "$src/kernel/futex"
have_src=1
while read -r id f; do
	if [ -f "$fx/blobs/$id" ] && [ "$(git hash-object "$fx/blobs/$id")" = "$id" ]; then
		cp "$fx/blobs/$id" "$src/$f"
		continue
	fi
	git -C "$tree" cat-file blob "$id" > "$src/$f" 2>/dev/null || { have_src=0; break; }
done < "$fx/sources.txt"
if [ $have_src = 1 ] && "$tool/futex-fault-report" -q --srctree "$src" -o "$out/report-fixture" "$fx" 2>/dev/null; then
	cp "$out/report-fixture/report.json" "$s/fixture.json"
	export FFR_FUZZ_REPORT=$out/report-fixture/report.json
fi
if [ -d "$results/runs" ] && "$tool/futex-fault-report" -q -o "$out/report-results" "$results" 2>/dev/null; then
	cp "$out/report-results/report.json" "$s/results.json"
fi

# futex_fault_inject records of the fixture
s=$(seeds fuzz_plugin)
FFR_FUZZ_DUMP=$s "$tool/fuzz/build/fuzz_plugin" >/dev/null

# ------------------------------------------------------------ runs

stat_of()
{
	sed -n "s/^stat::$1: *//p" "$2" | tail -n 1
}

fail=0
printf '%-18s %8s %12s %10s %8s  %s\n' target seconds executions "exec/s" corpus result > "$out/summary"
for t in $targets; do
	d=$out/$t
	rm -f "$d"/crash-* "$d"/leak-* "$d"/timeout-* "$d"/oom-*
	start=$(date +%s.%N)
	rc=0
	"$tool/fuzz/build/$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$d/" "$d/corpus" "$d/seeds" > "$d/log" 2>&1 || rc=$?
	end=$(date +%s.%N)
	runs=$(stat_of number_of_executed_units "$d/log")
	found=$(ls "$d"/crash-* "$d"/leak-* "$d"/timeout-* "$d"/oom-* 2>/dev/null | wc -l)
	if [ $rc = 0 ] && [ "$found" = 0 ]; then
		result=ok
	else
		result="FAILED (exit $rc): $(ls "$d"/crash-* "$d"/leak-* "$d"/timeout-* "$d"/oom-* 2>/dev/null | tr '\n' ' ')"
		fail=1
	fi
	took=$(awk "BEGIN { print $end - $start }")
	printf '%-18s %8.0f %12s %10s %8s  %s\n' "$t" "$took" "${runs:-?}" \
		"$(awk "BEGIN { printf \"%d\", ${runs:-0} / $took }")" "$(ls "$d/corpus" | wc -l)" "$result" >> "$out/summary"
	[ "$result" = ok ] || grep -E "ERROR|runtime error|SUMMARY" "$d/log" | head -n 5 | sed 's/^/    /' >> "$out/summary"
done
cat "$out/summary"
[ $fail = 0 ] || echo "fuzz.sh: inputs kept in $out/<target>/; logs in $out/<target>/log" >&2
exit $fail
