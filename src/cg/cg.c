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

/* ---- builtins ---- */

/* x86-64 struct pt_regs offsets of the syscall argument registers:
 * di, si, dx, r10, r8, r9 */
static const int16_t sysarg_regs[6] = { 112, 104, 96, 56, 72, 64 };
/* ... and of the function argument registers: di, si, dx, cx, r8, r9 */
static const int16_t funcarg_regs[6] = { 112, 104, 96, 88, 72, 64 };
#define PT_REGS_AX 80
#define PT_REGS_ORIG_AX 120
#define PT_REGS_IP 128
#define PT_REGS_CS 136

/* r0 = *(u64 *)(address in r3 + off), through the read helper func
 * into slot */
static void read_to_slot(struct cg *g, int16_t slot, int size, int32_t off,
			 int func)
{
	int ok = emit_new_label(&g->e);

	emit_store_imm(&g->e, 8, R10, slot, 0);
	cg_fp_ptr(g, R1, slot);
	emit_mov_imm(&g->e, R2, size);
	if (off)
		emit_alu_imm(&g->e, BPF_ADD, R3, off);
	emit_mov_reg(&g->e, R8, R3);
	emit_call(&g->e, func);
	if (g->ep) {	/* in a clause: a bad address is a fault */
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, ok);
		cg_fault(g, FLT_BADADDR, R8);
	}
	emit_label(&g->e, ok);
	cg_load_slot(g, R0, slot);
}

void cg_kread(struct cg *g, int16_t slot, int size, int32_t off)
{
	read_to_slot(g, slot, size, off, BPF_FUNC_probe_read_kernel);
}

int cg_user_read_func(const struct cg *g)
{
	return g->sleepable ? BPF_FUNC_copy_from_user : BPF_FUNC_probe_read_user;
}

void cg_uread(struct cg *g, int16_t slot, int size, int32_t off)
{
	read_to_slot(g, slot, size, off, cg_user_read_func(g));
}

static void probe_id(struct cg *g);

/*
 * A sleepable program's output: size bytes of scratch at off,
 * after a struct sbuf_hdr, into its ring buffer; goto full if it has no
 * room.
 *	r8 = ringbuf_reserve(&ring, sizeof(hdr) + size, 0)
 *	if (!r8) goto full
 *	probe_read_kernel(r8 + sizeof(hdr), size, r9 + off)
 *	r8->cpu = get_smp_processor_id()
 *	ringbuf_submit(r8, 0)
 */
static void sbuf_output(struct cg *g, uint32_t off, uint32_t size, int full)
{
	int32_t hdr = sizeof(struct sbuf_hdr);

	cg_ld_map(g, R1, g->ring_map);
	emit_mov_imm(&g->e, R2, hdr + (int32_t)size);
	emit_mov_imm(&g->e, R3, 0);
	emit_call(&g->e, BPF_FUNC_ringbuf_reserve);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, full);
	emit_mov_reg(&g->e, R8, R0);
	emit_mov_reg(&g->e, R1, R8);
	emit_alu_imm(&g->e, BPF_ADD, R1, hdr);
	emit_mov_imm(&g->e, R2, (int32_t)size);
	cg_scratch_ptr(g, R3, off);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	emit_call(&g->e, BPF_FUNC_get_smp_processor_id);
	emit_store(&g->e, 4, R8, offsetof(struct sbuf_hdr, cpu), R0);
	emit_mov_reg(&g->e, R1, R8);
	emit_mov_imm(&g->e, R2, 0);
	emit_call(&g->e, BPF_FUNC_ringbuf_submit);
}

/*
 *	err = (struct err_record *)(r9 + ERR_REC_OFF)
 *	err->... = EPID_ERROR, probe id, epid, action, fault, address
 *	perf_event_output(ctx, &buf, BPF_F_CURRENT_CPU, err, sizeof(*err))
 *	goto the ERROR clauses (cg_error.c), or clause_end if none
 */
void cg_fault(struct cg *g, int fault, int addr_reg)
{
	int16_t e = ERR_REC_OFF;
	int to = cg_fault_target(g);

	if (addr_reg >= 0)
		emit_store(&g->e, 8, R9, e + offsetof(struct err_record, addr),
			   addr_reg);
	else
		emit_store_imm(&g->e, 8, R9, e + offsetof(struct err_record, addr), 0);
	emit_store_imm(&g->e, 4, R9, e, (int32_t)EPID_ERROR);
	probe_id(g);
	emit_store(&g->e, 4, R9, e + offsetof(struct err_record, probe_id), R0);
	emit_store_imm(&g->e, 4, R9, e + offsetof(struct err_record, clause_epid),
		       g->epid);
	emit_store_imm(&g->e, 4, R9, e + offsetof(struct err_record, action),
		       g->action);
	emit_store_imm(&g->e, 8, R9, e + offsetof(struct err_record, fault), fault);
	if (g->ring_map >= 0) {
		sbuf_output(g, ERR_REC_OFF, sizeof(struct err_record), to);
	} else {
		emit_mov_reg(&g->e, R1, R6);
		cg_ld_map(g, R2, MAP_BUF);
		emit_alu32_imm(&g->e, BPF_MOV, R3, -1);	/* BPF_F_CURRENT_CPU */
		cg_scratch_ptr(g, R4, ERR_REC_OFF);
		emit_mov_imm(&g->e, R5, sizeof(struct err_record));
		emit_call(&g->e, BPF_FUNC_perf_event_output);
	}
	emit_ja(&g->e, to);
}

/* r0 = slot = the pt_regs word at the byte offset in r1.  The offset is
 * a run-time value (one program serves every usdt site) and the verifier
 * allows a context load only at a constant one, so the word is copied. */
static void usdt_reg(struct cg *g, int16_t slot)
{
	emit_mov_reg(&g->e, R3, R6);
	emit_alu_reg(&g->e, BPF_ADD, R3, R1);		/* r3 = regs + off */
	cg_fp_ptr(g, R1, slot);
	emit_mov_imm(&g->e, R2, 8);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	cg_load_slot(g, R0, slot);
}

/* r8 = the user memory at r8, size (r2, 1..8) bytes, zero-extended; a
 * fault when it cannot be read, as for any other bad address */
static void usdt_deref(struct cg *g, int16_t slot)
{
	int ok = emit_new_label(&g->e);

	emit_store_imm(&g->e, 8, R10, slot, 0);
	cg_fp_ptr(g, R1, slot);
	emit_mov_reg(&g->e, R3, R8);
	emit_call(&g->e, BPF_FUNC_probe_read_user);
	if (g->ep) {
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, ok);
		cg_fault(g, FLT_BADADDR, R8);
	}
	emit_label(&g->e, ok);
	cg_load_slot(g, R8, slot);
}

/* Word k of a trampoline's context -- the function's arguments, then
 * fexit's return value -- into slot, unless the function's argument
 * count and k compared by jmp say skip.  By a helper: the verifier of a
 * function's copy refuses a load from the context past its own words.
 *	if (r7->nargs jmp k) goto skip
 *	probe_read_kernel(&slot, 8, ctx + 8k) */
static void trampoline_word(struct cg *g, int16_t slot, int jmp, int k, int skip)
{
	emit_load(&g->e, 4, R1, R7, offsetof(struct uprobe_entry, nargs));
	emit_jmp_imm(&g->e, jmp, R1, k, skip);
	cg_fp_ptr(g, R1, slot);
	emit_mov_imm(&g->e, R2, 8);
	emit_mov_reg(&g->e, R3, R6);
	emit_alu_imm(&g->e, BPF_ADD, R3, 8 * k);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
}

/*
 * fexit without bpf_get_func_ret and bpf_get_func_ip (before 5.17 and
 * 5.15): each function has its own copy of the program (as fentry's), its
 * uprobe_entry says the function's address and its argument count, and
 * the trampoline's context holds the arguments and then the return
 * value.  The verifier of one function's copy refuses a load from the
 * context past that value, so it is read by a helper, at an offset
 * chosen among the few a trampoline can have:
 *	arg0: v = r7->addr
 *	arg1: for k in 0..FBT_ARGS_MAX: if (r7->nargs == k)
 *		probe_read_kernel(&v, 8, ctx + 8k)
 */
static void fexit_value(struct cg *g, int16_t slot, int n)
{
	int done = emit_new_label(&g->e);

	if (n == 0) {
		emit_load(&g->e, 8, R0, R7, offsetof(struct uprobe_entry, addr));
		cg_store_slot(g, slot, R0);
		return;
	}
	for (int k = 0; k <= FBT_ARGS_MAX; k++) {
		int next = emit_new_label(&g->e);

		trampoline_word(g, slot, BPF_JNE, k, next);
		emit_ja(&g->e, done);
		emit_label(&g->e, next);
	}
	emit_label(&g->e, done);
}

/*
 * argN at a usdt site, computed from the site's struct usdt_arg (spec/spec.h)
 * in its uprobe entry, r7:
 *
 *	a = &r7->args[n]
 *	if (a->size == 0 || a->size > 8) { slot = 0; return }
 *	r8 = a->disp
 *	if (a->base != NONE)  r8 += regs[a->base] >> a->shift
 *	if (a->index != NONE) r8 += regs[a->index] << a->scale
 *	if (a->flags & DEREF) r8 = *(a->size bytes *)r8       (may fault)
 *	sh = (8 - a->size) * 8
 *	slot = a->flags & SIGNED ? (s64)(r8 << sh) >> sh : (r8 << sh) >> sh
 */
#define USDT_ARG(n, field) \
	(int16_t)(offsetof(struct uprobe_entry, args) + \
		  (n) * sizeof(struct usdt_arg) + offsetof(struct usdt_arg, field))

static void usdt_arg_value(struct cg *g, int16_t slot, int n)
{
	int none = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int noindex = emit_new_label(&g->e), nobase = emit_new_label(&g->e);
	int direct = emit_new_label(&g->e), zext = emit_new_label(&g->e);
	int end = emit_new_label(&g->e);

	emit_load(&g->e, 1, R2, R7, USDT_ARG(n, size));
	emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, none);
	emit_jmp_imm(&g->e, BPF_JGT, R2, 8, none);
	emit_load(&g->e, 8, R8, R7, USDT_ARG(n, disp));
	emit_load(&g->e, 1, R1, R7, USDT_ARG(n, base));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, USDT_REG_NONE, nobase);
	usdt_reg(g, slot);
	emit_load(&g->e, 1, R1, R7, USDT_ARG(n, shift));
	emit_alu_reg(&g->e, BPF_RSH, R0, R1);
	emit_alu_reg(&g->e, BPF_ADD, R8, R0);
	emit_label(&g->e, nobase);
	emit_load(&g->e, 1, R1, R7, USDT_ARG(n, index));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, USDT_REG_NONE, noindex);
	usdt_reg(g, slot);
	emit_load(&g->e, 1, R1, R7, USDT_ARG(n, scale));
	emit_alu_reg(&g->e, BPF_LSH, R0, R1);
	emit_alu_reg(&g->e, BPF_ADD, R8, R0);
	emit_label(&g->e, noindex);
	emit_load(&g->e, 1, R1, R7, USDT_ARG(n, flags));
	emit_alu_imm(&g->e, BPF_AND, R1, USDT_ARG_DEREF);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, direct);
	emit_load(&g->e, 1, R2, R7, USDT_ARG(n, size));
	emit_jmp_imm(&g->e, BPF_JGT, R2, 8, none);	/* bounds r2 for the verifier */
	usdt_deref(g, slot);
	emit_label(&g->e, direct);
	emit_load(&g->e, 1, R1, R7, USDT_ARG(n, size));
	emit_mov_imm(&g->e, R2, 8);
	emit_alu_reg(&g->e, BPF_SUB, R2, R1);
	emit_alu_imm(&g->e, BPF_LSH, R2, 3);		/* sh = (8 - size) * 8 */
	emit_alu_imm(&g->e, BPF_AND, R2, 63);
	emit_alu_reg(&g->e, BPF_LSH, R8, R2);
	emit_load(&g->e, 1, R1, R7, USDT_ARG(n, flags));
	emit_alu_imm(&g->e, BPF_AND, R1, USDT_ARG_SIGNED);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, zext);
	emit_alu_reg(&g->e, BPF_ARSH, R8, R2);
	emit_ja(&g->e, done);
	emit_label(&g->e, zext);
	emit_alu_reg(&g->e, BPF_RSH, R8, R2);
	emit_label(&g->e, done);
	cg_store_slot(g, slot, R8);
	emit_ja(&g->e, end);
	emit_label(&g->e, none);
	emit_store_imm(&g->e, 8, R10, slot, 0);
	emit_label(&g->e, end);
}

/*
 * r0 = slot = a word of the system call's saved registers: raw_syscalls'
 * ctx->args[0] is the thread's entry frame, the one task_pt_regs()
 * finds.  By that typed pointer where the kernel has it, the word is
 * loaded directly, without bpf_probe_read_kernel, which
 * lockdown=confidentiality withholds (kern/lockdown.h):
 *	r0 = task_pt_regs(get_current_task_btf()); r0 = *(u64 *)(r0 + off)
 * else	probe_read_kernel(&slot, 8, ctx->args[0] + off)
 */
