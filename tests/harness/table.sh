#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/table, through which the campaign and the guest read the kernel's
# site table by column name, on the wake_op_atomic run's sites.txt of both
# recorded fixtures: the v1 kernel's ("# name file line function errno
# enabled hits injected", tests/report/fixture-v1.tar.xz) and the v2
# kernel's ("# name errno enabled hits injected call_site",
# tests/report/fixture.tar.xz).  The columns asked for are the ones the
# header names, in either; a column the header lacks, a file without a
# header and a missing file are errors naming them.  Host only, a second.

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
table=$repo/scripts/table
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/tap.sh"
TAP_DIAG_FILE=$tmp/err

tap_start

tar -xJOf "$repo/tests/report/fixture-v1.tar.xz" fixture/runs/wake_op_atomic/sites.txt > "$tmp/v1"
tar -xJOf "$repo/tests/report/fixture.tar.xz" fixture/runs/wake_op_atomic/sites.txt > "$tmp/v2"

"$table" "$tmp/v1" name hits injected > "$tmp/a" 2>"$tmp/err"
tap_ok $? "v1: name, hits, injected of $(wc -l < "$tmp/a") sites"
"$table" "$tmp/v2" name hits injected > "$tmp/b" 2>"$tmp/err"
tap_ok $? "v2: name, hits, injected of $(wc -l < "$tmp/b") sites"
for v in a b; do
	awk -F'\t' '$1 == "wake_op_atomic" && $2 > 0 && $3 > 0 { found = 1 } END { exit !found }' "$tmp/$v"
	tap_ok $? "$v: wake_op_atomic was hit and injected in its own run: $(grep '^wake_op_atomic	' "$tmp/$v" | tr '\t' ' ')"
done
[ "$(awk -F'\t' '{ print $1, $2, $3 }' "$tmp/a")" = "$(awk '!/^#/ { print $1, $7, $8 }' "$tmp/v1")" ]
tap_ok $? "v1: hits and injected are the header's (columns 7 and 8)"
[ "$(awk -F'\t' '{ print $1, $2, $3 }' "$tmp/b")" = "$(awk '!/^#/ { print $1, $4, $5 }' "$tmp/v2")" ]
tap_ok $? "v2: hits and injected are the header's (columns 4 and 5)"

"$table" "$tmp/v2" name file > /dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -qF "$tmp/v2: no column \"file\" in its header" "$tmp/err"
tap_ok $? "a column the header lacks is an error naming file and column: $(cat "$tmp/err")"
tail -n +2 "$tmp/v1" > "$tmp/noheader"
"$table" "$tmp/noheader" name > /dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -qF "$tmp/noheader: the first line is not a \"# name ...\" header" "$tmp/err"
tap_ok $? "a table without a header is an error naming it"
"$table" "$tmp/none" name > /dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -qF "cannot read $tmp/none" "$tmp/err"
tap_ok $? "a missing file is an error naming it"
"$table" "$repo/scripts/workloads/after.txt" site trigger > "$tmp/after" 2>"$tmp/err"
[ $? = 0 ] && grep -qx "wake_op_fault_in	wake_op_atomic" "$tmp/after"
tap_ok $? "scripts/workloads/after.txt reads by name: $(wc -l < "$tmp/after") pairs"

tap_done table
