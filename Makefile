# SPDX-License-Identifier: GPL-2.0
#
# futex-fault: per-site futex fault injection for Linux 6.1 and the tools
# that show which futex error paths really ran.
#
#   make report   install what is needed, build and boot the kernel, run the
#                 campaign into results/<date-time>/ (results/latest links to
#                 it), write its report/index.html there
#   make check    the tests (kernel build, guest tests, tools)
#   make series-matrix  build every patch of the kernel series in every
#                 configuration (make check builds every patch in two, and
#                 the last one in all)
#   make check-robust  the long robustness suites (debug-kernel campaign,
#                 fuzzing, debugfs and stress, campaign faults)
#
# The work tree, kernel build and guest runs live in $(FF_WORK), default build/.

FF	:= scripts/ff

.PHONY: all deps kernel check check-robust report series series-matrix clean help bench

all: kernel

help:
	@sed -n 's/^#   //p' Makefile

deps:
	$(FF) deps

kernel: deps
	$(FF) tree
	$(FF) config
	$(FF) build

check: kernel
	tests/run-all.sh

check-robust: kernel
	tests/robust/run-all.sh

report: kernel
	scripts/campaign

series: kernel
	$(FF) series

series-matrix: kernel
	$(FF) series --matrix

bench: kernel
	BENCH_COMMAND="make bench" scripts/bench

clean:
	rm -rf build/obj build/runs build/selftests
	$(MAKE) -C tools/futex-fault-report clean
