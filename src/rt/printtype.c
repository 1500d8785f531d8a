/*
 * printtype.c -- print() and tracemem() output.  See printtype.h.
 *
 * print() walks the object's type as DTrace does: the object itself at an
 * indent of 44 columns, each member one column further in, a member whose
 * bytes are all zero left out (the object itself is always shown), arrays
 * element by element (a char array up to its NUL), enums by enumerator,
 * pointers in hex.
 *
 * DTrace closes a struct or union only when the walk reaches the next
 * thing to print, not when the aggregate's last member is done (an array
 * closes at once); that
 * shows when the output is cut at printsize: the "..." comes before the
 * closing braces still pending.  The printer keeps those pending closes
 * in a stack and writes them out at the same points.
 */
#include "rt/printtype.h"

#include <string.h>

#include "front/ctype.h"

#define PRINT_INDENT 44
#define PENDING_MAX 64

struct printer {
	FILE *out;
	const unsigned char *data;
	uint32_t len;		/* bytes recorded */
	uint64_t limit;		/* printsize */
	bool cut;		/* "..." written: only closes from here */
	int npending;
	struct {
		int depth;
		char close;	/* '}' or ']' */
	} pending[PENDING_MAX];
};

static void indent(struct printer *p, int depth)
{
	fprintf(p->out, "%*s", PRINT_INDENT + depth, "");
}

/* write the closes pending, innermost first */
static void flush(struct printer *p)
{
	for (int i = 0; i < p->npending; i++) {
		indent(p, p->pending[i].depth);
		fprintf(p->out, "%c%s\n", p->pending[i].close,
			p->pending[i].depth ? "," : "");
	}
	p->npending = 0;
}

static void push_close(struct printer *p, int depth, char close)
{
	if (p->npending < PENDING_MAX) {
		p->pending[p->npending].depth = depth;
		p->pending[p->npending].close = close;
		p->npending++;
	}
}

static unsigned char byte_at(const struct printer *p, uint64_t off)
{
	return off < p->len ? p->data[off] : 0;
}

static bool all_zero(const struct printer *p, uint64_t off, uint64_t size)
{
	for (uint64_t i = 0; i < size; i++)
		if (byte_at(p, off + i))
			return false;
	return true;
}

/* little-endian bytes [off, off + size) as an integer (size <= 8) */
static uint64_t raw_at(const struct printer *p, uint64_t off, uint32_t size)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < size && i < 8; i++)
		v |= (uint64_t)byte_at(p, off + i) << (8 * i);
	return v;
}

static int64_t sign_extend(uint64_t v, unsigned bits)
{
	if (bits == 0 || bits >= 64)
		return (int64_t)v;
	v &= (1ull << bits) - 1;
	if (v & (1ull << (bits - 1)))
		v |= ~0ull << bits;
	return (int64_t)v;
}

static bool is_aggregate(const struct dtype *t)
{
	return (t->kind == T_STRUCT && !dtype_is_float(t)) || t->kind == T_ARRAY;
}

static bool is_char(const struct dtype *t)
{
	return t->kind == T_INT && t->size == 1 && !(t->ct && t->ct->kind == CT_ENUM);
}

static void print_char(struct printer *p, int c)
{
	if (c >= ' ' && c <= '~' && c != '\'' && c != '\\')
		fprintf(p->out, "'%c'", c);
	else if (c == '\'' || c == '\\')
		fprintf(p->out, "'\\%c'", c);
	else
		fprintf(p->out, "'\\%03o'", c & 0xff);
}

/* an integer (or bit-field, width bits at bit_off), an enum, a pointer,
 * a float: the value after "(type)" */
static void print_scalar(struct printer *p, const struct dtype *t,
			 uint64_t off, const struct cmember *bf, bool as_char)
{
	uint64_t u;
	int64_t sv;

	if (t->kind == T_PTR) {
		fprintf(p->out, "0x%llx", (unsigned long long)raw_at(p, off, 8));
		return;
	}
	if (t->kind == T_STRING) {	/* a translated type's D string */
		fputc('"', p->out);
		for (uint64_t i = 0; i < t->size && byte_at(p, off + i); i++) {
			int c = byte_at(p, off + i);

			if (c == '"' || c == '\\')
				fprintf(p->out, "\\%c", c);
			else if (c >= ' ' && c <= '~')
				fputc(c, p->out);
			else
				fprintf(p->out, "\\%03o", c);
		}
		fputc('"', p->out);
		return;
	}
	if (dtype_is_float(t)) {
		if (t->size == 4) {
			uint32_t w = (uint32_t)raw_at(p, off, 4);
			float f;

			memcpy(&f, &w, 4);
			fprintf(p->out, "%g", (double)f);
		} else {
			uint64_t w = raw_at(p, off, 8);
			double d;

			memcpy(&d, &w, 8);
			fprintf(p->out, "%g", d);
		}
		return;
	}
	if (bf && bf->bit_width) {
		u = raw_at(p, off, (bf->bit_off + bf->bit_width + 7) / 8);
		u >>= bf->bit_off;
		u &= bf->bit_width >= 64 ? ~0ull : (1ull << bf->bit_width) - 1;
		sv = sign_extend(u, bf->bit_width);
	} else {
		u = raw_at(p, off, t->size);
		sv = sign_extend(u, 8 * t->size);
		if (t->size < 8)
			u &= (1ull << (8 * t->size)) - 1;
	}
	if (t->ct && t->ct->kind == CT_ENUM) {
		const char *name = ctype_enum_name(t, sv);

		if (name) {
			fputs(name, p->out);
			return;
		}
	}
	if (as_char)
		print_char(p, (int)(u & 0xff));
	else if (t->is_signed)
		fprintf(p->out, "%lld", (long long)sv);
	else
		fprintf(p->out, "%llu", (unsigned long long)u);
}

