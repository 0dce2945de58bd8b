// SPDX-License-Identifier: GPL-2.0
/*
 * A lexical classifier of error-handling code.  It tokenises C (comments,
 * strings and preprocessor lines dropped), then marks lines by the rules
 * in errpath.h.  It does not preprocess: code hidden in macros is judged
 * by the macro call's line.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "errpath.h"
#include "util.h"

enum tok_type { T_IDENT, T_NUM, T_PUNCT };

struct tok {
	enum tok_type	type;
	const char	*s;
	int		len;
	int		line;
};

struct lexed {
	struct tok	*t;
	size_t		n;
	size_t		cap;
	unsigned char	*flags;
	int		nlines;
};

static void push(struct lexed *lx, enum tok_type type, const char *s, int len, int line)
{
	grow(&lx->t, &lx->cap, lx->n + 1, sizeof(*lx->t));
	lx->t[lx->n++] = (struct tok){ type, s, len, line };
}

static const char *const puncts2[] = {
	"&&", "||", "==", "!=", "<=", ">=", "->", "++", "--", "<<", ">>",
	"+=", "-=", "*=", "/=", "|=", "&=", "^=", "%=",
};

static void lex(struct lexed *lx, const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	bool line_start = true;
	int line = 1;

	while (p < end) {
		if (*p == '\n') {
			line++;
			line_start = true;
			p++;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (line_start && *p == '#') {
			/* a preprocessor line, with its continuations */
			while (p < end && *p != '\n') {
				if (*p == '\\' && p + 1 < end && p[1] == '\n') {
					line++;
					p++;
				}
				p++;
			}
			continue;
		}
		line_start = false;
		if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
				line += *p == '\n';
			p += 2;
			continue;
		}
		if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (p < end && *p != q && *p != '\n') {
				if (*p == '\\' && p + 1 < end)
					p++;
				p++;
			}
			p++;
			continue;
		}
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *b = p;

			while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
				p++;
			push(lx, T_IDENT, b, p - b, line);
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			const char *b = p;

			while (p < end && (isalnum((unsigned char)*p) || *p == '.'))
				p++;
			push(lx, T_NUM, b, p - b, line);
			continue;
		}
		for (size_t i = 0; i < ARRAY_SIZE(puncts2); i++) {
			if (p + 1 < end && !strncmp(p, puncts2[i], 2)) {
				push(lx, T_PUNCT, p, 2, line);
				p += 2;
				goto next;
			}
		}
		push(lx, T_PUNCT, p, 1, line);
		p++;
next:
		;
	}
	lx->nlines = line;
}

static bool is(const struct lexed *lx, size_t i, const char *s)
{
	return i < lx->n && (int)strlen(s) == lx->t[i].len && !strncmp(lx->t[i].s, s, lx->t[i].len);
}

/* -EFOO at i (the '-') */
static bool neg_errno(const struct lexed *lx, size_t i)
{
	const struct tok *t;
	int k;

	if (!is(lx, i, "-") || i + 1 >= lx->n || lx->t[i + 1].type != T_IDENT)
		return false;
	t = &lx->t[i + 1];
	if (t->len < 3 || t->s[0] != 'E')
		return false;
	for (k = 1; k < t->len; k++)
		if (!isupper((unsigned char)t->s[k]) && !isdigit((unsigned char)t->s[k]) &&
		    t->s[k] != '_')
			return false;
	return true;
}

static bool ends_with(const struct tok *t, const char *suffix)
{
	int n = strlen(suffix);

	return t->len >= n && !strncmp(t->s + t->len - n, suffix, n);
}

/* ret, err, error, res, rc, op_ret, *_err */
static bool error_var(const struct tok *t)
{
	static const char *const names[] = { "ret", "err", "error", "res", "rc" };
	size_t i;

	if (t->type != T_IDENT)
		return false;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (t->len == (int)strlen(names[i]) && !strncmp(t->s, names[i], t->len))
			return true;
	return ends_with(t, "_ret") || ends_with(t, "_err");
}

/* index of the token matching the opener at i, or lx->n */
static size_t match(const struct lexed *lx, size_t i)
{
	char open = lx->t[i].s[0], close = open == '(' ? ')' : open == '[' ? ']' : '}';
	int depth = 0;

	for (; i < lx->n; i++) {
		if (lx->t[i].type != T_PUNCT || lx->t[i].len != 1)
			continue;
		if (lx->t[i].s[0] == open)
			depth++;
		else if (lx->t[i].s[0] == close && --depth == 0)
			return i;
	}
	return lx->n;
}

/* Is the condition between the parentheses at [a, b) an error test? */
static bool error_test(const struct lexed *lx, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++) {
		if (neg_errno(lx, i))
			return true;
		if (is(lx, i, "IS_ERR") || is(lx, i, "IS_ERR_OR_NULL"))
			return true;
		if (is(lx, i, "access_ok") && i > a && is(lx, i - 1, "!"))
			return true;
		if (error_var(&lx->t[i]) && i > 0 &&
		    (is(lx, i - 1, "(") || is(lx, i - 1, "&&") || is(lx, i - 1, "||"))) {
			/* ret as a truth value, ret != 0, ret < 0 */
			if (i + 1 >= b || is(lx, i + 1, ")") || is(lx, i + 1, "&&") ||
			    is(lx, i + 1, "||"))
				return true;
			if ((is(lx, i + 1, "!=") || is(lx, i + 1, "<")) && is(lx, i + 2, "0"))
				return true;
		}
	}
	return false;
}

