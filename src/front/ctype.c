/*
 * ctype.c -- the type namespace of one compile: D's builtin types, the
 * script's declarations, the kernel's types from BTF.  See ctype.h.
 *
 * Invariants:
 *  - every composite dtype made here has its printed name in dtype.name,
 *    built once by render() from its parts; a typedef replaces the name
 *    with its own, which is how render() tells an alias ("arr_t *") from
 *    a structure it must spell out ("int (*)[4]"): an alias name has no
 *    '*', '[' or '('.
 *  - one ctype per struct, union and enum: the script's are in cs->tags by
 *    "struct foo", the kernel's in cs->kernel_ids by BTF id, so identity
 *    is pointer equality and recursive types terminate.  A kernel struct
 *    starts as a shell (size, alignment, name) and reads its members on
 *    first use (load_btf()).
 *  - a forward-declared script struct is completed in place when its
 *    definition comes; dtypes copied while it was incomplete (pointees,
 *    typedefs) are patched then (ctype_completed()).
 *  - nothing here jumps: a failed lookup answers false.  ctype_parse.c
 *    turns failures into DTrace's diagnostics.
 */
#include "front/ctype_impl.h"
#include "kern/ktypes.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- string-keyed hash table ---- */

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static uint32_t strmap_slot(const struct strmap *m, const char *key)
{
	uint32_t i = str_hash(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *strmap_get(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	return m->vals[strmap_slot(m, key)];
}

void strmap_put(struct arena *a, struct strmap *m, const char *key, void *val)
{
	if (2 * (m->n + 1) > m->cap) {
		struct strmap old = *m;

		m->cap = old.cap ? 2 * old.cap : 16;
		m->keys = arena_alloc(a, m->cap * sizeof(*m->keys));
		m->vals = arena_alloc(a, m->cap * sizeof(*m->vals));
		for (uint32_t i = 0; i < old.cap; i++)
			if (old.keys[i]) {
				uint32_t j = strmap_slot(m, old.keys[i]);
				m->keys[j] = old.keys[i];
				m->vals[j] = old.vals[i];
			}
	}
	uint32_t i = strmap_slot(m, key);

	if (!m->keys[i]) {
		m->keys[i] = arena_strdup(a, key);
		m->n++;
	}
	m->vals[i] = val;
}

/* ---- names ---- */

static bool is_alias(const struct dtype *t)
{
	return t->name && !strpbrk(t->name, "*[(");
}

static bool is_func(const struct dtype *t)
{
	return t->ct && t->ct->kind == CT_FUNC;
}

/* The C spelling of t around the declarator text `inner`: render(int [4],
 * "*") is "int (*)[4]" -- the pointer binds tighter than the array only
 * inside parentheses. */
static const char *render(struct arena *a, const struct dtype *t,
			  const char *inner)
{
	bool derived = (t->kind == T_PTR || t->kind == T_ARRAY || is_func(t)) &&
		       t->ct && !is_alias(t);

	if (!derived) {
		const char *leaf = t->name ? t->name : "void";
		return *inner ? arena_printf(a, "%s %s", leaf, inner) : leaf;
	}
	const struct dtype *e = &t->ct->elem;

	if (t->kind == T_PTR) {
		bool wrap = (e->kind == T_ARRAY || is_func(e)) && !is_alias(e);
		return render(a, e, arena_printf(a, wrap ? "(*%s)" : "*%s", inner));
	}
	if (t->kind == T_ARRAY)
		return render(a, e, t->ct->count ?
				  arena_printf(a, "%s[%u]", inner, t->ct->count) :
				  arena_printf(a, "%s[]", inner));
	return render(a, e, arena_printf(a, "%s()", inner));
}

const char *dtype_name(const struct dtype *t)
{
	static const char *const kind_names[] = {
		[T_NONE] = "(none)", [T_VOID] = "void", [T_INT] = "int",
		[T_STRING] = "string", [T_PTR] = "void *", [T_STRUCT] = "struct",
		[T_ARRAY] = "array", [T_STACK] = "stack", [T_SYM] = "symbol",
		[T_AGG] = "aggregation",
	};

	if (t->name)
		return t->name;
	if (t->ct && t->ct->owner)
		return render(t->ct->owner->a, t, "");
	return kind_names[t->kind];
}

/* ---- constructors ---- */

struct ctype *ctype_new(struct ctypes *cs, enum ctype_kind kind)
{
	struct ctype *c = arena_alloc(cs->a, sizeof(*c));

	c->kind = kind;
	c->tag = "";
	c->owner = cs;
	c->align = 1;
	return c;
}

static bool incomplete_script_type(const struct dtype *t)
{
	const struct ctype *c = t->ct;

	return c && !c->complete && !c->btf_id &&
	       (c->kind == CT_STRUCT || c->kind == CT_UNION || c->kind == CT_ENUM);
}

struct dtype ctype_ptr_to(struct ctypes *cs, const struct dtype *to)
{
	struct ctype *c = ctype_new(cs, CT_PTR);
	struct dtype t = { .kind = T_PTR, .size = 8, .ct = c };

	c->elem = *to;
	c->align = 8;
	c->complete = true;
	if (to->kind == T_STRUCT || to->kind == T_ARRAY || to->kind == T_PTR)
		t.btf_id = to->btf_id;
	if (incomplete_script_type(to))
		*ARENA_PUSH(cs->a, cs->pending, cs->npending, cs->cap_pending) = c;
	t.name = render(cs->a, &t, "");
	return t;
}

struct dtype ctype_array_of(struct ctypes *cs, const struct dtype *elem,
			    uint32_t count)
{
	struct ctype *c = ctype_new(cs, CT_ARRAY);
	struct dtype t = { .kind = T_ARRAY, .size = elem->size * count, .ct = c };

	c->elem = *elem;
	c->count = count;
	c->align = dtype_align(elem);
	c->complete = true;
	t.name = render(cs->a, &t, "");
	return t;
}

struct dtype ctype_func_returning(struct ctypes *cs, const struct dtype *ret)
{
	struct ctype *c = ctype_new(cs, CT_FUNC);
	struct dtype t = { .kind = T_VOID, .size = 0, .ct = c };

	c->elem = *ret;
	c->complete = true;
	t.name = render(cs->a, &t, "");
	return t;
}

struct dtype ctype_dtype(const struct ctype *c)
{
	struct dtype t = { .size = c->size, .name = c->name, .ct = c,
			   .btf_id = c->btf_id };

	if (c->kind == CT_ENUM) {
		t.kind = T_INT;
		t.is_signed = c->elem.is_signed;
	} else {
		t.kind = T_STRUCT;
	}
	return t;
}

void ctype_completed(struct ctypes *cs, const struct ctype *c)
{
	for (int i = 0; i < cs->npending; i++)
		if (cs->pending[i]->elem.ct == c)
			cs->pending[i]->elem.size = c->size;
	for (uint32_t i = 0; i < cs->typedefs.cap; i++) {
		struct dtype *t = cs->typedefs.vals[i];
		if (t && t->ct == c)
			t->size = c->size;
	}
}

/* ---- D's builtin types ---- */

enum { B_INT, B_FLOAT, B_VOID, B_STRING, B_CHARPTR };

/* ORDER: first match wins; C's own names first. */
static const struct builtin_type {
	const char *name;
	uint8_t kind;		/* B_* */
	uint8_t size;
	bool is_signed;
} builtin_types[] = {
	{ "char", B_INT, 1, true }, { "signed char", B_INT, 1, true },
	{ "unsigned char", B_INT, 1, false },
	{ "short", B_INT, 2, true }, { "signed short", B_INT, 2, true },
	{ "unsigned short", B_INT, 2, false },
	{ "int", B_INT, 4, true }, { "signed int", B_INT, 4, true },
	{ "unsigned int", B_INT, 4, false },
	{ "signed", B_INT, 4, true }, { "unsigned", B_INT, 4, false },
	{ "long", B_INT, 8, true }, { "signed long", B_INT, 8, true },
	{ "unsigned long", B_INT, 8, false },
	{ "long long", B_INT, 8, true }, { "signed long long", B_INT, 8, true },
	{ "unsigned long long", B_INT, 8, false },
	{ "float", B_FLOAT, 4, true }, { "double", B_FLOAT, 8, true },
	{ "long double", B_FLOAT, 16, true },
	{ "void", B_VOID, 0, false }, { "string", B_STRING, 0, false },
	{ "bool", B_INT, 1, false }, { "_Bool", B_INT, 1, false },
	{ "int8_t", B_INT, 1, true }, { "int16_t", B_INT, 2, true },
	{ "int32_t", B_INT, 4, true }, { "int64_t", B_INT, 8, true },
	{ "uint8_t", B_INT, 1, false }, { "uint16_t", B_INT, 2, false },
	{ "uint32_t", B_INT, 4, false }, { "uint64_t", B_INT, 8, false },
	{ "intptr_t", B_INT, 8, true }, { "uintptr_t", B_INT, 8, false },
	{ "intmax_t", B_INT, 8, true }, { "uintmax_t", B_INT, 8, false },
	{ "size_t", B_INT, 8, false }, { "ssize_t", B_INT, 8, true },
	{ "ptrdiff_t", B_INT, 8, true },
	{ "off_t", B_INT, 8, true }, { "off64_t", B_INT, 8, true },
	{ "loff_t", B_INT, 8, true },
	{ "pid_t", B_INT, 4, true }, { "uid_t", B_INT, 4, false },
	{ "gid_t", B_INT, 4, false }, { "id_t", B_INT, 4, true },
	{ "dev_t", B_INT, 8, false }, { "time_t", B_INT, 8, true },
	{ "clock_t", B_INT, 8, true }, { "mode_t", B_INT, 4, false },
	{ "caddr_t", B_CHARPTR, 8, false },
	{ "uchar_t", B_INT, 1, false }, { "ushort_t", B_INT, 2, false },
	{ "uint_t", B_INT, 4, false }, { "ulong_t", B_INT, 8, false },
	{ "longlong_t", B_INT, 8, true }, { "u_longlong_t", B_INT, 8, false },
	{ "hrtime_t", B_INT, 8, true }, { "processorid_t", B_INT, 4, true },
	{ "psetid_t", B_INT, 4, true }, { "zoneid_t", B_INT, 4, true },
	{ "taskid_t", B_INT, 4, true }, { "projid_t", B_INT, 4, true },
	{ "chipid_t", B_INT, 4, true }, { "lgrp_id_t", B_INT, 4, true },
	{ "boolean_t", B_INT, 4, true },
	/* the kernel's fixed-width names, usable without BTF */
	{ "u8", B_INT, 1, false }, { "u16", B_INT, 2, false },
	{ "u32", B_INT, 4, false }, { "u64", B_INT, 8, false },
	{ "s8", B_INT, 1, true }, { "s16", B_INT, 2, true },
	{ "s32", B_INT, 4, true }, { "s64", B_INT, 8, true },
	{ "__u8", B_INT, 1, false }, { "__u16", B_INT, 2, false },
	{ "__u32", B_INT, 4, false }, { "__u64", B_INT, 8, false },
	{ "__s8", B_INT, 1, true }, { "__s16", B_INT, 2, true },
	{ "__s32", B_INT, 4, true }, { "__s64", B_INT, 8, true },
};

static struct dtype float_type(struct ctypes *cs, const char *name,
			       uint32_t size)
{
	struct ctype *c = ctype_new(cs, CT_FLOAT);

	c->name = name;
	c->size = size;
	c->align = size;
	c->complete = true;
	return ctype_dtype(c);
}

static bool builtin_lookup(struct ctypes *cs, const char *name,
			   struct dtype *out)
{
	static const struct dtype chr = { .kind = T_INT, .size = 1,
					  .is_signed = true, .name = "char" };

	for (size_t i = 0; i < sizeof(builtin_types) / sizeof(*builtin_types); i++) {
		const struct builtin_type *b = &builtin_types[i];

		if (strcmp(b->name, name) != 0)
			continue;
		switch (b->kind) {
		case B_INT:
			*out = (struct dtype){ .kind = T_INT, .size = b->size,
					       .is_signed = b->is_signed };
			break;
		case B_FLOAT:
			*out = float_type(cs, b->name, b->size);
			break;
		case B_VOID:
			*out = (struct dtype){ .kind = T_VOID };
			break;
		case B_STRING:
			*out = (struct dtype){ .kind = T_STRING,
					       .size = dtype_string_bound(cs->strsize) };
			break;
		case B_CHARPTR:
			*out = ctype_ptr_to(cs, &chr);
			break;
		}
		out->name = b->name;
		return true;
	}
	return false;
}

/* ---- the kernel's types ---- */

/* one copy of the kernel's BTF per process, shared with ktypes.c */
static const struct btf *kernel_btf(void)
{
	return ktype_btf();
}

static struct dtype btf_dtype(struct ctypes *cs, uint32_t id);

/* The one ctype of BTF struct, union or enum `id`, members not yet read. */
static const struct ctype *btf_ctype(struct ctypes *cs, uint32_t id)
{
	const struct btf *btf = kernel_btf();
	char key[16];

	snprintf(key, sizeof(key), "#%u", id);
	struct ctype *c = strmap_get(&cs->kernel_ids, key);

	if (c)
		return c;
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *tag = btf__name_by_offset(btf, t->name_off);
	bool is_fwd = btf_is_fwd(t);

	if (btf_is_enum(t) || btf_is_enum64(t))
		c = ctype_new(cs, CT_ENUM);
	else
		c = ctype_new(cs, (is_fwd ? btf_kflag(t) : btf_is_union(t)) ?
				  CT_UNION : CT_STRUCT);
	c->tag = tag ? tag : "";
	c->name = c->kind == CT_ENUM ? "enum" :
		  c->kind == CT_UNION ? "union" : "struct";
	if (*c->tag)
		c->name = arena_printf(cs->a, "%s %s", c->name, c->tag);
	c->btf_id = id;
	c->complete = !is_fwd;
	c->size = is_fwd ? 0 : t->size;
	int align = is_fwd ? 1 : btf__align_of(btf, id);

	c->align = align > 0 ? (uint32_t)align : 1;
	if (c->kind == CT_ENUM)
		c->elem.is_signed = btf_kflag(t);
	strmap_put(cs->a, &cs->kernel_ids, key, c);
	return c;
}

/* A forward declaration in BTF whose definition BTF also has. */
static uint32_t btf_unforward(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name = btf__name_by_offset(btf, t->name_off);

	if (!btf_is_fwd(t) || !name || !*name)
		return id;
	int def = btf__find_by_name_kind(btf, name, btf_kflag(t) ?
					 BTF_KIND_UNION : BTF_KIND_STRUCT);
	return def > 0 ? (uint32_t)def : id;
}

static struct dtype btf_int(const struct btf *btf, const struct btf_type *t)
{
	uint8_t enc = btf_int_encoding(t);

	return (struct dtype){ .kind = T_INT, .size = t->size,
			       .is_signed = (enc & BTF_INT_SIGNED) != 0,
			       .name = btf__name_by_offset(btf, t->name_off) };
}

/* BTF type `id` as a dtype: qualifiers dropped, typedefs named. */
static struct dtype btf_dtype(struct ctypes *cs, uint32_t id)
{
	const struct btf *btf = kernel_btf();
	const struct btf_type *t = btf__type_by_id(btf, id);
	struct dtype d;

	if (id == 0 || !t)
		return (struct dtype){ .kind = T_VOID, .name = "void" };
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		return btf_int(btf, t);
	case BTF_KIND_FLOAT:
		return float_type(cs, btf__name_by_offset(btf, t->name_off),
				  t->size);
	case BTF_KIND_PTR:
		d = btf_dtype(cs, t->type);
		return ctype_ptr_to(cs, &d);
	case BTF_KIND_ARRAY:
		d = btf_dtype(cs, btf_array(t)->type);
		return ctype_array_of(cs, &d, btf_array(t)->nelems);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		return ctype_dtype(btf_ctype(cs, btf_unforward(btf, id)));
	case BTF_KIND_TYPEDEF:
		d = btf_dtype(cs, t->type);
		d.name = btf__name_by_offset(btf, t->name_off);
		return d;
	case BTF_KIND_FUNC_PROTO:
		d = btf_dtype(cs, t->type);
		return ctype_func_returning(cs, &d);
	case BTF_KIND_FUNC:
		return btf_dtype(cs, t->type);
	default:	/* const, volatile, restrict, type tags */
		return btf_dtype(cs, t->type);
	}
}

struct dtype ctypes_kernel_type(struct ctypes *cs, uint32_t btf_id)
{
	return btf_dtype(cs, btf_id);
}

static void load_btf_members(struct ctype *c, const struct btf *btf,
			     const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);
	int n = btf_vlen(t);

	c->members = arena_alloc(c->owner->a, (size_t)(n ? n : 1) *
					      sizeof(*c->members));
	for (int i = 0; i < n; i++, m++) {
		struct cmember *cm = &c->members[c->nmembers++];
		uint32_t bit = btf_member_bit_offset(t, (uint32_t)i);
		uint32_t width = btf_member_bitfield_size(t, (uint32_t)i);
		const char *name = btf__name_by_offset(btf, m->name_off);
		const struct btf_type *mt =
			btf__type_by_id(btf, btf__resolve_type(btf, m->type));

		/* old-style bit-fields keep offset and width in the int */
		if (!width && mt && btf_is_int(mt) &&
		    (btf_int_bits(mt) != mt->size * 8 || btf_int_offset(mt))) {
			width = btf_int_bits(mt);
			bit += btf_int_offset(mt);
		}
		cm->name = name ? name : "";
		cm->off = bit / 8;
		cm->bit_off = width ? bit % 8 : 0;
		cm->bit_width = (uint8_t)width;
		cm->type = btf_dtype(c->owner, m->type);
	}
}

