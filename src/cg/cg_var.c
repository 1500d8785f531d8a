/*
 * cg_var.c -- reading and writing D variables.
 *
 * Where each kind lives (spec.h has the why):
 *	global     MAP_GLOBALS' value, at a static offset: a direct load
 *	this->x    the scratch area at REC_MAX + off: a direct load
 *	self->x    a HASH map keyed by the thread (pid_tgid)
 *	a[k, ...]  a HASH map keyed by the tuple, laid out as an aggregation key
 * A dynamic variable (self, assoc) that is absent reads as 0 or "", and
 * storing 0 into one deletes it, as DTrace frees dynamic variables; a
 * store that finds the map full is counted as a dynamic variable drop.
 *
 * A reference is resolved once (struct ref: its key built) and then read
 * and written through, so that a[f(x)] += 1 evaluates f(x) once.
 */
#include "cg/cg_impl.h"

#include <string.h>

#include "front/ctype.h"
#include "front/sema.h"

struct ref {
	struct node *n;
	enum { REF_GLOBAL, REF_THIS, REF_MAP } kind;
	const struct dtype *type;
	const struct cmember *member;	/* a struct member: its bit-field */
	uint32_t off;		/* global: in the map value; this: in scratch */
	int map;		/* REF_MAP */
	bool key_on_stack;	/* self: key in a stack slot, else a scratch temp */
	int16_t key_slot;
	uint32_t key_off;
	bool in_value;		/* REF_MAP: a member at off in the value */
	const struct node *idx;	/* global, this: a run-time index (sema) */
	int16_t idx_slot;	/* its value */
};

static bool is_aggregate(const struct dtype *t)
{
	return t->kind == T_STRUCT || t->kind == T_ARRAY;
}

static uint32_t vsize(const struct dtype *t)
{
	return t->kind == T_STRING || is_aggregate(t) ? cg_round8(t->size) : 8;
}

/* bytes a scalar occupies in static storage: its type's size, except the
 * 8-byte slots variables of their own get */
static int scalar_size(const struct ref *r)
{
	if (!r->n || (r->n->symkind != SYM_STATIC && !r->in_value))
		return 8;
	if (r->member && r->member->bit_width)
		return (r->member->bit_off + r->member->bit_width + 7) / 8;
	return r->type->size >= 1 && r->type->size <= 8 ? (int)r->type->size : 8;
}

/*
 * The bytes DTrace needs for one dynamic variable: it keeps them all in
 * one pool of dynvarsize / (largest tuple + largest value) entries, and
 * refuses an enabling that leaves it none (gmap_create_dvars).  Sizes are
 * the D types' (an int is 4); only associative arrays have tuples.
 */
static uint64_t dvar_pool_entry(const struct spec *sp)
{
	uint64_t tuple = 0, value = 0;

	for (int i = 0; i < sp->ndvars; i++) {
		const struct spec_dvar *dv = &sp->dvars[i];

		if (dv->kind == DVAR_THIS)
			continue;
		/* a tuple has 8 bytes for the thread (0 if global): a
		 * self->a[k]'s key already has them */
		uint64_t t = dv->key_size + (dv->kind == DVAR_ASSOC ? 8 : 0);

		if (dv->nkeys > 0 && t > tuple)
			tuple = t;
		if (dv->type.size > value)
			value = dv->type.size;
	}
	return tuple + value;
}

static int dvar_map(struct cg *g, int v)
{
	struct spec_dvar *dv = &g->spec->dvars[v];
	struct spec *sp = g->spec;

	if (dv->map >= 0)
		return dv->map;
	struct spec_map *m = ARENA_PUSH(g->a, sp->maps, sp->nmaps, g->c->maps_cap);
	uint32_t key = dv->kind == DVAR_SELF && !dv->nkeys ? 8 : dv->key_size;
	uint64_t entry = key + vsize(&dv->type);
	uint64_t n = g->c->dynvar_bytes / (entry + 64);	/* + hash overhead */

	m->name = arena_printf(g->a, "%s_%.10s", dv->kind == DVAR_SELF ? "self"
							 : "assoc", dv->name);
	m->type = BPF_MAP_TYPE_HASH;
	m->key_size = key;
	m->value_size = vsize(&dv->type);
	/* not even one entry fits: refused before loading, as DTrace does */
	if (g->c->dynvar_bytes < dvar_pool_entry(sp))
		n = 0;
	else if (n < 64)
		n = 64;
	m->max_entries = n > 1000000 ? 1000000 : (uint32_t)n;
	m->fd = -1;
	m->nestable = true;
	dv->map = sp->nmaps - 1;
	return dv->map;
}

