/*
 * cg_stack.c -- kernel stacks and symbols: stack() with the tracing
 * machinery's own frames skipped, the caller of an fbt return through
 * the kretprobe's saved return address, off-CPU stacks saved at
 * sched_switch, sym()/func()/mod() and usym()/ufunc()/umod()/uaddr(),
 * caller, ucaller, stackdepth and ustackdepth.  ustack()'s unwinder is
 * cg_ustack.c.
 */
#include <stdio.h>
#include <string.h>

#include "cg/cg_impl.h"
#include "front/ctype.h"
#include "front/sema.h"
#include "kern/kcaps.h"
#include "kern/ktypes.h"
#include "obj/ksym.h"
#include "prov/catalog.h"

/*
 * At a raw tracepoint the kernel's walk starts in the BPF program, then
 * the tracing machinery: bpf_trace_runN, and __bpf_trace_EVENT and
 * __traceiter_EVENT unless the kernel's static call skipped them (it
 * depends on what else is attached).  DTrace shows none of that, so the
 * program looks at frames 1-3 and skips those inside these functions,
 * whose addresses kallsyms gives at compile time:
 *
 *	bpf_get_stack(ctx, temp, 4 * 8, 0)
 *	skip = 1
 *	for i in 1..3: if (temp[i] in one of the ranges) skip++ else break
 */
static void stack_skip(struct cg *g, struct node *n, uint32_t off, int16_t skip)
{
	const char *event = g->att == ATTACH_RAW_TP ? g->probe->tp_event
			    : g->att == ATTACH_SYS_ENTER ? "sys_enter" : "sys_exit";
	int nargs = g->att == ATTACH_RAW_TP ? g->probe->tp_nargs : 2;
	const char *names[3] = {
		arena_printf(g->a, "bpf_trace_run%d", nargs),
		arena_printf(g->a, "__bpf_trace_%s", event),
		arena_printf(g->a, "__traceiter_%s", event),
	};
	uint64_t lo[3], hi[3];
	bool known[3], any = false;
	int done = emit_new_label(&g->e);

	emit_mov_imm(&g->e, R0, 1);
	cg_store_slot(g, skip, R0);
	for (int k = 0; k < 3; k++)
		any |= known[k] = ksym_range(names[k], &lo[k], &hi[k]);
	if (!any)	/* kallsyms hides addresses (no CAP_SYSLOG): none to skip */
		return;
	emit_mov_reg(&g->e, R1, R6);
	cg_scratch_ptr(g, R2, off);
	emit_mov_imm(&g->e, R3, 32);
	emit_mov_imm(&g->e, R4, 0);
	emit_call(&g->e, BPF_FUNC_get_stack);
	for (int f = 1; f < 4; f++) {
		int machinery = emit_new_label(&g->e);

		emit_load(&g->e, 8, R1, R9, (int16_t)(off + 8 * f));
		for (int k = 0; k < 3; k++) {
			int next = emit_new_label(&g->e);

			if (!known[k])
				continue;
			emit_ld_imm64(&g->e, R2, lo[k]);
			emit_jmp_reg(&g->e, BPF_JLT, R1, R2, next);
			emit_ld_imm64(&g->e, R2, hi[k]);
			emit_jmp_reg(&g->e, BPF_JLT, R1, R2, machinery);
			emit_label(&g->e, next);
		}
		emit_ja(&g->e, done);
		emit_label(&g->e, machinery);
		cg_load_slot(g, R0, skip);
		emit_alu_imm(&g->e, BPF_ADD, R0, 1);
		cg_store_slot(g, skip, R0);
	}
	emit_label(&g->e, done);
	(void)n;
}

/*
 * At fbt:::entry, as in DTrace, the stack starts in the caller, where the
 * function will return to: the function itself has no frame yet.  A
 * kprobe's walk starts at the probed instruction, the function's first,
 * so that one frame goes; an fentry program's walk starts in the program,
 * then the trampoline, then the function (its fentry call): three.  At
 * fbt:::return, a kretprobe's walk starts where the function returns
 * to, and fexit's as fentry's.
 */
