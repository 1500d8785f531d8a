/*
 * cg.c -- typed AST to BPF instructions.
 *
 * Machine model.  Registers with a fixed meaning for the whole program:
 *
 *	r6  the program's context (raw tracepoint args, perf event data)
 *	r7  SYS programs: this syscall's struct sysinfo_entry (a map value)
 *	r9  the per-CPU scratch area (MAP_SCRATCH value; a sleepable
 *	    program's is the thread's, below)
 *	r10 frame pointer
 *
 * r0-r5 and r8 are scratch registers within the emission of one node.
 * Every integer expression leaves its value in an 8-byte stack slot.  As in
 * DTrace's code generator, arithmetic is done in 64 bits and a value is
 * narrowed to its D type only where it is kept -- stored in a variable,
 * recorded, made a key -- or cast; so with int i = 25920,
 * i - (5 * i) * i / i * i is computed without wrapping in between, and
 * only the stored result is an int.  Every string expression leaves its bytes
 * in a scratch temp, NUL-padded to its full (8-byte rounded) size.  That
 * padding is an invariant the whole generator keeps: it lets strings be
 * copied, compared and hashed as aggregation keys 8 bytes at a time, with
 * static offsets the verifier checks once.
 *
 * Slots and temps are allocated in stack order and released at the end of
 * each statement, so a clause needs as much space as its deepest statement.
 * All offsets are known at compile time: nothing indexes the stack or the
 * scratch area with a run-time value.
 *
 * r9 is looked up once per firing, before the first code that needs it:
 * at the start of the program, or, when a clause's predicate reads only
 * the pid or tid and constants, after that predicate -- so a firing the
 * predicate rejects skips the lookup (have_scratch, scratch_pred).
 *
 * The scratch area: [0, REC_MAX) holds the record of the clause being run,
 * built at static offsets and written out with one bpf_perf_event_output at
 * the clause's end; [REC_MAX, REC_MAX + this_size) the clause-local (this->)
 * variables, which live for the whole firing; the rest holds string temps
 * and keys.
 *
 * Sleepable programs.  A read of user memory that is not resident (a
 * string literal on a page the process never touched) fails in a BPF
 * program that may not sleep; a sleepable one may fault it in.  A pid or
 * usdt program whose clauses read user memory (copyinstr, copyin,
 * copyinto) is made sleepable where the kernel takes such a program
 * (kcaps sleep_uprobe), and differs from the others in three ways:
 *  - its user reads fault (cg_subr.c);
 *  - its scratch area is the thread's own (TASK_STORAGE, spec.tscratch_map),
 *    not the CPU's: the kernel runs it with migration, not preemption,
 *    disabled (bpf_prog_run_array_uprobe: rcu_read_lock_trace and
 *    migrate_disable), so while a fault sleeps, other threads run on this
 *    CPU and their programs -- sched_switch's for this very thread, as it
 *    leaves -- would write over a per-CPU area in mid-clause.  A thread
 *    runs one uprobe program at a time, so its own area is never shared;
 *  - its records go to a ring buffer (spec.sbuf_map), each after a struct
 *    sbuf_hdr naming the CPU: a sleepable program may not write to a perf
 *    event array.
 * What such a program cannot use keeps it non-sleepable, as today:
 * copyout (bpf_probe_write_user is refused) and ustack() (its callbacks
 * look the per-CPU area up themselves).
 */
#include <string.h>

#include "cg/cg_impl.h"
#include "kern/ktypes.h"
#include "front/sema.h"
#include "prov/catalog.h"
#include "prov/net.h"
#include "prov/fbt.h"
#include "kern/kcaps.h"
#include "spec/options.h"
#include "spec/record.h"

uint32_t cg_round8(uint32_t n)
{
	return (n + 7) & ~7u;
}

int16_t cg_slot_new(struct cg *g, const struct node *n)
{
	if (g->sp - 8 < STACK_MIN)
		diag_fail(g->d, n->line, n->col, "D_EXPR_DEPTH",
			  "expression is too complex for the BPF stack");
	g->sp -= 8;
	return g->sp;
}