static void load_btf_enumerators(struct ctype *c, const struct btf *btf,
				 const struct btf_type *t)
{
	int n = btf_vlen(t);

	c->enums = arena_alloc(c->owner->a, (size_t)(n ? n : 1) *
					    sizeof(*c->enums));
	for (int i = 0; i < n; i++) {
		struct cenumerator *e = &c->enums[c->nenums++];

		if (btf_is_enum64(t)) {
			e->name = btf__name_by_offset(btf, btf_enum64(t)[i].name_off);
			e->value = (int64_t)btf_enum64_value(&btf_enum64(t)[i]);
		} else {
			e->name = btf__name_by_offset(btf, btf_enum(t)[i].name_off);
			e->value = btf_kflag(t) ? (int64_t)(int32_t)btf_enum(t)[i].val :
						  (int64_t)(uint32_t)btf_enum(t)[i].val;
		}
	}
}

/* Read a kernel struct's members or an enum's enumerators on first use.
 * The ctype is shared and logically const: filling it in is a cache. */
static void load_btf(const struct ctype *cc)
{
	struct ctype *c = (struct ctype *)cc;
	const struct btf *btf = kernel_btf();

	if (!c->btf_id || c->loaded || !c->complete || !btf)
		return;
	c->loaded = true;
	const struct btf_type *t = btf__type_by_id(btf, c->btf_id);

	if (c->kind == CT_ENUM)
		load_btf_enumerators(c, btf, t);
	else
		load_btf_members(c, btf, t);
}

