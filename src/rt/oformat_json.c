/*
 * oformat_json.c -- oformat=json: one JSON object a line.  See oformat.h; the
 * schema (version 1) is documented in docs/dscope.1, JSON OUTPUT.
 *
 * The shape follows FreeBSD DTrace's structured output where that fits
 * a line-per-object stream: a probe firing is one object carrying the
 * probe's identity and an "output" array with one entry per printing
 * action, in order; aggregations are objects of their own at the end of
 * the run (or inside printa's entry), their rows carrying typed keys and
 * the function's parts.  The first line names the schema and its version,
 * so that a reader can refuse what it does not know.
 *
 * Strings are D strings: bytes, not necessarily UTF-8.  Valid UTF-8 is
 * written as it is; controls, quote and backslash are escaped; a byte that
 * is not part of valid UTF-8 is written as the lone surrogate \udc80 ..
 * \udcff (PEP 383's "surrogateescape"), so that every byte string comes
 * back exactly -- in Python, s.encode("utf-8", "surrogateescape").
 */
#include "rt/oformat.h"

#include <stdlib.h>
#include <string.h>

#include "prov/catalog.h"

#define JSON_SCHEMA_VERSION 1

struct emit_record {
	FILE *f;		/* the object being built */
	char *buf;
	size_t len;
	int nout;		/* entries in "output" so far */
};

struct json_emitter {
	struct emitter e;
	bool header_done;
};

/* The length of the valid UTF-8 sequence at p, or 0 if p starts none. */
static int utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0];
	int n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2
		: c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;

	if (n == 0 || end - p < n)
		return 0;
	for (int i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates and beyond U+10FFFF are not valid */
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) ||
	    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

/* n bytes of s as a JSON string; with cstr, a NUL ends it. */
static void json_str(FILE *f, const char *s, size_t n, bool cstr)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	fputc('"', f);
	while (p < end && !(cstr && *p == 0)) {
		static const char from[] = "\"\\\n\r\t\b\f", to[] = "\"\\nrtbf";
		const char *e = *p ? strchr(from, *p) : NULL;
		int len = utf8_len(p, end);

		if (e)
			fprintf(f, "\\%c", to[e - from]);
		else if (len == 0)
			fprintf(f, "\\u%04x", 0xdc00 | *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, (size_t)len, f);
		p += len ? len : 1;
	}
	fputc('"', f);
}

static void json_cstr(FILE *f, const char *s)
{
	json_str(f, s ? s : "", s ? strlen(s) : 0, true);
}

static void json_int(FILE *f, const struct fmt_val *v)
{
	if (v->type.kind == T_INT && v->type.is_signed)
		fprintf(f, "%lld", (long long)emit_int(v));
	else
		fprintf(f, "%llu", (unsigned long long)emit_int(v));
}

/* A traced value or key, typed: numbers, strings, stacks as arrays of
 * frames named as stack() names them, symbols as their names. */
static void json_val(FILE *f, const struct fmt_val *v,
		     const struct fmt_sym_ops *syms)
{
	char buf[512];

	if (v->type.sym != DSYM_NONE) {
		fmt_symbol(v, syms, buf, sizeof(buf));
		json_cstr(f, buf);
		return;
	}
	switch (v->type.kind) {
	case T_STRING:
		json_str(f, v->s ? v->s : "", v->s ? v->type.size : 0, true);
		return;
	case T_STACK:
		fputc('[', f);
		for (uint32_t i = 0; fmt_stack_frame(v, syms, i, false, buf,
						     sizeof(buf)); i++) {
			fputs(i ? "," : "", f);
			json_cstr(f, buf);
		}
		fputc(']', f);
		return;
	case T_INT:
	case T_PTR:
	case T_SYM:
		json_int(f, v);
		return;
	default:
		fputs("null", f);
		return;
	}
}

static void json_u128(FILE *f, unsigned __int128 x)
{
	char buf[48], *p = buf + sizeof(buf) - 1;

	*p = 0;
	do
		*--p = (char)('0' + (int)(x % 10));
	while (x /= 10);
	fputs(p, f);
}