static void sys_regs_word(struct cg *g, int16_t slot, int16_t off)
{
	if (!kcaps_has(KCAP_TASK_PT_REGS)) {
		emit_load(&g->e, 8, R3, R6, 0);
		cg_kread(g, slot, 8, off);
		return;
	}
	emit_call(&g->e, BPF_FUNC_get_current_task_btf);
	emit_mov_reg(&g->e, R1, R0);
	emit_call(&g->e, BPF_FUNC_task_pt_regs);
	emit_load(&g->e, 8, R0, R0, off);
	cg_store_slot(g, slot, R0);
}

static void arg_value(struct cg *g, int16_t slot, int n)
{
	switch (g->att) {
	case ATTACH_SYS_ENTER:
		if (n >= 6)
			break;
		sys_regs_word(g, slot, sysarg_regs[n]);
		return;
	case ATTACH_SYS_EXIT:
		if (n >= 2)
			break;
		emit_load(&g->e, 8, R0, R6, 8);		/* r0 = ctx->args[1]: ret */
		cg_store_slot(g, slot, R0);
		return;
	case ATTACH_PROFILE:
	case ATTACH_TICK: {
		/* arg0: kernel pc or 0; arg1: user pc or 0 */
		int zero = emit_new_label(&g->e), done = emit_new_label(&g->e);

		if (n >= 2)
			break;
		emit_load(&g->e, 8, R1, R6, PT_REGS_CS);
		emit_alu_imm(&g->e, BPF_AND, R1, 3);
		emit_jmp_imm(&g->e, n == 0 ? BPF_JEQ : BPF_JNE, R1, 3, zero);
		emit_load(&g->e, 8, R0, R6, PT_REGS_IP);
		emit_ja(&g->e, done);
		emit_label(&g->e, zero);
		emit_mov_imm(&g->e, R0, 0);
		emit_label(&g->e, done);
		cg_store_slot(g, slot, R0);
		return;
	}
	case ATTACH_RAW_TP:
		/* ctx->args[n], TP_PROTO's n-th: reading past the last
		 * would make the kernel refuse to attach */
		if (n >= g->probe->tp_nargs)
			break;
		emit_load(&g->e, 8, R0, R6, (int16_t)(8 * n));
		cg_store_slot(g, slot, R0);
		return;
	case ATTACH_UPROBE:
	case ATTACH_KPROBE:
		/* the registers at the function's first instruction: the
		 * x86-64 calling convention's argument registers */
		if (n >= 6)
			break;
		emit_load(&g->e, 8, R0, R6, funcarg_regs[n]);
		cg_store_slot(g, slot, R0);
		return;
	case ATTACH_FENTRY:
		/* bpf_get_func_arg(ctx, n, &v): the trampoline saved them;
		 * past the function's last it fails, and v stays 0.  Without
		 * it (before 5.17) they are read from the context, the
		 * trampoline's array of them, up to the function's own count
		 * (uprobe_entry.nargs): the verifier of the copy for one
		 * function refuses a load past its last.
		 *	v = 0; if (n < r7->nargs) probe_read_kernel(&v, 8, ctx + 8n) */
		if (n >= 6)
			break;
		emit_store_imm(&g->e, 8, R10, slot, 0);
		if (!kcaps_has(KCAP_FENTRY_COOKIE)) {
			int past = emit_new_label(&g->e);

			trampoline_word(g, slot, BPF_JLE, n, past);
			emit_label(&g->e, past);
			return;
		}
		emit_mov_reg(&g->e, R1, R6);
		emit_mov_imm(&g->e, R2, n);
		cg_fp_ptr(g, R3, slot);
		emit_call(&g->e, BPF_FUNC_get_func_arg);
		return;
	case ATTACH_FEXIT:
		/* arg1: bpf_get_func_ret(ctx, &v); arg0, DTrace's offset of
		 * the return instruction, is not known: the function's own
		 * address (bpf_get_func_ip) stands in for it */
		if (n >= 2)
			break;
		emit_store_imm(&g->e, 8, R10, slot, 0);
		if (!kcaps_has(KCAP_FENTRY_COOKIE)) {
			fexit_value(g, slot, n);
			return;
		}
		emit_mov_reg(&g->e, R1, R6);
		if (n == 0) {
			emit_call(&g->e, BPF_FUNC_get_func_ip);
			cg_store_slot(g, slot, R0);
			return;
		}
		cg_fp_ptr(g, R2, slot);
		emit_call(&g->e, BPF_FUNC_get_func_ret);
		return;
	case ATTACH_URETPROBE:
	case ATTACH_KRETPROBE:
		/* arg1: the return value.  arg0 is DTrace's offset of the
		 * return instruction, which a uretprobe cannot know (it
		 * fires at the caller's return address, regs->ip): that
		 * address stands in for it. */
		if (n >= 2)
			break;
		emit_load(&g->e, 8, R0, R6, n == 0 ? PT_REGS_IP : PT_REGS_AX);
		cg_store_slot(g, slot, R0);
		return;
	case ATTACH_USDT:
		if (n >= USDT_ARGS_MAX)
			break;
		usdt_arg_value(g, slot, n);
		return;
	case ATTACH_REPLAY:
		cg_replay_arg(g, slot, n);
		return;
	case ATTACH_ERROR:
		cg_error_arg(g, slot, n);
		return;
	case ATTACH_BEGIN:
	case ATTACH_END:
		/* run by test_run: the context is the argument array */
		emit_load(&g->e, 8, R0, R6, (int16_t)(8 * n));
		cg_store_slot(g, slot, R0);
		return;
	default:
		break;
	}
	emit_store_imm(&g->e, 8, R10, slot, 0);
}

/* slot = errno of the syscall return value in r0:
 *	errno = (ret < 0 && ret >= -4095) ? -ret : 0 */
void cg_errno_of_ret(struct cg *g, int16_t slot)
{
	int zero = emit_new_label(&g->e), done = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JSGE, R0, 0, zero);
	emit_jmp_imm(&g->e, BPF_JSLT, R0, -4095, zero);
	emit_alu_imm(&g->e, BPF_NEG, R0, 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, zero);
	emit_mov_imm(&g->e, R0, 0);
	emit_label(&g->e, done);
	cg_store_slot(g, slot, R0);
}

static void errno_value(struct cg *g, int16_t slot)
{
	if (g->att != ATTACH_SYS_EXIT) {
		emit_store_imm(&g->e, 8, R10, slot, 0);
		return;
	}
	emit_load(&g->e, 8, R0, R6, 8);		/* ctx->args[1]: ret */
	cg_errno_of_ret(g, slot);
}

/*
 * r0 = the task the builtins describe: the current one, or, at a probe
 * about another task, the tracepoint argument holding it (sched:::on-cpu
 * runs in the leaving task but describes `next`, DESIGN.md 3.6).
 */
void cg_cur_task(struct cg *g)
{
	if (cg_other_task(g))
		emit_load(&g->e, 8, R0, R6, (int16_t)(8 * (g->probe->cur_task - 1)));
	else
		emit_call(&g->e, BPF_FUNC_get_current_task);
}

bool cg_other_task(const struct cg *g)
{
	return g->att == ATTACH_RAW_TP && g->probe->cur_task && !g->self_task;
}

int cg_offcpu_stack_map(struct cg *g)
{
	struct spec *sp = g->spec;

	for (int i = 0; i < sp->nmaps; i++)
		if (strcmp(sp->maps[i].name, "dscope_offstk") == 0)
			return i;
	struct spec_map *m = ARENA_PUSH(g->a, sp->maps, sp->nmaps,
					g->c->maps_cap);

	m->name = "dscope_offstk";
	m->type = BPF_MAP_TYPE_LRU_HASH;	/* threads come and go */
	m->key_size = 8;
	m->value_size = OFFCPU_STACK;
	m->max_entries = 16384;
	m->fd = -1;
	return sp->nmaps - 1;
}

void cg_need_ktype(struct cg *g, const struct node *n, const char *path,
		  struct ktype_field *f)
{
	if (ktype_field(path, f) < 0)
		diag_fail(g->d, n->line, n->col, "D_KTYPE",
			  "%s: kernel type information (BTF) lacks %s", n->str,
			  path);
}

/* slot = tgid << 32 | pid of the task the builtins describe: the key of
 * self-> variables, so on-cpu's self-> is the incoming thread's */
void cg_self_key(struct cg *g, const struct node *n, int16_t slot)
{
	struct ktype_field pid, tgid;

	if (g->att == ATTACH_REPLAY) {
		cg_replay_self_key(g, slot);
		return;
	}
	if (!cg_other_task(g)) {
		emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
		cg_store_slot(g, slot, R0);
		return;
	}
	cg_need_ktype(g, n, "task_struct.tgid", &tgid);
	cg_need_ktype(g, n, "task_struct.pid", &pid);
	cg_cur_task(g);
	emit_mov_reg(&g->e, R3, R0);
	cg_kread(g, slot, 4, (int32_t)tgid.off[0]);
	emit_mov_reg(&g->e, R7, R0);	/* r7 is free outside SYS programs */
	emit_alu_imm(&g->e, BPF_LSH, R7, 32);
	cg_cur_task(g);
	emit_mov_reg(&g->e, R3, R0);
	cg_kread(g, slot, 4, (int32_t)pid.off[0]);
	emit_alu_reg(&g->e, BPF_OR, R0, R7);
	cg_store_slot(g, slot, R0);
}

/* task->path..., a chain of member reads through BTF offsets */
void cg_task_field(struct cg *g, const struct node *n, int16_t slot,
		   const char *path)
{
	struct ktype_field f;

	cg_need_ktype(g, n, path, &f);
	cg_cur_task(g);
	for (int i = 0; i < f.nhops; i++) {
		emit_mov_reg(&g->e, R3, R0);
		cg_kread(g, slot, i + 1 < f.nhops ? 8 : (int)f.size, (int32_t)f.off[i]);
	}
	if (f.size == 4 && f.is_signed) {
		emit_alu_imm(&g->e, BPF_LSH, R0, 32);
		emit_alu_imm(&g->e, BPF_ARSH, R0, 32);
		cg_store_slot(g, slot, R0);
	}
}

static const char *probe_field(const struct probe *p, int b)
{
	switch (b) {
	case BI_PROBEPROV: return p->prov;
	case BI_PROBEMOD: return p->mod;
	case BI_PROBEFUNC: return p->func;
	default: return p->name;
	}
}

static bool is_sys(const struct cg *g)
{
	return g->att == ATTACH_SYS_ENTER || g->att == ATTACH_SYS_EXIT;
}

/* A program of many probes told apart by the cookie of the one that fired
 * (pid, usdt and fbt: one uprobe_entry each). */
static bool is_uprobe(const struct cg *g)
{
	return g->att == ATTACH_UPROBE || g->att == ATTACH_URETPROBE ||
	       g->att == ATTACH_USDT || g->att == ATTACH_KPROBE ||
	       g->att == ATTACH_KRETPROBE || g->att == ATTACH_FENTRY ||
	       g->att == ATTACH_FEXIT;
}

/* probeprov, probemod, probefunc (and the probename of a usdt probe or
 * of a pid offset probe, "1f") of a uprobe: from its uprobe_entry */
static struct val uprobe_string(struct cg *g, const struct node *n, int b)
{
	static const struct {
		uint32_t off, size;
	} fields[] = {
		[BI_PROBEPROV] = { offsetof(struct uprobe_entry, prov), UPROBE_PROV_MAX },
		[BI_PROBEMOD] = { offsetof(struct uprobe_entry, mod), UPROBE_MOD_MAX },
		[BI_PROBEFUNC] = { offsetof(struct uprobe_entry, func), UPROBE_FUNC_MAX },
		[BI_PROBENAME] = { offsetof(struct uprobe_entry, name), UPROBE_NAME_MAX },
	};
	uint32_t off = fields[b].off, size = fields[b].size;
	struct val v = { .str = true, .size = size };

	v.off = cg_temp_new(g, n, size);
	cg_copy_words(g, true, R9, v.off, size, R7, off, size);
	return v;
}

static struct val probe_string(struct cg *g, const struct node *n, int b)
{
	if (g->cl->clause->shown)	/* a lowered probe's clause */
		return cg_string_const(g, n, probe_field(g->cl->clause->shown, b),
				       SYSNAME_MAX);
	if (is_uprobe(g) && (b != BI_PROBENAME || g->att == ATTACH_USDT ||
			      g->att == ATTACH_UPROBE || g->att == ATTACH_KPROBE ||
			      g->att == ATTACH_FENTRY))
		return uprobe_string(g, n, b);
	if (is_sys(g) && b == BI_PROBEFUNC) {
		struct val v = { .str = true, .size = SYSNAME_MAX };

		v.off = cg_temp_new(g, n, SYSNAME_MAX);
		cg_copy_words(g, true, R9, v.off, SYSNAME_MAX, R7,
			   offsetof(struct sysinfo_entry, name), SYSNAME_MAX);
		return v;
	}
	const char *s;

	if (is_sys(g))
		s = b == BI_PROBEPROV ? "syscall" : b == BI_PROBEMOD ? "vmlinux"
			: g->att == ATTACH_SYS_ENTER ? "entry" : "return";
	else if (is_uprobe(g))
		s = "return";
	else
		s = probe_field(g->cl->probe ? g->cl->probe : g->probe, b);
	return cg_string_const(g, n, s, SYSNAME_MAX);
}

