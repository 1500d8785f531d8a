/*
 * oformat_folded.c -- oformat=folded and oformat=svg.  See oformat.h.
 *
 * Each row of an aggregation keyed by stack() or ustack() becomes one
 * stack, root first: the other keys as leading frames (pid, execname...,
 * in key order), then the user frames, then the kernel frames -- a
 * thread's user code calls into the kernel, so when both are keys they
 * make one line in that order, whatever the order of the keys.  Frames
 * are functions without module or offset ("malloc", "[libc.so.6]" when
 * only the module is known), so that calls from two places in one
 * function are one frame, as FlameGraph, inferno and speedscope expect;
 * equal lines are then summed.  The value is the row's, as the text
 * would print it (count, sum, avg...).
 *
 * folded prints "frame;frame;frame value" lines, in name order, for
 * each printa() and at the end; svg adds every such row to one flame
 * graph (flamegraph.h) and writes it at the end of the run, replacing
 * what the output file held.  Aggregations that cannot be stacks -- no
 * stack key, or a quantize table as value -- are left out, and said so
 * once on stderr.
 */
#include "rt/oformat.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt/flamegraph.h"

struct folded_emitter {
	struct emitter e;
	bool svg;
	struct flamegraph *fg;		/* svg: every stack so far */
	const char *unit;		/* svg: the stacks' function, or "value" */
	bool *told;			/* per aggregation id: left out, said */
	int ntold;
};

/* A row's frames, root first, with their names (owned). */
struct stack {
	struct fg_frame *f;
	int n, cap;
};

/* Folded lines split on ';' and on the last space: keep names to one
 * line and without ';'. */
static void push(struct stack *st, const char *name, enum fg_kind kind)
{
	char *s = strdup(name);

	if (!s)
		abort();
	for (char *p = s; *p; p++)
		if (*p == ';' || *p == '\n' || *p == '\r')
			*p = *p == ';' ? ':' : ' ';
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 32;
		st->f = realloc(st->f, (size_t)st->cap * sizeof(*st->f));
		if (!st->f)
			abort();
	}
	st->f[st->n++] = (struct fg_frame){ s, kind };
}

static void stack_clear(struct stack *st)
{
	for (int i = 0; i < st->n; i++)
		free((char *)st->f[i].name);
	st->n = 0;
}

static bool is_stack(const struct fmt_val *k)
{
	return k->type.kind == T_STACK && k->type.sym == DSYM_NONE;
}

/* A stack's frames, outermost first. */
static void push_stack(struct stack *st, const struct fmt_val *k,
		       const struct fmt_sym_ops *syms)
{
	char buf[512];
	uint32_t n = 0;

	while (fmt_stack_frame(k, syms, n, true, buf, sizeof(buf)))
		n++;
	while (n-- > 0) {
		fmt_stack_frame(k, syms, n, true, buf, sizeof(buf));
		push(st, buf, k->type.user ? FG_USER : FG_KERNEL);
	}
}

static void row_stack(struct stack *st, const struct agg_desc *d,
		      const struct agg_row *r, const struct fmt_sym_ops *syms)
{
	char buf[512];

	for (int i = 0; i < d->nkeys; i++) {
		const struct fmt_val *k = &r->keys[i];

		if (is_stack(k))
			continue;
		if (k->type.sym != DSYM_NONE)
			fmt_symbol(k, syms, buf, sizeof(buf));
		else if (k->type.kind == T_STRING)
			snprintf(buf, sizeof(buf), "%.*s",
				 (int)strnlen(k->s ? k->s : "", k->type.size),
				 k->s ? k->s : "");
		else if (k->type.kind == T_INT && k->type.is_signed)
			snprintf(buf, sizeof(buf), "%lld", (long long)emit_int(k));
		else
			snprintf(buf, sizeof(buf), "%llu",
				 (unsigned long long)emit_int(k));
		push(st, buf, FG_KEY);
	}
	for (int pass = 0; pass < 2; pass++)	/* user frames, then kernel */
		for (int i = 0; i < d->nkeys; i++)
			if (is_stack(&r->keys[i]) &&
			    r->keys[i].type.user == (pass == 0))
				push_stack(st, &r->keys[i], syms);
}

static bool has_stack_key(const struct agg_data *a)
{
	for (int k = 0; k < a->desc->nkeys; k++)
		if (is_stack(&a->rows[0]->keys[k]))
			return true;
	return false;
}

/* Can this aggregation's rows be stacks?  Says once why not. */
static bool usable(struct folded_emitter *fe, const struct agg_data *a)
{
	const struct agg_desc *d = a->desc;
	const char *why = !has_stack_key(a)
		? "it is not keyed by stack() or ustack()"
		: agg_is_table(d->func)
		? "its values are distributions, not numbers" : NULL;

	if (!why)
		return true;
	if (d->id >= fe->ntold) {
		int n = d->id + 16;

		fe->told = realloc(fe->told, (size_t)n * sizeof(*fe->told));
		if (!fe->told)
			abort();
		memset(fe->told + fe->ntold, 0,
		       (size_t)(n - fe->ntold) * sizeof(*fe->told));
		fe->ntold = n;
	}
	if (!fe->told[d->id])
		fprintf(fe->e.err, "%s: oformat=%s: @%s is left out: %s\n",
			fe->e.progname, fe->svg ? "svg" : "folded", d->name, why);
	fe->told[d->id] = true;
	return false;
}