static bool kernel_lookup(struct ctypes *cs, const char *key, const char *name,
			  const int *kinds, struct dtype *out)
{
	static char no_such_type;
	const struct btf *btf = kernel_btf();
	struct dtype *hit = strmap_get(&cs->kernel_names, key);

	if (hit) {
		if ((void *)hit == &no_such_type)
			return false;
		*out = *hit;
		return true;
	}
	int id = -1;

	for (; btf && id < 0 && *kinds >= 0; kinds++)
		id = btf__find_by_name_kind(btf, name, (uint32_t)*kinds);
	if (id <= 0) {
		strmap_put(cs->a, &cs->kernel_names, key, &no_such_type);
		return false;
	}
	hit = arena_alloc(cs->a, sizeof(*hit));
	*hit = btf_dtype(cs, (uint32_t)id);
	strmap_put(cs->a, &cs->kernel_names, key, hit);
	*out = *hit;
	return true;
}

/*
 * Every enumerator of the kernel's BTF, by name: an identifier that is
 * nothing else is looked up here, and a scan of the whole BTF per lookup
 * (some 150,000 types) made a script of many such names slow -- a
 * fuzzer timeout.  Built once per process, like the BTF it indexes;
 * names point into the BTF's string section.
 */
struct kenum {
	const char *name;	/* NULL: an empty slot */
	uint32_t type_id;
	int index;		/* in the type's enumerators */
};