/* r0 = the ID of the probe that fired */
static void probe_id(struct cg *g)
{
	if (g->cl && g->cl->clause->shown)
		emit_mov_imm(&g->e, R0, (int32_t)g->cl->clause->shown->id);
	else if (is_sys(g))
		emit_load(&g->e, 4, R0, R7,
			  g->att == ATTACH_SYS_ENTER
				  ? offsetof(struct sysinfo_entry, entry_id)
				  : offsetof(struct sysinfo_entry, return_id));
	else if (is_uprobe(g))
		emit_load(&g->e, 4, R0, R7, offsetof(struct uprobe_entry, probe_id));
	else
		emit_mov_imm(&g->e, R0, (int32_t)g->probe->id);
}

/*
 * A string held in more bytes than its type allows (execname's 16 and a
 * probe's names' 32 under a smaller strsize: sema_string()): cut at the
 * bound, the NUL at its last byte and zeros to the word's end, so it
 * keeps strsize characters as every string does (dtype_string_bound())
 * and compares and keys as any string of that bound.
 */
static struct val clip_string(struct cg *g, struct val v, uint32_t bound)
{
	uint32_t keep = cg_round8(bound);

	if (bound == 0 || v.size < bound)
		return v;
	for (uint32_t i = bound - 1; i < keep; i++)
		emit_store_imm(&g->e, 1, R9, (int16_t)(v.off + i), 0);
	v.size = keep;
	return v;
}

/* execname, probeprov, probemod, probefunc, probename: their bytes as
 * the kernel or the probe has them, up to 16 or 32 */
static struct val builtin_string(struct cg *g, struct node *n, int b)
{
	if (b != BI_EXECNAME)
		return probe_string(g, n, b);
	struct val v = { .str = true, .size = 16 };

	v.off = cg_temp_new(g, n, 16);
	/*
	 * bpf_get_current_comm() pads with NULs on newer kernels
	 * only (6.1's uses strscpy): zero the buffer first, or
	 * execname's bytes after its NUL are stale, and a key or a
	 * word-wise comparison built from it differs from the last.
	 * Another task's comm is read up to its NUL for the same
	 * reason: before 6.x, exec leaves the old name's bytes past it.
	 */
	cg_zero_words(g, R9, v.off, 16);
	if (cg_other_task(g)) {	/* probe_read_kernel_str(v, 16, &task->comm) */
		struct ktype_field f;

		cg_need_ktype(g, n, "task_struct.comm", &f);
		cg_cur_task(g);
		emit_mov_reg(&g->e, R3, R0);
		emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)f.off[0]);
		cg_scratch_ptr(g, R1, v.off);
		emit_mov_imm(&g->e, R2, 16);
		emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
		return v;
	}
	cg_scratch_ptr(g, R1, v.off);
	emit_mov_imm(&g->e, R2, 16);
	emit_call(&g->e, BPF_FUNC_get_current_comm);
	return v;
}

static struct val builtin(struct cg *g, struct node *n)
{
	int b = n->sym;
	struct val rv;

	if (g->att == ATTACH_REPLAY && cg_replay_builtin(g, n, &rv))
		return rv.str ? clip_string(g, rv, n->type.size) : rv;
	if (n->type.kind == T_STRING)
		return clip_string(g, builtin_string(g, n, b), n->type.size);
	int16_t slot = cg_slot_new(g, n);

	if (cg_other_task(g) && (b == BI_PID || b == BI_TID)) {
		cg_task_field(g, n, slot, b == BI_PID ? "task_struct.tgid"
						   : "task_struct.pid");
		return cg_int_val(slot);
	}
	/*
	 * uid and gid are the process's real IDs, from its objective
	 * credentials (real_cred), not bpf_get_current_uid_gid()'s
	 * subjective ones: the kernel overrides those while it works on a
	 * task's behalf (overlayfs as its mounter, for one), and a task
	 * caught blocked there would show root.  Without BTF the current
	 * task's subjective IDs are the best there is.
	 */
	const char *cred = b == BI_UID ? "task_struct.real_cred->uid.val"
				       : "task_struct.real_cred->gid.val";
	struct ktype_field f;

	if ((b == BI_UID || b == BI_GID) &&
	    (cg_other_task(g) || ktype_field(cred, &f) == 0)) {
		cg_task_field(g, n, slot, cred);
		return cg_int_val(slot);
	}
	switch (b) {
	case BI_PID:
	case BI_TID:
	case BI_UID:
	case BI_GID:
		emit_call(&g->e, b == BI_UID || b == BI_GID
					 ? BPF_FUNC_get_current_uid_gid
					 : BPF_FUNC_get_current_pid_tgid);
		if (b == BI_PID || b == BI_GID)
			emit_alu_imm(&g->e, BPF_RSH, R0, 32);	/* r0 >>= 32 */
		else
			emit_alu32_reg(&g->e, BPF_MOV, R0, R0);	/* w0 = w0 */
		cg_store_slot(g, slot, R0);
		break;
	case BI_PPID:
		cg_task_field(g, n, slot, "task_struct.real_parent->tgid");
		break;
	case BI_VTIMESTAMP:
		cg_task_field(g, n, slot, "task_struct.se.sum_exec_runtime");
		break;
	case BI_TIMESTAMP: {
		/* one value for the whole firing, every clause included, as
		 * DTrace's mstate caches it (DTRACE_MSTATE_TIMESTAMP):
		 *	r0 = fp[SLOT_TIMESTAMP] ?: (fp[SLOT_TIMESTAMP] = ktime) */
		int have = emit_new_label(&g->e);

		emit_load(&g->e, 8, R0, R10, SLOT_TIMESTAMP);
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, have);
		emit_call(&g->e, BPF_FUNC_ktime_get_ns);
		emit_store(&g->e, 8, R10, SLOT_TIMESTAMP, R0);
		emit_label(&g->e, have);
		cg_store_slot(g, slot, R0);
		break;
	}
	case BI_WALLTIMESTAMP:
		emit_call(&g->e, BPF_FUNC_ktime_get_ns);
		if (b == BI_WALLTIMESTAMP) {
			emit_ld_map_value(&g->e, R1, MAP_GLOBALS, 0);
			emit_load(&g->e, 8, R1, R1,
				  offsetof(struct globals_hdr, walltime_off));
			emit_alu_reg(&g->e, BPF_ADD, R0, R1);
		}
		cg_store_slot(g, slot, R0);
		break;
	case BI_CURTHREAD:
		cg_cur_task(g);
		cg_store_slot(g, slot, R0);
		break;
	case BI_CPU:
		emit_call(&g->e, BPF_FUNC_get_smp_processor_id);
		cg_store_slot(g, slot, R0);
		break;
	case BI_ERRNO:
		errno_value(g, slot);
		break;
	case BI_EPID:
		emit_mov_imm(&g->e, R0, g->epid);
		cg_store_slot(g, slot, R0);
		break;
	case BI_ID:
		probe_id(g);
		cg_store_slot(g, slot, R0);
		break;
	case BI_NET_INBOUND:
		emit_mov_imm(&g->e, R0, net_inbound(g->cl->probe ? g->cl->probe
							       : g->probe));
		cg_store_slot(g, slot, R0);
		break;
	case BI_CGROUP:
	case BI_ZONENAME:
	case BI_NSPID:
		cg_zone_builtin(g, n, slot, b);
		break;
	case BI_CALLER:
	case BI_STACKDEPTH:
	case BI_UCALLER:
	case BI_USTACKDEPTH:
		cg_stack_builtin(g, n, slot, b == BI_UCALLER || b == BI_USTACKDEPTH,
				 b == BI_CALLER || b == BI_UCALLER);
		break;
	default:	/* arg0..arg9 */
		arg_value(g, slot, b - BI_ARG0);
		break;
	}
	return cg_int_val(slot);
}

/* ---- expressions ---- */

/*
 * String comparison, 8 bytes at a time: both sides are NUL-padded, so the
 * first differing word decides, and byte-swapping it to big-endian makes an
 * unsigned compare lexicographic.  Leaves -1, 0 or 1 in r0.
 */
/* reg = 0 if it is the first word of "" (a NULL string's mark gone):
 *	if (!(reg & 0xff)) reg = 0 */
static void drop_null_mark(struct cg *g, int reg)
{
	int keep = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JSET, reg, 0xff, keep);
	emit_mov_imm(&g->e, reg, 0);
	emit_label(&g->e, keep);
}

/* the string at r9 + off, zeroed, becomes NULL */
void cg_str_set_null(struct cg *g, uint32_t off)
{
	emit_store_imm(&g->e, 1, R9, (int16_t)(off + 1), STR_NULL_MARK);
}

/* the string at r9 + off (in a key) without a NULL string's mark, so that
 * NULL and "" are one key, as they compare equal */
void cg_str_unmark(struct cg *g, uint32_t off)
{
	emit_load(&g->e, 8, R0, R9, (int16_t)off);
	drop_null_mark(g, R0);
	emit_store(&g->e, 8, R9, (int16_t)off, R0);
}

void cg_strcmp_words(struct cg *g, struct val a, struct val b)
{
	uint32_t n = a.size > b.size ? a.size : b.size;
	int diff = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int less = emit_new_label(&g->e);

	for (uint32_t i = 0; i < n; i += 8) {
		if (i < a.size)
			emit_load(&g->e, 8, R1, R9, (int16_t)(a.off + i));
		else
			emit_mov_imm(&g->e, R1, 0);
		if (i < b.size)
			emit_load(&g->e, 8, R2, R9, (int16_t)(b.off + i));
		else
			emit_mov_imm(&g->e, R2, 0);
		if (i == 0) {			/* NULL is "" here, as in DTrace */
			drop_null_mark(g, R1);
			drop_null_mark(g, R2);
		}
		emit_jmp_reg(&g->e, BPF_JNE, R1, R2, diff);
	}
	emit_mov_imm(&g->e, R0, 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, diff);
	emit_insn(&g->e, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,
					    .dst_reg = R1, .imm = 64 });
	emit_insn(&g->e, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,
					    .dst_reg = R2, .imm = 64 });
	emit_jmp_reg(&g->e, BPF_JLT, R1, R2, less);
	emit_mov_imm(&g->e, R0, 1);
	emit_ja(&g->e, done);
	emit_label(&g->e, less);
	emit_mov_imm(&g->e, R0, -1);
	emit_label(&g->e, done);
}

static int cmp_jump(int op, bool is_signed)
{
	switch (op) {
	case OP_EQ: return BPF_JEQ;
	case OP_NE: return BPF_JNE;
	case '<': return is_signed ? BPF_JSLT : BPF_JLT;
	case '>': return is_signed ? BPF_JSGT : BPF_JGT;
	case OP_LE: return is_signed ? BPF_JSLE : BPF_JLE;
	default: return is_signed ? BPF_JSGE : BPF_JGE;
	}
}

/* slot = (r1 op r2) ? 1 : 0 */
static void set_cond(struct cg *g, int16_t slot, int jop)
{
	int yes = emit_new_label(&g->e), done = emit_new_label(&g->e);

	emit_jmp_reg(&g->e, jop, R1, R2, yes);
	emit_mov_imm(&g->e, R0, 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, yes);
	emit_mov_imm(&g->e, R0, 1);
	emit_label(&g->e, done);
	cg_store_slot(g, slot, R0);
}

/*
 * C's usual conversions decide whether an integer comparison is signed:
 * char and short promote to int; of two types of one size the result is
 * unsigned if either is (int and unsigned int: unsigned); otherwise the
 * larger type's signedness wins (a 64-bit signed type holds every
 * unsigned int).
 */
static bool compare_signed(const struct node *n)
{
	const struct dtype *t = &n->a->type, *u = &n->b->type;
	uint32_t ts = t->size < 4 ? 4 : t->size, us = u->size < 4 ? 4 : u->size;
	bool tsg = t->size < 4 || t->is_signed, usg = u->size < 4 || u->is_signed;

	if (ts == us)
		return tsg && usg;
	return ts > us ? tsg : usg;
}

/*
 * uregs[i]: the thread's user registers, as the kernel saved them when it
 * entered (task_pt_regs: the pid provider's own registers, or a system
 * call's caller's); indices 21-25 are task->thread's segment and trap
 * fields, as in Oracle's port:
 *	r0 = bpf_task_pt_regs(bpf_get_current_task_btf())
 *	v = *(u64 *)(r0 + 8 * i)
 * or	v = *(bpf_get_current_task_btf() + offsetof(task_struct, thread.m))
 * Before 5.15 (kcaps.h: task_pt_regs) both are read with
 * bpf_get_current_task and probe_read_kernel; the registers lie where
 * x86-64's task_pt_regs() finds them, at the top of the thread's kernel
 * stack of THREAD_SIZE (16 KiB, without KASAN):
 *	v = *(u64 *)(task->stack + THREAD_SIZE - sizeof(pt_regs) + 8 * i)
 */