struct line {
	char *text;
	int64_t value;
};

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text,
		      ((const struct line *)b)->text);
}

static char *join(const struct stack *st)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < st->n; i++)
		len += strlen(st->f[i].name) + 1;
	p = s = malloc(len);
	if (!s)
		abort();
	*p = 0;
	for (int i = 0; i < st->n; i++)
		p += sprintf(p, "%s%s", i ? ";" : "", st->f[i].name);
	return s;
}

/* One aggregation's rows as folded lines, equal ones summed. */
static void print_folded(struct folded_emitter *fe, const struct agg_data *a,
			 struct stack *st)
{
	struct line *lines = calloc((size_t)a->nrows + 1, sizeof(*lines));
	int n = 0;

	if (!lines)
		abort();
	for (int i = 0; i < a->nrows; i++) {
		stack_clear(st);
		row_stack(st, a->desc, a->rows[i], fe->e.syms);
		lines[i].text = join(st);
		lines[i].value = agg_value(a->desc, a->rows[i]->data);
	}
	qsort(lines, (size_t)a->nrows, sizeof(*lines), cmp_lines);
	for (int i = 0; i < a->nrows; i++) {
		if (n && strcmp(lines[n - 1].text, lines[i].text) == 0) {
			lines[n - 1].value += lines[i].value;
			free(lines[i].text);
			continue;
		}
		lines[n++] = lines[i];
	}
	for (int i = 0; i < n; i++) {
		fprintf(*fe->e.out, "%s %lld\n", lines[i].text,
			(long long)lines[i].value);
		free(lines[i].text);
	}
	free(lines);
}

static void add_svg(struct folded_emitter *fe, const struct agg_data *a,
		    struct stack *st)
{
	const char *unit = agg_func_name(a->desc->func);
	char name[256];

	if (!fe->unit)
		fe->unit = unit;
	else if (strcmp(fe->unit, unit) != 0)
		fe->unit = "value";
	snprintf(name, sizeof(name), "@%s", a->desc->name);
	for (int i = 0; i < a->nrows; i++) {
		stack_clear(st);
		push(st, name, FG_AGG);
		row_stack(st, a->desc, a->rows[i], fe->e.syms);
		fg_add(fe->fg, st->f, st->n,
		       agg_value(a->desc, a->rows[i]->data));
	}
}

static void aggs(struct emitter *em, struct emit_record *r,
		 const struct agg_data *a, int naggs)
{
	struct folded_emitter *fe = (struct folded_emitter *)em;
	struct stack st = { 0 };

	for (int i = 0; i < naggs; i++) {
		if (a[i].nrows == 0 || !usable(fe, &a[i]))
			continue;
		if (fe->svg)
			add_svg(fe, &a[i], &st);
		else
			print_folded(fe, &a[i], &st);
	}
	stack_clear(&st);
	free(st.f);
}

/* A firing has no state here: its text goes out as it comes. */
static struct emit_record *record_begin(struct emitter *em, int cpu,
					uint32_t probe_id,
					const struct probe *p)
{
	return NULL;
}

/* A script's messages: on stderr, as the text printer made them. */
static void action(struct emitter *em, struct emit_record *r,
		   const struct spec_action *act, const struct fmt_val *v,
		   const char *text, size_t len)
{
	if (text)
		fwrite(text, 1, len, em->err);
}

static void record_end(struct emitter *em, struct emit_record *r)
{
}

/* stderr has had these already, in the text's words */
static void error(struct emitter *em, const struct err_record *er,
		  const struct probe *p, const char *message)
{
}

static void drop(struct emitter *em, const char *kind, int cpu, uint64_t n)
{
}

static void finish(struct emitter *em)
{
	struct folded_emitter *fe = (struct folded_emitter *)em;
	FILE *out = *em->out;
	struct stat st;

	if (fe->svg) {
		/* -o appends, as dtrace(1)'s does; a graph must be alone */
		fflush(out);
		if (fstat(fileno(out), &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size > 0 && ftruncate(fileno(out), 0) < 0)
			fprintf(em->err, "%s: could not empty the output file "
				"for the flame graph\n", em->progname);
		fg_write(fe->fg, out, "Flame Graph",
			 fe->unit ? fe->unit : "value");
	}
	fflush(out);
}

static void folded_free(struct emitter *em)
{
	struct folded_emitter *fe = (struct folded_emitter *)em;

	fg_free(fe->fg);
	free(fe->told);
	free(fe);
}

static const struct emit_ops folded_ops = {
	record_begin, action, record_end, aggs, error, drop, finish,
	folded_free,
};

struct emitter *emit_folded_new(bool svg)
{
	struct folded_emitter *fe = calloc(1, sizeof(*fe));

	if (!fe)
		return NULL;
	fe->e.ops = &folded_ops;
	fe->svg = svg;
	if (svg && !(fe->fg = fg_new())) {
		free(fe);
		return NULL;
	}
	return &fe->e;
}