/* A row's value: the function's parts, or a table's non-empty buckets. */
static void json_value(FILE *f, const struct agg_desc *d, const int64_t *v)
{
	if (!agg_is_table(d->func)) {
		if (d->func == AGG_STDDEV)
			fprintf(f, "\"value\":%llu",
				(unsigned long long)agg_value(d, v));
		else
			fprintf(f, "\"value\":%lld", (long long)agg_value(d, v));
		if (d->func == AGG_AVG || d->func == AGG_STDDEV)
			fprintf(f, ",\"count\":%lld,\"sum\":%lld",
				(long long)v[0], (long long)v[1]);
		if (d->func == AGG_STDDEV) {
			fputs(",\"sumsq\":", f);
			json_u128(f, ((unsigned __int128)(uint64_t)v[3] << 64) |
					     (uint64_t)v[2]);
		}
		return;
	}
	fputs("\"buckets\":[", f);
	for (uint32_t b = 0, n = 0; b < agg_nwords(d); b++) {
		int64_t lo, hi;

		if (!v[b] || !agg_bucket_bounds(d, (int)b, &lo, &hi))
			continue;
		fprintf(f, "%s{\"min\":%lld,\"max\":%lld,\"count\":%lld}",
			n++ ? "," : "", (long long)lo, (long long)hi,
			(long long)agg_bucket_count(d, v[b]));
	}
	fputc(']', f);
}

/* {"name":..,"function":..,"rows":[..]}: the body of an aggregation,
 * rows sorted as the text prints them */
static void json_agg(FILE *f, const struct agg_data *a,
		     const struct emitter *e)
{
	const struct agg_desc *d = a->desc;

	agg_sort(a->rows, a->nrows, d, &e->sort);
	fputs("\"name\":", f);
	json_cstr(f, d->name);
	fprintf(f, ",\"function\":\"%s\"", agg_func_name(d->func));
	if (d->normal > 1)
		fprintf(f, ",\"normalize\":%llu", (unsigned long long)d->normal);
	fputs(",\"rows\":[", f);
	for (int i = 0; i < a->nrows; i++) {
		fputs(i ? ",{\"keys\":[" : "{\"keys\":[", f);
		for (int k = 0; k < d->nkeys; k++) {
			fputs(k ? "," : "", f);
			json_val(f, &a->rows[i]->keys[k], e->syms);
		}
		fputs("],", f);
		json_value(f, d, a->rows[i]->data);
		fputc('}', f);
	}
	fputc(']', f);
}

/* Every line goes through here: the schema line comes first. */
static FILE *line_out(struct emitter *em)
{
	struct json_emitter *j = (struct json_emitter *)em;
	FILE *out = *em->out;

	if (!j->header_done)
		fprintf(out, "{\"type\":\"header\",\"schema\":\"dscope\","
			     "\"version\":%d}\n", JSON_SCHEMA_VERSION);
	j->header_done = true;
	return out;
}

static void json_probe(FILE *f, uint32_t id, const struct probe *p)
{
	fprintf(f, "\"id\":%u,\"provider\":", id);
	json_cstr(f, p ? p->prov : "");
	fputs(",\"module\":", f);
	json_cstr(f, p ? p->mod : "");
	fputs(",\"function\":", f);
	json_cstr(f, p ? p->func : "");
	fputs(",\"name\":", f);
	json_cstr(f, p ? p->name : "");
}

static struct emit_record *record_begin(struct emitter *em, int cpu,
					uint32_t probe_id,
					const struct probe *p)
{
	struct emit_record *r = calloc(1, sizeof(*r));

	if (!r || !(r->f = open_memstream(&r->buf, &r->len))) {
		free(r);
		return NULL;
	}
	fprintf(r->f, "{\"type\":\"probe\",\"cpu\":%d,", cpu);
	json_probe(r->f, probe_id, p);
	fputs(",\"output\":[", r->f);
	return r;
}

