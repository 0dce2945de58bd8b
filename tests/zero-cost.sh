#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static zero-cost check of the futex fault sites, on the built objects.
#
# Builds kernel/futex/ (not the whole kernel) four ways from the same config,
# without gcov: pristine 6.1 with CONFIG_FAIL_FUTEX=n and =y, ours with =n and
# =y.  Then asserts:
#   - ours with CONFIG_FAIL_FUTEX=n has exactly pristine's =n .text: with the
#     option off nothing is compiled in;
#   - every site has one __jump_table entry (a NOP) per copy of its code, and
#     at least one;
#   - no futex object but fault.o references should_fail*, and in fault.o
#     only __futex_fault() calls it: a site that does not inject never
#     reaches the policy code.
# and reports .text sizes per object and variant in $FF_WORK/zero-cost.txt.
#
# First run: about 3 min (a git worktree and kernel "prepare" per variant);
# then seconds.

set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
FF_REPO=$repo . "$repo/scripts/kernel.sh"
work=$FF_WORK
tree=${FF_TREE:-$work/linux}
zc=$work/zc
out=$work/zero-cost.txt
objs="kernel/futex/core kernel/futex/syscalls kernel/futex/pi kernel/futex/requeue kernel/futex/waitwake"
targets=kernel/futex/

die()
{
	echo "zero-cost: error: $*" >&2
	exit 1
}

[ -f "$work/obj/.config" ] || die "no $work/obj/.config: run 'make kernel' first"
git -C "$tree" rev-parse -q --verify upstream >/dev/null || die "no work tree at $tree"
mkdir -p "$zc"
# 6.7+: io_uring/futex.c calls into the futex code, and 6.12's queue gives
# its allocations sites
if [ -f "$tree/io_uring/futex.c" ] && grep -q '^CONFIG_IO_URING=y' "$work/obj/.config"; then
	objs+=" io_uring/futex"
	targets+=" io_uring/futex.o"
fi

worktree()
{
	local dir=$1 rev=$2

	if [ ! -d "$dir" ]; then
		echo "zero-cost: checking out $rev in $dir"
		git -C "$tree" worktree add -q --detach "$dir" "$rev"
	elif [ "$(git -C "$dir" rev-parse HEAD)" != "$(git -C "$tree" rev-parse "$rev")" ]; then
		git -C "$dir" checkout -q --detach "$rev"
	fi
}

build_variant()
{
	local src=$1 obj=$2 fail=$3 t0=$SECONDS

	mkdir -p "$obj"
	cp "$work/obj/.config" "$obj/.config.new"
	"$tree"/scripts/config --file "$obj/.config.new" --"$fail" FAIL_FUTEX
	# keep the old .config (and its timestamps) when nothing changed
	if ! cmp -s "$obj/.config.new" "$obj/.config.in" 2>/dev/null; then
		cp "$obj/.config.new" "$obj/.config"
		cp "$obj/.config.new" "$obj/.config.in"
		make -s -C "$src" O="$obj" olddefconfig
	fi
	make -s -C "$src" O="$obj" -j"$(nproc)" $targets >"$obj/build.log" 2>&1 ||
		{ tail "$obj/build.log" >&2; die "building $targets in $obj failed"; }
	echo "zero-cost: built $(basename "$obj") in $((SECONDS - t0)) s"
}

text_size()
{
	size -A "$1" | awk '$1 == ".text" { print $2 }'
}

worktree "$zc/pristine" pristine
worktree "$zc/ours" upstream
build_variant "$zc/pristine" "$zc/obj-pristine-n" disable
build_variant "$zc/pristine" "$zc/obj-pristine-y" enable
build_variant "$zc/ours" "$zc/obj-ours-n" disable
build_variant "$zc/ours" "$zc/obj-ours-y" enable

fail=0
bad()
{
	echo "zero-cost: FAIL: $*" >&2
	fail=1
}

