/*
 * types.c -- what a D type says of itself, without a namespace to look
 * names up in (those questions are front/ctype.c's).  See types.h.
 */
#include "d/types.h"

uint32_t dtype_align(const struct dtype *t)
{
	switch (t->kind) {
	case T_INT:
	case T_PTR:
		return t->size ? t->size : 1;
	case T_ARRAY:
	case T_STRUCT:
		return t->ct && t->ct->align ? t->ct->align : 1;
	default:
		return 1;
	}
}

bool dtype_is_float(const struct dtype *t)
{
	return t->ct && t->ct->kind == CT_FLOAT;
}
