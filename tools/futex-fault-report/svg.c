// SPDX-License-Identifier: GPL-2.0
/* Horizontal bar charts as inline SVG (svg.h). */
#include <string.h>

#include "svg.h"
#include "util.h"

#define LABEL_W		210	/* the group's label, right-aligned */
#define SUB_W		62	/* the bar's label */
#define BAR_W		340
#define NOTE_W		170
#define ROW_H		15
#define BAR_H		11
#define GROUP_GAP	5
#define LEGEND_H	22

/* each style's colour, and its pattern drawn over the colour in white */
static const struct {
	const char	*colour;
	const char	*pattern;
} styles[] = {
	[SVG_GOOD]	= { "#3a9d5d", "" },
	[SVG_BAD]	= { "#c0392b",
			    "<path d=\"M0 6L6 0M-1 1L1 -1M5 7L7 5\" stroke=\"#fff\" stroke-width=\"1.2\"/>" },
	[SVG_WARN]	= { "#e08e0b",
			    "<circle cx=\"3\" cy=\"3\" r=\"1.2\" fill=\"#fff\"/>" },
	[SVG_WORST]	= { "#6d1a1a",
			    "<path d=\"M0 0L6 6M6 0L0 6\" stroke=\"#fff\" stroke-width=\"1\"/>" },
	[SVG_OTHER]	= { "#7f8c8d",
			    "<path d=\"M0 3H6\" stroke=\"#fff\" stroke-width=\"1.2\"/>" },
	[SVG_NONE]	= { "#e6e6e6", "" },
};

static void pattern(FILE *f, const char *id, int k, enum svg_style st)
{
	fprintf(f, "<pattern id=\"%s-p%d\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
		"<rect width=\"6\" height=\"6\" fill=\"%s\"/>%s</pattern>", id, k, styles[st].colour,
		styles[st].pattern);
}

static unsigned long long bar_total(const struct svg_chart *ch, const struct svg_bar *b)
{
	unsigned long long t = 0;
	int k;

	for (k = 0; k < ch->nseg; k++)
		t += b->v[k];
	return t;
}

void svg_bars(FILE *f, const struct svg_chart *ch, const struct svg_bar *bars, size_t n)
{
	unsigned long long max = 0;
	int width = LABEL_W + SUB_W + BAR_W + NOTE_W, height = LEGEND_H + 4, y, x, k;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned long long t = bar_total(ch, &bars[i]);

		if (t > max)
			max = t;
		height += ROW_H + (i && bars[i].label ? GROUP_GAP : 0);
	}
	/* styled here, so that a page needs no CSS for it */
	fprintf(f, "<figure class=\"chart\" id=\"%s\" style=\"margin:.5em 0 1em\"><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" style=\"max-width:100%%;height:auto\" aria-labelledby=\"%s-t %s-d\">",
		ch->id, width, height, width, height, ch->id, ch->id);
	fprintf(f, "<title id=\"%s-t\">", ch->id);
	html_escape(f, ch->title);
	fprintf(f, "</title><desc id=\"%s-d\">", ch->id);
	html_escape(f, ch->desc);
	fputs("</desc><defs>", f);
	for (k = 0; k < ch->nseg; k++)
		pattern(f, ch->id, k, ch->seg_styles[k]);
	fputs("</defs>\n", f);

	/* the legend: a swatch and the name of each segment */
	for (k = 0, x = LABEL_W + SUB_W; k < ch->nseg; k++) {
		fprintf(f, "<rect x=\"%d\" y=\"4\" width=\"12\" height=\"12\" fill=\"url(#%s-p%d)\" stroke=\"#555\" stroke-width=\"0.5\"/>"
			"<text x=\"%d\" y=\"14\" font-size=\"11\">", x, ch->id, k, x + 16);
		html_escape(f, ch->seg_names[k]);
		fputs("</text>", f);
		x += 24 + 7 * (int)strlen(ch->seg_names[k]);
	}
	fputc('\n', f);

	y = LEGEND_H + 4;
	for (i = 0; i < n; i++) {
		const struct svg_bar *b = &bars[i];
		unsigned long long t = bar_total(ch, b), scale = ch->shares ? t : max;
		const char *label = b->label;
		double bx = LABEL_W + SUB_W;

		if (i && b->label)
			y += GROUP_GAP;
		fprintf(f, "<g class=\"bar\"><text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">",
			LABEL_W - 6, y + BAR_H - 1);
		if (label)
			html_escape(f, label);
		fprintf(f, "</text><text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#555\">", LABEL_W,
			y + BAR_H - 1);
		if (b->sub)
			html_escape(f, b->sub);
		fputs("</text>", f);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#bbb\" stroke-width=\"0.5\"/>",
			LABEL_W + SUB_W, y, BAR_W, BAR_H);
		for (k = 0; k < ch->nseg && scale; k++) {
			double w = (double)BAR_W * b->v[k] / scale;
			const struct svg_bar *g = b;
			size_t j = i;

			if (!b->v[k])
				continue;
			/* the group's label for the title: the last bar that named it */
			while (!g->label && j > 0)
				g = &bars[--j];
			fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"url(#%s-p%d)\"><title>",
				bx, y, w, BAR_H, ch->id, k);
			html_escape(f, g->label ? g->label : "");
			if (b->sub) {
				fputs(" (", f);
				html_escape(f, b->sub);
				fputs(")", f);
			}
			fputs(": ", f);
			html_escape(f, ch->seg_names[k]);
			fprintf(f, " %llu of %llu</title></rect>", b->v[k], t);
			bx += w;
		}
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">", LABEL_W + SUB_W + BAR_W + 6,
			y + BAR_H - 1);
		html_escape(f, b->note);
		fputs("</text></g>\n", f);
		y += ROW_H;
	}
	fputs("</svg><figcaption style=\"font-size:.9em;color:#555\">", f);
	html_escape(f, ch->title);
	fputs("</figcaption></figure>\n", f);
}
