/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The old name of report.h, kept only for findings.c until its owner
 * includes report.h; nothing else may include it.
 */
#include "report.h"