/*
 * One element of a tuple key: the value v of a key whose field is kf, at
 * scratch offset dst (zeroed), strings NUL-padded, so equal tuples are
 * equal bytes for the hash map.
 */
void cg_key_field(struct cg *g, struct val v, const struct spec_field *kf,
		  uint32_t dst)
{
	if (v.str) {
		bool str = cg_is_str(&kf->type);

		cg_copy_words(g, str, R9, dst, cg_round8(kf->type.size), R9,
			      v.off, v.size);
		if (str)	/* a usym() pair's first byte is its pid's */
			cg_str_unmark(g, dst);
	} else if (is_aggregate(&kf->type)) {
		/* a struct key is its bytes (its value is its address) */
		cg_scratch_ptr(g, R1, dst);
		emit_mov_imm(&g->e, R2, (int32_t)kf->type.size);
		cg_load_slot(g, R3, v.slot);
		emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	} else {
		cg_load_slot(g, R0, v.slot);
		cg_normalize(g, R0, &kf->type);
		emit_store(&g->e, 8, R9, (int16_t)dst, R0);
	}
}

/*
 * A tuple key -- of an associative array -- in a zeroed scratch temp of
 * key_size bytes: each element at its field's offset (cg_agg.c builds an
 * aggregation's, whose stacks are ids).
 */
uint32_t cg_tuple_key(struct cg *g, struct node *at, struct node_list *args,
		      const struct spec_field *fields, uint32_t key_size)
{
	uint32_t key = cg_temp_new(g, at, key_size);

	cg_zero_words(g, R9, key, cg_round8(key_size));
	for (int i = 0; i < args->n; i++)
		cg_key_field(g, cg_expr(g, args->v[i]), &fields[i],
			     key + fields[i].off);
	return key;
}

static uint32_t assoc_key(struct cg *g, struct node *n,
			  const struct spec_dvar *dv)
{
	return cg_tuple_key(g, n, &n->args, dv->keys, dv->key_size);
}

static struct ref resolve(struct cg *g, struct node *n)
{
	struct ref r = { .n = n };

	if (n->symkind == SYM_DVAR_MEMBER) {	/* a[k].m */
		r = resolve(g, n->a);
		r.n = n;
		r.type = &n->type;
		r.member = n->cg;
		r.off = r.member->off;
		r.in_value = true;
		return r;
	}

	if (n->symkind == SYM_STATIC) {	/* a member of a struct variable */
		r.kind = n->sym == STATIC_GLOBALS ? REF_GLOBAL : REF_THIS;
		r.type = &n->type;
		r.off = (uint32_t)n->ival;
		r.member = n->kind == N_MEMBER ? n->cg : NULL;
		if (n->c) {
			r.idx = n->c;
			r.idx_slot = cg_expr(g, n->c->args.v[0]).slot;
		}
		return r;
	}
	if (n->symkind == SYM_GLOBAL) {
		const struct spec_global *gl = &g->spec->globals[n->sym];

		r.kind = REF_GLOBAL;
		r.type = &gl->type;
		r.off = sizeof(struct globals_hdr) + gl->off;
		return r;
	}
	const struct spec_dvar *dv = &g->spec->dvars[n->sym];

	r.type = &dv->type;
	if (dv->kind == DVAR_THIS) {
		r.kind = REF_THIS;
		r.off = REC_MAX + dv->off;
		return r;
	}
	r.kind = REF_MAP;
	r.map = dvar_map(g, n->sym);
	if (dv->kind == DVAR_SELF && dv->nkeys > 0) {	/* self->a[k] */
		r.key_off = assoc_key(g, n, dv);
		emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
		emit_store(&g->e, 8, R9, (int16_t)r.key_off, R0);
	} else if (dv->kind == DVAR_SELF) {
		r.key_on_stack = true;
		r.key_slot = cg_slot_new(g, n);
		cg_self_key(g, n, r.key_slot);
	} else {
		r.key_off = assoc_key(g, n, dv);
	}
	return r;
}

