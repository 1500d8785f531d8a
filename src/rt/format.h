/*
 * format.h -- DTrace's printf engine and the default record formats.
 *
 * A format string is parsed once, at compile time (fmt_parse), into a list
 * of conversions, each carrying the literal text that precedes it.  The
 * compiler then checks the argument types against it (fmt_check), with the
 * error tags and wording of dtrace(1).  At run time the consumer hands the
 * traced values back in argument order (dynamic widths and precisions are
 * values too) and fmt_print writes exactly what DTrace would.
 *
 * Values reach this module as struct fmt_val: a D type plus the raw bits.
 * Integers are already truncated or sign-extended to their D type's width;
 * the printing rules depend on that width (DTrace prints a 1-, 2- or 4-byte
 * integer as a 32-bit C value, an 8-byte one as a long long), so the type
 * must be the D type of the traced expression, not "whatever fits".
 *
 * Symbols, modules and stacks are printed through an optional lookup the
 * caller supplies (struct fmt_sym_ops); without it they print as DTrace
 * does when a lookup fails: "0x" and the address in hex.
 */
#ifndef DSCOPE_FORMAT_H
#define DSCOPE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "d/fmt.h"
#include "d/types.h"

struct fmt_val {
	struct dtype type;	/* the D type of the traced expression */
	uint64_t u;		/* T_INT/T_PTR/T_SYM: value, extended per type */
	const char *s;		/* T_STRING: NUL-terminated within type.size */
	const uint64_t *pcs;	/* T_STACK: type.size / 8 frames, 0 ends early */
};

/*
 * Address lookup.  Returns true and sets *mod (and *sym, *symaddr when the
 * address falls in a known symbol; *sym NULL when only the module is known)
 * if the address is known at all.  Strings must outlive the call.
 */
struct fmt_sym_ops {
	bool (*lookup)(void *ctx, uint64_t addr, const char **mod,
		       const char **sym, uint64_t *symaddr);
	void *ctx;
	int stackindent;	/* stackindent option; <0: DTrace's 14 */
	/* the same for an address in user process pid (ustack()); NULL:
	 * user addresses print in hex */
	bool (*ulookup)(void *ctx, uint32_t pid, uint64_t addr, const char **mod,
			const char **sym, uint64_t *symaddr);
	uint32_t target_pid;	/* %A of a plain integer: the -p/-c process's
				 * address; 0: none, printed in hex */
	/* zonename's container and cgroup_path()'s path for a cgroup id
	 * (rt/container.h); NULL: the id in decimal */
	void (*zname)(uint64_t id, bool path, char *buf, size_t len);
};

/*
 * Print vals through f.  Returns the number of values consumed, or -1 if
 * vals do not match f (too few, or a type the conversion cannot print);
 * output up to the bad conversion has been written then.
 */
int fmt_print(FILE *out, const struct fmt *f, const struct fmt_val *vals,
	      int nvals, const struct fmt_sym_ops *syms);

/*
 * Hook for printa(): each %@ conversion calls print_agg with its index among
 * the %@ conversions (0, 1, ...), the conversion, and the C format prefix
 * its flags, width and precision make ("%-10", without length modifier or
 * conversion letter).  The hook prints the aggregation value, usually by
 * handing an 8-byte fmt_val to fmt_print_value.  Returns <0 on failure.
 */
struct fmt_agg_hook {
	int (*print_agg)(void *ctx, FILE *out, int aggidx,
			 const struct fmt_conv *c, const char *cprefix);
	void *ctx;
};

int fmt_print_hooked(FILE *out, const struct fmt *f,
		     const struct fmt_val *vals, int nvals,
		     const struct fmt_sym_ops *syms,
		     const struct fmt_agg_hook *agg);

/* Print one value through conversion c, as fmt_print does.  <0: mismatch. */
int fmt_print_value(FILE *out, const struct fmt_conv *c, const char *cprefix,
		    const struct fmt_val *v, const struct fmt_sym_ops *syms);

/*
 * Whether c prints a value of the given signedness as a signed number:
 * DTrace divides a normalized aggregation value signed exactly then.
 */
bool fmt_conv_is_signed(const struct fmt_conv *c, bool value_signed);

/*
 * trace(): strings print as "%s" when quiet and "  %-33s" otherwise, so
 * the declared string size does not matter; integers print with their
 * D width and signedness: quiet "%d"/"%u", otherwise right-aligned in
 * " %3" / " %5" / " %10" / " %19" (signed) or " %20" (unsigned 8-byte).
 * The newline after a non-quiet clause's output is the caller's: dtrace(1)
 * writes one "\n" once every record of the firing has been printed.
 */
/* rawbytes: trace()'s value as a hex dump; false if it is a stack or a
 * symbol, which print as always. */
bool fmt_trace_raw(FILE *out, const struct fmt_val *v, uint32_t strsize);
void fmt_trace(FILE *out, const struct fmt_val *v, bool quiet,
	       const struct fmt_sym_ops *syms);

/*
 * The default (non-quiet) output: a column header once, before the first
 * firing, then "FUNCTION:NAME" right-aligned in 32 columns per firing.
 * With testing (_DTRACE_TESTING set) the CPU and ID columns are left out.
 */
void fmt_probe_header(FILE *out, bool testing, bool flow);
void fmt_probe_heading(FILE *out, bool testing, int cpu, uint32_t probe_id,
		       const char *func, const char *name);
/* flowindent's: indent spaces, the prefix (" -> ", "| "), func, and
 * ":name" unless name is NULL, left-aligned in 41 columns; no ID. */
void fmt_flow_heading(FILE *out, bool testing, int cpu, int indent,
		      const char *prefix, const char *func, const char *name);

/* Format an address as %a / sym() do ("mod`sym+0x1f", "0x1f"...). */
/* A symbol-valued v (v->type.sym set: sym(), umod(), ...) as DTrace
 * prints it: "module`function", "module", "module`function+0x1f". */
void fmt_symbol(const struct fmt_val *v, const struct fmt_sym_ops *syms,
		char *buf, size_t len);
void fmt_addr2str(const struct fmt_sym_ops *syms, uint64_t addr,
		  bool with_offset, char *buf, size_t len);

/* %A of v: a user address named in its process (format.c). */
void fmt_uaddr2str(const struct fmt_val *v, const struct fmt_sym_ops *syms,
		   char *buf, size_t len);

/* The module alone, as mod() prints ("vmlinux", or "0x1f" if unknown). */
void fmt_addr2mod(const struct fmt_sym_ops *syms, uint64_t addr, char *buf,
		  size_t len);

/*
 * Frame i of stack v (0 the innermost) into buf: as stack() prints it
 * ("mod`sym+0x1f"), or with bare the function alone, as folded stacks
 * name frames ("sym"; "[mod]" when only the module is known; hex when
 * nothing is).  False past the last frame.
 */
bool fmt_stack_frame(const struct fmt_val *v, const struct fmt_sym_ops *syms,
		     uint32_t i, bool bare, char *buf, size_t len);

/* A stack, one frame a line after a leading newline, as stack() prints. */
void fmt_stack(FILE *out, const struct fmt_val *v, const char *cfmt,
	       const struct fmt_sym_ops *syms, int indent);

#endif /* DSCOPE_FORMAT_H */
