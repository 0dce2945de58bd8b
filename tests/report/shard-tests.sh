#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shards of a campaign reported as one (futex-fault-report -o OUT SHARD...),
# on shards made from the recorded fixture the way scripts/campaign --shard
# i/N splits a campaign: each shard the fixture's baseline (every shard runs
# its own; the merge reads shard 1's) and the runs of every N-th site of the
# list, starting at the i-th.  The merged report.json must be the whole
# fixture's, after `jq -S`, but for the fields that name the results
# directory (checked for what they must be instead); the other files of the
# report byte for byte.  Then the refusals: shards of other kernel builds
# (.gcno of the v1 fixture, another build_id), a site run in two shards,
# shards of different N, a shard twice or missing, a whole campaign among
# shards, other split lists, no -o.
#
# usage: shard-tests.sh TOOLDIR
#   FF_TREE     work tree holding the fixtures' source blobs (default build/6.1/linux)

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tool=${1:?usage: shard-tests.sh TOOLDIR}
ffr=$tool/futex-fault-report

work=$(mktemp -d /tmp/ffr-shard.XXXXXX)
trap 'rm -rf "$work"' EXIT

. "$repo/tests/tap.sh"
. "$here/fixtures.sh"
export TAP_DIAG_FILE=$work/diag

tap_start

# the v2 fixture with its sources in src/, as a campaign leaves them, and
# the v1 fixture, of another kernel build
fixture_unpack "$here/fixture.tar.xz" "$work/v2"
fx=$work/v2/fixture
fixture_v2_sources "$fx" "$fx/src"
fixture_unpack "$here/fixture-v1.tar.xz" "$work/v1"
fx1=$work/v1/fixture

# The fixture's site runs in its order: the plan of
# scripts/campaign -s wait_get_value,wake_op_atomic,wait_get_key,robust_fetch_next,
# which is what --shard splits (the sites asked for, in their order).
plan=$(jq -r '.runs[] | select(. != "baseline")' "$fx/campaign.json")
# The same with sites no workload reached (no run) among them, as in the
# list of every site of the kernel: two of the baseline's table
others=$("$repo/scripts/table" "$fx/runs/baseline/sites.txt" name | grep -vxF "$plan" | head -n 2)
with_unreached=$(echo "$plan" | sed -n 1p; echo "$others" | sed -n 1p; echo "$plan" | sed -n 2,3p
		 echo "$others" | sed -n 2p; echo "$plan" | sed -n 4p)

# shard DIR I N LIST: DIR made as --shard I/N of a campaign over the sites
# of LIST (one a line) would make it from the fixture's runs
shard()
{
	local dir=$1 i=$2 n=$3 list=$4 mine s

	rm -rf "$dir"
	mkdir -p "$dir/runs"
	cp -r "$fx/gcno" "$fx/src" "$dir/"
	cp -r "$fx/runs/baseline" "$dir/runs/"
	# scripts/campaign's split: the (I-1)-th, then every N-th
	mine=$(echo "$list" | awk -v i="$i" -v n="$n" '(NR - 1) % n == i - 1')
	for s in $mine; do
		[ ! -d "$fx/runs/$s" ] || cp -r "$fx/runs/$s" "$dir/runs/"
	done
	jq --argjson i "$i" --argjson n "$n" --arg list "$list" --arg mine "$mine" \
		--arg runs "$(ls "$dir/runs")" '
		def lines: split("\n") | map(select(. != ""));
		($runs | lines) as $have
		| .shard = { index: $i, count: $n, sites: ($list | lines) }
		| .runs = [ "baseline" ] + [ $mine | lines | .[] | select(. as $s | $have | index($s)) ]' \
		"$fx/campaign.json" > "$dir/campaign.json"
}

# report WANT WHAT ARGS...: futex-fault-report -q ARGS, its status WANT
report()
{
	local want=$1 what=$2
	shift 2
	rc=0
	"$ffr" -q "$@" >"$work/out" 2>"$work/diag" || rc=$?
	tap_ok $(( rc != want )) "$what: exit status $rc"
}

# refused WHAT OUT ARGS...: exit status 1, OUT not made, the message names
# the two directories ($a and $b) and says ($why) why
refused()
{
	local what=$1 out=$2
	shift 2
	report 1 "$what" -o "$out" "$@"
	grep -qF "$a" "$work/diag" && grep -qF "$b" "$work/diag" && grep -q "$why" "$work/diag" &&
		[ ! -e "$out" ]
	tap_ok $? "$what: the error names $(basename "$a") and $(basename "$b"): $(head -n 1 "$work/diag")"
}