/* r2 = &key */
static void key_ptr(struct cg *g, const struct ref *r)
{
	if (r->key_on_stack)
		cg_fp_ptr(g, R2, r->key_slot);
	else
		cg_scratch_ptr(g, R2, r->key_off);
}

/*
 * r8 = &a[k].m, the element made (zeroed) if absent; one that cannot be
 * made is a dynamic variable drop, and r8 then points at a zeroed scratch
 * temp the store goes to harmlessly:
 *	p = lookup(map, &key); if (!p) { update(map, &key, &zero, NOEXIST);
 *	p = lookup(map, &key); if (!p) { drops.dynvar++; p = &zero; } }
 *	r8 = p + off
 */
static void locate_member(struct cg *g, const struct ref *r)
{
	const struct spec_dvar *dv = &g->spec->dvars[r->n->a->sym];
	uint32_t zero = cg_temp_new(g, r->n, vsize(&dv->type));
	int found = emit_new_label(&g->e);

	cg_ld_map(g, R1, r->map);
	key_ptr(g, r);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, found);
	cg_zero_words(g, R9, zero, vsize(&dv->type));
	cg_ld_map(g, R1, r->map);
	key_ptr(g, r);
	cg_scratch_ptr(g, R3, zero);
	emit_mov_imm(&g->e, R4, BPF_NOEXIST);
	emit_call(&g->e, BPF_FUNC_map_update_elem);
	cg_ld_map(g, R1, r->map);
	key_ptr(g, r);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, found);
	cg_count_drop(g, offsetof(struct drop_counts, dynvar));
	cg_scratch_ptr(g, R0, zero);
	emit_label(&g->e, found);
	emit_alu_imm(&g->e, BPF_ADD, R0, (int32_t)r->off);
	emit_mov_reg(&g->e, R8, R0);
}

/*
 * r8 += the run-time index's element: in bounds, or the clause faults
 * with DTRACEFLT_BADINDEX and the index, as dtrace-utils checks (it skips
 * the check for arrays of 0 or 1 element, dynamically sized anchors: a D
 * variable's array is its declared size, and BPF needs the bound).
 */
static void add_index(struct cg *g, const struct ref *r)
{
	int ok = emit_new_label(&g->e);

	cg_load_slot(g, R1, r->idx_slot);
	emit_jmp_imm(&g->e, BPF_JLT, R1, (int32_t)r->idx->ival, ok);
	if (g->ep)
		cg_fault(g, FLT_BADINDEX, R1);
	else
		emit_ja(&g->e, g->clause_end);
	emit_label(&g->e, ok);
	emit_alu_imm(&g->e, BPF_MUL, R1, (int32_t)r->idx->type.size);
	emit_alu_reg(&g->e, BPF_ADD, R8, R1);
}

/* r8 = where the value is; for a map, jump to `absent` if it is not */
static void locate(struct cg *g, const struct ref *r, int absent)
{
	switch (r->kind) {
	case REF_GLOBAL:
		emit_ld_map_value(&g->e, R8, MAP_GLOBALS, r->off);
		if (r->idx)
			add_index(g, r);
		break;
	case REF_THIS:
		cg_scratch_ptr(g, R8, r->off);
		if (r->idx)
			add_index(g, r);
		break;
	case REF_MAP:
		if (r->in_value) {
			locate_member(g, r);
			break;
		}
		cg_ld_map(g, R1, r->map);
		key_ptr(g, r);
		emit_call(&g->e, BPF_FUNC_map_lookup_elem);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, absent);
		emit_mov_reg(&g->e, R8, R0);
		break;
	}
}

static struct val load(struct cg *g, const struct ref *r)
{
	int absent = emit_new_label(&g->e), done = emit_new_label(&g->e);
	struct val v = { .str = r->type->kind == T_STRING };