static struct {
	struct kenum *slots;
	size_t cap;		/* a power of two */
} kenums;

static size_t kenum_hash(const char *s, size_t cap)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 ^ (unsigned char)*s++;
	return h & (cap - 1);
}

static void kenum_insert(struct kenum e)
{
	size_t i = kenum_hash(e.name, kenums.cap);

	while (kenums.slots[i].name) {
		if (strcmp(kenums.slots[i].name, e.name) == 0)
			return;		/* the first one found wins, as before */
		i = (i + 1) & (kenums.cap - 1);
	}
	kenums.slots[i] = e;
}

static void kenum_build(const struct btf *btf)
{
	uint32_t n = btf__type_cnt(btf);
	size_t count = 0;

	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_enum(t) || btf_is_enum64(t))
			count += btf_vlen(t);
	}
	for (kenums.cap = 1024; kenums.cap < 2 * count; kenums.cap *= 2)
		;
	kenums.slots = calloc(kenums.cap, sizeof(*kenums.slots));
	if (!kenums.slots) {
		fprintf(stderr, "dscope: out of memory\n");
		abort();
	}
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_enum(t) && !btf_is_enum64(t))
			continue;
		for (int i = 0; i < btf_vlen(t); i++) {
			uint32_t off = btf_is_enum64(t) ? btf_enum64(t)[i].name_off :
							   btf_enum(t)[i].name_off;

			kenum_insert((struct kenum){ btf__name_by_offset(btf, off), id, i });
		}
	}
}

