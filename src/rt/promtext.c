/*
 * promtext.c -- aggregations as Prometheus text.  See promtext.h.
 */
#define _GNU_SOURCE	/* open_memstream */
#include "rt/promtext.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text ------------------------------------------------------------- */

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		abort();	/* as the arena does: no half-written exposition */
	return q;
}

void prom_text_put(struct prom_text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->buf = xrealloc(t->buf, t->cap);
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

void prom_text_printf(struct prom_text *t, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < (int)sizeof(small)) {
		prom_text_put(t, small, (size_t)n);
		return;
	}
	char *big = xrealloc(NULL, (size_t)n + 1);

	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	prom_text_put(t, big, (size_t)n);
	free(big);
}

void prom_text_free(struct prom_text *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

/* ---- label set -> words ----------------------------------------------- */

struct prom_entry {
	char *labels;
	int64_t *words;
};

/* Open addressing over entries; slots hold index + 1, 0 is empty. */
struct prom_table {
	struct prom_entry *v;
	int n, cap;
	int *slots;
	int nslots;
	uint32_t nwords;
};

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void table_grow(struct prom_table *tb)
{
	int n = tb->nslots ? tb->nslots * 2 : 64;

	free(tb->slots);
	tb->slots = calloc((size_t)n, sizeof(int));
	if (!tb->slots)
		abort();
	tb->nslots = n;
	for (int i = 0; i < tb->n; i++) {
		uint32_t h = hash(tb->v[i].labels) & (uint32_t)(n - 1);

		while (tb->slots[h])
			h = (h + 1) & (uint32_t)(n - 1);
		tb->slots[h] = i + 1;
	}
}

/* The entry for labels; a new one starts at desc's initial value. */
static struct prom_entry *table_get(struct prom_table *tb, const char *labels,
				    const struct agg_desc *desc)
{
	if ((tb->n + 1) * 2 > tb->nslots)
		table_grow(tb);
	uint32_t mask = (uint32_t)tb->nslots - 1, h = hash(labels) & mask;

	for (; tb->slots[h]; h = (h + 1) & mask)
		if (strcmp(tb->v[tb->slots[h] - 1].labels, labels) == 0)
			return &tb->v[tb->slots[h] - 1];
	if (tb->n == tb->cap) {
		tb->cap = tb->cap ? tb->cap * 2 : 16;
		tb->v = xrealloc(tb->v, sizeof(*tb->v) * (size_t)tb->cap);
	}
	struct prom_entry *e = &tb->v[tb->n];

	e->labels = strdup(labels);
	e->words = xrealloc(NULL, tb->nwords * 8);
	if (!e->labels)
		abort();
	agg_init(desc, e->words);
	tb->slots[h] = ++tb->n;
	return e;
}

static void table_free(struct prom_table *tb)
{
	for (int i = 0; tb && i < tb->n; i++) {
		free(tb->v[i].labels);
		free(tb->v[i].words);
	}
	if (tb) {
		free(tb->v);
		free(tb->slots);
	}
}

/* ---- names ------------------------------------------------------------ */

static bool is_histogram(enum agg_func f)
{
	return f == AGG_QUANTIZE || f == AGG_LQUANTIZE || f == AGG_LLQUANTIZE;
}

/* Counters (and the counters a summary or histogram is made of) keep
 * offsets across resets; gauges do not. */
static bool is_counter(enum agg_func f)
{
	return f != AGG_MIN && f != AGG_MAX && f != AGG_STDDEV;
}

/* [a-zA-Z_][a-zA-Z0-9_]*, not starting "__" (reserved by Prometheus). */
static bool valid_label(const char *s)
{
	if (!*s || (s[0] == '_' && s[1] == '_') || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

static bool label_taken(const struct prom_family *f, int upto, const char *s)
{
	if (strcmp(s, "le") == 0 && is_histogram(f->desc->func))
		return true;
	for (int i = 0; i < upto; i++)
		if (f->labels[i] && strcmp(f->labels[i], s) == 0)
			return true;
	return false;
}

/* Entry i of a comma-separated list, or NULL. */
static char *list_item(const char *list, int i)
{
	for (; list && i > 0; i--) {
		list = strchr(list, ',');
		list = list ? list + 1 : NULL;
	}
	return list ? strndup(list, strcspn(list, ",")) : NULL;
}

static int list_len(const char *list)
{
	int n = list ? 1 : 0;

	for (; list && *list; list++)
		n += *list == ',';
	return n;
}

static bool is_stack(const struct spec_field *k)
{
	return k->type.kind == T_STACK && !k->type.sym;
}

static int name_labels(struct prom_family *f, const char *names, bool stacks,
		       char *err, size_t errlen)
{
	int nkeys = f->desc->nkeys;
	char dflt[16];

	if (list_len(names) > nkeys) {
		snprintf(err, errlen, "%d label names for @%s, which has %d key%s",
			 list_len(names), f->desc->name, nkeys,
			 nkeys == 1 ? "" : "s");
		return -1;
	}
	for (int i = 0; i < nkeys; i++) {
		char *given = list_item(names, i);
		const char *own = f->keys[i].name;

		if (given && *given) {
			if (!valid_label(given) || label_taken(f, i, given)) {
				snprintf(err, errlen, "'%s' cannot name a label of "
					 "@%s: a label name is [a-zA-Z_][a-zA-Z0-9_]*, "
					 "unique, not le, not starting with __", given,
					 f->desc->name);
				free(given);
				return -1;
			}
			f->labels[i] = given;
			continue;
		}
		free(given);
		if (is_stack(&f->keys[i]) && !stacks)
			continue;
		snprintf(dflt, sizeof(dflt), "k%d", i);
		f->labels[i] = strdup(own && valid_label(own) &&
				      !label_taken(f, i, own) ? own : dflt);
		if (!f->labels[i])
			abort();
	}
	return 0;
}

/* ---- histogram bounds ------------------------------------------------- */

static int bucket_of(const struct agg_desc *d, int64_t v)
{
	switch (d->func) {
	case AGG_QUANTIZE:
		return agg_quantize_bucket(v);
	case AGG_LQUANTIZE:	/* the widths aggprint.c prints them with */
		return agg_lquantize_bucket(v, (int32_t)d->params[0],
			agg_lquantize_levels(d->params[0], d->params[1],
					     d->params[2]),
			(uint16_t)d->params[2]);
	default:
		return agg_llquantize_bucket(v, (int)d->params[0],
			(int)d->params[1], (int)d->params[2], (int)d->params[3]);
	}
}

/*
 * le of bucket i: the largest v with bucket_of(v) <= i, found by
 * bisection, since the bucket functions are monotonic in v and are the
 * specification the BPF code follows: no second copy of their rules.
 */
static int64_t largest_in(const struct agg_desc *d, int i)
{
	__int128 lo = INT64_MIN, hi = INT64_MAX;

	if (bucket_of(d, INT64_MAX) <= i)
		return INT64_MAX;
	/* bucket_of(lo) <= i (bucket 0 holds INT64_MIN), bucket_of(hi) > i */
	while (hi - lo > 1) {
		__int128 mid = lo + (hi - lo) / 2;

		if (bucket_of(d, (int64_t)mid) <= i)
			lo = mid;
		else
			hi = mid;
	}
	return (int64_t)lo;
}

static void histogram_bounds(struct prom_family *f)
{
	int n = (int)agg_nwords(f->desc);

	f->nbuckets = n;
	f->le = xrealloc(NULL, sizeof(*f->le) * (size_t)n);
	f->ghost = calloc((size_t)n, sizeof(bool));
	if (!f->ghost)
		abort();
	for (int i = 0; i < n; i++) {
		f->le[i] = largest_in(f->desc, i);
		f->ghost[i] = i > 0 && f->le[i] == f->le[i - 1];
	}
}

int prom_family_init(struct prom_family *f, const struct agg_desc *desc,
		     const struct spec_field *keys, const char *names,
		     bool stacks, const struct fmt_sym_ops *syms, char *err,
		     size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->desc = desc;
	f->keys = keys;
	f->syms = syms;
	f->offsets = calloc(1, sizeof(*f->offsets));
	f->labels = calloc((size_t)desc->nkeys + 1, sizeof(char *));
	if (!f->offsets || !f->labels)
		abort();
	f->offsets->nwords = agg_nwords(desc);
	size_t len = strlen(desc->name);

	f->name = xrealloc(NULL, len + 8);
	strcpy(f->name, len ? "dscope_" : "dscope");
	/* D names are identifiers already; a metric name also takes ':' */
	for (size_t i = 0; i < len; i++) {
		char c = desc->name[i];
		bool ok = c == '_' || (c >= 'a' && c <= 'z') ||
			  (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

		f->name[7 + i] = ok ? c : '_';
	}
	f->name[len ? 7 + len : 6] = '\0';
	if (is_histogram(desc->func))
		histogram_bounds(f);
	if (name_labels(f, names, stacks, err, errlen) < 0) {
		prom_family_fini(f);
		return -1;
	}
	return 0;
}

void prom_family_fini(struct prom_family *f)
{
	for (int i = 0; f->labels && i < f->desc->nkeys; i++)
		free(f->labels[i]);
	free(f->labels);
	free(f->name);
	free(f->le);
	free(f->ghost);
	table_free(f->offsets);
	free(f->offsets);
	memset(f, 0, sizeof(*f));
}

int prom_family_samples(const struct prom_family *f, char out[3][160])
{
	static const char *const suffix[][3] = {
		[AGG_COUNT] = { "_total" }, [AGG_SUM] = { "_total" },
		[AGG_MIN] = { "" }, [AGG_MAX] = { "" }, [AGG_STDDEV] = { "" },
		[AGG_AVG] = { "_sum", "_count" },
		[AGG_QUANTIZE] = { "_bucket", "_count" },
		[AGG_LQUANTIZE] = { "_bucket", "_count" },
		[AGG_LLQUANTIZE] = { "_bucket", "_count" },
	};
	int n = 0;

	for (; n < 3 && suffix[f->desc->func][n]; n++)
		snprintf(out[n], sizeof(out[n]), "%s%s", f->name,
			 suffix[f->desc->func][n]);
	return n;
}

/* ---- label values ----------------------------------------------------- */

/* Escaped per the format (\\, \", \n); bytes that are not UTF-8 become
 * U+FFFD, since Prometheus takes label values as UTF-8. */
static void put_escaped(struct prom_text *t, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3
			: (*p >> 3) == 30 ? 4 : 0;
		bool ok = n > 0;

		for (int i = 1; ok && i < n; i++)
			ok = (p[i] >> 6) == 2;
		if (!ok) {
			prom_text_put(t, "\xef\xbf\xbd", 3);
			p++;
			continue;
		}
		if (*p == '\\' || *p == '"')
			prom_text_put(t, "\\", 1);
		if (*p == '\n')
			prom_text_put(t, "\\n", 2);
		else
			prom_text_put(t, (const char *)p, (size_t)n);
		p += n;
	}
}

/* A stack's frames, outermost first, joined by ';'. */
static void put_stack(struct prom_text *t, const struct fmt_val *v,
		      const struct fmt_sym_ops *syms)
{
	char *text = NULL, *end;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		abort();
	fmt_stack(m, v, NULL, syms, 0);	/* "\n" and a frame a line */
	fclose(m);
	struct prom_text frames = { 0 };

	for (end = text + len; end > text;) {
		char *start = end - 1;

		while (start > text && start[-1] != '\n')
			start--;
		if (end - 1 > start) {	/* the line without its '\n' */
			if (frames.len)
				prom_text_put(&frames, ";", 1);
			prom_text_put(&frames, start, (size_t)(end - 1 - start));
		}
		end = start;
	}
	put_escaped(t, frames.buf ? frames.buf : "");
	prom_text_free(&frames);
	free(text);
}

static void put_value(struct prom_text *t, const struct fmt_val *v,
		      const struct fmt_sym_ops *syms)
{
	char buf[512];

	if (v->type.kind == T_STRING) {
		put_escaped(t, v->s);
	} else if (v->type.sym) {
		fmt_symbol(v, syms, buf, sizeof(buf));
		put_escaped(t, buf);
	} else if (v->type.kind == T_STACK) {
		put_stack(t, v, syms);
	} else if (v->type.kind == T_PTR) {
		prom_text_printf(t, "0x%llx", (unsigned long long)v->u);
	} else if (v->type.is_signed) {
		prom_text_printf(t, "%lld", (long long)v->u);
	} else {
		prom_text_printf(t, "%llu", (unsigned long long)v->u);
	}
}

/* name="value",... for a row's keys (left-out keys skipped). */
static void row_labels(struct prom_text *t, const struct prom_family *f,
		       const struct agg_row *r)
{
	for (int i = 0; i < f->desc->nkeys; i++) {
		if (!f->labels[i])
			continue;
		prom_text_printf(t, "%s%s=\"", t->len ? "," : "", f->labels[i]);
		put_value(t, &r->keys[i], f->syms);
		prom_text_put(t, "\"", 1);
	}
}

/* ---- samples ---------------------------------------------------------- */

static int64_t row_count(const struct agg_desc *d, const int64_t *w)
{
	int64_t n = 0;

	if (!is_histogram(d->func))
		return w[0];
	for (uint32_t i = 0; i < agg_nwords(d); i++)
		n += w[i];
	return n;
}

/* name{labels[,extra]} value */
static void sample(struct prom_text *t, const char *name, const char *suffix,
		   const char *labels, const char *extra, const char *value)
{
	bool braces = *labels || extra;

	prom_text_printf(t, "%s%s%s%s%s%s%s %s\n", name, suffix,
			 braces ? "{" : "", labels, *labels && extra ? "," : "",
			 extra ? extra : "", braces ? "}" : "", value);
}

static void histogram(struct prom_text *t, const struct prom_family *f,
		      const char *labels, const int64_t *w)
{
	int first = -1, last = -1;
	int64_t cum = 0, total = row_count(f->desc, w);
	char le[48], v[32];

	for (int i = 0; i < f->nbuckets; i++)
		if (w[i]) {
			last = i;
			first = first < 0 ? i : first;
		}
	if (first > 0)	/* the empty bucket below: a lower bound */
		for (first--; first > 0 && f->ghost[first]; first--)
			;
	for (int i = 0; first >= 0 && i <= last; i++) {
		cum += w[i];
		if (i < first || f->ghost[i] || f->le[i] == INT64_MAX)
			continue;
		snprintf(le, sizeof(le), "le=\"%lld\"", (long long)f->le[i]);
		snprintf(v, sizeof(v), "%lld", (long long)cum);
		sample(t, f->name, "_bucket", labels, le, v);
	}
	snprintf(v, sizeof(v), "%lld", (long long)total);
	sample(t, f->name, "_bucket", labels, "le=\"+Inf\"", v);
	sample(t, f->name, "_count", labels, NULL, v);
}

static void row_samples(struct prom_text *t, const struct prom_family *f,
			const char *labels, const int64_t *w)
{
	char v[32], n[32];

	switch (f->desc->func) {
	case AGG_COUNT:
	case AGG_SUM:
		snprintf(v, sizeof(v), "%lld", (long long)w[0]);
		sample(t, f->name, "_total", labels, NULL, v);
		break;
	case AGG_MIN:
	case AGG_MAX:
		if (!w[1])
			break;	/* no CPU has seen a value */
		snprintf(v, sizeof(v), "%lld", (long long)w[0]);
		sample(t, f->name, "", labels, NULL, v);
		break;
	case AGG_STDDEV:
		snprintf(v, sizeof(v), "%llu", (unsigned long long)agg_stddev(w, 1));
		sample(t, f->name, "", labels, NULL, v);
		break;
	case AGG_AVG:
		snprintf(v, sizeof(v), "%lld", (long long)w[1]);
		snprintf(n, sizeof(n), "%lld", (long long)w[0]);
		sample(t, f->name, "_sum", labels, NULL, v);
		sample(t, f->name, "_count", labels, NULL, n);
		break;
	default:
		histogram(t, f, labels, w);
		break;
	}
}

static const char *type_name(enum agg_func func)
{
	if (func == AGG_COUNT || func == AGG_SUM)
		return "counter";
	if (func == AGG_AVG)
		return "summary";
	return is_histogram(func) ? "histogram" : "gauge";
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct prom_entry *)a)->labels,
		      ((const struct prom_entry *)b)->labels);
}

