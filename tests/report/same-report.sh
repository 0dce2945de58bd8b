#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A refactoring of the reporter must not change what it reports: build the
# reporter of REF (default: where this branch left main) in a scratch
# directory, run it and the reporter in TOOLDIR on the recorded fixture, and
# compare the two report.json files after `jq -S .` byte for byte; then the
# other renderings (the HTML pages, the lcov tracefiles, the summary on
# stdout but its timing line) byte for byte.
#
# usage: tests/report/same-report.sh [TOOLDIR]
#   TOOLDIR   built reporter to check (default tools/futex-fault-report)
#   REF       git revision of the reference reporter (default: merge-base HEAD main)
#   FF_TREE   work tree holding the fixture's source blobs (default build/6.1/linux)
#   INTENDED  output files a change means to change, e.g. "index.html" for
#             the charts of compare mode's change: said when they differ,
#             not a failure (report.json cannot be one)
#
# Exit status 0 when the two are the same (but INTENDED), 1 when they differ
# (a diff is printed), 2 when the check could not run.  Not part of make
# check: a change that means to change the output differs by design.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tool=$(cd "${1:-$repo/tools/futex-fault-report}" && pwd)
ref=${REF:-$(git -C "$repo" merge-base HEAD main)}
intended=${INTENDED:-}

die() { echo "same-report.sh: $*" >&2; exit 2; }

[ -x "$tool/futex-fault-report" ] || die "$tool/futex-fault-report: not built (make -C $tool)"
command -v jq >/dev/null || die "jq: not installed"

work=$(mktemp -d /tmp/ffr-same.XXXXXX)
trap 'rm -rf "$work"' EXIT

. "$here/fixtures.sh"
fx=$work/fixture
src=$work/src
(fixture_unpack "$here/fixture.tar.xz" "$work" && fixture_v2_sources "$fx" "$src") \
	> "$work/fixture.log" || die "$(sed -n 's/^Bail out! //p' "$work/fixture.log")"

# the reporter, and what its build reads outside it (the kernel-report
# classifier of scripts/, since fe661af)
mkdir "$work/ref"
paths=tools/futex-fault-report
for p in scripts/kernel-report scripts/kernel-reports.txt; do
	if git -C "$repo" cat-file -e "$ref:$p" 2>/dev/null; then
		paths="$paths $p"
	fi
done
git -C "$repo" archive "$ref" $paths | tar -C "$work/ref" -x ||
	die "$ref: cannot export $paths"
make -s -C "$work/ref/tools/futex-fault-report" futex-fault-report >"$work/build.log" 2>&1 ||
	{ cat "$work/build.log" >&2; die "$ref: the reference reporter does not build"; }

"$work/ref/tools/futex-fault-report/futex-fault-report" --srctree "$src" \
	-o "$work/out-ref" "$fx" > "$work/summary-ref" || die "$ref: the reference reporter failed"
"$tool/futex-fault-report" --srctree "$src" -o "$work/out-new" "$fx" > "$work/summary-new" ||
	die "$tool/futex-fault-report failed"

short=$(git -C "$repo" rev-parse --short "$ref")
jq -S . "$work/out-ref/report.json" > "$work/ref.json"
jq -S . "$work/out-new/report.json" > "$work/new.json"
if cmp -s "$work/ref.json" "$work/new.json"; then
	echo "same report.json (jq -S, $(wc -c < "$work/new.json") bytes) as $short"
else
	diff -u "$work/ref.json" "$work/new.json" | head -n 60
	echo "report.json differs from $short's" >&2
	exit 1
fi

differ=0
for f in $(cd "$work/out-ref" && find . -type f ! -name report.json | sort); do
	f=${f#./}
	cmp -s "$work/out-ref/$f" "$work/out-new/$f" && continue
	case " $intended " in
	*" $f "*)
		echo "$f differs from $short's, as intended (INTENDED)"
		;;
	*)
		echo "$f differs from $short's" >&2
		differ=1
		;;
	esac
done
grep -v '^  report: ' "$work/summary-ref" > "$work/summary-ref.txt"
grep -v '^  report: ' "$work/summary-new" > "$work/summary-new.txt"
if ! cmp -s "$work/summary-ref.txt" "$work/summary-new.txt"; then
	diff -u "$work/summary-ref.txt" "$work/summary-new.txt" | head -n 30
	echo "the summary differs from $short's" >&2
	differ=1
fi
[ $differ = 0 ] || exit 1
echo "same HTML pages, lcov tracefiles and summary as $short ($(cd "$work/out-new" && find . -type f | wc -l) files${intended:+, but INTENDED})"
