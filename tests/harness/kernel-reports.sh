#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel-report classifier (scripts/kernel-reports.txt) against kernel
# logs recorded from our guests: every log of tests/harness/splats/expected
# gives the kinds of reports listed there, in that order, and nothing else;
# futex-fault-report's findings (findings.c, built with the same table) see
# the same report lines of the same kinds; a bad pattern file is refused,
# naming its file and line.  Host only, a few seconds.

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
kr=$repo/scripts/kernel-report
tool=$repo/tools/futex-fault-report
splats=$repo/tests/harness/splats
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/tap.sh"

ok()
{
	tap_ok "$@"
}

tap_start

"$kr" --check 2>"$tmp/err"
ok $? "scripts/kernel-reports.txt is valid $(cat "$tmp/err")"

# the reporter's view of a log, from its own code
make -s -C "$tool" kernel-reports.h &&
	gcc -Wall -Wextra -Wno-unused-parameter -Werror -std=gnu11 -D_GNU_SOURCE -I"$tool" \
		-o "$tmp/report-kinds" "$repo/tests/harness/report-kinds.c" "$tool/util.c" \
		"$tool/messages.c" $(pkg-config --cflags --libs jansson) 2>"$tmp/err"
ok $? "report-kinds builds from findings.c $(head -c 300 "$tmp/err")"

# the clean baseline dmesg of the recorded fixture: no report
tar -xJOf "$repo/tests/report/fixture.tar.xz" fixture/runs/baseline/dmesg.txt > "$tmp/baseline-dmesg.txt"

while read -r log kinds; do
	case $log in ''|'#'*) continue ;; esac
	case $log in fixture:*) f=$tmp/${log#fixture:} ;; *) f=$splats/$log ;; esac
	[ -s "$f" ] || { ok 1 "$log: not found ($f)"; continue; }
	[ "$kinds" != - ] || kinds=""
	rc=0
	"$kr" -a "$f" > "$tmp/sh" 2>"$tmp/err" || rc=$?
	got=$(cut -f1 "$tmp/sh" | awk '!seen[$0]++' | paste -sd' ')
	[ "$got" = "$kinds" ] && { [ $rc = 0 ] || { [ $rc = 1 ] && [ -z "$kinds" ]; }; }
	ok $? "$log: kernel-report finds ${kinds:-no report} (got '${got}', exit $rc)"
	"$tmp/report-kinds" "$f" > "$tmp/c" 2>"$tmp/err"
	diff -u "$tmp/sh" "$tmp/c" > "$tmp/diff"
	ok $? "$log: findings.c sees the same $(wc -l < "$tmp/c") report lines of the same kinds $(head -c 400 "$tmp/diff")"
done < "$splats/expected"

# the first report, as a run's health and ff's crash check take it
first=$("$kr" "$splats/lkdtm-dmesg.txt")
[ "$first" = "WARNING: CPU: 0 PID: 66 at drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x8/0xb" ]
ok $? "the first report of lkdtm-dmesg.txt, timestamp removed: '$first'"

# bad pattern files
printf 'oops\tblock\tOops\nwarning\tsometimes\tWARNING:\n' > "$tmp/bad-extent"
"$kr" -f "$tmp/bad-extent" --check 2>"$tmp/err"
[ $? = 2 ] && grep -qF "$tmp/bad-extent:2: extent \"sometimes\" of warning is not block or line" "$tmp/err"
ok $? "a bad extent is refused, naming file and line: $(cat "$tmp/err")"
printf '# a comment\n\nbug\tblock\tBUG: (unclosed\n' > "$tmp/bad-re"
"$kr" -f "$tmp/bad-re" "$splats/lkdtm-bug.txt" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -qF "$tmp/bad-re:3: the pattern of bug is not a valid extended regular expression" "$tmp/err"
ok $? "a bad regular expression is refused, naming file and line: $(head -n1 "$tmp/err")"
printf 'bug\tblock\tBUG:\nbug\tline\tOops\n' > "$tmp/bad-twice"
"$kr" -f "$tmp/bad-twice" --check 2>"$tmp/err"
[ $? = 2 ] && grep -qF "$tmp/bad-twice:2: kind bug listed twice (also line 1)" "$tmp/err"
ok $? "a kind listed twice is refused: $(cat "$tmp/err")"
"$kr" "$tmp/no-such-log" 2>"$tmp/err"
[ $? = 2 ] && grep -qF "cannot read $tmp/no-such-log" "$tmp/err"
ok $? "a missing log is an error naming it, not 'no report'"

tap_done "kernel reports"
