#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the harness itself (scripts/ff), against the real kernel build:
# a missing config option is caught and named, a guest command's exit status
# comes back, a guest that panics or hangs is reported within the timeout,
# "tree" refuses to clobber unexported edits, and tests/isolate hides this
# checkout from another clone.
#
# Needs a built tree (scripts/ff all).  Takes about 90 s under TCG.

set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
ff=$repo/scripts/ff
FF_REPO=$repo . "$repo/scripts/kernel.sh"
work=$FF_WORK
tmp=$(mktemp -d "$work/harness-test.XXXXXX")
. "$repo/tests/tap.sh"
# a failing test shows the tail of what its command printed
TAP_DIAG_FILE=$tmp/out

cleanup()
{
	# undo what the tree tests did, whatever happened
	git -C "$work/linux" checkout -q -- kernel/futex/core.c 2>/dev/null
	if [ -n "${tree_head:-}" ]; then
		git -C "$work/linux" reset -q --hard "$tree_head"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

ok()
{
	tap_ok "$@"
}

tap_start

# 1. config: an option whose dependencies are unmet is named, and config fails
cat > "$tmp/bad.config" <<'EOF'
CONFIG_KASAN=y
CONFIG_FUTEX_FAULT_NO_SUCH_OPTION=y
EOF
FF_OBJ=$tmp/obj FF_FRAGMENTS=$tmp/bad.config "$ff" config >"$tmp/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "CONFIG_KASAN=y requested" "$tmp/out" &&
	grep -q "CONFIG_FUTEX_FAULT_NO_SUCH_OPTION=y requested" "$tmp/out"
ok $? "config fails and names each option that did not reach .config (rc=$rc)"
rm -rf "$tmp/obj"

# 2. run: the guest command's exit status comes back
FF_RUN_DIR=$tmp/run-exit "$ff" run -- sh -c 'echo hello; exit 7' >"$tmp/out" 2>&1
rc=$?
[ $rc = 7 ] && grep -q hello "$tmp/run-exit/out/stdout" &&
	[ -s "$tmp/run-exit/console.log" ] && [ -s "$tmp/run-exit/qemu-command" ]
ok $? "run returns the guest command's exit status 7 and keeps stdout, console, qemu command (rc=$rc)"

FF_RUN_DIR=$tmp/run-ok "$ff" run -- true >"$tmp/out" 2>&1
ok $? "run returns 0 for a command that succeeds"

# 3. run: a guest panic is reported as a crash, with the console tail
t0=$SECONDS
FF_TIMEOUT=60 FF_RUN_DIR=$tmp/run-panic "$ff" run -- sh -c 'echo c > /proc/sysrq-trigger' >"$tmp/out" 2>&1
rc=$?
[ $rc = 125 ] && grep -q "guest crashed" "$tmp/out" && grep -q "Kernel panic" "$tmp/out" &&
	[ "$(cat "$tmp/run-panic/result")" = crash ] && [ $((SECONDS - t0)) -lt 60 ]
ok $? "a guest panic is reported as a crash with the console tail in $((SECONDS - t0)) s (rc=$rc)"

# 4. run: a guest that hangs is stopped at the timeout and reported
t0=$SECONDS
FF_TIMEOUT=15 FF_RUN_DIR=$tmp/run-hang "$ff" run -- sleep 600 >"$tmp/out" 2>&1
rc=$?
el=$((SECONDS - t0))
[ $rc = 124 ] && grep -q "did not finish within 15s" "$tmp/out" &&
	[ "$(cat "$tmp/run-hang/result")" = hang ] && [ $el -lt 30 ]
ok $? "a hung guest is killed and reported at the 15 s timeout (took $el s, rc=$rc)"

# 4b. stop: a guest is stopped by its QEMU's pid file, and only that guest
FF_TIMEOUT=300 FF_RUN_DIR=$tmp/run-stop "$ff" run -- sleep 600 >"$tmp/out" 2>&1 &
runpid=$!
for i in $(seq 60); do
	pid=$("$ff" running "$tmp/run-stop" 2>/dev/null) && break
	sleep 1
done
"$ff" running "$tmp/run-hang" >/dev/null 2>&1
other=$?
t0=$SECONDS
"$ff" stop "$tmp/run-stop" >>"$tmp/out" 2>&1
stop=$?
wait $runpid
rc=$?
"$ff" running "$tmp/run-stop" >/dev/null 2>&1
after=$?
[ -n "$pid" ] && [ "$(cat "$tmp/run-stop/qemu.pid" 2>/dev/null || echo "$pid")" = "$pid" ] &&
	[ $other = 1 ] && [ $stop = 0 ] && [ $after = 1 ] && [ $rc != 0 ] && [ $((SECONDS - t0)) -lt 30 ]
ok $? "stop ends the guest whose pid file names it ($pid), running says it is gone, a finished guest is not running (stop $stop, run rc $rc)"

# 5. tree: uncommitted edits in the work tree are not clobbered
tree_head=$(git -C "$work/linux" rev-parse HEAD)
echo "/* unexported edit */" >> "$work/linux/kernel/futex/core.c"
"$ff" tree >"$tmp/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "uncommitted edits" "$tmp/out" &&
	tail -n1 "$work/linux/kernel/futex/core.c" | grep -q "unexported edit"
ok $? "tree refuses to touch a work tree with uncommitted edits, and keeps them (rc=$rc)"
git -C "$work/linux" checkout -q -- kernel/futex/core.c

# 6. tree: commits not exported to patches/ are not clobbered
git -C "$work/linux" commit -q --allow-empty -m "futex: An unexported change"
"$ff" tree >"$tmp/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "commits not exported" "$tmp/out" &&
	git -C "$work/linux" log -1 --format=%s | grep -q "unexported change"
ok $? "tree refuses to drop commits not exported to patches/ (rc=$rc)"
git -C "$work/linux" reset -q --hard "$tree_head"

# 7. tree: with nothing to do it is fast and changes nothing
t0=$SECONDS
"$ff" tree >"$tmp/out" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "up to date" "$tmp/out" &&
	[ "$(git -C "$work/linux" rev-parse HEAD)" = "$tree_head" ]
ok $? "tree is idempotent: up to date, HEAD unchanged, $((SECONDS - t0)) s"

# 7b. FF_SRC: a tree of one's own that a patch does not apply to: the error
# names the patch, the file and the hunk, and the work tree is left at the
# pristine source, with no stamp (nothing half-applied)
own=$tmp/own
git -C "$work/linux" worktree add -q --detach "$own/src" pristine
sed -i 's/^__setup("fail_futex=", setup_fail_futex);$/__setup("fail_futex=", setup_fail_futex); \/\* local change \*\//' \
	"$own/src/kernel/futex/core.c"
first=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$FF_PATCHES/series" | head -n1)
FF_SRC=$own/src FF_WORK=$own/work "$ff" tree >"$tmp/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -qF "$first does not apply" "$tmp/out" &&
	grep -q "kernel/futex/core.c" "$tmp/out" && grep -q "the hunk: @@ " "$tmp/out" &&
	[ "$(git -C "$own/work/linux" rev-parse HEAD)" = "$(git -C "$own/work/linux" rev-parse pristine)" ] &&
	[ -z "$(git -C "$own/work/linux" status --porcelain --untracked-files=no)" ] &&
	[ ! -e "$own/work/linux/.git/ff-applied" ] &&
	git -C "$own/work/linux" show HEAD:kernel/futex/core.c | grep -q "local change"
ok $? "FF_SRC=<own tree> that ${first%%-*} does not apply to: error names patch, file, hunk; tree back at its pristine source (rc=$rc)"
git -C "$work/linux" worktree remove --force "$own/src"
rm -rf "$own"

# 8. isolate: from another clone, this checkout is hidden and the clone is not
# (a git worktree whose repository is another checkout has its objects
# hidden when the tests run isolated: then it cannot be cloned)
if ! git -C "$repo" rev-parse -q HEAD >/dev/null 2>&1; then
	tap_skip "isolate: seen from another clone this checkout is empty" \
		"this checkout's git objects are not reachable here ($(head -c 200 "$repo/.git" 2>/dev/null | tr -d '\n'))"
else
	other=$(mktemp -d /tmp/ff-isolate-test.XXXXXX)
	git clone -q "$repo" "$other/clone" && cp "$repo/tests/isolate" "$other/clone/tests/isolate"
	env -u FF_ISOLATED "$other/clone/tests/isolate" sh -c \
		"echo hidden=\$FF_ISOLATED; ls -A '$repo' | wc -l; test -f '$other/clone/README.md' && echo visible" \
		>"$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -qx "hidden=.*$repo.*" "$tmp/out" && grep -qx 0 "$tmp/out" &&
		grep -qx visible "$tmp/out" && "$repo/tests/isolate" --list | grep -qx "$other/clone"
	ok $? "isolate: seen from another clone this checkout is empty, the clone is not (rc=$rc)"
	rm -rf "$other"
fi

tap_done harness