{
	echo "# .text bytes of kernel/futex/*.o (no gcov), $(date -u +%F)"
	printf "%-12s %12s %12s %12s %12s\n" object pristine-n pristine-y ours-n ours-y
	for o in $objs kernel/futex/fault; do
		printf "%-12s" "${o#kernel/futex/}.o"
		for v in pristine-n pristine-y ours-n ours-y; do
			f=$zc/obj-$v/$o.o
			if [ -f "$f" ]; then
				printf " %12s" "$(text_size "$f")"
			else
				printf " %12s" "-"
			fi
		done
		echo
	done
} > "$out"

# 1. option off: identical code
for o in $objs; do
	a=$(text_size "$zc/obj-pristine-n/$o.o")
	b=$(text_size "$zc/obj-ours-n/$o.o")
	[ "$a" = "$b" ] || bad "$o.o: CONFIG_FAIL_FUTEX=n .text $b bytes, pristine $a"
done
[ ! -f "$zc/obj-ours-n/kernel/futex/fault.o" ] || bad "fault.o built with CONFIG_FAIL_FUTEX=n"

# 2. one jump entry (NOP) per site copy.  Entries are pc-relative
# relocations against futex_fault_keys + 16 * site (+ branch bit).
# the list macro, FUTEX_FAULT_SITE(name, ...) and FUTEX_FAULT_LAST(name, ...)
# in enum order (the configuration has CONFIG_COMPAT and COMPAT_32BIT_TIME)
names=$(sed -n '/^#define FUTEX_FAULT_SITES/,$p' "$zc/ours/kernel/futex/fault_sites.h" |
	grep -oE 'FUTEX_FAULT_(SITE|LAST)\([a-z0-9_]+,' | sed -E 's/.*\(([a-z0-9_]+),/\1/')
nsites=$(echo "$names" | grep -c .)
[ "$nsites" -gt 0 ] || die "cannot parse the site list"
for o in CONFIG_COMPAT CONFIG_COMPAT_32BIT_TIME $(grep -q FUTEX_FAULT_IF_IO_URING "$zc/ours/kernel/futex/fault_sites.h" && echo CONFIG_IO_URING); do
	grep -q "^$o=y" "$zc/obj-ours-y/.config" || die "$o is not set: the site numbers would not match the list"
done
declare -A entries=()
for o in $objs; do
	while read -r addend; do
		site=$(( (16#$addend) / 16 ))
		entries[$site]=$(( ${entries[$site]:-0} + 1 ))
	done < <(readelf -rW "$zc/obj-ours-y/$o.o" |
		 awk '/^Relocation section .\.rela__jump_table/ { on = 1; next }
		      /^Relocation section/ { on = 0 }
		      on && $5 == "futex_fault_keys" { print $7 }')
done
total=0
multi=""
i=0
for name in $names; do
	c=${entries[$i]:-0}
	total=$((total + c))
	[ "$c" -ge 1 ] || bad "site $name has no __jump_table entry"
	[ "$c" -le 1 ] || multi+=" $name($c)"
	i=$((i + 1))
done
{
	echo
	echo "# sites: $nsites; __jump_table entries for them: $total"
	echo "# sites whose code the compiler duplicated (one NOP per copy):${multi:- none}"
} >> "$out"

# 3. should_fail*() only behind the static keys
for o in $objs; do
	if nm -u "$zc/obj-ours-y/$o.o" | grep -q should_fail; then
		bad "$o.o references should_fail*"
	fi
done
callers=$(objdump -dr "$zc/obj-ours-y/kernel/futex/fault.o" |
	  awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 } /R_X86_64_PLT32[[:space:]]+should_fail/ { print fn }' |
	  sort -u | tr -d '<>:')
[ "$callers" = "__futex_fault" ] || bad "should_fail* called from '${callers:-nowhere}', expected only __futex_fault"
echo "# should_fail* callers in fault.o: ${callers:-none}; in $(echo $objs | sed 's|kernel/futex/||g; s| |, |g'): none" >> "$out"

cat "$out"
[ $fail = 0 ] && echo "zero-cost: ok ($nsites sites, $total NOPs)"
exit $fail
