// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of futex-fault-report's logic that needs no trace: the
 * outcome engine, the error-path classifier, the JSON reader, escaping.
 * TAP output; exit status 1 if any test failed.
 */
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "errpath.h"
#include "json_number.h"
#include "outcome.h"
#include "util.h"
#include "x86_syscalls.h"

#include "tap.h"

/* ------------------------------------------------------------ outcomes */

static const long exit_nrs[] = { X86_64_NR_EXIT, X86_64_NR_EXIT_GROUP, -1 };

struct seen {
	int		n;
	enum oc_outcome	oc[16];
	long		ret[16];
	unsigned int	site[16];
	size_t		tag[16];
};

static void record(void *ctx, const struct oc_inject *inj, enum oc_outcome oc, long ret)
{
	struct seen *s = ctx;

	if (s->n < 16) {
		s->oc[s->n] = oc;
		s->ret[s->n] = ret;
		s->site[s->n] = inj->site;
		s->tag[s->n] = inj->tag;
	}
	s->n++;
}

static struct oc_inject inj(int pid, unsigned int site)
{
	return (struct oc_inject){ .site = site, .err = -14, .op = 128, .pid = pid };
}

static void test_outcomes(void)
{
	struct oc_engine *e;
	struct oc_inject i;
	struct seen s;

	/* fault, retried inside the kernel, call succeeds */
	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	oc_sys_enter(e, 10, X86_64_NR_FUTEX);
	i = inj(10, 3);
	oc_inject(e, &i);
	oc_inject(e, &i);
	CHECK(s.n == 0, "outcome waits for sys_exit");
	oc_sys_exit(e, 10, X86_64_NR_FUTEX, 0);
	CHECK(s.n == 2 && s.oc[0] == OC_RECOVERED && s.oc[1] == OC_RECOVERED,
	      "two faults in one call, call returns 0: both recovered");
	oc_finish(e);

	/* error to user space; other tasks' events do not interfere */
	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	oc_sys_enter(e, 10, X86_64_NR_FUTEX);
	oc_sys_enter(e, 11, X86_64_NR_FUTEX);
	i = inj(10, 1);
	oc_inject(e, &i);
	oc_sys_exit(e, 11, X86_64_NR_FUTEX, 0);
	CHECK(s.n == 0, "another task's sys_exit settles nothing");
	oc_sys_exit(e, 10, X86_64_NR_FUTEX, -14);
	CHECK(s.n == 1 && s.oc[0] == OC_ERROR && s.ret[0] == -14, "call returns -EFAULT: error 14");
	oc_finish(e);

	/* -ERESTARTSYS: restarted, the restarted call decides */
	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	oc_sys_enter(e, 10, X86_64_NR_FUTEX);
	i = inj(10, 1);
	oc_inject(e, &i);
	oc_sys_exit(e, 10, X86_64_NR_FUTEX, -512);
	CHECK(s.n == 0, "-ERESTARTSYS is not an outcome");
	oc_sys_enter(e, 10, X86_64_NR_FUTEX);
	oc_sys_exit(e, 10, X86_64_NR_FUTEX, 1);
	CHECK(s.n == 1 && s.oc[0] == OC_RECOVERED, "restarted call succeeds: recovered");
	oc_finish(e);

	/* the futex op of the call in progress, for events that do not record it */
	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	CHECK(oc_task_op(e, 10) == -1, "no call seen: no op");
	oc_sys_enter_op(e, 10, X86_64_NR_FUTEX, 137);
	CHECK(oc_task_op(e, 10) == 137 && oc_task_op(e, 11) == -1, "op of the futex call in progress");
	oc_sys_exit(e, 10, X86_64_NR_FUTEX, 0);
	CHECK(oc_task_op(e, 10) == -1, "no op after sys_exit");
	oc_sys_enter(e, 10, 230);
	CHECK(oc_task_op(e, 10) == -1, "another system call has no op");
	oc_finish(e);

	/* inside exit_group, and outside any system call */
	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	oc_sys_enter(e, 10, X86_64_NR_EXIT_GROUP);
	i = inj(10, 5);
	oc_inject(e, &i);
	CHECK(s.n == 1 && s.oc[0] == OC_EXIT, "fault in exit_group: exit");
	oc_sys_enter(e, 12, 0);
	oc_sys_exit(e, 12, 0, 5);
	i = inj(12, 5);
	oc_inject(e, &i);
	CHECK(s.n == 2 && s.oc[1] == OC_EXIT, "fault after sys_exit (signal death): exit");
	oc_finish(e);

	/* the task dies in the call, or the trace ends */
	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	oc_sys_enter(e, 10, X86_64_NR_FUTEX);
	i = inj(10, 1);
	oc_inject(e, &i);
	oc_task_exit(e, 10);
	CHECK(s.n == 1 && s.oc[0] == OC_NORETURN, "task exits before sys_exit: noreturn");
	oc_sys_enter(e, 20, X86_64_NR_FUTEX);
	i = inj(20, 2);
	oc_inject(e, &i);
	oc_finish(e);
	CHECK(s.n == 2 && s.oc[1] == OC_NORETURN && s.site[1] == 2, "trace ends: noreturn");

	/* lost events */
	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	oc_sys_enter(e, 10, X86_64_NR_FUTEX);
	i = inj(10, 1);
	oc_inject(e, &i);
	oc_lost(e);
	CHECK(s.n == 1 && s.oc[0] == OC_UNKNOWN, "events lost: unknown");
	oc_sys_enter(e, 10, X86_64_NR_FUTEX);
	oc_inject(e, &i);
	oc_sys_enter(e, 10, X86_64_NR_FUTEX);
	CHECK(s.n == 2 && s.oc[1] == OC_UNKNOWN, "sys_enter without sys_exit: unknown");
	oc_finish(e);

	/* a large pid */
	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	oc_sys_enter(e, 4194303, X86_64_NR_FUTEX);
	i = inj(4194303, 1);
	oc_inject(e, &i);
	oc_sys_exit(e, 4194303, X86_64_NR_FUTEX, -11);
	CHECK(s.n == 1 && s.oc[0] == OC_ERROR && s.ret[0] == -11, "pid 4194303");
	oc_finish(e);

	/* io_uring: the completion carries the error, io_uring_enter() returns >= 0 */
	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	oc_sys_enter(e, 20, X86_64_NR_IO_URING_ENTER);
	i = inj(20, 5);
	i.err = -12;
	oc_inject(e, &i);
	i = inj(20, 6);
	oc_inject(e, &i);
	oc_completion(e, 20, X86_64_NR_IO_URING_ENTER, -22);
	oc_completion(e, 20, X86_64_NR_IO_URING_ENTER, -12);
	CHECK(s.n == 1 && s.oc[0] == OC_ERROR && s.ret[0] == -12 && s.site[0] == 5,
	      "io_uring: the completion with the injected errno settles that fault");
	oc_sys_exit(e, 20, X86_64_NR_IO_URING_ENTER, 4);
	CHECK(s.n == 2 && s.oc[1] == OC_ERROR && s.ret[1] == -22 && s.site[1] == 6,
	      "io_uring: a fault still waiting at the return is the first failed completion's");
	oc_sys_enter(e, 20, X86_64_NR_IO_URING_ENTER);
	oc_inject(e, &i);
	oc_completion(e, 20, X86_64_NR_IO_URING_ENTER, 0);
	oc_sys_exit(e, 20, X86_64_NR_IO_URING_ENTER, 1);
	CHECK(s.n == 3 && s.oc[2] == OC_RECOVERED,
	      "io_uring: no failed completion, the call returns 1: recovered");
	oc_sys_enter(e, 20, X86_64_NR_FUTEX);
	oc_inject(e, &i);
	oc_completion(e, 20, X86_64_NR_IO_URING_ENTER, -14);
	oc_sys_exit(e, 20, X86_64_NR_FUTEX, 0);
	CHECK(s.n == 4 && s.oc[3] == OC_RECOVERED,
	      "a completion posted inside futex() says nothing of its faults");
	oc_finish(e);
}