bool ctype_kernel_enum(struct ctypes *cs, const char *name, int64_t *val,
		       struct dtype *type)
{
	const struct btf *btf = kernel_btf();
	size_t i;

	if (!btf)
		return false;
	if (!kenums.slots)
		kenum_build(btf);
	for (i = kenum_hash(name, kenums.cap); kenums.slots[i].name;
	     i = (i + 1) & (kenums.cap - 1)) {
		if (strcmp(kenums.slots[i].name, name) != 0)
			continue;
		struct dtype et = btf_dtype(cs, kenums.slots[i].type_id);

		load_btf(et.ct);
		*val = et.ct->enums[kenums.slots[i].index].value;
		if (type)
			*type = et;
		return true;
	}
	return false;
}

/* ---- the namespace ---- */

struct ctypes *ctypes_new(struct arena *a, uint32_t strsize)
{
	struct ctypes *cs = arena_alloc(a, sizeof(*cs));

	cs->a = a;
	cs->strsize = strsize;
	return cs;
}

void ctypes_set_ident_check(struct ctypes *ct,
			    bool (*taken)(void *arg, const char *name),
			    void *arg)
{
	ct->taken = taken;
	ct->taken_arg = arg;
}

/* ---- the D library's types, declared at first use ---- */

struct deferred {
	const struct top_decl *td;
	struct diag *d;
	const char *keys[2];	/* the names it defines: typedef, tag */
};