static struct val uregs_read(struct cg *g, struct node *n, int16_t slot,
			     const char *path)
{
	struct ktype_field stack, f;

	if (ktype_field("task_struct.stack", &stack) < 0 ||
	    (path && (ktype_field(path, &f) < 0 || f.nhops != 1)))
		diag_fail(g->d, n->line, n->col, "D_KTYPE",
			  "uregs[ ]: kernel type information (BTF) lacks %s",
			  path ? path : "task_struct.stack");
	emit_call(&g->e, BPF_FUNC_get_current_task);
	emit_mov_reg(&g->e, R3, R0);
	if (path) {
		cg_kread(g, slot, (int)f.size, (int32_t)f.off[0]);
		return cg_int_val(slot);
	}
	cg_kread(g, slot, 8, (int32_t)stack.off[0]);
	emit_mov_reg(&g->e, R3, R0);
	cg_kread(g, slot, 8, THREAD_SIZE - PT_REGS_SIZE + 8 * (int32_t)n->sym);
	return cg_int_val(slot);
}

static struct val uregs(struct cg *g, struct node *n)
{
	static const char *const thread[] = { "ds", "es", "fsbase", "gsbase",
					      "trap_nr" };
	int16_t slot = cg_slot_new(g, n);

	if (!kcaps_has(KCAP_TASK_PT_REGS))
		return uregs_read(g, n, slot, n->sym <= 20 ? NULL :
				  arena_printf(g->a, "task_struct.thread.%s",
					       thread[n->sym - 21]));
	emit_call(&g->e, BPF_FUNC_get_current_task_btf);
	if (n->sym <= 20) {
		emit_mov_reg(&g->e, R1, R0);
		emit_call(&g->e, BPF_FUNC_task_pt_regs);
		emit_load(&g->e, 8, R1, R0, (int16_t)(8 * n->sym));
	} else {
		const char *path = arena_printf(g->a, "task_struct.thread.%s",
						thread[n->sym - 21]);
		struct ktype_field f;

		if (ktype_field(path, &f) < 0 || f.nhops != 1)
			diag_fail(g->d, n->line, n->col, "D_KTYPE",
				  "uregs[ ]: kernel type information (BTF) lacks %s",
				  path);
		emit_load(&g->e, (int)f.size, R1, R0, (int16_t)f.off[0]);
	}
	cg_store_slot(g, slot, R1);
	return cg_int_val(slot);
}

static struct val compare(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	struct val a = cg_expr(g, n->a), b = cg_expr(g, n->b);

	if (a.str != b.str) {		/* s == NULL, s != NULL */
		emit_load(&g->e, 1, R1, R9, (int16_t)((a.str ? a : b).off + 1));
		emit_mov_imm(&g->e, R2, STR_NULL_MARK);
		set_cond(g, slot, cmp_jump(n->op, false));
	} else if (a.str) {
		cg_strcmp_words(g, a, b);
		emit_mov_reg(&g->e, R1, R0);
		emit_mov_imm(&g->e, R2, 0);
		set_cond(g, slot, cmp_jump(n->op, true));
	} else {
		cg_load_slot(g, R1, a.slot);
		cg_load_slot(g, R2, b.slot);
		set_cond(g, slot, cmp_jump(n->op, compare_signed(n)));
	}
	g->sp = slot;
	return cg_int_val(slot);
}

/* The jump taken when a comparison is false. */
static int cmp_jump_false(int op, bool is_signed)
{
	static const int neg[] = {
		[OP_EQ] = OP_NE, [OP_NE] = OP_EQ, ['<'] = OP_GE, ['>'] = OP_LE,
		[OP_LE] = '>', [OP_GE] = '<',
	};

	return cmp_jump(neg[op], is_signed);
}

static bool is_int_compare(const struct node *n)
{
	bool cmp = n->op == OP_EQ || n->op == OP_NE || n->op == '<' ||
		   n->op == '>' || n->op == OP_LE || n->op == OP_GE;

	return n->kind == N_BINARY && cmp && n->a->type.kind == T_INT &&
	       n->b->type.kind == T_INT;
}

/*
 * If the last instruction stored a register into slot and no jump lands
 * after it, take the store back and return the register, which still
 * holds the value; else -1.  For a value read only once, at once:
 *	*(u64 *)(fp + slot) = r0; r1 = *(u64 *)(fp + slot)  ->  (r0)
 */
static int unspill(struct cg *g, int16_t slot)
{
	const struct bpf_insn *last = g->e.n ? &g->e.insns[g->e.n - 1] : NULL;

	if (!last || last->code != (BPF_STX | BPF_MEM | BPF_DW) ||
	    last->dst_reg != R10 || last->off != slot)
		return -1;
	for (int i = 0; i < g->e.nlabels; i++)
		if (g->e.label_pos[i] == g->e.n)
			return -1;
	g->e.n--;
	return last->src_reg;
}

/*
 * A predicate that is an integer comparison jumps on it, rather than
 * making 0 or 1 and testing that; against a constant that fits in 32 bits
 * the constant is the jump's immediate (sign-extended by BPF, as the
 * constant's own 64-bit value is):
 *
 *	r1 = a; if (!(r1 op imm)) goto clause_end
 */
static bool predicate_jump(struct cg *g, struct node *pred)
{
	struct val a, b;
	int jop;

	if (!is_int_compare(pred))
		return false;
	jop = cmp_jump_false(pred->op, compare_signed(pred));
	a = cg_expr(g, pred->a);
	if (pred->b->kind == N_INT && pred->b->ival >= INT32_MIN &&
	    pred->b->ival <= INT32_MAX) {
		int r = unspill(g, a.slot);

		if (r < 0)
			cg_load_slot(g, r = R1, a.slot);
		emit_jmp_imm(&g->e, jop, r, (int32_t)pred->b->ival, g->clause_end);
		return true;
	}
	b = cg_expr(g, pred->b);
	cg_load_slot(g, R1, a.slot);
	cg_load_slot(g, R2, b.slot);
	emit_jmp_reg(&g->e, jop, R1, R2, g->clause_end);
	return true;
}

/* r0 = (r0 != 0) */
static void to_bool(struct cg *g)
{
	int done = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, done);
	emit_mov_imm(&g->e, R0, 1);
	emit_label(&g->e, done);
}

/* && and || with C's short circuit; ^^ evaluates both sides */
static struct val logical(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	int done = emit_new_label(&g->e);
	struct val a = cg_expr(g, n->a);

	cg_load_slot(g, R0, a.slot);
	to_bool(g);
	cg_store_slot(g, slot, R0);
	if (n->op == OP_LAND)
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, done);	/* false && ... */
	else if (n->op == OP_LOR)
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, done);	/* true || ... */
	struct val b = cg_expr(g, n->b);

	cg_load_slot(g, R0, b.slot);
	to_bool(g);
	if (n->op == OP_LXOR) {
		cg_load_slot(g, R1, slot);
		emit_alu_reg(&g->e, BPF_XOR, R0, R1);
	}
	cg_store_slot(g, slot, R0);
	emit_label(&g->e, done);
	g->sp = slot;
	return cg_int_val(slot);
}

/* r0 = r0 / r1 or r0 % r1, signed: natively where the kernel can, else
 * from unsigned division (r1 and r2 clobbered) */
static void signed_div(struct cg *g, int op)
{
	if (load_has_sdiv())
		emit_sdiv_reg(&g->e, op, R0, R1);
	else
		emit_sdiv_soft(&g->e, op, R0, R1, R2);
}

void cg_alu_op(struct cg *g, const struct node *n, int op, bool is_signed)
{
	switch (op) {
	case '+': emit_alu_reg(&g->e, BPF_ADD, R0, R1); break;
	case '-': emit_alu_reg(&g->e, BPF_SUB, R0, R1); break;
	case '*': emit_alu_reg(&g->e, BPF_MUL, R0, R1); break;
	case '&': emit_alu_reg(&g->e, BPF_AND, R0, R1); break;
	case '|': emit_alu_reg(&g->e, BPF_OR, R0, R1); break;
	case '^': emit_alu_reg(&g->e, BPF_XOR, R0, R1); break;
	case OP_SHL: emit_alu_reg(&g->e, BPF_LSH, R0, R1); break;
	case OP_SHR:
		emit_alu_reg(&g->e, is_signed ? BPF_ARSH : BPF_RSH, R0, R1);
		break;
	case '/':
	case '%': {
		/* division by zero is a fault (BPF itself would yield 0) */
		int ok = emit_new_label(&g->e);
		int bop = op == '/' ? BPF_DIV : BPF_MOD;

		emit_jmp_imm(&g->e, BPF_JNE, R1, 0, ok);
		cg_fault(g, FLT_DIVZERO, -1);
		emit_label(&g->e, ok);

		if (is_signed)
			signed_div(g, bop);
		else
			emit_alu_reg(&g->e, bop, R0, R1);
		break;
	}
	default:
		diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
			  "operator %d is not supported", op);
	}
}

static struct val arith(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	struct val a = cg_expr(g, n->a), b = cg_expr(g, n->b);

	cg_load_slot(g, R0, a.slot);
	cg_load_slot(g, R1, b.slot);
	if (n->type.kind == T_PTR && n->ival > 1)	/* p + i: scale i */
		emit_alu_imm(&g->e, BPF_MUL,
			     n->a->type.kind == T_PTR ? R1 : R0, (int32_t)n->ival);
	cg_alu_op(g, n, n->op, n->type.is_signed);
	if (n->ival < -1) {	/* p - q: in elements */
		emit_mov_imm(&g->e, R1, (int32_t)-n->ival);
		signed_div(g, BPF_DIV);
	}
	cg_store_slot(g, slot, R0);	/* not narrowed: see cg_expr */
	g->sp = slot;
	return cg_int_val(slot);
}

static struct val binary(struct cg *g, struct node *n)
{
	switch (n->op) {
	case OP_EQ: case OP_NE: case '<': case '>': case OP_LE: case OP_GE:
		return compare(g, n);
	case OP_LAND: case OP_LOR: case OP_LXOR:
		return logical(g, n);
	case ',':
		cg_expr(g, n->a);
		return cg_expr(g, n->b);
	default:
		return arith(g, n);
	}
}

static struct val unary(struct cg *g, struct node *n)
{
	if (n->op == '*')
		return cg_mem_read(g, n);
	if (n->op == '&')
		return n->a->symkind == SYM_NONE ? cg_mem_addr(g, n->a)
						 : cg_var_addr(g, n->a);
	int16_t slot = cg_slot_new(g, n);
	struct val a = cg_expr(g, n->a);

	cg_load_slot(g, R0, a.slot);
	switch (n->op) {
	case '-':
		emit_alu_imm(&g->e, BPF_NEG, R0, 0);
		break;
	case '~':
		emit_alu_imm(&g->e, BPF_XOR, R0, -1);
		break;
	case '!': {
		int zero = emit_new_label(&g->e), done = emit_new_label(&g->e);

		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, zero);
		emit_mov_imm(&g->e, R0, 0);
		emit_ja(&g->e, done);
		emit_label(&g->e, zero);
		emit_mov_imm(&g->e, R0, 1);
		emit_label(&g->e, done);
		break;
	}
	default:	/* unary + */
		break;
	}
	cg_store_slot(g, slot, R0);	/* not narrowed: see cg_expr */
	g->sp = slot;
	return cg_int_val(slot);
}

static struct val ternary(struct cg *g, struct node *n)
{
	int other = emit_new_label(&g->e), done = emit_new_label(&g->e);
	struct val r = { .str = n->type.kind == T_STRING };
	struct val c;

	if (r.str) {
		r.size = cg_round8(n->type.size);
		r.off = cg_temp_new(g, n, r.size);
	} else {
		r.slot = cg_slot_new(g, n);
	}
	int16_t sp = g->sp;
	uint32_t tmp = g->tmp;

	c = cg_expr(g, n->a);
	cg_load_slot(g, R0, c.slot);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, other);
	for (int i = 0; i < 2; i++) {
		struct node *arm = i == 0 ? n->b : n->c;
		struct val v = cg_expr(g, arm);

		if (r.str && !v.str) {		/* a null pointer: NULL */
			cg_zero_words(g, R9, r.off, r.size);
			cg_str_set_null(g, r.off);
		} else if (r.str) {
			cg_copy_words(g, cg_is_str(&n->type), R9, r.off, r.size,
				      R9, v.off, v.size);
		} else {
			cg_load_slot(g, R0, v.slot);
			cg_normalize(g, R0, &n->type);
			cg_store_slot(g, r.slot, R0);
		}
		g->sp = sp;
		g->tmp = tmp;
		if (i == 0) {
			emit_ja(&g->e, done);
			emit_label(&g->e, other);
		}
	}
	emit_label(&g->e, done);
	return r;
}

/* store v into global variable sym, converting to its type */
static struct val cast(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->a);

	if (v.str || n->type.kind == T_STRUCT || n->type.kind == T_ARRAY)
		return v;	/* to its own type: the same bytes */
	cg_load_slot(g, R0, v.slot);
	cg_normalize(g, R0, &n->type);
	cg_store_slot(g, v.slot, R0);
	return v;
}

/* an inline's expression, converted to the inline's declared type */
static struct val inline_value(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->a);

	if (!v.str) {
		cg_load_slot(g, R0, v.slot);
		cg_normalize(g, R0, &n->type);
		cg_store_slot(g, v.slot, R0);
	}
	return v;
}

