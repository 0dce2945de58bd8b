#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reference leak of tests/campaign/mutants/leak-task.patch, caught on a
# kmemleak kernel: get_robust_list() takes a task_struct reference and drops
# it on the success path only.  On the campaign's own kernel nothing shows
# it (mutants.sh: not caught).  Here:
#
#   1. the kernel with kernel/configs/ff-kmemleak.config, in its own build
#      directory ($FF_WORK/obj-kmemleak; a cold build the first time);
#   2. a reference campaign of get_robust_list_len on it: no finding;
#   3. the mutant applied to the work tree, then scripts/changed against
#      that reference: status 3, a new-finding for get_robust_list_len whose
#      run has kmemleak's "unreferenced object" of a task_struct
#      (copy_process in its backtrace), and a clean baseline.
#
# The work tree's file is restored and the kmemleak kernel rebuilt
# afterwards, whatever happens.  6.12 (the mutant is written against its
# series).  -r: keep the reference of an earlier run.  9 min under TCG
# with the kernel built (8 min 51 s, a campaign beside it), plus its cold
# build the first time (541 s).

set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
. "$repo/tests/tap.sh"
export FF_FRAGMENTS="$repo/kernel/configs/ff-kmemleak.config${FF_FRAGMENTS:+ $FF_FRAGMENTS}"
export FF_OBJ=$(realpath -m "$FF_WORK/obj-kmemleak")
# kmemleak makes every allocation slower: give a run more time
export CAMPAIGN_RUN_TIMEOUT=${CAMPAIGN_RUN_TIMEOUT:-600}
tree=$(realpath -m "${FF_TREE:-$FF_WORK/linux}")
out=$FF_WORK/kmemleak-test
ref=$out/ref
patch=$repo/tests/campaign/mutants/leak-task.patch
site=get_robust_list_len
T=$(mktemp -d)
TAP_DIAG_FILE=$T/out
edited=""

finish()
{
	if [ -n "$edited" ]; then
		cp "$T/orig" "$tree/$edited"
		touch "$tree/$edited"
		"$repo/scripts/ff" build > "$T/rebuild.log" 2>&1 ||
			echo "# the rebuild after restoring $tree/$edited failed: $T/rebuild.log"
	fi
	rm -rf "$T"
}
trap finish EXIT

tap_start
f=$(git -C "$tree" apply --numstat "$patch" 2>/dev/null | cut -f3)
if ! git -C "$tree" apply --check "$patch" > "$T/out" 2>&1; then
	tap_skip "the kmemleak kernel, its reference and the mutant" \
		"$patch does not apply to $tree (written against the 6.12 series)"
	tap_done kmemleak
	exit 0
fi
mkdir -p "$out"
t0=$SECONDS
if ! grep -q '^CONFIG_DEBUG_KMEMLEAK=y' "$FF_OBJ/.config" 2>/dev/null; then
	"$repo/scripts/ff" config > "$T/out" 2>&1
	tap_ok $? "the kmemleak kernel's config in $FF_OBJ" || { tap_done kmemleak; exit 1; }
fi
"$repo/scripts/ff" build > "$T/out" 2>&1
tap_ok $? "the kmemleak kernel built, in $((SECONDS - t0)) s" || { tap_done kmemleak; exit 1; }

if [ "${1:-}" != -r ] || [ ! -f "$ref/report/report.json" ]; then
	rm -rf "$ref"
	t0=$SECONDS
	"$repo/scripts/campaign" -o "$ref" -s $site > "$T/out" 2>&1
	tap_ok $? "the reference campaign ($site) on the kmemleak kernel, in $((SECONDS - t0)) s"
fi
jq -e --arg s $site '(.findings | length) == 0
	and any(.sites[]; .name == $s and .fired > 0)' "$ref/report/report.json" > "$T/out" 2>&1
tap_ok $? "the reference: $site fired, no finding (kmemleak found nothing)"
[ "$(jq -r .kernel.objtree "$ref/campaign.json" 2>/dev/null)" = "$FF_OBJ" ] &&
	[ -f "$ref/runs/$site/kmemleak.txt" ]
tap_ok $? "the reference ran on the kmemleak kernel ($FF_OBJ; its run scanned: runs/$site/kmemleak.txt)"

cmp -s "$tree/$f" "$ref/src/$f"
tap_ok $? "the work tree's $f is the reference's" || { tap_done kmemleak; exit 1; }
cp "$tree/$f" "$T/orig"
edited=$f
git -C "$tree" apply "$patch"

rm -rf "$out/changed"
t0=$SECONDS
"$repo/scripts/changed" -r "$ref" -o "$out/changed" > "$T/changed.log" 2>&1
rc=$?
cp "$T/changed.log" "$out/changed.log"
tap_diag "scripts/changed took $((SECONDS - t0)) s, status $rc; it said:" \
	"$(grep -E '^  (verdict|FAIL|note) ' "$T/changed.log" | head -n 6 | sed 's/^  */ | /' | tr -s ' ' | tr -d '\n')"
tap_ok $((rc != 3)) "scripts/changed: status $rc (3: a regression)"
c=$out/changed/compare/compare.json
jq -e --arg s $site '[.regressions[] | select(.fails) | [.category, .site]] | index([["new-finding", $s]]) != null' \
	"$c" > /dev/null 2>&1
tap_ok $? "new-finding for $site"
k=$out/changed/runs/$site/kmemleak.txt
grep -q 'unreferenced object' "$k" 2>/dev/null && grep -q copy_process "$k"
tap_ok $? "its run: kmemleak's unreferenced task_struct ($(grep -c 'unreferenced object' "$k" 2>/dev/null || echo 0) objects, allocated in copy_process)"
[ "$(jq -r .status "$out/changed/runs/baseline/run.json" 2>/dev/null)" = ok ]
tap_ok $? "the baseline on the mutant kernel: status ok (nothing injected, nothing leaked)"

tap_done "kmemleak"