static int fbt_frames(enum spec_attach att)
{
	return att == ATTACH_KPROBE ? 1 : att == ATTACH_FENTRY || att == ATTACH_FEXIT ? 3 : 0;
}

/*
 * A kretprobe's stack, on kernels whose kretprobe handler still holds
 * the trampoline in regs->ip (before 5.14), starts at the trampoline:
 * the real return address, where DTrace's return probe says it returns
 * to, is only in the kretprobe instance being handled.  Such kernels
 * keep their instances in one table of hash lists by task (BTF shows a
 * task member in struct kretprobe_instance, which later kernels dropped
 * for a list of the task's own), and while the handler runs, the
 * instance it handles is the task's first in its bucket (they are
 * pushed at the head as calls are made, popped as they return) with
 * ret_addr the real address.  So where the stack's first frame is the
 * trampoline, it is replaced by that ret_addr:
 *
 *	if (temp[0] == kretprobe_trampoline) {
 *		task = current; ri = table[hash_64(task, 6)].first
 *		repeat KRETPROBE_SCAN times:
 *			if (!ri) break
 *			if (ri->task == task) { temp[0] = ri->ret_addr; break }
 *			ri = ri->hlist.next
 *	}
 *
 * The kernel's hash is hash_ptr(task, KPROBE_HASH_BITS): the address
 * times GOLDEN_RATIO_64, its top 6 bits.  Nothing is read where a symbol
 * or member is missing: the trampoline then stays, as before.
 */
#define KRETPROBE_SCAN 8
#define KPROBE_HASH_BITS 6
#define GOLDEN_RATIO_64 0x61C8864680B583EBull

struct kretprobe_table {
	uint64_t tramp, table;
	uint32_t task_off, ret_off;
};

static bool kretprobe_table(struct kretprobe_table *t)
{
	struct ktype_field task, ret, next;
	uint64_t end;
	const char *kmod;

	return ktype_field("kretprobe_instance.task", &task) == 0 &&
	       ktype_field("kretprobe_instance.ret_addr", &ret) == 0 &&
	       ktype_field("hlist_node.next", &next) == 0 && next.off[0] == 0 &&
	       ksym_range("kretprobe_trampoline", &t->tramp, &end) &&
	       ksym_var_addr("vmlinux", "kretprobe_inst_table", &t->table,
			     &kmod) == KSYM_VAR_OK &&
	       (t->task_off = task.off[0], t->ret_off = ret.off[0], true);
}

/* *(u64 *)(fp + dst) = *(u64 *)(r3 + off), 0 if it cannot be read */
static void kread_quiet(struct cg *g, int16_t dst, int32_t off)
{
	if (off)
		emit_alu_imm(&g->e, BPF_ADD, R3, off);
	cg_fp_ptr(g, R1, dst);
	emit_mov_imm(&g->e, R2, 8);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
}

static void kretprobe_return_addr(struct cg *g, struct node *n, uint32_t off)
{
	struct kretprobe_table t;

	if (g->att != ATTACH_KRETPROBE || !kretprobe_table(&t))
		return;
	int16_t r0 = cg_slot_new(g, n), task = cg_slot_new(g, n);
	int16_t ri = cg_slot_new(g, n), word = cg_slot_new(g, n);
	int out = emit_new_label(&g->e), found = emit_new_label(&g->e);

	cg_store_slot(g, r0, R0);
	emit_load(&g->e, 8, R1, R9, (int16_t)off);
	emit_ld_imm64(&g->e, R2, t.tramp);
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, out);
	emit_call(&g->e, BPF_FUNC_get_current_task);
	cg_store_slot(g, task, R0);
	emit_ld_imm64(&g->e, R1, GOLDEN_RATIO_64);
	emit_alu_reg(&g->e, BPF_MUL, R0, R1);
	emit_alu_imm(&g->e, BPF_RSH, R0, 64 - KPROBE_HASH_BITS);
	emit_alu_imm(&g->e, BPF_LSH, R0, 3);
	emit_ld_imm64(&g->e, R3, t.table);
	emit_alu_reg(&g->e, BPF_ADD, R3, R0);
	kread_quiet(g, ri, 0);
	for (int k = 0; k < KRETPROBE_SCAN; k++) {
		cg_load_slot(g, R3, ri);
		emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, out);
		kread_quiet(g, word, (int32_t)t.task_off);
		cg_load_slot(g, R1, word);
		cg_load_slot(g, R2, task);
		emit_jmp_reg(&g->e, BPF_JEQ, R1, R2, found);
		cg_load_slot(g, R3, ri);
		kread_quiet(g, ri, 0);
	}
	emit_ja(&g->e, out);
	emit_label(&g->e, found);
	cg_load_slot(g, R3, ri);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)t.ret_off);
	cg_scratch_ptr(g, R1, off);
	emit_mov_imm(&g->e, R2, 8);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	emit_label(&g->e, out);
	cg_load_slot(g, R0, r0);
}

