#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Robustness of the futex fault-injection controls, in the guest:
#   1. debugfs-fuzz: hostile writes to every static_keys/futex_fault/ file,
#      fail_futex/sites, fail_futex/reset and the fail_futex attributes,
#      checked against a model of each file; concurrent writers; leaks.
#   2. stress-flip: sites and policy flipped as fast as possible while futex
#      workloads (its own workers, perf bench futex) run; counters checked
#      against the site table and the trace events afterwards.
# Each runs in its own guest (scripts/ff run), so that a crash is the test's.
# Builds both programs into $FF_ROBUST_OUT/bin, prints the figures and a
# PASS/FAIL line; exit status 0 only if both passed.
#
# About 3-4 minutes with the defaults under TCG.  Environment (defaults):
#   FF_OBJ              kernel build to boot (build/obj; build/obj-debug for lockdep...)
#   FF_ROBUST_SECS      stress-flip duration, seconds (60)
#   FF_ROBUST_INPUTS    debugfs-fuzz inputs per file (160)
#   FF_ROBUST_LEAK      debugfs-fuzz writes per half of the leak loop (20000)
#   FF_ROBUST_FUZZ_SECS debugfs-fuzz time limit, seconds (240; 480 for a lockdep,
#                       kmemleak or KASAN kernel)
#   FF_ROBUST_SEED      seed of both programs (from the clock; printed)
#   FF_ROBUST_SMP       guest CPUs for stress-flip (scripts/ff's default: 1 under TCG,
#                       2 under KVM; 2 under multi-threaded TCG oopses, see README.md)
# A kernel report printed while a guest boots, before the tests start, is
# reported but not counted against them.
#   FF_ROBUST_PERF      1: perf bench futex beside stress-flip (1)
#   FF_ROBUST_STRICT    1: what our files accept beyond their documentation fails (0)
#   FF_ROBUST_NICE      niceness of the guests (5)
#   FF_ROBUST_OUT       results directory (build/robust/<kernel>-<date-time>)
# For a long run, e.g. make check-robust: FF_ROBUST_SECS=600 FF_ROBUST_INPUTS=2000

set -eu

