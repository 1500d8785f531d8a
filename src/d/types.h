/*
 * types.h -- D types as sema and cg see them.
 *
 * A D value is an integer (of C width and signedness), a string (a
 * NUL-terminated byte array of at most `size` bytes), a pointer (an integer
 * that cg knows to dereference with bpf_probe_read), or an aggregate from
 * BTF.  Every type has a fixed size: BPF needs static layouts, and strings
 * carry the smallest bound that holds every value they can take (execname
 * is 16 bytes, a string literal its own length + 1, anything else strsize
 * + 1; none more than that: dtype_string_bound() below).
 */
#ifndef DSCOPE_TYPES_H
#define DSCOPE_TYPES_H

#include <stdbool.h>
#include <stdint.h>

enum dtype_kind {
	T_NONE = 0,	/* not yet typed, or a statement */
	T_VOID,		/* void: actions, functions that return nothing */
	T_INT,		/* integer of size 1, 2, 4 or 8 */
	T_STRING,	/* D string: char[size], NUL-terminated */
	T_PTR,		/* pointer: 8 bytes; btf_id names the pointee when known */
	T_STRUCT,	/* struct/union from BTF (btf_id), by value */
	T_ARRAY,	/* fixed array (btf_id) */
	T_STACK,	/* stack() / ustack() value */
	T_SYM,		/* sym(), func(), mod() -- an integer printed as a symbol */
	T_AGG,		/* an aggregation reference (@a) */
};

struct ctype;	/* composite types, below */

/*
 * A value that prints as a symbol (DTrace's sym(), func(), mod() and the
 * user ones).  The kernel's are T_SYM: an address.  The user's are a
 * one-frame ustack() (T_STACK, user): the pid, whose maps name the
 * address, then the address -- so they are kept, compared, used as keys
 * and named after the process exits exactly as user stacks are.
 */
enum dsym_kind {
	DSYM_NONE = 0,	/* not a symbol */
	DSYM_FUNC,	/* sym(), func(), usym(), ufunc(): "module`function" */
	DSYM_MOD,	/* mod(), umod(): "module" */
	DSYM_ADDR,	/* uaddr(): "module`function+0xoff" */
	DSYM_ZONE,	/* zonename: a cgroup id, printed as its container */
	DSYM_CGPATH,	/* cgroup_path(): a cgroup id, printed as its path */
};

struct dtype {
	enum dtype_kind kind;
	uint32_t size;		/* bytes; T_STRING: bound including the NUL */
	bool is_signed;		/* T_INT */
	uint32_t btf_id;	/* T_PTR / T_STRUCT / T_ARRAY: kernel type, 0 if none */
	const char *name;	/* the type's D name, for messages ("int", "string") */
	const struct ctype *ct;	/* T_PTR: the pointee; T_STRUCT: the layout;
				 * T_ARRAY: element and count; an enum T_INT:
				 * its enumerators; NULL for plain types */
	bool user;		/* T_STACK: ustack(): word 0 is the pid;
				 * T_PTR: a userland pointer, into the
				 * probe's process memory */
	uint8_t sym;		/* enum dsym_kind: prints as a symbol */
};

/*
 * The layout of a composite type, as front/ctype.h makes them (which
 * describes what each kind holds); printed and checked by every stage.
 */
enum ctype_kind {
	CT_PTR,
	CT_ARRAY,
	CT_STRUCT,
	CT_UNION,
	CT_ENUM,
	CT_FUNC,
	CT_FLOAT,
};

/* One member of a struct or union, as ctype_member() finds it. */
struct cmember {
	const char *name;	/* "" for an anonymous member */
	uint32_t off;		/* bytes from the start of the aggregate asked */
	uint8_t bit_off;	/* bit-field: first bit within the byte at off,
				 * counted from its least significant bit */
	uint8_t bit_width;	/* bit-field width; 0 for an ordinary member */
	struct dtype type;	/* a bit-field has its declared integer type */
};

struct cenumerator {
	const char *name;
	int64_t value;
};

struct ctypes;

struct ctype {
	enum ctype_kind kind;
	const char *tag;	/* struct/union/enum tag, "" if anonymous */
	const char *name;	/* struct/union/enum/float: "struct foo",
				 * "union" (anonymous), "double" */
	uint32_t size;		/* struct/union/enum/float: bytes; 0 while
				 * incomplete */
	struct dtype elem;	/* CT_PTR pointee, CT_ARRAY element,
				 * CT_FUNC return type */
	uint32_t count;		/* CT_ARRAY: number of elements (0 for []) */
	uint32_t align;		/* bytes, as a member of a struct */
	bool complete;		/* struct/union/enum: defined, not just named */
	/* CT_STRUCT/CT_UNION/CT_ENUM: use ctype_members() and
	 * ctype_enumerators(), which read kernel types in on first use. */
	struct cmember *members;
	int nmembers;
	struct cenumerator *enums;
	int nenums;
	/* kernel types: where to read the rest from */
	struct ctypes *owner;	/* the namespace that made this type */
	uint32_t btf_id;	/* 0 for types the script or D defined */
	bool loaded;		/* members or enumerators read from BTF */
};

/* Alignment in bytes when t is a member of a struct (1 for void). */
uint32_t dtype_align(const struct dtype *t);

/* CT_FLOAT: a float, double or long double. */
bool dtype_is_float(const struct dtype *t);

/* The most bytes any string holds under option strsize: strsize
 * characters and the NUL (types.c gives DTrace's rule). */
uint32_t dtype_string_bound(uint32_t strsize);

#endif /* DSCOPE_TYPES_H */
