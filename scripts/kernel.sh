# SPDX-License-Identifier: GPL-2.0
#
# The kernel a command works on, sourced by every script that builds, boots
# or reads a kernel.  FF_KERNEL picks it (make's KERNEL= sets it); the rest
# follows from it, so that the work trees, builds and runs of the two kernels
# live side by side and never mix:
#
#   FF_KERNEL   6.12 (the default) or 6.1
#   FF_WORK     build/$FF_KERNEL: the work tree (linux/), the build (obj/),
#               the guest runs (runs/)
#   FF_SRC      the source to build: Debian's linux-source-$FF_KERNEL tarball
#               by default; any tarball or directory of a $FF_KERNEL.y tree
#   FF_PATCHES  patches/$FF_KERNEL: the series for that kernel
#
# Needs FF_REPO set to the repository's top directory.

FF_KERNELS="6.1 6.12"
FF_KERNEL=${FF_KERNEL:-6.12}
case " $FF_KERNELS " in
*" $FF_KERNEL "*) ;;
*)	echo "error: FF_KERNEL=$FF_KERNEL: the kernels this project supports are: $FF_KERNELS" >&2
	exit 2 ;;
esac
FF_WORK=${FF_WORK:-$FF_REPO/build/$FF_KERNEL}
FF_SRC=${FF_SRC:-${FF_SRC_TAR:-/usr/src/linux-source-$FF_KERNEL.tar.xz}}
FF_PATCHES=$FF_REPO/patches/$FF_KERNEL
export FF_KERNEL