/*
 * stack([n]): the kernel stack into a temp of n + 1 words, the last one
 * (and any the kernel leaves unfilled) zero:
 *
 *	temp = { 0 }
 *	bpf_get_stack(ctx, temp, n * 8, skip)	BPF_F_SKIP_FIELD_MASK
 *
 * A perf event's stack starts at the interrupted pc: skip is 0.  A failure
 * (no stack at this probe) leaves an empty stack.
 */
/* temp at off = the current task's kernel stack, size bytes (the last
 * word stays 0: the end), leading tracing frames skipped */
static void capture_stack(struct cg *g, struct node *n, uint32_t off,
			  uint32_t size)
{
	bool raw_tp = g->att == ATTACH_SYS_ENTER || g->att == ATTACH_SYS_EXIT ||
		      g->att == ATTACH_RAW_TP;
	int16_t skip = cg_slot_new(g, n);

	if (raw_tp) {
		stack_skip(g, n, off, skip);
	} else {
		emit_mov_imm(&g->e, R0, fbt_frames(g->att));
		cg_store_slot(g, skip, R0);
	}
	cg_zero_words(g, R9, off, size);
	emit_mov_reg(&g->e, R1, R6);
	cg_scratch_ptr(g, R2, off);
	emit_mov_imm(&g->e, R3, (int32_t)(size - 8));
	cg_load_slot(g, R4, skip);
	emit_call(&g->e, BPF_FUNC_get_stack);
	kretprobe_return_addr(g, n, off);
}

/*
 * stack() of another task: at sched:::on-cpu the program runs in the
 * task leaving the CPU, but the stack wanted is the incoming task's --
 * where it blocked.  A blocked task's stack does not change, so the
 * on-cpu program saves each leaving task's stack (cg_save_offcpu_stack,
 * at its end) and looks up the incoming task's here (DESIGN.md 3.6).
 */
static struct val saved_stack(struct cg *g, struct node *n, struct val v)
{
	g->save_offcpu_stack = true;
	return cg_saved_stack(g, n, v, cg_offcpu_stack_map(g), OFFCPU_STACK);
}

/*
 * The incoming thread's saved stack (stack() or ustack(): map holds
 * saved bytes per thread) into the temp v:
 *
 *	saved = lookup(map, &incoming thread)
 *	temp = saved ? saved's first words : { 0 }; temp's last word = 0
 */
struct val cg_saved_stack(struct cg *g, struct node *n, struct val v, int map,
			  uint32_t saved)
{
	int16_t key = cg_slot_new(g, n);
	int absent = emit_new_label(&g->e), done = emit_new_label(&g->e);
	uint32_t n_copy = v.size < saved ? v.size : saved;

	cg_self_key(g, n, key);
	cg_ld_map(g, R1, map);
	cg_fp_ptr(g, R2, key);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, absent);
	emit_mov_reg(&g->e, R8, R0);
	cg_copy_words(g, false, R9, v.off, v.size, R8, 0, n_copy);
	emit_store_imm(&g->e, 8, R9, (int16_t)(v.off + v.size - 8), 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, absent);
	cg_zero_words(g, R9, v.off, v.size);
	emit_label(&g->e, done);
	return v;
}