	if (v.str) {
		v.size = vsize(r->type);
		v.off = cg_temp_new(g, r->n, v.size);
	} else {
		v.slot = cg_slot_new(g, r->n);
	}
	locate(g, r, absent);
	if (v.str) {
		cg_copy_words(g, cg_is_str(r->type), R9, v.off, v.size, R8, 0,
			      v.size);
	} else if (is_aggregate(r->type)) {
		cg_store_slot(g, v.slot, R8);	/* its address is its value */
	} else {
		int size = scalar_size(r);

		emit_load(&g->e, size, R0, R8, 0);
		if (r->member && r->member->bit_width) {
			emit_alu_imm(&g->e, BPF_LSH, R0,
				     64 - r->member->bit_off - r->member->bit_width);
			emit_alu_imm(&g->e, r->type->is_signed ? BPF_ARSH : BPF_RSH,
				     R0, 64 - r->member->bit_width);
		} else if (size < 8) {
			cg_normalize(g, R0, r->type);
		}
		cg_store_slot(g, v.slot, R0);
	}
	if (r->kind != REF_MAP || r->in_value)
		return v;	/* always present (a member's element is made) */
	emit_ja(&g->e, done);
	emit_label(&g->e, absent);
	if (v.str) {		/* NULL: a freed variable is a null pointer */
		cg_zero_words(g, R9, v.off, v.size);
		cg_str_set_null(g, v.off);
	} else {
		emit_store_imm(&g->e, 8, R10, v.slot, 0);
	}
	emit_label(&g->e, done);
	return v;
}

static void map_delete(struct cg *g, const struct ref *r)
{
	cg_ld_map(g, R1, r->map);
	key_ptr(g, r);
	emit_call(&g->e, BPF_FUNC_map_delete_elem);
}

/* a map store: value at r3; 0 deletes (ints, and a struct assigned 0) */
static void map_store(struct cg *g, const struct ref *r, struct val v)
{
	int done = emit_new_label(&g->e), del = emit_new_label(&g->e);
	uint32_t tmp = 0;

	if (!v.str && is_aggregate(r->type)) {
		/* the value is the struct's address: its bytes go through a
		 * scratch temp, memory the map update may read */
		tmp = cg_temp_new(g, r->n, vsize(r->type));
		cg_load_slot(g, R3, v.slot);
		emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, del);
		cg_zero_words(g, R9, tmp, vsize(r->type));
		cg_scratch_ptr(g, R1, tmp);
		emit_mov_imm(&g->e, R2, (int32_t)r->type->size);
		emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	} else if (!v.str) {
		cg_load_slot(g, R0, v.slot);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, del);
	}
	cg_ld_map(g, R1, r->map);	/* first: it may take r0-r5 */
	key_ptr(g, r);
	if (!v.str && is_aggregate(r->type))
		cg_scratch_ptr(g, R3, tmp);
	else if (!v.str)
		cg_fp_ptr(g, R3, v.slot);
	else
		cg_scratch_ptr(g, R3, v.off);
	emit_mov_imm(&g->e, R4, BPF_ANY);
	emit_call(&g->e, BPF_FUNC_map_update_elem);
	/* an int: older kernels (6.1) call the map's update directly, whose
	 * int result arrives zero-extended (-E2BIG looks positive in 64
	 * bits), so only the low word's sign is the truth */
	emit_jmp32_imm(&g->e, BPF_JSGE, R0, 0, done);
	cg_count_drop(g, offsetof(struct drop_counts, dynvar));
	if (v.str) {
		emit_label(&g->e, done);
		return;
	}
	emit_ja(&g->e, done);
	emit_label(&g->e, del);
	map_delete(g, r);
	emit_label(&g->e, done);
}

/* *(r8) = v's slot, in the place's own size; a bit-field is merged in */
static void store_scalar(struct cg *g, const struct ref *r, struct val v)
{
	int size = scalar_size(r);

	cg_load_slot(g, R0, v.slot);
	if (r->member && r->member->bit_width) {
		uint64_t mask = ((1ull << r->member->bit_width) - 1)
				<< r->member->bit_off;

		emit_alu_imm(&g->e, BPF_LSH, R0, r->member->bit_off);
		emit_ld_imm64(&g->e, R1, mask);
		emit_alu_reg(&g->e, BPF_AND, R0, R1);
		emit_load(&g->e, size, R2, R8, 0);
		emit_ld_imm64(&g->e, R1, ~mask);
		emit_alu_reg(&g->e, BPF_AND, R2, R1);
		emit_alu_reg(&g->e, BPF_OR, R0, R2);
	}
	emit_store(&g->e, size, R8, 0, R0);
}

