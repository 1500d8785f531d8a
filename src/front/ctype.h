/*
 * ctype.h -- the C type system of D: pointers, arrays, structs, unions,
 * enums, typedefs, from the script, from D's builtins and from the kernel.
 *
 * A value's type is a struct dtype (types.h).  Scalars need nothing more;
 * composite types hang a struct ctype off dtype.ct:
 *
 *   T_PTR	ct->kind CT_PTR, ct->elem is the pointee
 *   T_ARRAY	ct->kind CT_ARRAY, ct->elem the element, ct->count elements
 *   T_STRUCT	ct->kind CT_STRUCT or CT_UNION: members, size, alignment
 *   T_INT	an enum: ct->kind CT_ENUM, its enumerators (NULL for plain ints)
 *   T_VOID	a function: ct->kind CT_FUNC, ct->elem the return type (opaque:
 *		only pointers to functions are values)
 *   T_STRUCT	float, double, long double: ct->kind CT_FLOAT, opaque bytes
 *		that can be stored, copied and printed but not computed with
 *
 * A typedef is its target's dtype with dtype.name set to the typedef's
 * name, so messages say "record_t" while everything else sees the struct.
 *
 * Layout of the script's structs and unions follows DTrace (its CTF
 * library), not gcc, where the two differ: members go at the next offset
 * aligned for their type, as in C, but a bit-field is an integer of the
 * fewest bytes that hold its width (a power of two) placed at the next byte
 * boundary, and a struct has no tail padding (sizeof(struct { int a; char
 * b; }) is 5).  The DTrace tests measure exactly that (bitfields/
 * tst.SizeofBitField.d); every offset of a struct without bit-fields is
 * gcc's.  Kernel types take their layout from BTF unchanged.
 *
 * Names resolve in the script's scope first, then D's builtin types, then
 * the kernel's BTF, loaded lazily: a kernel struct's members are read from
 * BTF the first time something asks for them, so "struct task_struct *"
 * costs one lookup until a member is used.  "D`foo_t" and "struct D`foo"
 * name the script's (or builtin) type only, "vmlinux`u64" and
 * "struct vmlinux`file" the kernel's only.
 *
 * Ownership: a struct ctypes and every ctype, member and name it hands out
 * live in the compile arena given to ctypes_new() and go with it.  The
 * kernel BTF is loaded once per process and kept.
 *
 * Errors: ctypes_declare() and ctypes_resolve_decl() report through
 * diag_fail() with DTrace's tags and messages (D_DECL_INCOMPLETE,
 * D_DECL_BFSIZE, D_UNKNOWN...), so d->env must be set; everything else
 * answers false and never jumps.
 */
#ifndef DSCOPE_CTYPE_H
#define DSCOPE_CTYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "front/ast.h"
#include "base/diag.h"
#include "d/types.h"

/* A namespace for one compile.  "string" holds strsize characters: its
 * size is d/types.c's dtype_string_bound(strsize), the NUL included. */
struct ctypes *ctypes_new(struct arena *a, uint32_t strsize);

/* Optional: the sema's check that an identifier is already a D variable,
 * function or inline, so that "enum { pid }" is D_DECL_IDRED. */
void ctypes_set_ident_check(struct ctypes *ct,
			    bool (*taken)(void *arg, const char *name),
			    void *arg);

/* Define what a top-level declaration says: TOP_STRUCT, TOP_UNION and
 * TOP_ENUM parse td->type->text (the whole definition, nested ones
 * included); TOP_TYPEDEF binds td->name to td->type->text.  Other kinds
 * are ignored.  Errors go to diag_fail() at the declaration's lines. */
void ctypes_declare(struct ctypes *ct, const struct top_decl *td,
		    struct diag *d);

/* ctypes_declare() at the first lookup of a name td defines (its typedef
 * name, its struct or union tag), for the D library: its types name the
 * kernel's (ipinfo_t's struct iphdr *), and a script that uses none of
 * them should not load the kernel's BTF.  A definition with enumerators
 * is declared at once: an enumerator is looked up by its own name. */
void ctypes_declare_lazily(struct ctypes *ct, const struct top_decl *td,
			   struct diag *d);

/* A type name as the parser writes it ("struct foo *", "int [4]",
 * "unsigned long", "vmlinux`u64", "int (*)()") to a dtype.  false if the
 * text is not a valid type name; an unknown struct, union or enum tag is a
 * forward declaration (size 0), as in C. */
bool ctypes_resolve(struct ctypes *ct, const char *text, struct dtype *out);

/* The same, for a declaration of `ident` (NULL for a cast or sizeof) at
 * dt's position: errors as DTrace words them (D_UNKNOWN "failed to resolve
 * type ...", D_DECL_COMBO, D_DECL_CHARATTR, D_DECL_ARRNULL...). */
void ctypes_resolve_decl(struct ctypes *ct, const struct decl_type *dt,
			 const char *ident, struct diag *d, struct dtype *out);

/* The kernel's BTF type btf_id (a VAR: the variable's type) as a dtype. */
struct dtype ctypes_kernel_type(struct ctypes *cs, uint32_t btf_id);

/* The type "pointer to *to". */
struct dtype ctype_ptr_to(struct ctypes *cs, const struct dtype *to);

/* Member `name` of a struct or union (agg->kind T_STRUCT), looking inside
 * anonymous struct and union members.  false if there is none or agg is
 * incomplete. */
bool ctype_member(const struct dtype *agg, const char *name,
		  struct cmember *out);

/* The direct members of a struct or union, in order; NULL and 0 for
 * anything else.  Kernel types are read from BTF on first call. */
const struct cmember *ctype_members(const struct dtype *agg, int *n);

/* An enum type's enumerators; NULL and 0 if t is not an enum. */
const struct cenumerator *ctype_enumerators(const struct dtype *t, int *n);

/* The enumerator of enum type t with this value, NULL if none: print(). */
const char *ctype_enum_name(const struct dtype *t, int64_t value);

/* An enumerator used as an identifier: the script's enums, then the
 * kernel's.  *type (if not NULL) gets the enum type it belongs to. */
bool ctypes_enum_value(struct ctypes *ct, const char *name, int64_t *val,
		       struct dtype *type);
/* name is an enumerator a D program or the D library declared (not the
 * kernel's): a D global identifier, as DTrace's dt_decl makes it. */
bool ctypes_d_enumerator(struct ctypes *ct, const char *name);

/* The type's name as DTrace prints it in messages: "struct foo *",
 * "int [4]", "int (*)()", "record_t". */
const char *dtype_name(const struct dtype *t);

/* Same type: same kind and size; same signedness for integers; equal
 * pointees and elements; the same struct, union or enum (by identity, or
 * by tag when one side is a forward declaration). */
bool dtype_equal(const struct dtype *a, const struct dtype *b);

/* name is a type of C's or D's own, or one the program declared (not the
 * kernel's): a variable may not take it (D_DECL_IDRED). */
bool ctypes_names_type(struct ctypes *ct, const char *name);

#endif /* DSCOPE_CTYPE_H */