/* the last token of the statement starting at i */
static size_t stmt_end(const struct lexed *lx, size_t i, int depth)
{
	size_t e;

	if (i >= lx->n || depth > 64)
		return lx->n ? lx->n - 1 : 0;
	if (is(lx, i, "{"))
		return match(lx, i);
	if (is(lx, i, "if") || is(lx, i, "for") || is(lx, i, "while") || is(lx, i, "switch")) {
		bool is_if = is(lx, i, "if");

		if (!is(lx, i + 1, "("))
			return i;
		e = stmt_end(lx, match(lx, i + 1) + 1, depth + 1);
		if (is_if && is(lx, e + 1, "else"))
			e = stmt_end(lx, e + 2, depth + 1);
		return e;
	}
	if (is(lx, i, "do")) {
		e = stmt_end(lx, i + 1, depth + 1);
		if (is(lx, e + 1, "while") && is(lx, e + 2, "("))
			e = match(lx, e + 2) + 1;
		return e;
	}
	for (e = i; e < lx->n; e++) {
		if (is(lx, e, ";"))
			return e;
		if (is(lx, e, "(") || is(lx, e, "[") || is(lx, e, "{"))
			e = match(lx, e);
		else if (is(lx, e, "}"))
			return e - 1;
	}
	return lx->n - 1;
}

static void mark(struct lexed *lx, size_t a, size_t b, unsigned char flag)
{
	size_t i;

	for (i = a; i <= b && i < lx->n; i++)
		lx->flags[lx->t[i].line] |= flag;
}

/* mark the tokens of a statement, without the braces of a block */
static void mark_stmt(struct lexed *lx, size_t a, size_t b)
{
	if (is(lx, a, "{") && is(lx, b, "}")) {
		a++;
		b--;
	}
	if (a <= b)
		mark(lx, a, b, EP_ERROR);
}

static bool label_at(const struct lexed *lx, size_t i)
{
	if (lx->t[i].type != T_IDENT || !is(lx, i + 1, ":") || i == 0)
		return false;
	if (is(lx, i, "default") || is(lx, i, "case"))
		return false;
	return is(lx, i - 1, ";") || is(lx, i - 1, "{") || is(lx, i - 1, "}") ||
	       is(lx, i - 1, ":");
}

static bool error_label(const struct tok *t)
{
	char name[64];
	int n = t->len < 63 ? t->len : 63;

	memcpy(name, t->s, n);
	name[n] = '\0';
	if (strstr(name, "fault") || strstr(name, "err") || strstr(name, "fail"))
		return true;
	if (!strncmp(name, "out_e", 5) && name[5])
		return true;
	return n > 6 && !strcmp(name + n - 6, "_retry");
}

unsigned char *errpath_classify(const char *src, size_t len, int *nlines)
{
	struct lexed lx = { 0 };
	size_t i, e;
	int depth = 0, paren = 0;

	lex(&lx, src, len);
	lx.flags = xcalloc(lx.nlines + 2, 1);

	for (i = 0; i < lx.n; i++) {
		if (is(&lx, i, "{"))
			depth++;
		else if (is(&lx, i, "}"))
			depth--;
		else if (is(&lx, i, "("))
			paren++;
		else if (is(&lx, i, ")") && paren > 0)
			paren--;

		/* E1: if (<error test>) <statement> */
		if (is(&lx, i, "if") && is(&lx, i + 1, "(")) {
			size_t c = match(&lx, i + 1);

			if (c < lx.n && error_test(&lx, i + 2, c)) {
				mark(&lx, i, c, EP_TEST);
				e = stmt_end(&lx, c + 1, 0);
				mark_stmt(&lx, c + 1, e);
			}
			continue;
		}

		/* E2: case -EFOO: ... up to the next case/default or the switch's end */
		if (is(&lx, i, "case") && neg_errno(&lx, i + 1)) {
			int d = 0;

			for (e = i + 1; e < lx.n && !is(&lx, e, ":"); e++)
				;
			for (e++; e < lx.n; e++) {
				if (is(&lx, e, "{"))
					d++;
				if (is(&lx, e, "}") && d-- == 0)
					break;
				if (d == 0 && (is(&lx, e, "case") || is(&lx, e, "default")))
					break;
			}
			if (e > i + 3)
				mark(&lx, i + 3, e - 1, EP_ERROR);
			continue;
		}

		/* E3: error label up to the next label or the end of the function */
		if (depth > 0 && label_at(&lx, i) && error_label(&lx.t[i])) {
			int d = depth;

			for (e = i + 2; e < lx.n; e++) {
				if (is(&lx, e, "{"))
					d++;
				if (is(&lx, e, "}") && --d == 0)
					break;
				if (label_at(&lx, e))
					break;
			}
			if (e > i + 2)
				mark(&lx, i + 2, e - 1, EP_ERROR);
			continue;
		}

		/*
		 * E4: a statement producing -EFOO, outside parentheses (a
		 * condition or a call argument is left to the rules above)
		 */
		if (neg_errno(&lx, i) && depth > 0 && paren == 0) {
			size_t a = i;

			while (a > 0 && !is(&lx, a - 1, ";") && !is(&lx, a - 1, "{") &&
			       !is(&lx, a - 1, "}") && !is(&lx, a - 1, ")") && !is(&lx, a - 1, ":"))
				a--;
			for (e = i; e < lx.n && !is(&lx, e, ";") && !is(&lx, e, "}"); e++)
				;
			mark(&lx, a, e, EP_ERROR);
		}
	}
	free(lx.t);
	*nlines = lx.nlines;
	return lx.flags;
}