static void show(struct printer *p, const struct dtype *t, const char *name,
		 uint64_t off, int depth, const struct cmember *bf, bool as_char);

/* "..." where the walk reaches printsize; the pending closes after it */
static bool past_limit(struct printer *p, const struct dtype *t, uint64_t off,
		       int depth)
{
	if (off < p->limit && (is_aggregate(t) || off + t->size <= p->limit))
		return false;
	indent(p, depth);
	fputs("...\n", p->out);
	flush(p);
	p->cut = true;
	return true;
}

static void show_members(struct printer *p, const struct dtype *t,
			 uint64_t off, int depth)
{
	int n;
	const struct cmember *m = ctype_members(t, &n);

	for (int i = 0; i < n && !p->cut; i++) {
		uint64_t moff = off + m[i].off;
		uint64_t size = m[i].bit_width
					? (uint64_t)(m[i].bit_off + m[i].bit_width + 7) / 8
					: m[i].type.size;

		if (past_limit(p, &m[i].type, moff, depth + 1))
			return;
		if (m[i].bit_width) {
			if (raw_at(p, moff, (uint32_t)size) >> m[i].bit_off &
			    (~0ull >> (64 - m[i].bit_width))) {
				flush(p);
				show(p, &m[i].type, m[i].name, moff, depth + 1,
				     &m[i], false);
			}
			continue;
		}
		if (all_zero(p, moff, size))
			continue;
		flush(p);
		show(p, &m[i].type, m[i].name, moff, depth + 1, NULL,
		     strcmp(dtype_name(&m[i].type), "char") == 0);
	}
}

static void show_elements(struct printer *p, const struct dtype *t,
			  uint64_t off, int depth)
{
	const struct dtype *e = &t->ct->elem;
	bool chars = is_char(e);

	for (uint32_t i = 0; i < t->ct->count && !p->cut; i++) {
		uint64_t eoff = off + (uint64_t)i * e->size;

		if (chars && byte_at(p, eoff) == 0)
			return;
		if (past_limit(p, e, eoff, depth + 1))
			return;
		flush(p);
		show(p, e, NULL, eoff, depth + 1, NULL, chars);
	}
}

/* One line (or one aggregate) of the walk: ".name = (type)value," */
static void show(struct printer *p, const struct dtype *t, const char *name,
		 uint64_t off, int depth, const struct cmember *bf, bool as_char)
{
	indent(p, depth);
	if (name && name[0])
		fprintf(p->out, ".%s = ", name);
	fprintf(p->out, "(%s)", dtype_name(t));
	if (is_aggregate(t)) {
		bool array = t->kind == T_ARRAY;

		fputs(array ? " [\n" : " {\n", p->out);
		if (array)
			show_elements(p, t, off, depth);
		else
			show_members(p, t, off, depth);
		push_close(p, depth, array ? ']' : '}');
		if (array && !p->cut)
			flush(p);	/* an array closes at once */
		return;
	}
	print_scalar(p, t, off, bf, as_char);
	fputs(depth ? ",\n" : "\n", p->out);
}

void printtype_print(FILE *out, uint64_t addr, const struct dtype *t,
		     const unsigned char *data, uint32_t len,
		     uint64_t printsize)
{
	struct printer p = { .out = out, .data = data, .len = len,
			     .limit = printsize };

	fprintf(out, "0x%llx = *\n", (unsigned long long)addr);
	show(&p, t, NULL, 0, 0, NULL, strcmp(dtype_name(t), "char") == 0);
	flush(&p);
}

/* DTrace's raw byte dump (dt_print_rawbytes()), margin 5 */
void printtype_hexdump(FILE *out, const unsigned char *data, uint32_t n)
{
	const int margin = 5;

	fprintf(out, "\n%*s      ", margin, "");
	for (int i = 0; i < 16; i++)
		fprintf(out, "  %c", "0123456789abcdef"[i]);
	fputs("  0123456789abcdef\n", out);
	for (uint32_t i = 0; i < n; i += 16) {
		uint32_t j;

		fprintf(out, "%*s%5x:", margin, "", i);
		for (j = i; j < i + 16 && j < n; j++)
			fprintf(out, " %02x", data[j]);
		while (j++ % 16)
			fputs("   ", out);
		fputs("  ", out);
		for (j = i; j < i + 16 && j < n; j++)
			fputc(data[j] < ' ' || data[j] > '~' ? '.' : data[j], out);
		fputc('\n', out);
	}
}
