/*
 * flamegraph.c -- the stack tree and its SVG.  See flamegraph.h.
 *
 * Layout: the root spans the width at the bottom and each frame sits on
 * its parent, children left to right in name order, so that two graphs
 * of the same program line up.  A frame narrower than a tenth of a pixel
 * is left out with its subtree: it could not be seen or clicked, and a
 * profile of a busy machine has tens of thousands of them.
 *
 * Every frame is a <g class="f"> holding a <title> (what a viewer shows
 * on hover, even without the script), a <rect> and a <text> label, with
 * its position in value units in data-s (start) and data-v (width) and
 * its depth in data-d: the script zooms and searches from those alone.
 * Colours are a hash of the name, so a function keeps its colour across
 * graphs: warm for user frames, aqua for kernel ones, lilac for keys.
 */
#include "rt/flamegraph.h"

#include <stdlib.h>
#include <string.h>

struct fg_node {
	char *name;
	enum fg_kind kind;
	uint64_t value;			/* of every stack through here */
	struct fg_node *child, *next;	/* first child; next sibling */
};

struct flamegraph {
	struct fg_node root;
};

#define FG_WIDTH 1200
#define FG_XPAD 10
#define FG_FRAME 16		/* a frame's height */
#define FG_TOP 66		/* title, subtitle, Reset Zoom and Search */
#define FG_BOTTOM 34		/* the details line */
#define FG_MINWIDTH 0.1		/* narrower frames are left out */

struct flamegraph *fg_new(void)
{
	struct flamegraph *fg = calloc(1, sizeof(*fg));

	if (fg && !(fg->root.name = strdup("all"))) {
		free(fg);
		return NULL;
	}
	if (fg)
		fg->root.kind = FG_AGG;
	return fg;
}

static void free_nodes(struct fg_node *n)
{
	while (n) {
		struct fg_node *next = n->next;

		free_nodes(n->child);
		free(n->name);
		free(n);
		n = next;
	}
}

void fg_free(struct flamegraph *fg)
{
	if (!fg)
		return;
	free_nodes(fg->root.child);
	free(fg->root.name);
	free(fg);
}

static struct fg_node *child_of(struct fg_node *parent,
				const struct fg_frame *f)
{
	struct fg_node **p = &parent->child, *n;

	for (; *p; p = &(*p)->next)
		if ((*p)->kind == f->kind && strcmp((*p)->name, f->name) == 0)
			return *p;
	n = calloc(1, sizeof(*n));
	if (!n || !(n->name = strdup(f->name)))
		abort();
	n->kind = f->kind;
	*p = n;
	return n;
}

void fg_add(struct flamegraph *fg, const struct fg_frame *frames, int n,
	    int64_t value)
{
	struct fg_node *node = &fg->root;

	if (value <= 0)
		return;
	node->value += (uint64_t)value;
	for (int i = 0; i < n; i++) {
		node = child_of(node, &frames[i]);
		node->value += (uint64_t)value;
	}
}

/* ---- writing ----------------------------------------------------------- */

static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			/* XML 1.0 has no place for most controls */
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
		}
	}
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void colour(FILE *out, const struct fg_node *n)
{
	uint32_t h = name_hash(n->name);
	unsigned a = h & 0xff, b = (h >> 8) & 0xff, c = (h >> 16) & 0xff;

	switch (n->kind) {
	case FG_USER:
		fprintf(out, "rgb(%u,%u,%u)", 205 + a * 50 / 255,
			b * 230 / 255, c * 55 / 255);
		break;
	case FG_KERNEL:
		fprintf(out, "rgb(%u,%u,%u)", 50 + a * 60 / 255,
			165 + b * 55 / 255, 165 + b * 55 / 255);
		break;
	case FG_KEY:
		fprintf(out, "rgb(%u,%u,%u)", 170 + a * 40 / 255,
			150 + a * 40 / 255, 210 + c * 40 / 255);
		break;
	case FG_AGG:
		fputs("rgb(200,200,200)", out);
		break;
	}
}

struct layout {
	FILE *out;
	uint64_t total;
	int height;
	const char *unit;
};

static int depth_of(const struct fg_node *n)
{
	int d = 0;

	for (const struct fg_node *c = n->child; c; c = c->next) {
		int cd = depth_of(c) + 1;

		if (cd > d)
			d = cd;
	}
	return d;
}

static int cmp_names(const void *a, const void *b)
{
	const struct fg_node *x = *(struct fg_node *const *)a;
	const struct fg_node *y = *(struct fg_node *const *)b;

	return strcmp(x->name, y->name);
}

/* Children in name order (sorted in place, as a list). */
static void sort_children(struct fg_node *n)
{
	struct fg_node **v;
	size_t k = 0, count = 0;

	for (struct fg_node *c = n->child; c; c = c->next)
		count++;
	if (count < 2)
		return;
	v = malloc(count * sizeof(*v));
	if (!v)
		abort();
	for (struct fg_node *c = n->child; c; c = c->next)
		v[k++] = c;
	qsort(v, count, sizeof(*v), cmp_names);
	n->child = v[0];
	for (k = 0; k + 1 < count; k++)
		v[k]->next = v[k + 1];
	v[count - 1]->next = NULL;
	free(v);
}

