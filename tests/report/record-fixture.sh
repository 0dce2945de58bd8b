#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Record the reporter's test fixture from the real kernel: a tiny campaign
# (baseline + a few sites, the ffdrive workload) in the layout of
# docs/results-layout.md, with its own copy of the .gcno.  Needs a built
# kernel (scripts/ff build); boots it once per run with scripts/ff run.
#
# usage: tests/report/record-fixture.sh [OUTDIR]
#   OUTDIR   default tests/report/fixture
#   FF_OBJ   kernel build directory (default build/6.1/obj)
#   FF_TREE  kernel source tree (default build/6.1/linux)
#   SITES    the runs besides the baseline
#
# The fixture is stored as OUTDIR.tar.xz (the tests unpack it); its traces
# carry only the futex part of kallsyms, to stay small.  It names no path of
# the machine it was recorded on: the .gcno name their sources relative to
# the tree (patches/local), the workload runs by a path relative to the
# checkout, campaign.json gives the trees relative to it, and the checkout's
# path in the guest's kernel command line (dmesg.txt) reads "<checkout>".

set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$here/fixture}
obj=${FF_OBJ:-$repo/build/6.1/obj}
tree=${FF_TREE:-$repo/build/6.1/linux}
runs_dir=${FF_RUNS:-$repo/build/6.1/runs}
SITES=${SITES:-"wait_get_value wake_op_atomic wait_get_key robust_fetch_next"}

[ -f "$obj/arch/x86/boot/bzImage" ] || { echo "record-fixture: no kernel in $obj" >&2; exit 1; }
[ -d "$obj/kernel/futex" ] || { echo "record-fixture: no $obj/kernel/futex" >&2; exit 1; }

drive=$runs_dir/ffdrive
mkdir -p "$runs_dir"
gcc -O2 -Wall -pthread -o "$drive" "$here/ffdrive.c"
# the guest runs from the checkout (scripts/ff run keeps the cwd)
cd "$repo"
drive=${drive#"$repo"/}

# A snapshot of the kernel, its .gcno and its sources, so that a rebuild
# while we record cannot mix builds.  The guest still finds gcov data under
# the objtree the kernel was built in ($obj).
snap=$runs_dir/fixture-kernel
rm -rf "$snap"
mkdir -p "$snap/arch/x86/boot" "$snap/kernel/futex" "$snap/src"
cp -p "$obj/arch/x86/boot/bzImage" "$snap/arch/x86/boot/"
cp -p "$obj"/kernel/futex/*.gcno "$snap/kernel/futex/"
cp -p "$tree"/kernel/futex/*.[ch] "$snap/src/"
for f in "$snap"/src/*.c; do
	g=$snap/kernel/futex/$(basename "${f%.c}").gcno
	if [ -f "$g" ] && [ "$f" -nt "$g" ]; then
		# "scripts/ff tree" rewrites files even when their content stays
		echo "record-fixture: warning: $tree/kernel/futex/$(basename "$f") is newer than the build" >&2
	fi
done

tmp=$out.new
rm -rf "$tmp"
mkdir -p "$tmp/runs" "$tmp/gcno"
cp -p "$snap"/kernel/futex/*.gcno "$tmp/gcno/"

record()
{
	local name=$1 dir=$runs_dir/report-fixture-$1
	shift

	FF_OBJ=$snap FF_RUN_DIR=$dir FF_QUIET=1 "$repo/scripts/ff" run -- \
		env FF_KALLSYMS_GREP='futex|robust|_pi_|pi_state|fixup_owner|handle_exit_race|requeue|wake_op|exit_mm|do_exit' \
		sh "$here/guest-run.sh" "$name" "$@" -- "$drive" 1 ||
		{ echo "record-fixture: run $name failed, see $dir" >&2; exit 1; }
	mkdir -p "$tmp/runs/$name"
	cp -r "$dir/out/run.json" "$dir/out/trace.dat" "$dir/out/gcov" "$dir/out/sites.txt" \
		"$tmp/runs/$name/"
	sed "s|$repo|<checkout>|g" "$dir/out/dmesg.txt" > "$tmp/runs/$name/dmesg.txt"
	# the fixture's trace is the workload's: make it small
	trace-cmd convert --compression any -i "$tmp/runs/$name/trace.dat" \
		-o "$tmp/runs/$name/trace.z.dat" >/dev/null 2>&1 &&
		mv "$tmp/runs/$name/trace.z.dat" "$tmp/runs/$name/trace.dat"
	echo "record-fixture: $name: $(du -sh "$tmp/runs/$name" | cut -f1)"
}

record baseline
# bad input for the tests: a trace recorded without the futex_fault event
FF_OBJ=$snap FF_RUN_DIR=$runs_dir/report-fixture-noevent FF_QUIET=1 "$repo/scripts/ff" run -- \
	sh -c "mount --bind /dev/null /proc/kallsyms; trace-cmd record -q -e raw_syscalls -o /mnt/trace.dat -- true" ||
	{ echo "record-fixture: the no-event trace failed" >&2; exit 1; }
mkdir -p "$tmp/bad"
cp "$runs_dir/report-fixture-noevent/out/trace.dat" "$tmp/bad/no-event.dat"
for s in $SITES; do
	record "$s" "$s"
done

# campaign.json names the trees relative to the checkout; a tree outside it
# (FF_TREE=/elsewhere) would name a path of this machine, which means nothing
# where the fixture is used: there the sources come from sources.txt's blobs
# in the checkout's own build/6.1/linux, so that is what it says.
case $tree in
"$repo"/*)	srctree=${tree#"$repo"/} ;;
*)		srctree=build/6.1/linux ;;
esac

runs=\"baseline\"
for s in $SITES; do
	runs="$runs, \"$s\""
done
cat > "$tmp/campaign.json" <<EOF
{
  "layout_version": 1,
  "created": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "kernel": {
    "version": "$(make -s -C "$tree" kernelversion 2>/dev/null || echo unknown)",
    "objtree": "${obj#"$repo"/}",
    "srctree": "$srctree",
    "gcov_dir": "kernel/futex",
    "compiler": "$(gcc --version | head -1)"
  },
  "policy": { "probability": 100, "interval": 1, "times": 5, "verbose": 0 },
  "workloads": [ { "name": "ffdrive", "command": "ffdrive 1" } ],
  "commands": [ "tests/report/record-fixture.sh" ],
  "runs": [ $runs ]
}
EOF
# The sources these .gcno belong to, as git blob ids stored in the work
# tree's object database (hash-object -w adds objects only: no index change).
# The tests rebuild a source tree from them; kernel code is not committed here.
for f in "$snap"/src/*.[ch]; do
	echo "$(git -C "$tree" hash-object -w "$f") kernel/futex/$(basename "$f")"
done > "$tmp/sources.txt"
rm -rf "$out"
mv "$tmp" "$out"
tar -C "$(dirname "$out")" --owner=0 --group=0 --sort=name -cJf "$out.tar.xz" "$(basename "$out")"
rm -rf "$out"
if xz -dc "$out.tar.xz" | grep -aqF -e "$repo" -e "$tree"; then
	echo "record-fixture: error: $out.tar.xz names this checkout ($repo) or tree ($tree)" >&2
	exit 1
fi
echo "record-fixture: $out.tar.xz ($(du -h "$out.tar.xz" | cut -f1))"