uint32_t cg_temp_new(struct cg *g, const struct node *n, uint32_t size)
{
	uint32_t off = g->tmp;

	size = cg_round8(size);
	if (off + size > ALLOCA_OFF)
		diag_fail(g->d, n->line, n->col, "D_EXPR_DEPTH",
			  "strings in one statement exceed the scratch space");
	g->tmp += size;
	return off;
}

struct val cg_int_val(int16_t slot)
{
	struct val v = { .slot = slot };

	return v;
}

/* ---- small emission idioms ---- */

/* reg = truncated/extended to type t (C conversion to t) */
void cg_normalize(struct cg *g, int reg, const struct dtype *t)
{
	int shift = 64 - 8 * (int)t->size;

	if (t->kind != T_INT || t->size >= 8)
		return;
	emit_alu_imm(&g->e, BPF_LSH, reg, shift);		/* r <<= shift */
	emit_alu_imm(&g->e, t->is_signed ? BPF_ARSH : BPF_RSH, reg, shift);
}

void cg_load_slot(struct cg *g, int reg, int16_t slot)
{
	emit_load(&g->e, 8, reg, R10, slot);			/* r = *(u64 *)(fp + slot) */
}

void cg_store_slot(struct cg *g, int16_t slot, int reg)
{
	emit_store(&g->e, 8, R10, slot, reg);			/* *(u64 *)(fp + slot) = r */
}

/* zero n bytes (a multiple of 8) at base+off */
void cg_zero_words(struct cg *g, int base, uint32_t off, uint32_t n)
{
	for (uint32_t i = 0; i < n; i += 8)
		emit_store_imm(&g->e, 8, base, (int16_t)(off + i), 0);
}

/*
 * copy src (ssize) to dst (dsize), both multiples of 8; the rest of dst is
 * zeroed so the NUL padding holds.  Only a string is cut with a NUL: a
 * stack or a usym() pair is bytes, whose last byte is part of an address.
 */
void cg_copy_words(struct cg *g, bool str, int dbase, uint32_t doff,
		   uint32_t dsize, int sbase, uint32_t soff, uint32_t ssize)
{
	uint32_t n = ssize < dsize ? ssize : dsize;

	for (uint32_t i = 0; i < n; i += 8) {
		emit_load(&g->e, 8, R0, sbase, (int16_t)(soff + i));
		emit_store(&g->e, 8, dbase, (int16_t)(doff + i), R0);
	}
	cg_zero_words(g, dbase, doff + n, dsize - n);
	if (str && dsize <= ssize && dsize > 0)	/* truncated: keep a NUL */
		emit_store_imm(&g->e, 1, dbase, (int16_t)(doff + dsize - 1), 0);
}

/* A value held as bytes that follows a string's rules (a NUL at its end,
 * NULL's mark): every such value but a stack, which is addresses. */
bool cg_is_str(const struct dtype *t)
{
	return t->kind != T_STACK;
}

/* r1 = &map (fd patched by the loader) */
/*
 * Does this program name script map `map` itself?  Yes while the ones it
 * names leave room for dscope's own maps and the outer maps.
 */
static bool names_directly(struct cg *g, int map)
{
	for (int i = 0; i < g->ndirect; i++)
		if (g->direct[i] == map)
			return true;
	if (g->ndirect >= MAP_LIMIT - MAP_FIXED - MAP_OUTERS)
		return false;
	*ARENA_PUSH(g->a, g->direct, g->ndirect, g->direct_cap) = map;
	return true;
}