static double px(const struct layout *l, uint64_t v)
{
	return (double)v * (FG_WIDTH - 2 * FG_XPAD) / (double)l->total;
}

static void write_frame(const struct layout *l, struct fg_node *n,
			uint64_t start, int depth)
{
	double w = px(l, n->value), x = FG_XPAD + px(l, start);
	int y = l->height - FG_BOTTOM - (depth + 1) * FG_FRAME;
	FILE *out = l->out;

	if (w < FG_MINWIDTH)
		return;
	fprintf(out, "<g class=\"f\" data-s=\"%llu\" data-v=\"%llu\" "
		     "data-d=\"%d\"><title>", (unsigned long long)start,
		(unsigned long long)n->value, depth);
	xml_text(out, n->name);
	fprintf(out, " (%s %llu, %.2f%%)</title><rect x=\"%.1f\" y=\"%d\" "
		     "width=\"%.1f\" height=\"%d\" fill=\"", l->unit,
		(unsigned long long)n->value,
		100.0 * (double)n->value / (double)l->total, x, y, w,
		FG_FRAME - 1);
	colour(out, n);
	fprintf(out, "\" rx=\"2\"/><text x=\"%.1f\" y=\"%d\">", x + 3,
		y + FG_FRAME - 5);
	xml_text(out, n->name);	/* the script trims it to the width */
	fputs("</text></g>\n", out);
	sort_children(n);
	for (struct fg_node *c = n->child; c; c = c->next) {
		write_frame(l, c, start, depth + 1);
		start += c->value;
	}
}

/* The script: hover details, click to zoom, search; see flamegraph.h. */
static const char script[] =
"\"use strict\";\n"
"var W = %d, XPAD = %d, frames, details, matched, unzoom, searching = null;\n"
"function num(g, a) { return +g.getAttribute(a); }\n"
"function label(g) { return g.querySelector('title').textContent; }\n"
"function fname(g) { return label(g).replace(/ \\([^(]*\\)$/, ''); }\n"
"function fit(g, w) {\n"
"  var t = g.querySelector('text'), name = fname(g), n = Math.floor((w - 6) / 7);\n"
"  t.textContent = n < 3 ? '' : name.length <= n ? name : name.substr(0, n - 2) + '..';\n"
"}\n"
"function place(g, x, w) {\n"
"  var r = g.querySelector('rect');\n"
"  if (w < 0.1) { g.style.display = 'none'; return; }\n"
"  g.style.display = '';\n"
"  r.setAttribute('x', x.toFixed(1)); r.setAttribute('width', w.toFixed(1));\n"
"  g.querySelector('text').setAttribute('x', (x + 3).toFixed(1));\n"
"  fit(g, w);\n"
"}\n"
"function zoom(z) {\n"
"  var s0 = num(z, 'data-s'), v0 = num(z, 'data-v'), d0 = num(z, 'data-d');\n"
"  var scale = (W - 2 * XPAD) / v0;\n"
"  frames.forEach(function (g) {\n"
"    var s = num(g, 'data-s'), v = num(g, 'data-v'), d = num(g, 'data-d');\n"
"    g.classList.remove('parent');\n"
"    if (d < d0 && s <= s0 && s + v >= s0 + v0) {\n"
"      g.classList.add('parent'); place(g, XPAD, W - 2 * XPAD);\n"
"    } else if (d >= d0 && s >= s0 && s + v <= s0 + v0) {\n"
"      place(g, XPAD + (s - s0) * scale, v * scale);\n"
"    } else {\n"
"      g.style.display = 'none';\n"
"    }\n"
"  });\n"
"  unzoom.style.opacity = d0 > 0 ? 1 : 0;\n"
"  if (searching) search(searching);\n"
"}\n"
"function search(term) {\n"
"  var re, hits = [], total = 0, end = -1, base = null;\n"
"  try { re = new RegExp(term); } catch (e) { return; }\n"
"  searching = term;\n"
"  frames.forEach(function (g) {\n"
"    var r = g.querySelector('rect');\n"
"    if (!r.hasAttribute('data-fill')) r.setAttribute('data-fill', r.getAttribute('fill'));\n"
"    r.setAttribute('fill', r.getAttribute('data-fill'));\n"
"    if (g.style.display === 'none') return;\n"
"    if (!g.classList.contains('parent') && (!base || num(g, 'data-d') < num(base, 'data-d'))) base = g;\n"
"    if (re.test(fname(g))) { r.setAttribute('fill', 'rgb(230,0,230)'); hits.push(g); }\n"
"  });\n"
"  hits.sort(function (a, b) { return num(a, 'data-s') - num(b, 'data-s'); });\n"
"  hits.forEach(function (g) {\n"
"    var s = num(g, 'data-s'), e = s + num(g, 'data-v');\n"
"    if (s >= end) { total += e - s; end = e; }\n"
"    else if (e > end) { total += e - end; end = e; }\n"
"  });\n"
"  matched.textContent = 'Matched: ' + (base ? (100 * total / num(base, 'data-v')).toFixed(1) : '0.0') + '%%';\n"
"}\n"
"function clearsearch() {\n"
"  searching = null; matched.textContent = '';\n"
"  frames.forEach(function (g) {\n"
"    var r = g.querySelector('rect');\n"
"    if (r.hasAttribute('data-fill')) r.setAttribute('fill', r.getAttribute('data-fill'));\n"
"  });\n"
"}\n"
"function asksearch() {\n"
"  if (searching) { clearsearch(); return; }\n"
"  var term = prompt('Search for (a regular expression):', '');\n"
"  if (term) search(term);\n"
"}\n"
"function init() {\n"
"  frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
"  details = document.getElementById('details');\n"
"  matched = document.getElementById('matched');\n"
"  unzoom = document.getElementById('unzoom');\n"
"  frames.forEach(function (g) {\n"
"    g.addEventListener('click', function () { zoom(g); });\n"
"    g.addEventListener('mouseover', function () { details.textContent = label(g); });\n"
"    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
"    fit(g, num(g.querySelector('rect'), 'width'));\n"
"  });\n"
"  unzoom.addEventListener('click', function () { if (frames.length) zoom(frames[0]); });\n"
"  document.getElementById('search').addEventListener('click', asksearch);\n"
"  window.addEventListener('keydown', function (e) {\n"
"    if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); asksearch(); }\n"
"    else if (e.key === 'Escape') clearsearch();\n"
"  });\n"
"  location.hash.substr(1).split('&').forEach(function (kv) {\n"
"    var i = kv.indexOf('='), k = kv.substr(0, i), v = decodeURIComponent(kv.substr(i + 1));\n"
"    if (k === 'z') { var z = frames.filter(function (g) { return fname(g) === v; })[0]; if (z) zoom(z); }\n"
"    if (k === 's' && v) search(v);\n"
"  });\n"
"  document.documentElement.setAttribute('data-ready', frames.length);\n"
"}\n"
"window.addEventListener('load', init);\n";

