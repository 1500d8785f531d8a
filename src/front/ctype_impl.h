/*
 * ctype_impl.h -- what ctype.c (the namespace, names, kernel types) and
 * ctype_parse.c (declarations as text) share.  Not for other modules.
 */
#ifndef DSCOPE_CTYPE_IMPL_H
#define DSCOPE_CTYPE_IMPL_H

#include "front/ctype.h"

/* A string-keyed hash table, arena-backed, open addressing. */
struct strmap {
	const char **keys;
	void **vals;
	uint32_t cap, n;
};

void *strmap_get(const struct strmap *m, const char *key);
void strmap_put(struct arena *a, struct strmap *m, const char *key, void *val);

/* An enumerator of the script's enums. */
struct enum_ref {
	int64_t value;
	const struct ctype *ct;		/* its enum */
};

/* Which scope a name was written with: "D`x", "vmlinux`x" or none. */
enum cscope { SCOPE_ANY, SCOPE_D, SCOPE_KERNEL };

struct ctypes {
	struct arena *a;
	uint32_t strsize;
	struct strmap tags;		/* "struct foo" -> struct ctype (script) */
	struct strmap typedefs;		/* "foo_t" -> struct dtype (script) */
	struct strmap enums;		/* "RED" -> struct enum_ref (script) */
	struct strmap deferred;		/* "psinfo_t", "struct psinfo" -> struct
					 * deferred: declared at first lookup */
	struct strmap kernel_names;	/* "struct file", "u64" -> struct dtype,
					 * or &no_such_type: BTF lookups done */
	struct strmap kernel_ids;	/* "#1234" -> struct ctype: one ctype per
					 * BTF struct, union, enum */
	struct ctype **pending;		/* pointers to incomplete script types,
					 * patched when the type is defined */
	int npending, cap_pending;
	const struct ctype *last_anon[3];	/* struct, union, enum */
	bool (*taken)(void *arg, const char *name);
	void *taken_arg;
};

/* Declare now the deferred definition of key ("foo_t", "struct foo"), if
 * any: before a lookup of it, and before the script defines it again
 * (which must then be the redeclaration it would have been). */
void ctype_undefer(struct ctypes *cs, const char *key);

/* Constructors: every composite dtype gets its printed name here. */
struct ctype *ctype_new(struct ctypes *cs, enum ctype_kind kind);
struct dtype ctype_array_of(struct ctypes *cs, const struct dtype *elem,
			    uint32_t count);
struct dtype ctype_func_returning(struct ctypes *cs, const struct dtype *ret);
/* The dtype of a struct, union, enum or float ctype. */
struct dtype ctype_dtype(const struct ctype *c);
/* A struct/union/enum ctype was just completed: fix the sizes copied into
 * pointers and typedefs made while it was a forward declaration. */
void ctype_completed(struct ctypes *cs, const struct ctype *c);

/* Names: a builtin or typedef name ("int", "unsigned long", "pid_t",
 * "u64") in the scope given; "struct foo" / "union foo" / "enum foo" tags
 * by kind and tag.  NULL/false if unknown. */
bool ctype_lookup_name(struct ctypes *cs, const char *name,
		       enum cscope scope, struct dtype *out);
const struct ctype *ctype_lookup_tag(struct ctypes *cs, enum ctype_kind kind,
				     const char *tag, enum cscope scope);
/* A kernel enumerator from BTF. */
bool ctype_kernel_enum(struct ctypes *cs, const char *name, int64_t *val,
		       struct dtype *type);

#endif /* DSCOPE_CTYPE_IMPL_H */