/*
 * Each fault comes back with the tag it was injected with, whichever way it
 * is settled and in whatever order: the reporter's per-fault outcomes
 * (faults/<run>.tsv) are put in their place by it.
 */
static void test_tags(void)
{
	struct oc_engine *e;
	struct oc_inject i;
	struct seen s;

	memset(&s, 0, sizeof(s));
	e = oc_new(exit_nrs, record, &s);
	oc_sys_enter(e, 10, X86_64_NR_FUTEX);
	oc_sys_enter(e, 11, X86_64_NR_IO_URING_ENTER);
	oc_sys_enter(e, 13, X86_64_NR_FUTEX);
	i = inj(10, 1);
	i.tag = 0;
	oc_inject(e, &i);			/* error, at 10's return */
	i = inj(11, 2);
	i.tag = 1;
	oc_inject(e, &i);			/* error, at its completion */
	i = inj(11, 2);
	i.err = -11;
	i.tag = 2;
	oc_inject(e, &i);			/* recovered, at 11's return */
	i = inj(12, 3);
	i.tag = 3;
	oc_sys_exit(e, 12, X86_64_NR_FUTEX, 0);
	oc_inject(e, &i);			/* exit, at once: 12 is in user space */
	i = inj(13, 4);
	i.tag = 4;
	oc_inject(e, &i);			/* noreturn, at the end */
	oc_completion(e, 11, X86_64_NR_IO_URING_ENTER, -14);
	oc_sys_exit(e, 11, X86_64_NR_IO_URING_ENTER, 2);
	oc_sys_exit(e, 10, X86_64_NR_FUTEX, -14);
	oc_finish(e);
	CHECK(s.n == 5 &&
	      s.tag[0] == 3 && s.oc[0] == OC_EXIT &&
	      s.tag[1] == 1 && s.oc[1] == OC_ERROR && s.ret[1] == -14 &&
	      s.tag[2] == 2 && s.oc[2] == OC_RECOVERED &&
	      s.tag[3] == 0 && s.oc[3] == OC_ERROR && s.ret[3] == -14 &&
	      s.tag[4] == 4 && s.oc[4] == OC_NORETURN,
	      "tags: each fault settled with its own tag (exit, completion, return, end)");
}

