/*
 * sema_impl.h -- what the parts of sema share.
 *
 * sema.c: names, types, expressions, statements.  sema_agg.c: the
 * aggregating functions and the actions on aggregations.  sema_subr.c:
 * D's subroutines (strlen, copyinstr, ...).  Nothing here is visible
 * outside src/front/.
 */
#ifndef DSCOPE_SEMA_IMPL_H
#define DSCOPE_SEMA_IMPL_H

#include "front/sema.h"

void sema_expr(struct sema *s, struct node *n);
/* fail with D_OP_INT unless n is an integer (or pointer) */
void sema_need_int(struct sema *s, struct node *n, const char *op);
/* the usual arithmetic conversions */
struct dtype sema_promote(const struct dtype *a, const struct dtype *b);
const char *sema_op_name(int op);
bool sema_const_value(const struct node *n, int64_t *v);
/* a constant 0, NULL included */
bool sema_is_null(const struct node *n);
/* A call of one of D's actions that are statements only (printf, exit) */
bool sema_is_action(const struct node *n);
bool sema_resolve_type_name(struct sema *s, const struct decl_type *dt,
			    struct dtype *out);
/* fail with D_PROTO_LEN unless lo <= nargs <= hi */
void sema_check_nargs(struct sema *s, struct node *n, int lo, int hi);

/* sema_var.c: globals, associative arrays, self-> and this-> */
bool sema_names_memory(struct sema *s, struct node *id);
bool sema_static_storage(struct sema *s, const struct node *n, int *space,
			 uint32_t *off);
bool sema_static_access(struct sema *s, struct node *n);
void sema_no_this_array(struct sema *s, const struct node *n);
bool sema_self_array(struct sema *s, struct node *n, const struct dtype *rhs);
void sema_var_ref(struct sema *s, struct node *n);		/* a read */
bool sema_inline_ref(struct sema *s, struct node *n);	/* n names an inline */
bool sema_is_inline(struct sema *s, const char *name);
bool sema_global_ref(struct sema *s, struct node *n);	/* n names a global */
void sema_var_assign(struct sema *s, struct node *lhs, struct node *n);
void sema_var_decl(struct sema *s, const char *name, int scope,
		   const struct decl_type *dt);
/* char array keys, and char pointers where proto has a string, as strings */
void sema_string_keys(struct sema *s, struct node_list *keys,
		      const struct spec_field *proto, int nproto);
/* grow string key bounds to fit keys (aggregations, assoc arrays) */
void sema_fit_keys(struct sema *s, struct node *at, struct node_list *keys,
		   struct spec_field **fields, int *nfields, uint32_t *key_size,
		   const char *what);

/* sema_type.c: kernel data -- pointers, members, arrays, strings */
bool sema_is_char_ptr(const struct dtype *t);
bool sema_is_mem_lvalue(const struct node *n);
bool sema_is_var_place(struct sema *s, const struct node *n);
void sema_member(struct sema *s, struct node *n);
void sema_deref(struct sema *s, struct node *n);
void sema_addrof(struct sema *s, struct node *n);
void sema_index_mem(struct sema *s, struct node *n);
void sema_stringof(struct sema *s, struct node *n);
void sema_stringof_typed(struct sema *s, struct node *w);
struct node *sema_as_string(struct sema *s, struct node *n);
bool sema_enum_ident(struct sema *s, struct node *n);
void sema_offsetof(struct sema *s, struct node *n);
bool sema_kernel_subr(struct sema *s, struct node *n);

/* sema_ksym.c: kernel variables by name (`name, module`name) */
void sema_extern_decl(struct sema *s, struct top_decl *td);
/* n names a kernel symbol: it is now *(T *)addr.  false if n has no
 * backquote; fails when the symbol or its type cannot be found. */
bool sema_ksym_ref(struct sema *s, struct node *n);

/* sema_xlate.c: translators, xlate, inline arrays */
void sema_xlator_decl(struct sema *s, struct top_decl *td);
void sema_xlate(struct sema *s, struct node *n);
bool sema_xlate_member(struct sema *s, struct node *n);
/* n is translated data (an xlate, maybe through inlines): DTrace's
 * "dynamic variable" type */
bool sema_is_translated(const struct node *n);
/* n has DTrace's dynamic type (dt_node_is_dynamic): translated data,
 * as an xlate or an inline of one such as curpsinfo */
bool sema_is_dynamic(const struct node *n);
/* after a clause is checked: each xlate whose value is used whole gets
 * its members' conversions, for cg to expand into memory */
void sema_xlate_expand(struct sema *s, struct node *pred, struct node_list *body);
bool sema_inline_index(struct sema *s, struct node *n);

/* sema_agg.c */
void sema_agg_stmt(struct sema *s, struct node *st);
/* an expression statement naming an aggregation with no function
 * (@a; @a[1];): fails with DTrace's tag; false if e is not one */
bool sema_agg_expr_stmt(struct sema *s, struct node *e);
/* @a used as an operand: fails */
_Noreturn void sema_agg_in_expr(struct sema *s, struct node *n);
int sema_find_agg(struct sema *s, const char *name);
/* printa, clear, trunc, ...: true if n is one (and is now checked) */
bool sema_agg_action(struct sema *s, struct node *n);

/* sema_speculation.c: speculate, commit, discard (true if n is one, now
 * checked); DTrace's rules on their place among a clause's actions */
bool sema_speculation_action(struct sema *s, struct node *n);
void sema_speculation_clause(struct sema *s, struct clause *c);

/* sema_subr.c: a subroutine call, as a value or as a statement (where
 * void subroutines such as bcopy() are allowed); unknown names fail with
 * D_FUNC_UNDEF. */
void sema_subr_call(struct sema *s, struct node *n, bool as_stmt);

/* sema_alloca.c: the alloca taint of variables (D_ALLOCA_INCOMPAT), one
 * store at a time, checked as each clause ends */
void sema_alloca_store(struct sema *s, const struct node *lhs,
		       const struct node *rhs);
void sema_alloca_clause_begin(struct sema *s);
void sema_alloca_clause_end(struct sema *s, const struct clause *c);
/* print() and tracemem(): true if n is one (and is now checked) */
bool sema_data_action(struct sema *s, struct node *n);

#endif /* DSCOPE_SEMA_IMPL_H */