struct val cg_stack(struct cg *g, struct node *n)
{
	struct val v = { .str = true, .size = n->type.size };

	if (g->att == ATTACH_REPLAY)	/* the recorded frames */
		return cg_replay_stack(g, n, false);
	v.off = cg_temp_new(g, n, v.size < 32 ? 32 : v.size);
	if (cg_other_task(g))
		return saved_stack(g, n, v);
	capture_stack(g, n, v.off, v.size);
	return v;
}

/* At the end of an on-cpu program that used stack(): keep the leaving
 * task's stack, keyed by its thread, for when it comes back. */
void cg_save_offcpu_stack(struct cg *g)
{
	struct node at = { .line = 0 };
	int16_t key;
	uint32_t off;

	if (!g->save_offcpu_stack)
		return;
	g->sp = SLOT_FIRST + 8;
	g->tmp = g->tmp_base;
	key = cg_slot_new(g, &at);
	off = cg_temp_new(g, &at, OFFCPU_STACK);
	capture_stack(g, &at, off, OFFCPU_STACK);
	emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
	cg_store_slot(g, key, R0);
	cg_ld_map(g, R1, cg_offcpu_stack_map(g));
	cg_fp_ptr(g, R2, key);
	cg_scratch_ptr(g, R3, off);
	emit_mov_imm(&g->e, R4, BPF_ANY);
	emit_call(&g->e, BPF_FUNC_map_update_elem);
}

/* ---- symbols: sym() ... uaddr(), caller, stackdepth ... ---- */

/* sym(), func(), mod(): the address itself, typed to print as a symbol */
struct val cg_ksym(struct cg *g, struct node *n)
{
	struct val a = cg_expr(g, n->args.v[0]);

	cg_load_slot(g, R0, a.slot);
	return cg_int_result(g, n, R0);
}

/*
 * usym(), ufunc(), umod(), uaddr(): a one-frame user stack, the pid
 * whose maps name the address, then the address (types.h):
 *
 *	temp[0] = pid; temp[1] = addr
 */
struct val cg_usym(struct cg *g, struct node *n)
{
	struct val a = cg_expr(g, n->args.v[0]);
	struct val v = { .str = true, .size = 16 };

	g->spec->user_stacks = true;
	v.off = cg_temp_new(g, n, v.size);
	emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
	emit_alu_imm(&g->e, BPF_RSH, R0, 32);
	emit_store(&g->e, 8, R9, (int16_t)v.off, R0);
	cg_load_slot(g, R0, a.slot);
	emit_store(&g->e, 8, R9, (int16_t)(v.off + 8), R0);
	return v;
}

#define STACKDEPTH_MAX 127	/* the kernel's perf_event_max_stack */

/*
 * caller and stackdepth describe the kernel stack stack() shows: its
 * first frame, the pc where the probe fired (in the function that fired
 * the tracepoint), and how many frames it has:
 *
 *	r0 = bpf_get_stack(ctx, temp, frames * 8, skip)
 *	slot = r0 <= 0 ? 0 : caller ? temp[0] : r0 / 8
 *
 * At sched:::on-cpu they describe the stack the program runs on, the
 * leaving thread's; stack() there is the incoming thread's saved one.
 */
static void kstack_builtin(struct cg *g, struct node *n, int16_t slot,
			   bool caller)
{
	uint32_t size = caller ? 16 : (STACKDEPTH_MAX + 1) * 8;
	uint32_t off = cg_temp_new(g, n, size);
	int none = emit_new_label(&g->e), done = emit_new_label(&g->e);

	capture_stack(g, n, off, size);
	emit_jmp_imm(&g->e, BPF_JSLE, R0, 0, none);
	if (caller)
		emit_load(&g->e, 8, R0, R9, (int16_t)off);
	else
		emit_alu_imm(&g->e, BPF_RSH, R0, 3);
	emit_ja(&g->e, done);
	emit_label(&g->e, none);
	emit_mov_imm(&g->e, R0, 0);
	emit_label(&g->e, done);
	cg_store_slot(g, slot, R0);
}