/* ------------------------------------------------------------ error paths */

static const char snippet[] =
	"static int f(u32 __user *uaddr)\n"			/* 1 */
	"{\n"							/* 2 */
	"\tint ret = 0, op_ret;\n"				/* 3 */
	"\n"							/* 4 */
	"\tret = get(uaddr);\n"					/* 5 */
	"\tif (unlikely(ret)) {\n"				/* 6 test */
	"\t\tput();\n"						/* 7 err */
	"\t\treturn ret;\n"					/* 8 err */
	"\t}\n"							/* 9 */
	"\tif (!ret)\n"						/* 10 */
	"\t\tok();\n"						/* 11 */
	"\tif (op_ret < 0)\n"					/* 12 test */
	"\t\tgoto uaddr_faulted;\n"				/* 13 err */
	"\tswitch (ret) {\n"					/* 14 */
	"\tcase 0:\n"						/* 15 */
	"\t\tbreak;\n"						/* 16 */
	"\tcase -EFAULT:\n"					/* 17 */
	"\t\tfix();\n"						/* 18 err */
	"\t\tbreak;\n"						/* 19 err */
	"\t}\n"							/* 20 */
	"\t/* return -EINVAL; in a comment */\n"		/* 21 */
	"\tfoo(\"-EFAULT\");\n"					/* 22 */
	"\treturn 0;\n"						/* 23 */
	"\n"							/* 24 */
	"uaddr_faulted:\n"					/* 25 */
	"\tret = fault_in(uaddr);\n"				/* 26 err */
	"\tif (ret == -EFAULT)\n"				/* 27 test + err */
	"\t\treturn -EFAULT;\n"					/* 28 err */
	"out:\n"						/* 29 */
	"\treturn ret;\n"					/* 30 */
	"}\n";							/* 31 */