/* The kernel loads no program over 1M instructions (BPF_COMPLEXITY_LIMIT_
 * INSNS); inlines using inlines ("inline int a2 = a1 + a1;" ...) expand
 * exponentially, and without a cap a 1 KiB script took gigabytes and
 * minutes to compile (found by the fuzzer, tests/fuzz). */
#define CG_MAX_INSNS 1000000

struct val cg_expr(struct cg *g, struct node *n)
{
	diag_check_stack(g->d, n->line, n->col);
	if (g->e.n > CG_MAX_INSNS)
		diag_fail(g->d, n->line, n->col, "D_PROG_SIZE",
			  "program exceeds the kernel's limit of %d BPF "
			  "instructions", CG_MAX_INSNS);
	switch (n->kind) {
	case N_INT: {
		int16_t slot = cg_slot_new(g, n);

		emit_ld_imm64(&g->e, R0, (uint64_t)n->ival);
		cg_store_slot(g, slot, R0);
		return cg_int_val(slot);
	}
	case N_STR:
		return cg_string_const(g, n, n->str, n->type.size);
	case N_IDENT:
		if (n->symkind == SYM_BUILTIN)
			return builtin(g, n);
		if (n->symkind == SYM_INLINE)
			return inline_value(g, n);
		return cg_var_read(g, n);
	case N_MEMBER:
		if (n->symkind == SYM_DVAR || n->symkind == SYM_STATIC)
			return cg_var_read(g, n);
		return cg_mem_read(g, n);
	case N_STRINGOF:
		return cg_stringof(g, n);
	case N_INDEX: {	/* args[N], an associative array, or memory */
		if (n->symkind == SYM_DVAR || n->symkind == SYM_STATIC)
			return cg_var_read(g, n);
		if (n->symkind == SYM_UREGS)
			return uregs(g, n);
		if (n->symkind != SYM_ARGS)
			return cg_mem_read(g, n);
		int16_t slot = cg_slot_new(g, n);

		arg_value(g, slot, n->sym);
		cg_load_slot(g, R0, slot);
		cg_normalize(g, R0, &n->type);
		cg_store_slot(g, slot, R0);
		return cg_int_val(slot);
	}
	case N_UNARY:
		return unary(g, n);
	case N_BINARY:
		return binary(g, n);
	case N_TERNARY:
		return ternary(g, n);
	case N_ASSIGN:
		return cg_var_assign(g, n);
	case N_INCDEC:
		return cg_var_incdec(g, n);
	case N_CAST:
		return cast(g, n);
	case N_XLATE:	/* taken whole: expanded (sema_xlate.c) */
		return n->ival ? cg_xlate_expand(g, n) : cg_expr(g, n->a);
	case N_CALL: {
		struct val v;

		if (cg_kernel_subr(g, n, &v))
			return v;
		return cg_subr_call(g, n);
	}
	default:
		diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
			  "expression kind %d cannot be compiled yet", n->kind);
	}
}

/* slot = the pointer in reg as an integer: spilled and read back through
 * a helper, which the verifier takes as a number -- one that arithmetic
 * with any other number may change, as D's pointers are */
void cg_ptr_number(struct cg *g, const struct node *n, int16_t slot, int reg)
{
	int16_t tmp = cg_slot_new(g, n);

	cg_store_slot(g, tmp, reg);
	cg_fp_ptr(g, R1, slot);
	emit_mov_imm(&g->e, R2, 8);
	cg_fp_ptr(g, R3, tmp);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
}

/* The kernel address of scratch offset off, as an integer. */
void cg_scratch_addr(struct cg *g, const struct node *n, int16_t slot,
		     uint32_t off)
{
	cg_scratch_ptr(g, R0, off);
	cg_ptr_number(g, n, slot, R0);
}

struct val cg_expr_addr(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n);
	int16_t slot;

	if (!v.str)
		return v;
	slot = cg_slot_new(g, n);
	cg_scratch_addr(g, n, slot, v.off);
	return cg_int_val(slot);
}

/* ---- records and actions ---- */

static void record_room(struct cg *g, const struct node *n, uint32_t size)
{
	if (g->rec + size > REC_MAX)
		diag_fail(g->d, n ? n->line : 0, n ? n->col : 0, "D_RECORD_SIZE",
			  "actions of this clause record more than %d bytes",
			  REC_MAX);
}

/* An action inside an if says it ran: *(u64 *)(r9 + ran_off) = 1.  The
 * other path clears the word (if_stmt). */
struct spec_action *cg_new_action(struct cg *g, enum act_kind kind)
{
	struct spec_epid *ep = g->ep;
	struct spec_action *act = ARENA_PUSH(g->a, ep->acts, ep->nacts,
					     g->acts_cap);

	act->kind = kind;
	if (g->branch_depth > 0) {
		record_room(g, NULL, 8);
		act->ran_off = g->rec;
		emit_store_imm(&g->e, 8, R9, (int16_t)g->rec, 1);
		g->rec += 8;
	}
	return act;
}

/* The size bytes at the address in addr_slot, copied into the record at
 * its next free offset (which is returned); a bad address is a fault. */
uint32_t cg_record_bytes(struct cg *g, const struct node *n,
			     int16_t addr_slot, uint32_t size)
{
	uint32_t off = g->rec;
	int ok = emit_new_label(&g->e);

	if (off + size > REC_MAX)
		diag_fail(g->d, n->line, n->col, "D_RECORD_SIZE",
			  "actions of this clause record more than %d bytes",
			  REC_MAX);
	cg_scratch_ptr(g, R1, off);
	emit_mov_imm(&g->e, R2, (int32_t)size);
	cg_load_slot(g, R3, addr_slot);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, ok);
	cg_load_slot(g, R8, addr_slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, ok);
	g->rec += cg_round8(size);
	return off;
}

/* Put v in the record at the next free offset; returns its field.  A
 * struct, union or floating-point value is its address in the program
 * (cg_var.c); the record holds its bytes, as DTrace's does for a value
 * passed by reference, for trace() and printf("%f") to print. */
/* A NULL string recorded (traced, printed, passed to system()) is an
 * invalid address, 0, as DTrace's dt_cg_store_val checks it:
 *	if (*(u16 *)(r9 + off) == STR_NULL_MARK << 8) fault(BADADDR, 0) */
static void check_str_not_null(struct cg *g, struct val v)
{
	int ok = emit_new_label(&g->e);

	emit_load(&g->e, 2, R0, R9, (int16_t)v.off);
	emit_jmp_imm(&g->e, BPF_JNE, R0, STR_NULL_MARK << 8, ok);
	cg_fault(g, FLT_BADADDR, -1);
	emit_label(&g->e, ok);
}

struct spec_field cg_record_val(struct cg *g, const struct node *n,
				    struct val v)
{
	struct spec_field f = { .off = g->rec, .type = n->type };
	uint32_t size = v.str ? v.size : 8;

	if (!v.str && n->type.kind == T_STRUCT) {
		f.off = cg_record_bytes(g, n, v.slot, n->type.size);
		return f;
	}
	record_room(g, n, size);
	if (v.str) {
		bool str = cg_is_str(&n->type);

		if (str)
			check_str_not_null(g, v);
		cg_copy_words(g, str, R9, g->rec, size, R9, v.off, v.size);
		f.type.size = v.size;
	} else {
		cg_load_slot(g, R0, v.slot);
		cg_normalize(g, R0, &n->type);
		emit_store(&g->e, 8, R9, (int16_t)g->rec, R0);
	}
	g->rec += size;
	return f;
}

void cg_record_args(struct cg *g, struct spec_action *act,
			struct node_list *args, int first)
{
	act->nfields = args->n - first;
	act->fields = arena_alloc(g->a, sizeof(*act->fields) *
					       (size_t)(act->nfields + 1));
	for (int i = first; i < args->n; i++) {
		struct val v = cg_expr(g, args->v[i]);

		act->fields[i - first] = cg_record_val(g, args->v[i], v);
	}
}

void cg_agg_list(struct cg *g, struct spec_action *act,
		     struct node_list *args, int first, int last)
{
	act->naggs = last - first;
	act->aggs = arena_alloc(g->a, sizeof(int) * (size_t)(act->naggs + 1));
	for (int i = first; i < last; i++)
		act->aggs[i - first] = args->v[i]->sym;
}

static void action(struct cg *g, struct node *n)
{
	const char *f = n->str;
	struct spec_action *act;

	if (strcmp(f, "printf") == 0 || strcmp(f, "system") == 0 ||
	    strcmp(f, "freopen") == 0) {
		act = cg_new_action(g, f[0] == 'p' ? ACT_PRINTF
				       : f[0] == 's' ? ACT_SYSTEM : ACT_FREOPEN);
		act->fmt = n->cg;
		if (fmt_names_uaddr(act->fmt))	/* %A: the target's maps */
			g->spec->user_stacks = true;
		cg_record_args(g, act, &n->args, 1);
	} else if (strcmp(f, "trace") == 0) {
		act = cg_new_action(g, ACT_TRACE);
		cg_record_args(g, act, &n->args, 0);
	} else if (strcmp(f, "exit") == 0) {
		act = cg_new_action(g, ACT_EXIT);
		cg_record_args(g, act, &n->args, 0);
		/* stop every probe: the prologue checks the state; the
		 * status is kept there too, should the record be dropped */
		emit_ld_map_value(&g->e, R1, MAP_GLOBALS, 0);
		emit_load(&g->e, 8, R0, R9, (int16_t)act->fields[0].off);
		emit_store(&g->e, 8, R1, offsetof(struct globals_hdr, exit_status),
			   R0);
		emit_mov_imm(&g->e, R0, 1);
		emit_store(&g->e, 8, R1, offsetof(struct globals_hdr, state), R0);
		/* and wake the consumer now: the principal buffers wake it
		 * only a quarter full (consume.c)
		 *	bpf_ringbuf_output(&wake, &zero, 8, BPF_RB_FORCE_WAKEUP) */
		cg_ld_map(g, R1, MAP_WAKE);
		cg_fp_ptr(g, R2, SLOT_ZERO);
		emit_mov_imm(&g->e, R3, 8);
		emit_mov_imm(&g->e, R4, BPF_RB_FORCE_WAKEUP);
		emit_call(&g->e, BPF_FUNC_ringbuf_output);
		g->may_exit = true;
	} else if (!cg_agg_action(g, n) && !cg_spec_action(g, n) &&
		   !cg_data_action(g, n)) {
		cg_subr_call(g, n);
	}
}

/* ---- statements and clauses ---- */

static void stmt(struct cg *g, struct node *n);

static void stmts(struct cg *g, struct node_list *l)
{
	for (int i = 0; i < l->n; i++)
		stmt(g, l->v[i]);
}

/* The actions from..to-1 did not run on this path: clear their words. */
static void not_ran(struct cg *g, int from, int to)
{
	for (int i = from; i < to; i++)
		if (g->ep->acts[i].ran_off)
			emit_store_imm(&g->e, 8, R9,
				       (int16_t)g->ep->acts[i].ran_off, 0);
}

/*
 * if (c) then-body else else-body.  Both bodies' actions have room in the
 * clause's one record; each path clears the ran words of the other's:
 *
 *	if (!c) goto other
 *	then-body			(its actions set their words)
 *	goto then_done
 * other:
 *	clear the then-body's words
 *	else-body
 *	goto done
 * then_done:
 *	clear the else-body's words
 * done:
 */
static void if_stmt(struct cg *g, struct node *n)
{
	int other = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int then_done = emit_new_label(&g->e);
	int16_t sp = g->sp;
	struct val c = cg_expr(g, n->a);
	int first = g->ep->nacts;

	cg_load_slot(g, R0, c.slot);
	g->sp = sp;
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, other);
	g->branch_depth++;
	stmts(g, &n->body);
	int mid = g->ep->nacts;

	emit_ja(&g->e, then_done);
	emit_label(&g->e, other);
	not_ran(g, first, mid);
	stmts(g, &n->else_body);
	emit_ja(&g->e, done);
	emit_label(&g->e, then_done);
	not_ran(g, mid, g->ep->nacts);
	emit_label(&g->e, done);
	g->branch_depth--;
}

static void stmt(struct cg *g, struct node *n)
{
	int16_t sp = g->sp;
	uint32_t tmp = g->tmp;

	switch (n->kind) {
	case S_EXPR:
		if (n->a->kind == N_CALL)
			action(g, n->a);
		else
			cg_expr(g, n->a);
		break;
	case S_AGG:
		cg_agg_stmt(g, n);
		break;
	case S_IF:
		if_stmt(g, n);
		break;
	case S_BLOCK:
		stmts(g, &n->body);
		break;
	default:
		break;
	}
	g->sp = sp;
	g->tmp = tmp;
}

/*
 * bufpolicy=fill (globals->fill_limit set): a CPU's principal buffer takes
 * records until the next would pass the limit, in perf sample bytes
 * (rt/bufpolicy.h); from then on records are refused, in BPF, and counted
 * in fill_refused, which tells the consumer this CPU is full.  Refusing
 * here keeps a full CPU from flooding its perf ring until tracing stops.
 *
 *	if (!(r1 = globals->fill_limit)) goto write
 *	if (!(r0 = &drops[this cpu])) goto write
 *	r2 = r0->fill_bytes + cost
 *	if (r2 > globals->fill_limit) { r0->fill_refused++; goto skip }
 *	r0->fill_bytes = r2
 * write:
 */