/*
 * ucaller: where the thread was in user space before the probe -- at a
 * pid entry probe the caller's return address, still at [sp]; elsewhere
 * the user pc (in the syscall wrapper at a syscall probe), the first
 * frame of any walk:
 *
 *	if (pid program && uprobe_entry->flags & UPROBE_F_ENTRY) {	(r7)
 *		bpf_probe_read_user(&slot, 8, regs->sp); goto done
 *	}
 *	slot = bpf_get_stack(ctx, temp, 8, USER) > 0 ? temp[0] : 0
 */
static void ucaller(struct cg *g, struct node *n, int16_t slot)
{
	uint32_t off = cg_temp_new(g, n, 8);
	int none = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int inside = emit_new_label(&g->e), at_entry = emit_new_label(&g->e);

	emit_store_imm(&g->e, 8, R10, slot, 0);
	if (g->att == ATTACH_UPROBE) {
		emit_load(&g->e, 4, R1, R7, offsetof(struct uprobe_entry, flags));
		emit_jmp_imm(&g->e, BPF_JSET, R1, UPROBE_F_ENTRY, at_entry);
		emit_ja(&g->e, inside);
		emit_label(&g->e, at_entry);
		cg_fp_ptr(g, R1, slot);
		emit_mov_imm(&g->e, R2, 8);
		emit_load(&g->e, 8, R3, R6, PT_REGS_SP);
		emit_call(&g->e, BPF_FUNC_probe_read_user);
		emit_ja(&g->e, done);
	}
	emit_label(&g->e, inside);
	emit_mov_reg(&g->e, R1, R6);
	cg_scratch_ptr(g, R2, off);
	emit_mov_imm(&g->e, R3, 8);
	emit_mov_imm(&g->e, R4, (int32_t)F_USER_STACK);
	emit_call(&g->e, BPF_FUNC_get_stack);
	emit_mov_imm(&g->e, R1, 0);
	emit_jmp_imm(&g->e, BPF_JSLE, R0, 0, none);
	emit_load(&g->e, 8, R1, R9, (int16_t)off);
	emit_label(&g->e, none);
	cg_store_slot(g, slot, R1);
	emit_label(&g->e, done);
}

/*
 * ustackdepth: the frames ustack() would show, by the same walk (the
 * .eh_frame one with a target), counted:
 *
 *	temp = ustack(STACKDEPTH_MAX)		{ pid, pc0, pc1, ..., 0 }
 *	slot = 0; for each frame word: slot += (temp[i] | -temp[i]) >> 63
 *
 * (w | -w) >> 63 is w != 0 without a branch, so the verifier walks one
 * path, not one per frame.
 */
static void ustackdepth(struct cg *g, struct node *n, int16_t slot)
{
	struct node walk = *n;
	struct val v;

	walk.type.kind = T_STACK;
	walk.type.user = true;
	walk.type.size = (STACKDEPTH_MAX + 2) * 8;
	v = cg_ustack(g, &walk);
	emit_mov_imm(&g->e, R0, 0);
	for (uint32_t i = 8; i + 8 < v.size; i += 8) {
		emit_load(&g->e, 8, R1, R9, (int16_t)(v.off + i));
		emit_mov_reg(&g->e, R2, R1);
		emit_alu_imm(&g->e, BPF_NEG, R2, 0);
		emit_alu_reg(&g->e, BPF_OR, R1, R2);
		emit_alu_imm(&g->e, BPF_RSH, R1, 63);
		emit_alu_reg(&g->e, BPF_ADD, R0, R1);
	}
	cg_store_slot(g, slot, R0);
}

void cg_stack_builtin(struct cg *g, struct node *n, int16_t slot, bool user,
		      bool caller)
{
	if (user && caller)
		ucaller(g, n, slot);
	else if (user)
		ustackdepth(g, n, slot);
	else
		kstack_builtin(g, n, slot, caller);
}