usage()
{
	sed -n '3,/^$/s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

[ $# = 0 ] || usage

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
FF_REPO=$repo . "$repo/scripts/kernel.sh"
work=$FF_WORK
obj=${FF_OBJ:-$work/obj}
case "$obj" in /*) ;; *) obj=$repo/$obj ;; esac
export FF_OBJ=$obj
secs=${FF_ROBUST_SECS:-60}
inputs=${FF_ROBUST_INPUTS:-160}
leak=${FF_ROBUST_LEAK:-20000}
fuzz_secs=${FF_ROBUST_FUZZ_SECS:-240}
seed=${FF_ROBUST_SEED:-$(date +%s)}
nice=${FF_ROBUST_NICE:-5}
strict=
[ "${FF_ROBUST_STRICT:-0}" = 0 ] || strict=1
out=${FF_ROBUST_OUT:-$work/robust/$(basename "$obj")-$(date +%Y%m%d-%H%M%S)}
src=$repo/tests/robust

die()
{
	echo "run-kernel.sh: $*" >&2
	exit 2
}

for v in "$secs" "$inputs" "$leak" "$fuzz_secs" "$seed"; do
	[[ "$v" =~ ^[0-9]+$ ]] || die "not a number: $v"
done
[ -f "$obj/arch/x86/boot/bzImage" ] || die "no kernel at $obj (scripts/ff build, or set FF_OBJ)"
for opt in CONFIG_FAIL_FUTEX CONFIG_FAULT_INJECTION_DEBUG_FS CONFIG_DEBUG_FS CONFIG_FTRACE; do
	grep -q "^$opt=y" "$obj/.config" || die "$obj/.config lacks $opt=y"
done

# lockdep, kmemleak, KASAN kernels run several times slower under TCG
if grep -qE '^CONFIG_(PROVE_LOCKING|KASAN|DEBUG_KMEMLEAK)=y' "$obj/.config" &&
   [ -z "${FF_ROBUST_FUZZ_SECS:-}" ]; then
	fuzz_secs=$((fuzz_secs * 2))
fi
if [ "${FF_ROBUST_SMP:-1}" -gt 1 ] && [ "$(cat "$work/accel" 2>/dev/null || echo tcg)" != kvm ]; then
	echo "run-kernel.sh: warning: $FF_ROBUST_SMP vCPUs under multi-threaded TCG: flipping keys" \
		"oopses on a stale int3 there (see tests/robust/README.md)" >&2
fi

mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
{
	echo "FF_OBJ=$obj FF_ROBUST_SECS=$secs FF_ROBUST_INPUTS=$inputs FF_ROBUST_LEAK=$leak"
	echo "FF_ROBUST_FUZZ_SECS=$fuzz_secs FF_ROBUST_SEED=$seed FF_ROBUST_SMP=${FF_ROBUST_SMP:-}"
	echo "FF_ROBUST_PERF=${FF_ROBUST_PERF:-1} FF_ROBUST_STRICT=${FF_ROBUST_STRICT:-0}"
	echo "kernel: $(strings "$obj/arch/x86/boot/bzImage" | grep -m1 '^6\.1\.' || echo '?')"
	echo "debug options: $(grep -E '^CONFIG_(PROVE_LOCKING|DEBUG_KMEMLEAK|KASAN|DEBUG_ATOMIC_SLEEP|UBSAN)=y' "$obj/.config" | tr '\n' ' ')"
} > "$out/settings"

# The guests run the host's root read-only: dynamic binaries are fine.
cflags="-O2 -g -Wall -Wextra -Wno-sign-compare -Wno-unused-parameter -pthread"
for p in debugfs-fuzz stress-flip; do
	# shellcheck disable=SC2086
	gcc $cflags -o "$out/bin/$p" "$src/$p.c" 2>"$out/bin/$p.log" ||
		{ cat "$out/bin/$p.log" >&2; die "cannot build $p"; }
done

echo "run-kernel.sh: kernel $obj, seed $seed, results in $out"
t0=$SECONDS

# 1. debugfs-fuzz
fuzz_rc=0
FF_RUN_DIR=$out/fuzz FF_TIMEOUT=$((fuzz_secs + 240)) \
	nice -n "$nice" scripts/ff run -- "$src/debugfs-fuzz.sh" "$out/bin/debugfs-fuzz" \
	-s "$seed" -n "$inputs" -l "$leak" -t "$fuzz_secs" ${strict:+-S} >"$out/fuzz.log" 2>&1 ||
	fuzz_rc=$?
fuzz_time=$((SECONDS - t0))

# 2. stress-flip
t1=$SECONDS
stress_rc=0
smp_env=()
[ -z "${FF_ROBUST_SMP:-}" ] || smp_env=(FF_SMP="$FF_ROBUST_SMP")
env "${smp_env[@]}" FF_RUN_DIR="$out/stress" FF_TIMEOUT=$((secs * 2 + 240)) \
	FF_ROBUST_PERF="${FF_ROBUST_PERF:-1}" \
	nice -n "$nice" scripts/ff run -- "$src/stress-flip.sh" "$out/bin/stress-flip" "$secs" \
	-s "$seed" >"$out/stress.log" 2>&1 || stress_rc=$?
stress_time=$((SECONDS - t1))

# the first kernel report in a console log, without terminal escapes
first_report()
{
	grep -m1 -E "$splat" "$1" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g; s/^.*\(watchdog:\)/\1/'
}

splat='int3:|BUG:|WARNING:|Oops|general protection|Kernel panic|soft lockup|INFO: task .* blocked|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called'

# scripts/ff run calls a guest crashed (125) when its console shows a kernel
# report anywhere, boot included.  A report printed before the command
# started is not the tests': say so, and judge by the command's own status
# (its runner checks the kernel log lines added while it ran).
boot_report()
{
	local dir=$1 first start

	[ -f "$dir/out/exit-status" ] || return 1
	first=$(grep -n -m1 -E "$splat" "$dir/console.log" | cut -d: -f1)
	start=$(grep -n -m1 'guest-init: running' "$dir/console.log" | cut -d: -f1)
	[ -n "$first" ] && [ -n "$start" ] && [ "$first" -lt "$start" ] || return 1
	echo "run-kernel.sh: $(basename "$dir"): a kernel report at boot, before the tests ran" \
		"(not counted): $(first_report "$dir/console.log")"
}

for run in fuzz stress; do
	if [ "$run" = fuzz ]; then rc=$fuzz_rc; else rc=$stress_rc; fi
	if [ "$rc" = 125 ] && boot_report "$out/$run" >> "$out/boot-reports"; then
		rc=$(cat "$out/$run/out/exit-status")
		if [ "$run" = fuzz ]; then fuzz_rc=$rc; else stress_rc=$rc; fi
	fi
done

# What a run ended with: its verdict, or the harness's (crash, hang)
verdict()
{
	local rc=$1 dir=$2

	case $rc in
	0) echo PASS ;;
	124) echo "FAIL (guest hang, $dir/console.log)" ;;
	125) echo "FAIL (guest crash: $(first_report "$dir/console.log"), $dir/console.log)" ;;
	*) echo "FAIL (exit $rc)" ;;
	esac
}

[ -s "$out/boot-reports" ] && cat "$out/boot-reports"
fv=$(verdict $fuzz_rc "$out/fuzz")
sv=$(verdict $stress_rc "$out/stress")
fout=$out/fuzz/out/stdout
sout=$out/stress/out/stdout

echo
echo "== debugfs-fuzz ($fuzz_time s with boot): $fv"
if [ -f "$fout" ]; then
	grep -E '^(debugfs-fuzz|concurrent|pieces|leak|kmemleak|note|FAIL|[0-9]+ files)' "$fout" | head -60 || true
	sed -n '/^inputs tried per file and class:/,/^total/p' "$fout" > "$out/fuzz-inputs.txt"
	echo "inputs per class (per file: $out/fuzz-inputs.txt):"
	sed -n '1p;$p' "$out/fuzz-inputs.txt" | cut -c46-
fi
if [ $fuzz_rc = 125 ]; then
	grep -E -A14 "$splat" "$out/fuzz/console.log" | head -30
fi

echo
echo "== stress-flip ($stress_time s with boot, $(grep -m1 -o '[0-9]* CPUs' "$sout" 2>/dev/null || echo '? CPUs')): $sv"
if [ -f "$sout" ]; then
	grep -E '^(stress-flip:|controller|workers|robust exits|counters|progress|FAIL|  perf)' "$sout" || true
	grep -E '^stress-flip.sh' "$sout" || true
fi
if [ $stress_rc = 125 ]; then
	grep -E -A14 "$splat" "$out/stress/console.log" | head -30
fi

echo
if [ $fuzz_rc = 0 ] && [ $stress_rc = 0 ]; then
	echo "robust: PASS (debugfs-fuzz PASS, stress-flip PASS; kernel $(basename "$obj"), seed $seed, $((SECONDS - t0)) s)"
	exit 0
fi
echo "robust: FAIL (debugfs-fuzz $fv; stress-flip $sv; kernel $(basename "$obj"), seed $seed, $((SECONDS - t0)) s)"
exit 1