static void fill_room(struct cg *g, int skip)
{
	int write = emit_new_label(&g->e), refuse = emit_new_label(&g->e);
	uint32_t limit = offsetof(struct globals_hdr, fill_limit);
	int16_t bytes = offsetof(struct drop_counts, fill_bytes);
	int16_t refused = offsetof(struct drop_counts, fill_refused);

	emit_ld_map_value(&g->e, R1, MAP_GLOBALS, limit);
	emit_load(&g->e, 8, R1, R1, 0);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, write);
	cg_ld_map(g, R1, MAP_DROPS);
	cg_fp_ptr(g, R2, SLOT_ZERO);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, write);
	emit_ld_map_value(&g->e, R1, MAP_GLOBALS, limit);
	emit_load(&g->e, 8, R1, R1, 0);
	emit_load(&g->e, 8, R2, R0, bytes);
	emit_alu_imm(&g->e, BPF_ADD, R2, (int32_t)bufpolicy_cost(g->rec));
	emit_jmp_reg(&g->e, BPF_JGT, R2, R1, refuse);
	emit_store(&g->e, 8, R0, bytes, R2);
	emit_ja(&g->e, write);
	emit_label(&g->e, refuse);
	emit_load(&g->e, 8, R1, R0, refused);
	emit_alu_imm(&g->e, BPF_ADD, R1, 1);
	emit_store(&g->e, 8, R0, refused, R1);
	emit_ja(&g->e, skip);
	emit_label(&g->e, write);
}

/* Write the clause's record: header, then one perf event output. */
static void emit_record(struct cg *g)
{
	int ok = emit_new_label(&g->e);

	fill_room(g, ok);
	emit_mov_imm(&g->e, R0, g->epid);
	emit_store(&g->e, 4, R9, 0, R0);		/* rec->epid */
	probe_id(g);
	emit_store(&g->e, 4, R9, 4, R0);		/* rec->probe_id */
	if (g->ring_map >= 0) {
		int full = emit_new_label(&g->e);

		sbuf_output(g, 0, g->rec, full);
		emit_ja(&g->e, ok);
		emit_label(&g->e, full);
	} else {
		emit_mov_reg(&g->e, R1, R6);
		cg_ld_map(g, R2, MAP_BUF);
		emit_alu32_imm(&g->e, BPF_MOV, R3, -1);	/* BPF_F_CURRENT_CPU */
		emit_mov_reg(&g->e, R4, R9);
		if (g->strs_n)	/* -x record: the string slots filled */
			cg_record_size(g);
		else
			emit_mov_imm(&g->e, R5, (int32_t)g->rec);
		emit_call(&g->e, BPF_FUNC_perf_event_output);
		emit_jmp_imm(&g->e, BPF_JSGE, R0, 0, ok);
	}
	cg_count_drop(g, offsetof(struct drop_counts, buf));
	emit_label(&g->e, ok);
}

static bool records_data(const struct node_list *body)
{
	for (int i = 0; i < body->n; i++) {
		const struct node *n = body->v[i];

		if (n->kind == S_EXPR && n->a->kind == N_CALL)
			return true;
		if ((n->kind == S_IF || n->kind == S_BLOCK) &&
		    (records_data(&n->body) || records_data(&n->else_body)))
			return true;
	}
	return false;
}

/*
 * r9, this firing's scratch area: the area of the next nesting level
 * (SCRATCH_LEVELS in spec.h), taken once a firing:
 *	if (SLOT_NEST) goto have
 *	r0 = lookup(nest, &zero); if (!r0) goto out
 *	lock *r0 += 1; r1 = *r0 - 1; SLOT_NEST = r0; SLOT_LEVEL = r1
 *	if (r1 >= SCRATCH_LEVELS) { drops.nested++; goto out }
 * have:
 *	r9 = lookup(scratch, &SLOT_LEVEL); if (!r9) goto out
 * The level is taken by a lock add and a load, not a fetch-and-add,
 * which kernels before 5.12 lack: as exact, since the programs on one
 * CPU nest, and one that interrupts between the add and the load has
 * given its level back (epilogue) before this one goes on.
 * or in a sleepable program, the thread's own, made at its first firing:
 *	r9 = task_storage_get(&tscratch, current, NULL, F_CREATE)
 *	if (!r9) goto out
 */
static void scratch_lookup(struct cg *g)
{
	if (g->sleepable) {
		emit_call(&g->e, BPF_FUNC_get_current_task_btf);
		emit_mov_reg(&g->e, R2, R0);
		cg_ld_map(g, R1, g->spec->tscratch_map);
		emit_mov_imm(&g->e, R3, 0);
		emit_mov_imm(&g->e, R4, BPF_LOCAL_STORAGE_GET_F_CREATE);
		emit_call(&g->e, BPF_FUNC_task_storage_get);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
		emit_mov_reg(&g->e, R9, R0);
		return;
	}
	int have = emit_new_label(&g->e), deep = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	/* one level a firing, whichever clause looks first */
	emit_load(&g->e, 8, R0, R10, SLOT_NEST);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, have);
	cg_ld_map(g, R1, MAP_NEST);
	cg_fp_ptr(g, R2, SLOT_ZERO);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_imm(&g->e, R1, 1);
	emit_atomic_add(&g->e, R0, 0, R1);
	emit_load(&g->e, 8, R1, R0, 0);
	emit_alu_imm(&g->e, BPF_SUB, R1, 1);
	emit_store(&g->e, 8, R10, SLOT_NEST, R0);
	emit_store(&g->e, 8, R10, SLOT_LEVEL, R1);
	emit_jmp_imm(&g->e, BPF_JGE, R1, SCRATCH_LEVELS, deep);
	emit_label(&g->e, have);
	cg_ld_map(g, R1, MAP_SCRATCH);
	cg_fp_ptr(g, R2, SLOT_LEVEL);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_reg(&g->e, R9, R0);
	emit_ja(&g->e, done);
	emit_label(&g->e, deep);
	cg_count_drop(g, offsetof(struct drop_counts, nested));
	emit_ja(&g->e, g->out);
	emit_label(&g->e, done);
}

/*
 * The program's exit gives back the level its firing took:
 *	out: r1 = SLOT_NEST; if (r1) atomic *r1 -= 1
 *	bare: r0 = 0; exit
 * A firing a sys_late program rejects before its first clause's lookup
 * has taken nothing, and has not even zeroed SLOT_NEST: it leaves by
 * bare (early_out).
 */
static void epilogue(struct cg *g)
{
	int none = emit_new_label(&g->e);

	emit_label(&g->e, g->out);
	emit_load(&g->e, 8, R1, R10, SLOT_NEST);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, none);
	emit_mov_imm(&g->e, R2, -1);
	emit_atomic_add(&g->e, R1, 0, R2);
	emit_label(&g->e, none);
	emit_label(&g->e, g->bare);
	emit_mov_imm(&g->e, R0, 0);
	emit_exit(&g->e);
}

/* The probes stop when exit() was called or the session ends:
 *	if (globals.state) goto out */
static void state_test(struct cg *g)
{
	emit_ld_map_value(&g->e, R1, MAP_GLOBALS, 0);
	emit_load(&g->e, 8, R0, R1, offsetof(struct globals_hdr, state));
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
}

/* Where a firing leaves before its level is taken: bare in a sys_late
 * program, which zeroes SLOT_NEST only then (firing_lookup). */
static int early_out(const struct cg *g)
{
	return g->sys_late >= 0 ? g->bare : g->out;
}

/* The slots every firing starts with (firing_lookup's when sys_late) */
static void zero_slots(struct cg *g)
{
	emit_store_imm(&g->e, 8, R10, SLOT_ZERO, 0);
	emit_store_imm(&g->e, 8, R10, SLOT_TIMESTAMP, 0);
	if (g->c->record)
		emit_store_imm(&g->e, 8, R10, SLOT_RECORDED, 0);
}

/*
 * What a firing that runs a clause needs: r9, and r7, the test of the
 * state and the zeroed slots when the prologue left them for later
 * (sys_prologue: a program of one syscall tests the number, and only a
 * firing its predicate takes goes on).  A predicate that runs before
 * them reads only the pid, the tid and constants: it has no effect, and
 * ending the run does not wait for it.
 *	SLOT_NEST = 0				(sys_late)
 *	if (globals.state) goto out		(sys_late)
 *	SLOT_ZERO = 0; SLOT_TIMESTAMP = 0	(sys_late)
 *	r9 = lookup(scratch, &zero); if (!r9) goto out
 *	*(u32 *)(fp + first) = nr; r7 = lookup(sysinfo, fp + first)
 *	if (!r7) goto out
 */
static void firing_lookup(struct cg *g)
{
	if (g->sys_late >= 0) {	/* one clause: once a firing */
		emit_store_imm(&g->e, 8, R10, SLOT_NEST, 0);	/* epilogue() */
		state_test(g);
		zero_slots(g);
	}
	scratch_lookup(g);
	if (g->sys_late < 0)
		return;
	emit_store_imm(&g->e, 4, R10, SLOT_FIRST, g->sys_late);
	cg_ld_map(g, R1, MAP_SYSINFO);
	cg_fp_ptr(g, R2, SLOT_FIRST);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_reg(&g->e, R7, R0);
}

/*
 * A predicate that can run before the scratch lookup: integer constants,
 * pid and tid, and operators on them but division.  A list of what is
 * known not to touch r9, rather than a search for what does; predicate()
 * checks the instructions too.
 */
static bool scratch_free(const struct node *n)
{
	switch (n->kind) {
	case N_INT:
		return true;
	case N_IDENT:
		return !strcmp(n->str, "pid") || !strcmp(n->str, "tid");
	case N_UNARY:
		return (n->op == '!' || n->op == '-' || n->op == '~') &&
		       scratch_free(n->a);
	case N_BINARY:	/* a division may fault, and a fault is recorded */
		return n->op != ',' && n->op != '/' && n->op != '%' &&
		       scratch_free(n->a) && scratch_free(n->b);
	default:
		return false;
	}
}

/*
 *	if (!pred) goto clause_end
 * with the scratch lookup before it, or after it when the predicate needs
 * no scratch and the lookup is still to do.  In that case the paths that
 * skip the clause have no r9, and the next clause looks it up again.
 */
static void predicate(struct cg *g, const struct node *pred)
{
	bool defer = !g->have_scratch && scratch_free(pred);
	int start = g->e.n, end = g->clause_end;

	if (!defer && !g->have_scratch) {
		firing_lookup(g);
		g->have_scratch = true;
	}
	if (defer && g->sys_late >= 0)
		g->clause_end = g->bare;	/* the only clause, nothing taken */
	if (!predicate_jump(g, (struct node *)pred)) {
		struct val v = cg_expr(g, (struct node *)pred);

		cg_load_slot(g, R0, v.slot);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->clause_end);
	}
	g->clause_end = end;
	for (int i = start; defer && i < g->e.n; i++)
		if (g->e.insns[i].dst_reg == R9 || g->e.insns[i].src_reg == R9 ||
		    (g->sys_late >= 0 && (g->e.insns[i].dst_reg == R7 ||
					  g->e.insns[i].src_reg == R7)))
			diag_fail(g->d, pred->line, pred->col, "D_INTERNAL",
				  "predicate read the scratch area before its lookup");
	if (defer)
		firing_lookup(g);
}

void cg_emit_clause(struct cg *g, const struct cg_clause *cc)
{
	struct clause *c = cc->clause;
	struct spec *sp = g->spec;

	g->cl = cc;
	if (!cg_error_epid(g, cc)) {
		g->ep = ARENA_PUSH(g->a, sp->epids, sp->nepids, g->c->epids_cap);
		g->ep->clause = c->id;
		g->epid = sp->nepids - 1;
	}
	g->fault_label = 0;
	g->acts_cap = 0;
	g->rec = REC_HDR;
	g->sp = SLOT_FIRST + 8;
	g->tmp = g->tmp_base;
	g->clause_end = emit_new_label(&g->e);
	g->action = 0;
	g->alloca_top = 0;

	/* After exit(), DTrace runs no further clause of the firing (END's
	 * excepted: they run while the session ends; and ERROR's, which
	 * report a fault that happened before):
	 *	if (globals.state) goto out */
	if (g->may_exit && g->att != ATTACH_END && g->att != ATTACH_ERROR) {
		emit_ld_map_value(&g->e, R1, MAP_GLOBALS, 0);
		emit_load(&g->e, 8, R0, R1, offsetof(struct globals_hdr, state));
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
	}

	/* strtok(NULL, d) has nothing to go on from when the firing starts:
	 * state.pos = -1, before any clause can be skipped */
	if (cc == g->strtok_first) {
		if (!g->have_scratch)
			firing_lookup(g);
		g->have_scratch = true;
		emit_store_imm(&g->e, 8, R9, (int16_t)g->strtok_off, -1);
	}
	/* A syscall program of one clause: the prologue's test of the mask
	 * was this clause's. */
	if (cc->mask_bit >= 0 && !(is_sys(g) && g->nclauses == 1)) {
		/* if (!(sysinfo->mask >> bit & 1)) skip this clause */
		emit_load(&g->e, 8, R1, R7,
			  is_uprobe(g) ? offsetof(struct uprobe_entry, mask)
			  : g->att == ATTACH_SYS_ENTER
				  ? offsetof(struct sysinfo_entry, entry_mask)
				  : offsetof(struct sysinfo_entry, return_mask));
		if (cc->mask_bit > 0)
			emit_alu_imm(&g->e, BPF_RSH, R1, cc->mask_bit);
		emit_alu_imm(&g->e, BPF_AND, R1, 1);
		emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, g->clause_end);
	}
	/* r9 at the clause's end: had before it, or looked up before its
	 * first jump there */
	bool after = g->have_scratch || (cc->mask_bit < 0 && !c->pred);
	uint32_t tmp_base = g->tmp_base;

	if (c->pred) {
		predicate(g, c->pred);
		g->sp = SLOT_FIRST + 8;
		g->tmp = g->tmp_base;
	} else if (!g->have_scratch) {
		firing_lookup(g);
	}
	g->have_scratch = true;
	/* recording, an empty clause's firing is kept, not printed; BEGIN,
	 * END and ERROR are not recorded (cg_record.c) and print as live */
	if (c->body.n == 0 && (!g->c->record || g->att == ATTACH_BEGIN ||
			       g->att == ATTACH_END || g->att == ATTACH_ERROR))
		cg_new_action(g, ACT_DEFAULT);
	cg_spec_clause_begin(g, &c->body);
	for (int i = 0; i < c->body.n; i++) {
		g->action = i + 1;
		stmt(g, c->body.v[i]);
	}
	cg_spec_clause_end(g);
	if (g->c->record)
		cg_record_firing(g);
	if (g->ep->nacts > 0 || records_data(&c->body)) {
		emit_record(g);
		g->ep->end = g->att == ATTACH_END;
	}
	g->ep->size = g->rec;
	if (g->fault_label)
		cg_error_run(g);
	emit_label(&g->e, g->clause_end);
	g->have_scratch = after;
	g->tmp_base = tmp_base;
	cg_error_epid_done(g, cc);
}

