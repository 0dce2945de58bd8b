# SPDX-License-Identifier: GPL-2.0
#
# fixtures.sh - the recorded fixtures unpacked, with their kernel sources,
# for the reporter's test scripts (run-tests.sh, compare-tests.sh,
# same-report.sh).  Source it with $here (tests/report) and $repo set; it
# sets $tree, the kernel work tree whose git objects hold the sources
# (FF_TREE, default build/6.1/linux).  Then:
#
#   fixture_unpack TARBALL DIR   unpack TARBALL into DIR (DIR/fixture)
#   fixture_v2_sources FX SRC    the v2 fixture FX's sources into SRC/kernel/futex,
#                                from $tree's git objects (the blobs of FX/sources.txt),
#                                or from FX/blobs/ for the project's own files
#   fixture_v1_sources FX1       the v1 fixture's sources into FX1/src/kernel/futex:
#                                pristine 6.1 from $tree plus series v1 of this
#                                repository's history, checked against FX1/sources.txt
#
# Each prints "Bail out! ..." and exits 1 when it cannot.

tree=${FF_TREE:-$repo/build/6.1/linux}

fixture_unpack()
{
	mkdir -p "$2"
	tar -C "$2" -xJf "$1" || { echo "Bail out! cannot unpack $1"; exit 1; }
}

fixture_v2_sources()
{
	local fx=$1 src=$2 id f

	mkdir -p "$src/kernel/futex"
	while read -r id f; do
		# the project's own files (the overlay) as the fixture's kernel had
		# them, where the series has changed them since, are in blobs/
		if [ -f "$fx/blobs/$id" ] && [ "$(git hash-object "$fx/blobs/$id")" = "$id" ]; then
			cp "$fx/blobs/$id" "$src/$f"
			continue
		fi
		git -C "$tree" cat-file blob "$id" > "$src/$f" 2>/dev/null || {
			echo "# the fixture's sources are not in $tree's git objects:"
			echo "# rerun tests/report/record-fixture.sh (needs a built kernel)"
			echo "Bail out! the fixture no longer matches the kernel sources"
			exit 1
		}
	done < "$fx/sources.txt"
}

# Its sources are kernel code, which this repository does not hold: they
# are rebuilt as the v1 kernel had them, from pristine 6.1 (the work tree's
# "pristine" tag) and series v1 as this repository's history has it
# (commit 8e18c88, the last one before v2), and must hash to the blobs its
# sources.txt names.
fixture_v1_sources()
{
	local fx1=$1 v1rev=8e18c88 id f
	local v1patch=patches/0001-futex-Make-every-failure-point-a-fault-site-with-its.patch
	local patch

	mkdir -p "$fx1/src/kernel/futex"
	for f in Makefile core.c futex.h pi.c requeue.c syscalls.c waitwake.c; do
		git -C "$tree" show "pristine:kernel/futex/$f" > "$fx1/src/kernel/futex/$f" 2>/dev/null ||
			{ echo "Bail out! no pristine kernel/futex/$f in $tree (run make kernel)"; exit 1; }
	done
	patch=$(mktemp "${TMPDIR:-/tmp}/ffr-v1patch.XXXXXX")
	git -C "$repo" show "$v1rev:$v1patch" > "$patch" 2>/dev/null ||
		{ rm -f "$patch"; echo "Bail out! this checkout's history lacks $v1rev (a shallow clone?): cannot rebuild the v1 sources"; exit 1; }
	(cd "$fx1/src" && git apply --include='kernel/futex/*' "$patch") ||
		{ rm -f "$patch"; echo "Bail out! series v1 does not apply to $tree's pristine kernel/futex"; exit 1; }
	rm -f "$patch"
	for f in fault.c fault.h fault_sites.h; do
		git -C "$repo" show "$v1rev:kernel/futex/$f" > "$fx1/src/kernel/futex/$f"
	done
	rm "$fx1/src/kernel/futex/Makefile"
	while read -r id f; do
		[ "$(git hash-object "$fx1/src/$f")" = "$id" ] ||
			{ echo "Bail out! the rebuilt v1 $f is not the blob $id of the v1 fixture's sources.txt"; exit 1; }
	done < "$fx1/sources.txt"
}
