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

/*
 * Every string D makes -- a literal, stringof() or a cast of a char * or
 * char [], a subroutine's result, a builtin such as execname, a variable,
 * an aggregation key, what printf's %s and trace() record -- keeps at most
 * strsize characters, then its NUL: strsize + 1 bytes.  One rule, so one
 * function; every stage asks it.
 *
 * It is DTrace's.  dtrace-utils (libdtrace/dt_cg.c) sizes every
 * temporary string roundup(strsize + 1, 8) in dt_cg_tstring_reset(),
 * records a traced string with probe_read_str(dst, strsize + 1, src) in
 * dt_cg_store_val() ("no more than STRSIZE + 1 bytes"), gives a string
 * key of an aggregation strsize + 1 bytes (dt_cg_agg()), and reads
 * substr()'s source the same way (bpf/substr.S).  illumos
 * (uts/common/dtrace/dtrace.c) keeps strsize bytes with no room reserved
 * for the NUL -- dtrace_vcopy() and dtrace_strcpy() copy up to the
 * variable's strsize bytes, dtrace_store_by_ref() records up to strsize
 * -- and its consumer adds the NUL (lib/libdtrace/common/dt_printf.c:
 * pfprint_cstr()): strsize characters either way.  So a literal and
 * stringof() of a longer buffer print alike.
 *
 * DTrace has one exception, which dscope does not copy: copyinstr()
 * without a size puts the NUL inside strsize bytes (illumos
 * DIF_SUBR_COPYINSTR: dest[size - 1] = '\0' with size = strsize;
 * dt_cg_subr_copyinstr() passes strsize to probe_read_user_str), so it
 * keeps strsize - 1 characters there (and dtrace-utils n - 1 of
 * copyinstr(addr, n), where illumos keeps n).  dscope keeps strsize, and
 * n, as for any other string (sema_subr.c's string_bound()).
 *
 * sizeof of a string is strsize, not this bound: D's type string is
 * char[strsize] (dt_options.c: dt_opt_strsize()); sema.c answers it.
 */
uint32_t dtype_string_bound(uint32_t strsize)
{
	return strsize + 1;
}