/*
 * proc:::start, lwp-start and exec-failure ride raw_syscalls' sys_exit:
 * a fork child's first instruction in user space is the return from the
 * clone that made it, in its own context, with 0 -- the one place Linux
 * shows a new process or thread starting.
 *
 *	nr = regs->orig_ax
 *	EXEC_*:       if (nr != execve && nr != execveat) goto out
 *	EXEC_FAILED:  if ((s64)ctx->args[1] >= 0) goto out
 *	START_*:      if (nr not in clone fork vfork clone3) goto out
 *	              if (ctx->args[1] != 0) goto out
 *	              id = pid_tgid; if ((id >> 32 == (u32)id) != PROCESS) goto out
 */
/*
 * proc:::exec, on a kernel without sched_prepare_exec (stable.c), is
 * every attempt to exec, at sys_enter of execve or execveat (its args:
 * regs, id) -- before the attempt succeeds or fails, as DTrace's fires:
 *
 *	if (ctx->args[1] != execve && ctx->args[1] != execveat) goto out
 */
static void guard_sys_enter_exec(struct cg *g)
{
	int hit = emit_new_label(&g->e);

	emit_load(&g->e, 8, R0, R6, 8);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 59, hit);		/* x86-64 */
	emit_jmp_imm(&g->e, BPF_JNE, R0, 322, g->out);
	emit_label(&g->e, hit);
}

static void guard_sys_exit(struct cg *g, int kind)
{
	static const int32_t exec_nrs[] = { 59, 322 };		/* x86-64 */
	static const int32_t fork_nrs[] = { 56, 57, 58, 435 };
	bool exec = kind == GUARD_EXEC_FAILED || kind == GUARD_EXEC_EXIT;
	const int32_t *nrs = exec ? exec_nrs : fork_nrs;
	int n = exec ? 2 : 4, hit = emit_new_label(&g->e);

	sys_regs_word(g, SLOT_FIRST, PT_REGS_ORIG_AX);
	for (int i = 0; i < n; i++)
		emit_jmp_imm(&g->e, BPF_JEQ, R0, nrs[i], hit);
	emit_ja(&g->e, g->out);
	emit_label(&g->e, hit);
	if (kind == GUARD_EXEC_EXIT)
		return;
	emit_load(&g->e, 8, R0, R6, 8);
	if (exec) {
		emit_jmp_imm(&g->e, BPF_JSGE, R0, 0, g->out);
		return;
	}
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
	emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
	emit_mov_reg(&g->e, R1, R0);
	emit_alu_imm(&g->e, BPF_RSH, R1, 32);
	emit_alu_imm(&g->e, BPF_LSH, R0, 32);
	emit_alu_imm(&g->e, BPF_RSH, R0, 32);
	emit_jmp_reg(&g->e, kind == GUARD_START_PROCESS ? BPF_JNE : BPF_JEQ,
		     R0, R1, g->out);
}

/*
 * sched_switch(preempt, prev, next, prev_state) is sleep when prev blocks
 * -- not preempted and no longer TASK_RUNNING, so it leaves the run queue
 * -- and preempt otherwise: prev stays runnable.  Before 5.18 TP_PROTO
 * has no prev_state (the argument must not be read then: the kernel
 * would refuse to attach), and prev's own state word, which __schedule
 * has not changed yet, says it.
 *
 *	state = ctx->args[3], or *(u32 *)&ctx->args[1]->__state (or ->state)
 *	SLEEP:    if (ctx->args[0] & 0xff || !state) goto out
 *	PREEMPT:  if (!(ctx->args[0] & 0xff) && state) goto out
 */
static int32_t task_state_off(struct cg *g)
{
	struct ktype_field st;

	if (ktype_field("task_struct.__state", &st) < 0 &&
	    ktype_field("task_struct.state", &st) < 0)
		diag_fail(g->d, 0, 0, "D_KTYPE", "sched:::sleep and preempt need "
			  "the kernel's BTF type information");
	return (int32_t)st.off[0];
}

static void guard_switch(struct cg *g, int kind)
{
	int pass = emit_new_label(&g->e);

	if (g->probe->tp_nargs < 4) {
		emit_load(&g->e, 8, R3, R6, 8);
		cg_kread(g, SLOT_FIRST, 4, task_state_off(g));
		emit_mov_reg(&g->e, R1, R0);
	} else {
		emit_load(&g->e, 8, R1, R6, 24);
	}
	emit_load(&g->e, 8, R0, R6, 0);
	emit_alu_imm(&g->e, BPF_AND, R0, 0xff);		/* a bool */
	emit_alu_imm(&g->e, BPF_LSH, R1, 32);		/* unsigned int */
	if (kind == GUARD_SLEEP) {
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
		emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, g->out);
		return;
	}
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, pass);
	emit_jmp_imm(&g->e, BPF_JNE, R1, 0, g->out);
	emit_label(&g->e, pass);
}

/*
 * proc:::exit is the exit of a process's last thread.  Where
 * sched_process_exit passes group_dead, that says it; where its TP_PROTO
 * has the task alone, do_exit() has already counted the thread out of
 * signal->live before the tracepoint, so the last one leaves it 0.  (The
 * argument must not be read where TP_PROTO lacks it: the kernel would
 * refuse to attach the program.)
 *	if (!(ctx->args[1] & 0xff)) goto out           group_dead passed
 *	if (ctx->args[0]->signal->live.counter) goto out   task alone
 */
static void guard_group_dead(struct cg *g)
{
	struct ktype_field sig, live;

	if (g->probe->tp_nargs >= 2) {
		emit_load(&g->e, 8, R0, R6, 8);
		emit_alu_imm(&g->e, BPF_AND, R0, 0xff);		/* a bool */
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
		return;
	}
	if (ktype_field("task_struct.signal", &sig) < 0 ||
	    ktype_field("signal_struct.live", &live) < 0)
		diag_fail(g->d, 0, 0, "D_KTYPE", "proc:::exit needs the kernel's "
			  "BTF type information");
	emit_load(&g->e, 8, R3, R6, 0);
	cg_kread(g, SLOT_FIRST, 8, (int32_t)sig.off[0]);
	emit_mov_reg(&g->e, R3, R0);
	cg_kread(g, SLOT_FIRST, 4, (int32_t)live.off[0]);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
}

/*
 * Probes sharing a tracepoint take only their own firings (catalog.h):
 *
 *	guard_group_dead()                           GUARD_GROUP_DEAD
 *	if (ctx->args[0] & 0xff) goto out            GUARD_NO_ARG0
 *	child = ctx->args[1]                         GUARD_CHILD_*
 *	if ((child->pid == child->tgid) != PROCESS) goto out
 */
static void guard(struct cg *g)
{
	struct ktype_field pid, tgid;

	switch (g->probe->guard) {
	case GUARD_GROUP_DEAD:
		guard_group_dead(g);
		return;
	case GUARD_NO_ARG0:
		emit_load(&g->e, 8, R0, R6, 0);
		emit_alu_imm(&g->e, BPF_AND, R0, 0xff);		/* a bool */
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
		return;
	case GUARD_SLEEP:
	case GUARD_PREEMPT:
		guard_switch(g, g->probe->guard);
		return;
	case GUARD_EXEC_ENTER:
		guard_sys_enter_exec(g);
		return;
	case GUARD_EXEC_FAILED:
	case GUARD_EXEC_EXIT:
	case GUARD_START_PROCESS:
	case GUARD_START_THREAD:
		guard_sys_exit(g, g->probe->guard);
		return;
	case GUARD_CHILD_PROCESS:
	case GUARD_CHILD_THREAD:
		if (ktype_field("task_struct.pid", &pid) < 0 ||
		    ktype_field("task_struct.tgid", &tgid) < 0)
			diag_fail(g->d, 0, 0, "D_KTYPE", "%s:::%s needs the kernel's "
				  "BTF type information", g->probe->prov,
				  g->probe->name);
		emit_load(&g->e, 8, R3, R6, 8);
		cg_kread(g, SLOT_FIRST, 4, (int32_t)pid.off[0]);
		emit_mov_reg(&g->e, R7, R0);	/* r7 is free outside SYS */
		emit_load(&g->e, 8, R3, R6, 8);
		cg_kread(g, SLOT_FIRST, 4, (int32_t)tgid.off[0]);
		emit_jmp_reg(&g->e, g->probe->guard == GUARD_CHILD_PROCESS
					    ? BPF_JNE : BPF_JEQ, R0, R7, g->out);
		return;
	default:
		cg_net_guard(g);
		return;
	}
}

/*
 *	r6 = r1                       ctx
 *	*(u64 *)(fp - 8) = 0          the zero key
 *	if (globals.state) goto out   exit() was called
 *	SYS: r7 = lookup(sysinfo, &nr)
 *	pid, usdt: r7 = lookup(uprobes, &cookie)
 *	others: r9 = lookup(scratch, &zero)   (SYS, pid, usdt: in clause())
 */
/* The one syscall whose entry probe the program serves, or -1. */
static int32_t only_syscall(const struct cg *g)
{
	int32_t nr = -1;

	for (uint32_t i = 0; i < g->spec->nsysinfo; i++)
		if (g->spec->sysinfo[i].entry_mask) {
			if (nr >= 0)
				return -1;
			nr = (int32_t)i;
		}
	return nr;
}

/*
 * The syscall programs run for every system call of the machine: find
 * this syscall's entry, and leave at once -- before anything else -- when
 * no clause wants it.
 *	r7 = lookup(sysinfo, &nr); if (!r7 || !r7->mask) goto out
 * A program of one clause on the entry of one syscall compares the number
 * instead, and a predicate runs before the entry is looked up
 * (firing_lookup): a firing it rejects costs three instructions more than
 * the predicate.
 *	if (ctx->args[1] != nr) goto out
 */
static void sys_prologue(struct cg *g)
{
	bool entry = g->att == ATTACH_SYS_ENTER;

	if (g->sys_late >= 0) {
		emit_load(&g->e, 8, R0, R6, 8);		/* ctx->args[1]: id */
		emit_jmp_imm(&g->e, BPF_JNE, R0, g->sys_late, g->bare);
		return;
	}
	if (entry) {
		emit_load(&g->e, 8, R0, R6, 8);		/* ctx->args[1]: id */
		cg_store_slot(g, SLOT_FIRST, R0);
	} else {
		sys_regs_word(g, SLOT_FIRST, PT_REGS_ORIG_AX);
	}
	cg_ld_map(g, R1, MAP_SYSINFO);
	cg_fp_ptr(g, R2, SLOT_FIRST);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_reg(&g->e, R7, R0);
	emit_load(&g->e, 8, R1, R7,
		  entry ? offsetof(struct sysinfo_entry, entry_mask)
			: offsetof(struct sysinfo_entry, return_mask));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, g->out);
}

/* The one uprobe site attached to this program, or -1 if there are more. */
static int only_site(const struct cg *g)
{
	int k = -1;

	for (int i = 0; i < g->spec->nuprobes; i++)
		if (g->spec->uprobes[i].att == g->att) {
			if (k >= 0)
				return -1;
			k = i;
		}
	return k;
}

/* Whether the kernel gives this program the cookie its probe was
 * attached with: through a multi link, a BPF link on a perf event
 * (5.15+), or on a trampoline (6.0+). */
