/*
 * oformat.c -- the emitter for an oformat.  See oformat.h.
 */
#include "rt/oformat.h"

struct emitter *emit_new(enum oformat f, FILE **out, FILE *err,
			 const char *progname, const struct fmt_sym_ops *syms)
{
	struct emitter *e = NULL;

	switch (f) {
	case OFORMAT_TEXT:
		return NULL;
	case OFORMAT_JSON:
		e = emit_json_new();
		break;
	case OFORMAT_FOLDED:
	case OFORMAT_SVG:
		e = emit_folded_new(f == OFORMAT_SVG);
		break;
	}
	if (e) {
		e->out = out;
		e->err = err;
		e->progname = progname;
		e->syms = syms;
	}
	return e;
}

int64_t emit_int(const struct fmt_val *v)
{
	uint32_t size = v->type.kind == T_INT ? v->type.size : 8;
	int shift = 64 - (int)size * 8;
	uint64_t u = size < 8 ? v->u & ((UINT64_C(1) << (size * 8)) - 1) : v->u;

	if (v->type.kind == T_INT && v->type.is_signed && shift)
		return (int64_t)(u << shift) >> shift;
	return (int64_t)u;
}
