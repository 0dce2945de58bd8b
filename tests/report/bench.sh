#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Speed of futex-fault-report on a large trace recorded from our kernel:
# N futex(FUTEX_WAIT) calls with the site wait_get_key failing each one
# (one futex_fault_inject + sys_enter + sys_exit per call).  The trace is
# kept in the build directory, not in the repository.
#
# usage: tests/report/bench.sh [N]        (default N = 1100000)
#   FF_OBJ, FF_RUNS: as for scripts/ff; TOOLDIR: the built reporter

set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
n=${1:-1100000}
obj=${FF_OBJ:-$repo/build/6.1/obj}
runs_dir=${FF_RUNS:-$repo/build/6.1/runs}
tool=${TOOLDIR:-$repo/tools/futex-fault-report}
dir=$runs_dir/report-bench

mkdir -p "$runs_dir"
gcc -O2 -Wall -pthread -o "$runs_dir/ffdrive" "$here/ffdrive.c"
if [ ! -s "$dir/out/trace.dat" ] || [ -n "${RERECORD:-}" ]; then
	FF_TIMEOUT=${FF_TIMEOUT:-900} FF_RUN_DIR=$dir FF_QUIET=1 "$repo/scripts/ff" run -- \
		env FF_TIMES=-1 FF_BUF=65536 sh "$here/guest-run.sh" bench "$obj" wait_get_key -- \
		"$runs_dir/ffdrive" --bench "$n"
fi
ls -l "$dir/out/trace.dat"
"$tool/futex-fault-report" --parse "$dir/out/trace.dat"