# norm REPORT.JSON DIR RESULTS: jq -S of it, with the fields that say where
# the results are, the one thing a merge changes (checked apart), written
# RESULTS: "results" (the value RESULTS) and the paths under DIR
norm()
{
	jq -S --arg dir "$2" --arg results "$3" '
		def under: if startswith($dir + "/") then "RESULTS" + ltrimstr($dir) else . end;
		.results |= (if . == $results then "RESULTS" else . end)
		| .kernel.srctree |= under | .kernel.gcno_dir |= under
		| .kernel.gcno_dirs |= map(under)' "$1"
}

# unpath FILE DIR RESULTS: FILE with DIR/ and RESULTS written RESULTS (where
# index.html names the results, the lcov files' SF: lines the sources in them)
unpath()
{
	sed -e "s|$2/|RESULTS/|g" -e "s|<code>$3</code>|<code>RESULTS</code>|g" "$1"
}

report 0 "report of the whole fixture" -o "$work/whole" "$fx"
norm "$work/whole/report.json" "$fx" "$fx" > "$work/whole.json"

# same_report NAME SHARD...: the merge of the shards is the whole fixture's report
same_report()
{
	local name=$1 out=$work/merged-$1 want f differ=
	shift

	report 0 "$name: the merged report" -o "$out" "$@"
	want=$(printf '%s\n' "$@" | sort | paste -sd, | sed 's/,/, /g')
	jq -e --arg want "$want" --arg s1 "$work/$name-1" '
		.results == $want and .kernel.srctree == $s1 + "/src"
		and .kernel.gcno_dir == $s1 + "/gcno" and .kernel.gcno_dirs == [ $s1 + "/gcno" ]' \
		"$out/report.json" >/dev/null 2>"$work/diag"
	tap_ok $? "$name: report.json names the shards, in order, and shard 1's sources and .gcno: $(jq -c '[.results, .kernel.srctree]' "$out/report.json")"
	norm "$out/report.json" "$work/$name-1" "$want" > "$work/$name.json"
	diff -u "$work/whole.json" "$work/$name.json" > "$work/diag"
	tap_ok $? "$name: the merged report.json is the whole fixture's (jq -S; .results and the paths under the results as above)"
	for f in $(cd "$work/whole" && find . -type f ! -name report.json | sort); do
		f=${f#./}
		cmp -s <(unpath "$work/whole/$f" "$fx" "$fx") <(unpath "$out/$f" "$work/$name-1" "$want") ||
			differ+=" $f"
	done
	[ -z "$differ" ] && [ "$(cd "$out" && find . -type f | sort)" = "$(cd "$work/whole" && find . -type f | sort)" ]
	tap_ok $? "$name: the other files of the report are the whole's byte for byte, but where they name the results${differ:+: differ:$differ}"
}

for n in 2 3 5; do
	list=$plan
	[ $n != 3 ] || list=$with_unreached
	shards=()
	for ((i = 1; i <= n; i++)); do
		shard "$work/n$n-$i" $i $n "$list"
		shards+=("$work/n$n-$i")
	done
	tap_diag "--shard i/$n: $(for s in "${shards[@]}"; do jq -r '.runs[1:] | join(",")' "$s/campaign.json"; done | paste -sd'|')"
	same_report n$n "${shards[@]}"
done

# the order of the command line does not matter: shards are read in their order
report 0 "shards given 3, 1, 2" -o "$work/rev" "$work/n3-3" "$work/n3-1" "$work/n3-2"
cmp -s "$work/merged-n3/report.json" "$work/rev/report.json"
tap_ok $? "shards given 3, 1, 2: the same report.json byte for byte"

# a shard alone is a results directory: reported, with a warning that it is one
report 0 "shard 1/2 alone" -o "$work/alone" "$work/n2-1"
grep -q "shard 1/2 of a campaign" "$work/diag" &&
	[ "$(jq '.runs | length' "$work/alone/report.json")" = 3 ]
tap_ok $? "shard 1/2 alone: its baseline and 2 site runs, and a warning: $(head -n 1 "$work/diag")"

# several directories without -o: the report would be of none of them
report 2 "shards without -o" "$work/n2-1" "$work/n2-2"
grep -q "need -o" "$work/diag"
tap_ok $? "shards without -o: said: $(head -n 1 "$work/diag")"

# ---------------------------------------------------------------- refusals

# another kernel build: shard 2 with the .gcno of the v1 fixture's kernel
shard "$work/b2" 2 2 "$plan"
rm -rf "$work/b2/gcno"
cp -r "$fx1/gcno" "$work/b2/"
a=$work/n2-1 b=$work/b2 why="not of the same kernel build"
refused "shard 2 of another kernel build (the v1 fixture's .gcno)" "$work/bad" "$a" "$b"
grep -q "$b/gcno/[a-z]*\.gcno: differs from $a/gcno/" "$work/diag"
tap_ok $? "another build: the .gcno that differs is named"

# another build_id (campaign.json "kernel"."build_id", vmlinux's)
for s in 1 2; do
	shard "$work/id$s" $s 2 "$plan"
	jq --arg id "$(printf "$s%.0s" {1..40})" '.kernel.build_id = $id' "$work/id$s/campaign.json" \
		> "$work/cj" && mv "$work/cj" "$work/id$s/campaign.json"
done
a=$work/id1 b=$work/id2 why="build_id 2*, .*'s is 1*: .* not of the same kernel build"
refused "shards of two build_ids" "$work/bad" "$a" "$b"
jq '.kernel.build_id = "1111111111111111111111111111111111111111"' "$work/id2/campaign.json" \
	> "$work/cj" && mv "$work/cj" "$work/id2/campaign.json"
report 0 "shards of one build_id" -o "$work/id" "$work/id1" "$work/id2"

# a site run in two shards: shard 1's first run copied into shard 2
shard "$work/d2" 2 2 "$plan"
r1=$(echo "$plan" | sed -n 1p)
cp -r "$fx/runs/$r1" "$work/d2/runs/"
jq --arg r "$r1" '.runs += [ $r ]' "$work/d2/campaign.json" > "$work/cj" && mv "$work/cj" "$work/d2/campaign.json"
a=$work/n2-1 b=$work/d2 why="$r1: also in .*: a site run belongs to one shard"
refused "the run $r1 in shards 1 and 2" "$work/bad" "$a" "$b"

# shards of different splits: 1/2 with 2/3
a=$work/n2-1 b=$work/n3-2 why="shard 2/3, but .* is shard 1/2"
refused "shard 1/2 with shard 2/3" "$work/bad" "$a" "$b"

# a shard twice
cp -r "$work/n2-1" "$work/copy"
a=$work/n2-1 b=$work/copy why="shard 1/2, and so is"
refused "shard 1/2 twice" "$work/bad" "$a" "$b"

# a shard missing
report 1 "shards 1/3 and 2/3 without 3/3" -o "$work/bad" "$work/n3-1" "$work/n3-2"
grep -q "shard 3/3 is missing" "$work/diag" && [ ! -e "$work/bad" ]
tap_ok $? "shard 3/3 missing: said: $(head -n 1 "$work/diag")"

# a whole campaign among shards
a=$fx b=$fx why="no \"shard\""
report 1 "the whole fixture with shard 2/2" -o "$work/bad" "$fx" "$work/n2-2"
grep -q "$fx/campaign.json: no \"shard\"" "$work/diag" && [ ! -e "$work/bad" ]
tap_ok $? "the whole fixture among shards: said: $(head -n 1 "$work/diag")"

# another list split (another -s)
shard "$work/l2" 2 2 "$(echo "$plan" | sed 1d)"
a=$work/n2-1 b=$work/l2 why="\"shard\".\"sites\" differs"
refused "shard 2/2 of another site list" "$work/bad" "$a" "$b"

# a run of a site the list does not have
shard "$work/o2" 2 2 "$plan"
x=$(echo "$others" | sed -n 1p)
cp -r "$fx/runs/$r1" "$work/o2/runs/$x"
jq --arg x "$x" '.run = $x' "$fx/runs/$r1/run.json" > "$work/o2/runs/$x/run.json"
jq --arg x "$x" '.runs += [ $x ]' "$work/o2/campaign.json" > "$work/cj" && mv "$work/cj" "$work/o2/campaign.json"
report 1 "shard 2/2 with a run of a site not in the list" -o "$work/bad" "$work/n2-1" "$work/o2"
grep -q "$work/o2: has the run $x, which is not a site of the list" "$work/diag" && [ ! -e "$work/bad" ]
tap_ok $? "a run of a site not in the list: said: $(head -n 1 "$work/diag")"

tap_done "shards"
