/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Horizontal bar charts as inline SVG, for the report's and the
 * comparison's pages: no script, no external resource.  Each segment is a
 * pattern as well as a colour and has a <title>; each bar ends with its
 * numbers in text, so a chart reads without colour.
 */
#ifndef FFR_SVG_H
#define FFR_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SVG_SEGS_MAX	6

/* segment styles: a fill colour with a pattern */
enum svg_style {
	SVG_GOOD,	/* solid green */
	SVG_BAD,	/* red, diagonal hatching */
	SVG_WARN,	/* orange, dots */
	SVG_WORST,	/* dark red, cross-hatching */
	SVG_OTHER,	/* grey, horizontal lines */
	SVG_NONE,	/* light grey, plain: the part of a share not reached */
};

struct svg_chart {
	const char		*id;		/* unique in the page: pattern ids derive from it */
	const char		*title;
	const char		*desc;
	const char *const	*seg_names;
	const enum svg_style	*seg_styles;
	int			nseg;
	/* every bar full width, its segments shares of its total (else one scale for all) */
	bool			shares;
};

struct svg_bar {
	const char		*label;		/* the group: a site, a file; NULL: as the bar before */
	const char		*sub;		/* the bar in its group: "old", "new", or NULL */
	unsigned long long	v[SVG_SEGS_MAX];
	char			note[64];	/* text after the bar */
};

void svg_bars(FILE *f, const struct svg_chart *ch, const struct svg_bar *bars, size_t n);

#endif /* FFR_SVG_H */