/* The rows of d by label set, merged, plus the offsets (see .h). */
static void current(struct prom_table *tb, const struct prom_family *f,
		    const struct agg_data *d, bool with_offsets)
{
	uint32_t nw = tb->nwords;

	for (int i = 0; d && i < d->nrows; i++) {
		struct prom_text l = { 0 };

		row_labels(&l, f, d->rows[i]);
		agg_merge(f->desc->func, table_get(tb, l.buf ? l.buf : "",
			  f->desc)->words, d->rows[i]->data, nw);
		prom_text_free(&l);
	}
	for (int i = 0; with_offsets && i < f->offsets->n; i++) {
		const struct prom_entry *o = &f->offsets->v[i];
		int64_t *w = table_get(tb, o->labels, f->desc)->words;

		for (uint32_t k = 0; k < nw; k++)
			w[k] += o->words[k];
	}
}

void prom_render(struct prom_text *t, struct prom_family *f,
		 const struct agg_data *d)
{
	struct prom_table tb = { .nwords = f->offsets->nwords };
	const char *type = type_name(f->desc->func);
	const char *suffix = strcmp(type, "counter") == 0 ? "_total" : "";

	prom_text_printf(t, "# HELP %s%s @%s, a %s aggregation traced by "
			 "dscope\n", f->name, suffix, f->desc->name,
			 type);
	prom_text_printf(t, "# TYPE %s%s %s\n", f->name, suffix, type);
	current(&tb, f, d, is_counter(f->desc->func));
	/*
	 * An aggregation without keys is one series known from the start:
	 * a count, sum, avg or histogram that has seen nothing is zero, as
	 * Prometheus' own client libraries export an unlabelled counter
	 * before its first increment, so that a scrape taken before the
	 * first event finds the series and rate() has its starting point.
	 * min, max and stddev have no value until an event gives one.
	 */
	if (f->desc->nkeys == 0 && tb.n == 0 &&
	    strcmp(type, "gauge") != 0)
		table_get(&tb, "", f->desc);
	qsort(tb.v, (size_t)tb.n, sizeof(*tb.v), entry_cmp);
	for (int i = 0; i < tb.n; i++) {
		struct prom_text row = { 0 };

		row_samples(&row, f, tb.v[i].labels, tb.v[i].words);
		if (t->max && t->len + row.len > t->max)
			t->left_out++;
		else if (row.len)
			prom_text_put(t, row.buf, row.len);
		prom_text_free(&row);
	}
	table_free(&tb);
}

void prom_note_reset(struct prom_family *f, const struct agg_data *before,
		     const struct agg_data *after)
{
	struct prom_table was = { .nwords = f->offsets->nwords };
	struct prom_table now = { .nwords = f->offsets->nwords };

	if (!is_counter(f->desc->func))
		return;
	current(&was, f, before, false);
	current(&now, f, after, false);
	for (int i = 0; i < was.n; i++) {
		const struct prom_entry *e = &was.v[i];
		const int64_t *w = table_get(&now, e->labels, f->desc)->words;

		if (row_count(f->desc, w) >= row_count(f->desc, e->words))
			continue;	/* kept as it was */
		int64_t *o = table_get(f->offsets, e->labels, f->desc)->words;

		for (uint32_t k = 0; k < was.nwords; k++)
			o[k] += e->words[k];
	}
	table_free(&was);
	table_free(&now);
}
