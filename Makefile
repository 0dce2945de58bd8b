# SPDX-License-Identifier: GPL-2.0
#
# futex-fault: per-site futex fault injection for Linux 6.1 and 6.12 and the
# tools that show which futex error paths really ran.
#
#   make report   install what is needed, build and boot the kernel, run the
#                 campaign (with its races on two vCPUs, scripts/campaign --races)
#                 into results/<date-time>-<kernel>/ (results/latest links to
#                 it), write its report/index.html there
#   make check    the tests (kernel builds, guest tests, tools) of both
#                 kernels, 6.1 and 6.12 (KERNEL=6.1 or KERNEL=6.12: of that one)
#   make series-matrix  build every patch of the kernel series in every
#                 configuration (make check builds every patch in two, and
#                 the last one in all)
#   make anchor   the same workloads on the pristine kernel's own fail_futex
#                 (its nine points, by probability), compared with the newest
#                 full campaign of ours (scripts/anchor)
#   make check-robust  the long suites (the anchor end to end, debug-kernel campaign,
#                 fuzzing, debugfs and stress, campaign faults)
#
# KERNEL=6.12 (the default) or KERNEL=6.1 picks the kernel of every target
# (scripts/ff's FF_KERNEL); its work tree, build and guest runs live in
# build/$(KERNEL)/.

KERNEL	?= $(or $(FF_KERNEL),6.12)
export FF_KERNEL := $(KERNEL)

FF	:= scripts/ff

.PHONY: all deps kernel check check-robust report anchor series series-matrix clean help bench

all: kernel

help:
	@sed -n 's/^#   //p' Makefile

deps:
	$(FF) deps

kernel: deps
	$(FF) tree
	$(FF) config
	$(FF) build

# make check checks the kernels of CHECK_KERNELS (both by default); KERNEL=
# on the command line, that one.  The reporter's tests read 6.1's work tree
# (the sources of their recorded fixtures), which is made in any case.
ifeq ($(origin KERNEL),command line)
CHECK_KERNELS	:= $(KERNEL)
else
CHECK_KERNELS	?= 6.1 6.12
endif

check: deps
	@for k in $(CHECK_KERNELS); do \
		$(MAKE) --no-print-directory kernel KERNEL=$$k || exit 1; \
	done
	FF_KERNEL=6.1 $(FF) tree
	tests/run-all.sh $(CHECK_KERNELS)

check-robust: kernel
	tests/robust/run-all.sh

report: kernel
	scripts/campaign --races

anchor: kernel
	scripts/anchor

series: kernel
	$(FF) series

series-matrix: kernel
	$(FF) series --matrix

bench: kernel
	BENCH_COMMAND="make bench" scripts/bench

clean:
	rm -rf build/*/obj build/*/runs build/*/selftests build/check
	$(MAKE) -C tools/futex-fault-report clean