/* The outer map of map's shape, and map's slot in it, made if new. */
static const struct spec_nest *nest_of(struct cg *g, int map)
{
	struct spec *sp = g->spec;
	const struct spec_map *m = &sp->maps[map];
	int outer = -1;
	uint32_t slots = 0;

	for (int i = 0; i < sp->nnests; i++) {
		const struct spec_map *o = &sp->maps[sp->nests[i].outer];
		const struct spec_map *t = &sp->maps[o->inner_tmpl];

		if (sp->nests[i].inner == map)
			return &sp->nests[i];
		if (t->type == m->type && t->key_size == m->key_size &&
		    t->value_size == m->value_size && t->flags == m->flags &&
		    t->max_entries == m->max_entries) {
			outer = sp->nests[i].outer;
			slots++;
		}
	}
	if (outer < 0) {
		struct spec_map *o = ARENA_PUSH(g->a, sp->maps, sp->nmaps,
						g->c->maps_cap);

		o->name = arena_printf(g->a, "outer_%d", map);
		o->type = BPF_MAP_TYPE_ARRAY_OF_MAPS;
		o->key_size = 4;
		o->value_size = 4;
		o->inner_tmpl = map;
		o->fd = -1;
		outer = sp->nmaps - 1;
	}
	struct spec_nest *n = ARENA_PUSH(g->a, sp->nests, sp->nnests,
					 g->c->nests_cap);

	*n = (struct spec_nest){ .outer = outer, .inner = map, .slot = slots };
	sp->maps[outer].max_entries = slots + 1;
	return n;
}

/*
 * reg = &map.  A script map past those this program can name is looked
 * up in its outer map, which takes r0-r5: a caller loads the map before
 * the helper's other arguments.  The lookup finds it always (the loader
 * fills every slot); the verifier is shown the null check all the same.
 *
 *	*(u32 *)(fp + SLOT_MAPIDX) = slot
 *	r0 = map_lookup_elem(&outer, fp + SLOT_MAPIDX)
 *	if (r0 == 0) fault(ILLOP)
 *	reg = r0
 */
void cg_ld_map(struct cg *g, int reg, int map)
{
	const struct spec_nest *n;
	int found;

	if (!g->spec->maps[map].nestable || names_directly(g, map)) {
		emit_ld_map_fd(&g->e, reg, map);
		return;
	}
	n = nest_of(g, map);
	found = emit_new_label(&g->e);
	emit_ld_map_fd(&g->e, R1, n->outer);
	emit_store_imm(&g->e, 4, R10, SLOT_MAPIDX, (int32_t)n->slot);
	cg_fp_ptr(g, R2, SLOT_MAPIDX);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, found);
	cg_fault(g, FLT_ILLOP, -1);
	emit_label(&g->e, found);
	if (reg != R0)
		emit_mov_reg(&g->e, reg, R0);
}

/* r = fp + off, for helper arguments */
void cg_fp_ptr(struct cg *g, int reg, int16_t off)
{
	emit_mov_reg(&g->e, reg, R10);
	emit_alu_imm(&g->e, BPF_ADD, reg, off);
}

void cg_scratch_ptr(struct cg *g, int reg, uint32_t off)
{
	emit_mov_reg(&g->e, reg, R9);
	emit_alu_imm(&g->e, BPF_ADD, reg, (int32_t)off);
}

/* increment field `off` of struct drop_counts (MAP_DROPS) */
void cg_count_drop(struct cg *g, uint32_t off)
{
	int skip = emit_new_label(&g->e);

	cg_ld_map(g, R1, MAP_DROPS);
	cg_fp_ptr(g, R2, SLOT_ZERO);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, skip);
	emit_load(&g->e, 8, R1, R0, (int16_t)off);
	emit_alu_imm(&g->e, BPF_ADD, R1, 1);
	emit_store(&g->e, 8, R0, (int16_t)off, R1);
	emit_label(&g->e, skip);
}

/* A string constant into a fresh temp, 8 bytes per store pair. */
struct val cg_string_const(struct cg *g, const struct node *n,
			       const char *s, uint32_t size)
{
	struct val v = { .str = true, .size = cg_round8(size) };
	size_t len = strlen(s);

	v.off = cg_temp_new(g, n, v.size);
	for (uint32_t i = 0; i < v.size; i += 8) {
		uint64_t w = 0;

		for (uint32_t j = 0; j < 8 && i + j < len && i + j < size - 1; j++)
			w |= (uint64_t)(unsigned char)s[i + j] << (8 * j);
		emit_ld_imm64(&g->e, R0, w);
		emit_store(&g->e, 8, R9, (int16_t)(v.off + i), R0);
	}
	return v;
}