void fg_write(struct flamegraph *fg, FILE *out, const char *title,
	      const char *unit)
{
	struct fg_node *root = &fg->root;
	struct layout l = { out, root->value ? root->value : 1, 0, unit };

	/* one aggregation: its frame would only repeat "all" */
	if (root->child && !root->child->next && root->child->kind == FG_AGG) {
		struct fg_node *agg = root->child;

		root->child = agg->child;
		agg->child = NULL;
		free_nodes(agg);
	}
	l.height = (depth_of(root) + 1) * FG_FRAME + FG_TOP + FG_BOTTOM;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style type=\"text/css\">\n"
		"text { font-family: Verdana, 'DejaVu Sans', sans-serif; "
		"font-size: 12px; fill: rgb(0,0,0); }\n"
		"g.f { cursor: pointer; } g.f:hover rect { stroke: black; "
		"stroke-width: 0.5; } g.parent { opacity: 0.5; }\n"
		"#title { font-size: 17px; } .button { cursor: pointer; }\n"
		"</style>\n<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" "
		"x1=\"0\" x2=\"0\"><stop stop-color=\"#eeeeee\" offset=\"5%%\"/>"
		"<stop stop-color=\"#eeeeb0\" offset=\"95%%\"/>"
		"</linearGradient></defs>\n<script type=\"text/ecmascript\">"
		"<![CDATA[\n", FG_WIDTH, l.height, FG_WIDTH, l.height);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	fprintf(out, script, FG_WIDTH, FG_XPAD);
#pragma GCC diagnostic pop
	fprintf(out, "]]></script>\n<rect x=\"0\" y=\"0\" width=\"%d\" "
		"height=\"%d\" fill=\"url(#bg)\"/>\n<text id=\"title\" "
		"x=\"%d\" y=\"24\" text-anchor=\"middle\">", FG_WIDTH,
		l.height, FG_WIDTH / 2);
	xml_text(out, title);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"44\" text-anchor=\"middle\">"
		"width: the aggregation's %s</text>\n"
		"<text id=\"unzoom\" class=\"button\" x=\"%d\" y=\"24\" "
		"style=\"opacity: 0\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%d\" y=\"24\" "
		"text-anchor=\"end\">Search</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\">"
		"</text>\n<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
		FG_WIDTH / 2, unit, FG_XPAD, FG_WIDTH - FG_XPAD,
		FG_WIDTH - FG_XPAD, l.height - 12, FG_XPAD, l.height - 12);
	if (root->value)
		write_frame(&l, root, 0, 0);
	fputs("</svg>\n", out);
}