static bool has_cookies(const struct cg *g)
{
	bool kprobe = g->att == ATTACH_KPROBE || g->att == ATTACH_KRETPROBE;

	if (g->att == ATTACH_FENTRY || g->att == ATTACH_FEXIT)
		return kcaps_has(KCAP_FENTRY_COOKIE);
	return kcaps_has(kprobe ? KCAP_KPROBE_MULTI : KCAP_UPROBE_MULTI) ||
	       (kcaps_has(KCAP_PERF_LINK) && kcaps_has(KCAP_ATTACH_COOKIE));
}

/*
 * A pid program serves many probes: the cookie it was attached with
 * names the one that fired.
 *	r7 = lookup(uprobes, &(u32)bpf_get_attach_cookie(ctx))
 *	if (!r7) goto out
 * A program with one site knows it: the key is a constant, the cookie
 * helper is not called, and the verifier inlines the lookup.  Without
 * cookies (before 5.15), each probe gets a copy of the program whose
 * constant is its own (spec_prog.site_insn; rt/uprobe.c):
 *	*(u32 *)(fp + SLOT_FIRST) = site		patched per copy
 */
static void uprobe_prologue(struct cg *g)
{
	int k = only_site(g);

	if (k >= 0) {
		emit_store_imm(&g->e, 4, R10, SLOT_FIRST, k);
	} else if (!has_cookies(g)) {
		g->site_label = emit_new_label(&g->e);
		emit_label(&g->e, g->site_label);
		emit_store_imm(&g->e, 4, R10, SLOT_FIRST, 0);
	} else {
		emit_mov_reg(&g->e, R1, R6);
		emit_call(&g->e, BPF_FUNC_get_attach_cookie);
		emit_store(&g->e, 4, R10, SLOT_FIRST, R0);
	}
	cg_ld_map(g, R1, g->spec->uprobe_map);
	cg_fp_ptr(g, R2, SLOT_FIRST);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_reg(&g->e, R7, R0);
}

/*
 * Option cpu=N: probes fire on CPU N only, as in DTrace.  BEGIN and END
 * are not probes of any CPU here -- dscope runs them itself -- so they
 * always fire (and ERROR runs in the program that faulted).
 *	if (bpf_get_smp_processor_id() != N) goto out
 */
static void cpu_filter(struct cg *g)
{
	if (g->c->cpu < 0 || g->att == ATTACH_BEGIN || g->att == ATTACH_END ||
	    g->att == ATTACH_REPLAY)
		return;
	emit_call(&g->e, BPF_FUNC_get_smp_processor_id);
	emit_jmp_imm(&g->e, BPF_JNE, R0, g->c->cpu, early_out(g));
}

static void prologue(struct cg *g)
{
	emit_mov_reg(&g->e, R6, R1);
	if (g->att == ATTACH_SYS_ENTER && g->nclauses == 1)
		g->sys_late = only_syscall(g);
	if (g->sys_late < 0) {
		emit_store_imm(&g->e, 8, R10, SLOT_NEST, 0);	/* epilogue() */
		zero_slots(g);
	}
	/* END runs once probes stop */
	if (g->att != ATTACH_END && g->sys_late < 0)
		state_test(g);
	cpu_filter(g);
	cg_zone_filter(g, early_out(g));
	if (is_sys(g))
		sys_prologue(g);
	if (is_uprobe(g))
		uprobe_prologue(g);
	if (is_sys(g) || is_uprobe(g))
		return;		/* the clauses look the scratch area up */
	scratch_lookup(g);
	g->have_scratch = true;
	if (g->att == ATTACH_RAW_TP)
		guard(g);
}

static const char *const attach_names[] = {
	[ATTACH_BEGIN] = "dscope_begin", [ATTACH_END] = "dscope_end",
	[ATTACH_SYS_ENTER] = "dscope_sys_ent", [ATTACH_SYS_EXIT] = "dscope_sys_ret",
	[ATTACH_PROFILE] = "dscope_profile", [ATTACH_TICK] = "dscope_tick",
	[ATTACH_RAW_TP] = "dscope_tp",
	[ATTACH_UPROBE] = "dscope_pid_ent", [ATTACH_URETPROBE] = "dscope_pid_ret",
	[ATTACH_USDT] = "dscope_usdt",
	[ATTACH_KPROBE] = "dscope_fbt_ent", [ATTACH_KRETPROBE] = "dscope_fbt_ret",
	[ATTACH_FENTRY] = "dscope_fentry", [ATTACH_FEXIT] = "dscope_fexit",
	[ATTACH_REPLAY] = "dscope_replay",
};

/* subs[0..n) then more[0..nmore), in the arena; the new count */
static int append_subs(struct arena *a, struct spec_subprog **subs, int n,
		       const struct spec_subprog *more, int nmore)
{
	struct spec_subprog *all;

	if (!nmore)
		return n;
	all = arena_alloc(a, sizeof(*all) * (size_t)(n + nmore));
	if (n)
		memcpy(all, *subs, sizeof(*all) * (size_t)n);
	memcpy(all + n, more, sizeof(*all) * (size_t)nmore);
	*subs = all;
	return n + nmore;
}

static void fixed_map(struct cg_ctx *c, const char *name, enum bpf_map_type type,
		      uint32_t key_size, uint32_t value_size, uint32_t entries,
		      uint32_t flags);

/* Whether this program is sleepable: see "Sleepable programs" above. */
static bool wants_sleep(struct cg *g, const struct cg_clause *cl, int n)
{
	static const char *const reads[] = { "copyin", "copyinstr", "copyinto" };
	static const char *const bars[] = { "copyout", "copyoutstr", "ustack",
					    "jstack" };
	bool read = false;

	if ((g->att != ATTACH_UPROBE && g->att != ATTACH_URETPROBE &&
	     g->att != ATTACH_USDT) || !kcaps_has(KCAP_SLEEP_UPROBE))
		return false;
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(reads) / sizeof(reads[0]); k++)
			read = read || cg_clause_calls(g, cl[i].clause, reads[k]);
	/* the ERROR clauses run in it too, where it faults (cg_error.c) */
	for (int i = 0; i < n + g->c->nerr; i++) {
		const struct cg_clause *c = i < n ? &cl[i] : &g->c->err_clauses[i - n];

		for (size_t k = 0; k < sizeof(bars) / sizeof(bars[0]); k++)
			if (cg_clause_calls(g, c->clause, bars[k]))
				return false;
	}
	return read;
}

/* The maps sleepable programs share, made for the first of them; the
 * ring holds what the principal buffer of one CPU would (bufsize, a
 * power of two of pages). */
static void sleep_maps(struct cg_ctx *c)
{
	uint32_t ring = 4096;

	if (c->spec->tscratch_map >= 0)
		return;
	while (ring < c->bufsize && ring < (1u << 30))
		ring <<= 1;
	c->spec->tscratch_map = c->spec->nmaps;
	fixed_map(c, "dscope_tscratch", BPF_MAP_TYPE_TASK_STORAGE, 4, SCRATCH_SIZE,
		  0, BPF_F_NO_PREALLOC);
	c->spec->sbuf_map = c->spec->nmaps;
	fixed_map(c, "dscope_sbuf", BPF_MAP_TYPE_RINGBUF, 0, 0, ring, 0);
}

int cg_program(struct cg_ctx *c, enum spec_attach att, uint64_t period_ns,
	       const struct probe *probe, const struct cg_clause *clauses,
	       int nclauses)
{
	struct cg g = { .c = c, .a = c->a, .d = c->d, .spec = c->spec,
			.att = att, .probe = probe, .nclauses = nclauses,
			.tmp_base = REC_MAX + c->spec->this_size, .sys_late = -1 };
	struct spec *sp = c->spec;

	g.sleepable = wants_sleep(&g, clauses, nclauses);
	g.ring_map = -1;
	if (g.sleepable) {
		sleep_maps(c);
		g.ring_map = sp->sbuf_map;
	}
	emit_init(&g.e, c->a);
	g.out = emit_new_label(&g.e);
	g.bare = emit_new_label(&g.e);
	prologue(&g);
	cg_strtok_reserve(&g, clauses, nclauses);
	for (int i = 0; i < nclauses; i++)
		cg_emit_clause(&g, &clauses[i]);
	if ((g.save_offcpu_stack || g.save_offcpu_ustack) && !g.have_scratch)
		scratch_lookup(&g);
	cg_save_offcpu_stack(&g);
	cg_save_offcpu_ustack(&g);
	epilogue(&g);
	if (att == ATTACH_REPLAY)
		cg_replay_check(&g);
	struct spec_subprog *subs = NULL, chill, *loops;
	int nsubs = cg_ustack_callbacks(&g, &subs);

	if (cg_chill_callback(&g, &chill))
		nsubs = append_subs(c->a, &subs, nsubs, &chill, 1);
	int nloops = cg_loop_callbacks(&g, &loops);

	nsubs = append_subs(c->a, &subs, nsubs, loops, nloops);

	int moved = emit_relax(&g.e, nsubs ? (int)subs[0].insn : g.e.n);

	for (int i = 0; i < nsubs; i++)	/* after the main program's islands */
		subs[i].insn += (uint32_t)moved;
	if (emit_resolve(&g.e) < 0)
		diag_fail(c->d, 0, 0, "D_INTERNAL", "unplaced label in code generator");

	struct spec_prog *p = ARENA_PUSH(c->a, sp->progs, sp->nprogs, c->progs_cap);

	p->name = attach_names[att];
	p->attach = att;
	p->type = att == ATTACH_PROFILE || att == ATTACH_TICK
			  ? BPF_PROG_TYPE_PERF_EVENT
		  : att == ATTACH_FENTRY || att == ATTACH_FEXIT
			  ? BPF_PROG_TYPE_TRACING
		  : is_uprobe(&g) ? BPF_PROG_TYPE_KPROBE
			  : BPF_PROG_TYPE_RAW_TRACEPOINT;
	/* uprobe and kprobe programs are for multi links; the loader drops
	 * the attach type where the kernel has none (rt/load.c) */
	p->expected_attach_type = att == ATTACH_FENTRY ? BPF_TRACE_FENTRY
				: att == ATTACH_FEXIT ? BPF_TRACE_FEXIT
				: att == ATTACH_KPROBE || att == ATTACH_KRETPROBE
				  ? BPF_TRACE_KPROBE_MULTI
				: is_uprobe(&g) ? ATTACH_TYPE_UPROBE_MULTI : 0;
	p->period_ns = period_ns;
	p->probe = probe;
	p->ninsns = g.e.n;
	p->subprogs = subs;
	p->nsubprogs = nsubs;
	p->sleepable = g.sleepable;
	p->site_insn = g.site_label ? g.e.label_pos[g.site_label] : -1;
	p->insns = arena_alloc(c->a, sizeof(struct bpf_insn) * (size_t)g.e.n);
	memcpy(p->insns, g.e.insns, sizeof(struct bpf_insn) * (size_t)g.e.n);
	p->fd = -1;
	return sp->nprogs - 1;
}

static void fixed_map(struct cg_ctx *c, const char *name, enum bpf_map_type type,
		      uint32_t key_size, uint32_t value_size, uint32_t entries,
		      uint32_t flags)
{
	struct spec *sp = c->spec;
	struct spec_map *m = ARENA_PUSH(c->a, sp->maps, sp->nmaps, c->maps_cap);

	m->name = name;
	m->type = type;
	m->key_size = key_size;
	m->value_size = value_size;
	m->max_entries = entries;
	m->flags = flags;
	m->fd = -1;
}

void cg_uprobe_map(struct cg_ctx *c)
{
	c->spec->uprobe_map = c->spec->nmaps;
	fixed_map(c, "dscope_uprobes", BPF_MAP_TYPE_ARRAY, 4,
		  sizeof(struct uprobe_entry), (uint32_t)c->spec->nuprobes, 0);
}

void cg_replay_map(struct cg_ctx *c)
{
	c->spec->replay_map = c->spec->nmaps;
	fixed_map(c, "dscope_replay", BPF_MAP_TYPE_ARRAY, 4,
		  sizeof(struct replay_val), 1, 0);
}

/* ORDER MAP: the indexes in spec.h */
void cg_fixed_maps(struct cg_ctx *c, uint32_t nsyscalls)
{
	uint32_t gsize = sizeof(struct globals_hdr) + c->spec->globals_size;

	fixed_map(c, "dscope_globals", BPF_MAP_TYPE_ARRAY, 4, cg_round8(gsize), 1, 0);
	fixed_map(c, "dscope_scratch", BPF_MAP_TYPE_PERCPU_ARRAY, 4, SCRATCH_SIZE,
		  SCRATCH_LEVELS, 0);
	fixed_map(c, "dscope_buf", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 0, 0);
	fixed_map(c, "dscope_drops", BPF_MAP_TYPE_PERCPU_ARRAY, 4,
		  sizeof(struct drop_counts), 1, 0);
	fixed_map(c, "dscope_sysinfo", BPF_MAP_TYPE_ARRAY, 4,
		  sizeof(struct sysinfo_entry), nsyscalls ? nsyscalls : 1, 0);
	fixed_map(c, "dscope_spec", BPF_MAP_TYPE_ARRAY, 4, 8, c->spec->nspec + 1, 0);
	fixed_map(c, "dscope_wake", BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0);
	fixed_map(c, "dscope_nest", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1, 0);
}
