/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faults/<run>.tsv, written by the reporter (faults.c) and read by the
 * plugin: its first two lines, then one injected fault a line, six fields
 * separated by tabs, in time order (README.md "Per-fault outcomes").  A
 * change of the fields is a new version in the first line.
 */
#ifndef FFR_FAULTS_H
#define FFR_FAULTS_H

#define FAULTS_MAGIC	"# futex-fault-report faults/1"
#define FAULTS_HEADER	"# ts\tcpu\tpid\tsite\toutcome\terrno"
#define FAULTS_FIELDS	6

#endif /* FFR_FAULTS_H */
