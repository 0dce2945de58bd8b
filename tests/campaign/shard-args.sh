#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/campaign --shard I/N refuses what is not a shard of N: I and N
# integers, 1 <= I <= N, no report of its own (--report-dir), and a resumed
# campaign stays the shard it was (or no shard).  Each refusal is exit
# status 1 with the message naming the argument, before anything is built
# or booted.  Host only, a second.

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/tap.sh"

work=$(mktemp -d /tmp/ff-shard-args.XXXXXX)
trap 'rm -rf "$work"' EXIT
export TAP_DIAG_FILE=$work/err

# refused WANT ARGS...: scripts/campaign ARGS exits 1 saying WANT (a regex).
# Its kernel build is a directory that is none: what the checks let through
# stops at "no kernel", before anything is made.
refused()
{
	local want=$1 rc=0
	shift

	FF_OBJ=$work/no-kernel "$repo/scripts/campaign" "$@" >/dev/null 2>"$work/err" || rc=$?
	[ $rc = 1 ] && grep -q "^campaign: error: $want" "$work/err"
	tap_ok $? "campaign $*: exit status $rc, $(head -n 1 "$work/err")"
}

tap_start

for a in 0/2 3/2 2/0 0/0 -1/2 1/-2 a/2 1/b 1 1/ /2 1/2/3 01/2 1/02 1.0/2 " 1/2" "1 /2" 1/2x ""; do
	refused "--shard $a: expected I/N, integers with 1 <= I <= N" --shard "$a"
done
refused "--report-dir with --shard: a shard makes no report" --shard 1/2 --report-dir "$work/r"
refused "--report-dir with --shard" --report-dir "$work/r" --shard 2/2

# A resumed campaign: what -r reads before anything else (campaign.json,
# campaign/settings.json), its kernel build the same directory that is none
resumable()
{
	mkdir -p "$work/$1/campaign"
	echo '{}' > "$work/$1/campaign.json"
	jq -n --arg objtree "$work/no-kernel" --argjson shard "$2" \
		'{ objtree: $objtree, selected: [] } + if $shard then { shard: $shard } else {} end' \
		> "$work/$1/campaign/settings.json"
}
resumable s12 '{ "index": 1, "count": 2, "sites": [] }'
resumable whole null
refused "-r $work/s12: it is shard 1/2: --shard 2/2 cannot change that" -r "$work/s12" --shard 2/2
refused "-r $work/s12: it is shard 1/2: --shard 1/3 cannot change that" --shard 1/3 -r "$work/s12"
refused "-r $work/whole: it is not a shard: --shard 1/2 cannot change that" -r "$work/whole" --shard 1/2
# what is no shard argument goes on (here to the missing kernel)
refused "no kernel in $work/no-kernel" -r "$work/s12" --shard 1/2
refused "no kernel in $work/no-kernel" -r "$work/s12"
refused "no kernel in $work/no-kernel" --shard 2/2
refused "no kernel in $work/no-kernel" --shard 1/1 -s wake_op_atomic

tap_done "campaign --shard arguments"