/* The next entry of the record's "output" array, opened. */
static FILE *entry(struct emit_record *r, const char *action)
{
	fprintf(r->f, "%s{\"action\":\"%s\"", r->nout++ ? "," : "", action);
	return r->f;
}

static void action(struct emitter *em, struct emit_record *r,
		   const struct spec_action *act, const struct fmt_val *v,
		   const char *text, size_t len)
{
	static const char *const names[] = {
		[ACT_PRINTF] = "printf", [ACT_PRINT] = "print",
		[ACT_TRACEMEM] = "tracemem",
	};
	FILE *f;

	if (!r)
		return;
	switch (act->kind) {
	case ACT_TRACE:
		f = entry(r, "trace");
		fputs(",\"value\":", f);
		if (v[0].type.kind == T_STRUCT)	/* bytes: as the text dumps them */
			json_str(f, text ? text : "", text ? len : 0, false);
		else
			json_val(f, &v[0], em->syms);
		break;
	case ACT_EXIT:
		f = entry(r, "exit");
		fprintf(f, ",\"status\":%d", (int)v[0].u);
		break;
	case ACT_PRINTF:
	case ACT_PRINT:
	case ACT_TRACEMEM:
		f = entry(r, names[act->kind]);
		fputs(",\"text\":", f);
		json_str(f, text ? text : "", text ? len : 0, false);
		break;
	default:
		return;
	}
	fputc('}', f);
}

static void record_end(struct emitter *em, struct emit_record *r)
{
	FILE *out = line_out(em);

	if (!r)
		return;
	fputs("]}", r->f);
	fclose(r->f);
	fwrite(r->buf, 1, r->len, out);
	fputc('\n', out);
	free(r->buf);
	free(r);
}

static void aggs(struct emitter *em, struct emit_record *r,
		 const struct agg_data *a, int naggs)
{
	FILE *f;

	if (r) {	/* printa(): inside the record that called it */
		f = entry(r, "printa");
		fputs(",\"aggregations\":[", f);
		for (int i = 0; i < naggs; i++) {
			fputs(i ? ",{" : "{", f);
			json_agg(f, &a[i], em);
			fputc('}', f);
		}
		fputs("]}", f);
		return;
	}
	f = line_out(em);
	for (int i = 0; i < naggs; i++) {
		fputs("{\"type\":\"aggregation\",", f);
		json_agg(f, &a[i], em);
		fputs("}\n", f);
	}
}

static void error(struct emitter *em, const struct err_record *er,
		  const struct probe *p, const char *message)
{
	FILE *f = line_out(em);

	fprintf(f, "{\"type\":\"error\",\"epid\":%u,\"probe\":{",
		er->clause_epid + 1);
	json_probe(f, er->probe_id, p);
	fprintf(f, "},\"fault\":%llu,\"address\":%llu,\"action\":%u,"
		   "\"message\":", (unsigned long long)er->fault,
		(unsigned long long)er->addr, er->action);
	json_cstr(f, message);
	fputs("}\n", f);
}

static void drop(struct emitter *em, const char *kind, int cpu, uint64_t n)
{
	FILE *f = line_out(em);

	fputs("{\"type\":\"drop\",\"kind\":", f);
	json_cstr(f, kind);
	fprintf(f, ",\"cpu\":%d,\"count\":%llu}\n", cpu, (unsigned long long)n);
}

static void finish(struct emitter *em)
{
	line_out(em);	/* even a run that printed nothing names its schema */
	fflush(*em->out);
}

static void json_free(struct emitter *em)
{
	free(em);
}

static const struct emit_ops json_ops = {
	record_begin, action, record_end, aggs, error, drop, finish, json_free,
};

struct emitter *emit_json_new(void)
{
	struct json_emitter *j = calloc(1, sizeof(*j));

	if (j)
		j->e.ops = &json_ops;
	return j ? &j->e : NULL;
}