static void test_errpath(void)
{
	static const int err[] = { 7, 8, 13, 18, 19, 26, 28 };
	static const int test[] = { 6, 12, 27 };
	static const int plain[] = { 3, 5, 10, 11, 14, 15, 16, 21, 22, 23, 30 };
	unsigned char *fl;
	size_t i;
	int n;

	fl = errpath_classify(snippet, strlen(snippet), &n);
	CHECK(n >= 31, "classifier counts %d lines", n);
	for (i = 0; i < ARRAY_SIZE(err); i++)
		CHECK(fl[err[i]] & EP_ERROR, "line %d is error handling", err[i]);
	for (i = 0; i < ARRAY_SIZE(test); i++)
		CHECK(fl[test[i]] & EP_TEST, "line %d is an error test", test[i]);
	for (i = 0; i < ARRAY_SIZE(plain); i++)
		CHECK(!fl[plain[i]], "line %d is not error handling", plain[i]);
	free(fl);
}

/* ------------------------------------------------------------ JSON numbers, escaping */

static void test_json(void)
{
	static const char doc[] = "{\"n\": 5, \"r\": 2.5, \"big\": 1e30, \"neg\": -3, \"s\": \"x\"}";
	json_t *j = json_loads(doc, JSON_DECODE_INT_AS_REAL, NULL);
	bool bad = false;

	CHECK(j != NULL, "jansson parses a document");
	CHECK(member_num(j, "r", 0) == 2.5 && member_num(j, "s", 7) == 7 &&
	      member_num(j, "missing", 7) == 7, "member_num: number, else the default");
	CHECK(member_int(j, "n", 0, 0, 10, &bad) == 5 && !bad, "member_int: an integer in range");
	CHECK(member_int(j, "r", 1, 0, 10, &bad) == 1 && bad, "member_int: 2.5 is bad");
	bad = false;
	CHECK(member_int(j, "big", 1, 0, LLONG_MAX, &bad) == 1 && bad, "member_int: 1e30 is bad");
	bad = false;
	CHECK(member_int(j, "neg", 1, 0, 10, &bad) == 1 && bad, "member_int: below min is bad");
	bad = false;
	CHECK(member_int(j, "missing", 4, 0, 10, &bad) == 4 && !bad, "member_int: absent, default");
	json_decref(j);
}

static void test_escape(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char op[64];

	html_escape(f, "<a href=\"x\">&'</a>");
	fflush(f);
	CHECK(!strcmp(buf, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"), "HTML escape: %s",
	      buf);
	fclose(f);
	free(buf);

	futex_op_name(128, op, sizeof(op));
	CHECK(!strcmp(op, "FUTEX_WAIT_PRIVATE"), "op 128: %s", op);
	futex_op_name(6 | 256, op, sizeof(op));
	CHECK(!strcmp(op, "FUTEX_LOCK_PI|FUTEX_CLOCK_REALTIME"), "op 262: %s", op);
	futex_op_name(-1, op, sizeof(op));
	CHECK(!strcmp(op, "none"), "op -1: %s", op);
	CHECK(!strcmp(errno_name(-14), "EFAULT") && errno_value("EDEADLK") == 35, "errno names");
}

int main(void)
{
	test_outcomes();
	test_tags();
	test_errpath();
	test_json();
	test_escape();
	return tap_done("test_units");
}
