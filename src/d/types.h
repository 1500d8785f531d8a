/*
 * types.h -- D types as sema and cg see them.
 *
 * A D value is an integer (of C width and signedness), a string (a
 * NUL-terminated byte array of at most `size` bytes), a pointer (an integer
 * that cg knows to dereference with bpf_probe_read), or an aggregate from
 * BTF.  Every type has a fixed size: BPF needs static layouts, and strings
 * carry the smallest bound that holds every value they can take (execname
 * is 16 bytes, a string literal its own length + 1, anything else strsize).
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

struct ctype;	/* composite types, ctype.h */

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
	bool user;		/* T_STACK: ustack(): word 0 is the pid */
	uint8_t sym;		/* enum dsym_kind: prints as a symbol */
};

#endif /* DSCOPE_TYPES_H */