/* The tag a definition's text defines ("struct psinfo {" gives "struct
 * psinfo"), or NULL; *has_enum when it declares enumerators. */
static const char *defined_tag(struct arena *a, const char *text, bool *has_enum)
{
	char word[16], tag[128];
	int n = 0;

	*has_enum = strstr(text, "enum") != NULL;
	if (sscanf(text, " %15[a-z] %127[A-Za-z0-9_] %n", word, tag, &n) != 2 ||
	    (strcmp(word, "struct") != 0 && strcmp(word, "union") != 0) ||
	    text[n] != '{')
		return NULL;
	return arena_printf(a, "%s %s", word, tag);
}

void ctypes_declare_lazily(struct ctypes *ct, const struct top_decl *td,
			   struct diag *d)
{
	struct deferred *df = arena_alloc(ct->a, sizeof(*df));
	bool has_enum;

	df->td = td;
	df->d = d;
	df->keys[0] = td->kind == TOP_TYPEDEF ? td->name : NULL;
	df->keys[1] = defined_tag(ct->a, td->type->text, &has_enum);
	if (has_enum || (td->kind != TOP_TYPEDEF && !df->keys[1])) {
		ctypes_declare(ct, td, d);
		return;
	}
	for (int i = 0; i < 2; i++)
		if (df->keys[i])
			strmap_put(ct->a, &ct->deferred, df->keys[i], df);
}

void ctype_undefer(struct ctypes *cs, const char *key)
{
	struct deferred *df = strmap_get(&cs->deferred, key);

	if (!df)
		return;
	for (int i = 0; i < 2; i++)
		if (df->keys[i])
			strmap_put(cs->a, &cs->deferred, df->keys[i], NULL);
	ctypes_declare(cs, df->td, df->d);
}

bool ctype_lookup_name(struct ctypes *cs, const char *name,
		       enum cscope scope, struct dtype *out)
{
	static const int kernel_kinds[] = { BTF_KIND_TYPEDEF, BTF_KIND_INT,
					    BTF_KIND_FLOAT, -1 };
	struct dtype *t;

	if (scope != SCOPE_KERNEL) {
		ctype_undefer(cs, name);
		if ((t = strmap_get(&cs->typedefs, name))) {
			*out = *t;
			return true;
		}
		if (builtin_lookup(cs, name, out))
			return true;
	}
	return scope != SCOPE_D &&
	       kernel_lookup(cs, name, name, kernel_kinds, out);
}