/* store v (already of the variable's kind); returns what was stored */
static struct val store(struct cg *g, const struct ref *r, struct val v)
{
	if (v.str && v.size != vsize(r->type)) {
		/* the variable's full size, NUL-padded */
		struct val w = { .str = true, .size = vsize(r->type) };

		w.off = cg_temp_new(g, r->n, w.size);
		cg_copy_words(g, cg_is_str(r->type), R9, w.off, w.size, R9,
			      v.off, v.size);
		v = w;
	}
	if (!v.str && !is_aggregate(r->type)) {
		cg_load_slot(g, R0, v.slot);
		if (!r->member || !r->member->bit_width)
			cg_normalize(g, R0, r->type);
		cg_store_slot(g, v.slot, R0);
	}
	if (r->kind == REF_MAP && !r->in_value) {
		map_store(g, r, v);
		return v;
	}
	locate(g, r, -1);
	if (v.str) {
		cg_copy_words(g, cg_is_str(r->type), R8, 0, v.size, R9, v.off,
			      v.size);
	} else if (is_aggregate(r->type)) {
		/* a = b of one struct type: copy b's bytes (its value is its
		 * address in our own storage) */
		cg_load_slot(g, R3, v.slot);
		emit_mov_reg(&g->e, R1, R8);
		emit_mov_imm(&g->e, R2, (int32_t)r->type->size);
		emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	} else {
		store_scalar(g, r, v);
	}
	return v;
}

/* s = NULL (or 0): a dynamic variable is freed, another becomes NULL */
static struct val store_null(struct cg *g, struct node *n)
{
	struct ref r = resolve(g, n->a);
	struct val v = { .str = true, .size = vsize(r.type) };

	v.off = cg_temp_new(g, n, v.size);
	cg_zero_words(g, R9, v.off, v.size);
	cg_str_set_null(g, v.off);
	if (r.kind == REF_MAP)
		map_delete(g, &r);
	else
		store(g, &r, v);
	return v;
}

struct val cg_var_read(struct cg *g, struct node *n)
{
	struct ref r = resolve(g, n);

	return load(g, &r);
}

struct val cg_var_assign(struct cg *g, struct node *n)
{
	if (n->a->symkind == SYM_NONE &&
	    (n->a->kind == N_MEMBER || n->a->kind == N_INDEX ||
	     n->a->kind == N_UNARY))
		return cg_mem_store(g, n);
	if (n->a->type.kind == T_STRING && n->b->type.kind != T_STRING)
		return store_null(g, n);
	if (!n->compound) {
		struct val v = cg_expr(g, n->b);
		struct ref r = resolve(g, n->a);

		return store(g, &r, v);
	}
	/* x op= e reads x before e runs, as D's code generator evaluates
	 * the left operand first (dt_cg_arithmetic_op): in i += i++ the
	 * old i is added */
	struct ref r = resolve(g, n->a);
	struct val cur = load(g, &r);
	struct val v = cg_expr(g, n->b);

	cg_load_slot(g, R0, cur.slot);
	cg_load_slot(g, R1, v.slot);
	cg_alu_op(g, n, n->op, n->a->type.is_signed);
	cg_store_slot(g, cur.slot, R0);
	return store(g, &r, cur);
}

struct val cg_var_incdec(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	struct ref r = resolve(g, n->a);
	struct val cur = load(g, &r);
	bool inc = n->op == OP_PREINC || n->op == OP_POSTINC;
	bool post = n->op == OP_POSTINC || n->op == OP_POSTDEC;

	cg_load_slot(g, R0, cur.slot);
	if (post)
		cg_store_slot(g, slot, R0);
	emit_alu_imm(&g->e, inc ? BPF_ADD : BPF_SUB, R0, 1);
	cg_normalize(g, R0, &n->type);
	if (!post)
		cg_store_slot(g, slot, R0);
	cg_store_slot(g, cur.slot, R0);
	store(g, &r, cur);
	return cg_int_val(slot);
}

/* &v: the address of a variable's place (a global or this-> variable, or
 * a member of one), as a value: a number, so that &a[0] + i is one too
 * (loads and stores through it check where it points: cg_mem.c,
 * cg_copy.c's store_place) */
struct val cg_var_addr(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	struct ref r = resolve(g, n);

	locate(g, &r, -1);
	cg_ptr_number(g, n, slot, R8);
	return cg_int_val(slot);
}