bool ctypes_names_type(struct ctypes *cs, const char *name)
{
	struct dtype t;

	return ctype_lookup_name(cs, name, SCOPE_D, &t);
}

static const char *const kind_words[] = {
	[CT_STRUCT] = "struct", [CT_UNION] = "union", [CT_ENUM] = "enum",
};

const struct ctype *ctype_lookup_tag(struct ctypes *cs, enum ctype_kind kind,
				     const char *tag, enum cscope scope)
{
	const char *key = arena_printf(cs->a, "%s %s", kind_words[kind], tag);
	int kinds[] = { kind == CT_STRUCT ? BTF_KIND_STRUCT :
			kind == CT_UNION ? BTF_KIND_UNION : BTF_KIND_ENUM,
			kind == CT_ENUM ? BTF_KIND_ENUM64 : BTF_KIND_FWD, -1 };
	const struct ctype *c;
	struct dtype t;

	if (scope != SCOPE_KERNEL)
		ctype_undefer(cs, key);
	if (scope != SCOPE_KERNEL && (c = strmap_get(&cs->tags, key)))
		return c;
	if (scope != SCOPE_D && kernel_lookup(cs, key, tag, kinds, &t) &&
	    t.ct && t.ct->kind == kind)
		return t.ct;
	return NULL;
}

/* ---- questions about types ---- */

const struct cmember *ctype_members(const struct dtype *agg, int *n)
{
	const struct ctype *c = agg->ct;

	*n = 0;
	if (agg->kind != T_STRUCT || !c ||
	    (c->kind != CT_STRUCT && c->kind != CT_UNION))
		return NULL;
	load_btf(c);
	*n = c->nmembers;
	return c->members;
}

bool ctype_member(const struct dtype *agg, const char *name,
		  struct cmember *out)
{
	int n;
	const struct cmember *m = ctype_members(agg, &n);

	for (int i = 0; i < n; i++) {
		if (strcmp(m[i].name, name) == 0) {
			*out = m[i];
			return true;
		}
		if (!*m[i].name && ctype_member(&m[i].type, name, out)) {
			out->off += m[i].off;
			return true;
		}
	}
	return false;
}

const struct cenumerator *ctype_enumerators(const struct dtype *t, int *n)
{
	*n = 0;
	if (!t->ct || t->ct->kind != CT_ENUM)
		return NULL;
	load_btf(t->ct);
	*n = t->ct->nenums;
	return t->ct->enums;
}

const char *ctype_enum_name(const struct dtype *t, int64_t value)
{
	int n;
	const struct cenumerator *e = ctype_enumerators(t, &n);

	for (int i = 0; i < n; i++)
		if (e[i].value == value)
			return e[i].name;
	return NULL;
}

bool ctypes_d_enumerator(struct ctypes *ct, const char *name)
{
	return strmap_get(&ct->enums, name) != NULL;
}

bool ctypes_enum_value(struct ctypes *ct, const char *name, int64_t *val,
		       struct dtype *type)
{
	const struct enum_ref *r = strmap_get(&ct->enums, name);

	if (r) {
		*val = r->value;
		if (type)
			*type = ctype_dtype(r->ct);
		return true;
	}
	return ctype_kernel_enum(ct, name, val, type);
}

static bool same_tagged(const struct ctype *a, const struct ctype *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind)
		return false;
	if (a->kind == CT_FLOAT)
		return a->size == b->size;
	/* a forward declaration is the type of the same name */
	return (!a->complete || !b->complete) && *a->tag &&
	       strcmp(a->tag, b->tag) == 0;
}

bool dtype_equal(const struct dtype *a, const struct dtype *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case T_INT:
		if ((a->ct && a->ct->kind == CT_ENUM) ||
		    (b->ct && b->ct->kind == CT_ENUM))
			return same_tagged(a->ct, b->ct);
		return a->size == b->size && a->is_signed == b->is_signed;
	case T_PTR:
		return dtype_equal(&a->ct->elem, &b->ct->elem);
	case T_ARRAY:
		return a->ct->count == b->ct->count &&
		       dtype_equal(&a->ct->elem, &b->ct->elem);
	case T_STRUCT:
		return same_tagged(a->ct, b->ct);
	case T_VOID:
		return is_func(a) == is_func(b) &&
		       (!is_func(a) || dtype_equal(&a->ct->elem, &b->ct->elem));
	default:
		return a->size == b->size;
	}
}
