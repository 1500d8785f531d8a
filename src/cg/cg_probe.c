/*
 * cg_probe.c -- what a probe gives a clause: the built-in variables
 * (arg0..arg9 and args[], pid, tid, execname, probefunc, errno, curthread,
 * ...), read from the program's context as each attachment kind lays it
 * out (raw tracepoint arguments, saved user registers, a trampoline's
 * words, a usdt operand), and the reads of kernel and user memory that
 * fault as DTrace's "invalid address" (cg_kread, cg_uread, cg_fault).
 * Register and slot conventions: cg.c's opening comment.
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

/* x86-64 struct pt_regs offsets of the syscall argument registers:
 * di, si, dx, r10, r8, r9 */
static const int16_t sysarg_regs[6] = { 112, 104, 96, 56, 72, 64 };
/* ... and of the function argument registers: di, si, dx, cx, r8, r9 */
static const int16_t funcarg_regs[6] = { 112, 104, 96, 88, 72, 64 };

/* r0 = *(u64 *)(address in r3 + off), through the read helper func
 * into slot */
static void read_to_slot(struct cg *g, int16_t slot, int size, int32_t off,
			 int func)
{
	emit_store_imm(&g->e, 8, R10, slot, 0);
	cg_fp_ptr(g, R1, slot);
	emit_mov_imm(&g->e, R2, size);
	if (off)
		emit_alu_imm(&g->e, BPF_ADD, R3, off);
	emit_mov_reg(&g->e, R8, R3);
	cg_call_or_fault(g, func, 0);
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
void cg_sbuf_output(struct cg *g, uint32_t off, uint32_t size, int full)
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
	cg_probe_id(g);
	emit_store(&g->e, 4, R9, e + offsetof(struct err_record, probe_id), R0);
	emit_store_imm(&g->e, 4, R9, e + offsetof(struct err_record, clause_epid),
		       g->epid);
	emit_store_imm(&g->e, 4, R9, e + offsetof(struct err_record, action),
		       g->action);
	emit_store_imm(&g->e, 8, R9, e + offsetof(struct err_record, fault), fault);
	if (g->ring_map >= 0) {
		cg_sbuf_output(g, ERR_REC_OFF, sizeof(struct err_record), to);
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

/*
 *	r0 = func(r1, r2, r3)
 *	(outside a clause, that is all)
 *	if (r0 == 0) goto ok		(a _str helper: if (r0 s>= 0))
 *	r8 = *(u64 *)(fp + addr_slot)	(unless addr_slot is 0)
 *	fault(BADADDR, r8)
 *   ok:
 */
void cg_call_or_fault(struct cg *g, int func, int16_t addr_slot)
{
	int ok = emit_new_label(&g->e);
	bool str = func == BPF_FUNC_probe_read_kernel_str ||
		   func == BPF_FUNC_probe_read_user_str;

	emit_call(&g->e, func);
	if (!g->ep)	/* not in a clause (a guard, a prologue): no fault */
		return;
	emit_jmp_imm(&g->e, str ? BPF_JSGE : BPF_JEQ, R0, 0, ok);
	if (addr_slot)
		cg_load_slot(g, R8, addr_slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, ok);
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
	emit_store_imm(&g->e, 8, R10, slot, 0);
	cg_fp_ptr(g, R1, slot);
	emit_mov_reg(&g->e, R3, R8);
	cg_call_or_fault(g, BPF_FUNC_probe_read_user, 0);
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
void cg_sys_regs_word(struct cg *g, int16_t slot, int16_t off)
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

/* profile and tick: arg0 the kernel pc or 0; arg1 the user pc or 0 */
static void profile_pc(struct cg *g, int16_t slot, int n)
{
	int zero = emit_new_label(&g->e), done = emit_new_label(&g->e);

	emit_load(&g->e, 8, R1, R6, PT_REGS_CS);
	emit_alu_imm(&g->e, BPF_AND, R1, 3);
	emit_jmp_imm(&g->e, n == 0 ? BPF_JEQ : BPF_JNE, R1, 3, zero);
	emit_load(&g->e, 8, R0, R6, PT_REGS_IP);
	emit_ja(&g->e, done);
	emit_label(&g->e, zero);
	emit_mov_imm(&g->e, R0, 0);
	emit_label(&g->e, done);
	cg_store_slot(g, slot, R0);
}

/*
 * fentry's argument n: bpf_get_func_arg(ctx, n, &v): the trampoline saved
 * them; past the function's last it fails, and v stays 0.  Without it
 * (before 5.17) they are read from the context, the trampoline's array
 * of them, up to the function's own count (uprobe_entry.nargs): the
 * verifier of the copy for one function refuses a load past its last.
 *	v = 0; if (n < r7->nargs) probe_read_kernel(&v, 8, ctx + 8n)
 */
static void fentry_arg(struct cg *g, int16_t slot, int n)
{
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
}

/* fexit's arg1: bpf_get_func_ret(ctx, &v); arg0, DTrace's offset of the
 * return instruction, is not known: the function's own address
 * (bpf_get_func_ip) stands in for it */
static void fexit_arg(struct cg *g, int16_t slot, int n)
{
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
}

void cg_arg_value(struct cg *g, int16_t slot, int n)
{
	switch (g->att) {
	case ATTACH_SYS_ENTER:
		if (n >= 6)
			break;
		cg_sys_regs_word(g, slot, sysarg_regs[n]);
		return;
	case ATTACH_SYS_EXIT:
		if (n >= 2)
			break;
		emit_load(&g->e, 8, R0, R6, 8);		/* r0 = ctx->args[1]: ret */
		cg_store_slot(g, slot, R0);
		return;
	case ATTACH_PROFILE:
	case ATTACH_TICK:
		if (n >= 2)
			break;
		profile_pc(g, slot, n);
		return;
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
		if (n >= 6)
			break;
		fentry_arg(g, slot, n);
		return;
	case ATTACH_FEXIT:
		if (n >= 2)
			break;
		fexit_arg(g, slot, n);
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

bool cg_is_sys(const struct cg *g)
{
	return g->att == ATTACH_SYS_ENTER || g->att == ATTACH_SYS_EXIT;
}

/* A program of many probes told apart by the cookie of the one that fired
 * (pid, usdt and fbt: one uprobe_entry each). */
bool cg_is_uprobe(const struct cg *g)
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
	if (cg_is_uprobe(g) && (b != BI_PROBENAME || g->att == ATTACH_USDT ||
			      g->att == ATTACH_UPROBE || g->att == ATTACH_KPROBE ||
			      g->att == ATTACH_FENTRY))
		return uprobe_string(g, n, b);
	if (cg_is_sys(g) && b == BI_PROBEFUNC) {
		struct val v = { .str = true, .size = SYSNAME_MAX };

		v.off = cg_temp_new(g, n, SYSNAME_MAX);
		cg_copy_words(g, true, R9, v.off, SYSNAME_MAX, R7,
			   offsetof(struct sysinfo_entry, name), SYSNAME_MAX);
		return v;
	}
	const char *s;

	if (cg_is_sys(g))
		s = b == BI_PROBEPROV ? "syscall" : b == BI_PROBEMOD ? "vmlinux"
			: g->att == ATTACH_SYS_ENTER ? "entry" : "return";
	else if (cg_is_uprobe(g))
		s = "return";
	else
		s = probe_field(g->cl->probe ? g->cl->probe : g->probe, b);
	return cg_string_const(g, n, s, SYSNAME_MAX);
}

/* r0 = the ID of the probe that fired */
void cg_probe_id(struct cg *g)
{
	if (g->cl && g->cl->clause->shown)
		emit_mov_imm(&g->e, R0, (int32_t)g->cl->clause->shown->id);
	else if (cg_is_sys(g))
		emit_load(&g->e, 4, R0, R7,
			  g->att == ATTACH_SYS_ENTER
				  ? offsetof(struct sysinfo_entry, entry_id)
				  : offsetof(struct sysinfo_entry, return_id));
	else if (cg_is_uprobe(g))
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

/*
 * slot = pid, tid, uid or gid (b).  Of another task than the current one
 * (sched's on-cpu, proc's create), from its task_struct.  uid and gid are
 * the process's real IDs, from its objective credentials (real_cred), not
 * bpf_get_current_uid_gid()'s subjective ones: the kernel overrides those
 * while it works on a task's behalf (overlayfs as its mounter, for one),
 * and a task caught blocked there would show root.  Without BTF the
 * current task's subjective IDs are the best there is.
 */
static void task_id(struct cg *g, struct node *n, int16_t slot, int b)
{
	bool ids = b == BI_UID || b == BI_GID;
	const char *cred = b == BI_UID ? "task_struct.real_cred->uid.val"
				       : "task_struct.real_cred->gid.val";
	struct ktype_field f;

	if (!ids && cg_other_task(g)) {
		cg_task_field(g, n, slot, b == BI_PID ? "task_struct.tgid"
						   : "task_struct.pid");
		return;
	}
	if (ids && (cg_other_task(g) || ktype_field(cred, &f) == 0)) {
		cg_task_field(g, n, slot, cred);
		return;
	}
	emit_call(&g->e, ids ? BPF_FUNC_get_current_uid_gid
			     : BPF_FUNC_get_current_pid_tgid);
	if (b == BI_PID || b == BI_GID)
		emit_alu_imm(&g->e, BPF_RSH, R0, 32);	/* r0 >>= 32 */
	else
		emit_alu32_reg(&g->e, BPF_MOV, R0, R0);	/* w0 = w0 */
	cg_store_slot(g, slot, R0);
}

/*
 * slot = timestamp: one value for the whole firing, every clause
 * included, as DTrace's mstate caches it (DTRACE_MSTATE_TIMESTAMP):
 *	r0 = fp[SLOT_TIMESTAMP] ?: (fp[SLOT_TIMESTAMP] = ktime)
 */
static void firing_timestamp(struct cg *g, int16_t slot)
{
	int have = emit_new_label(&g->e);

	emit_load(&g->e, 8, R0, R10, SLOT_TIMESTAMP);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, have);
	emit_call(&g->e, BPF_FUNC_ktime_get_ns);
	emit_store(&g->e, 8, R10, SLOT_TIMESTAMP, R0);
	emit_label(&g->e, have);
	cg_store_slot(g, slot, R0);
}

struct val cg_builtin(struct cg *g, struct node *n)
{
	int b = n->sym;
	struct val rv;

	if (g->att == ATTACH_REPLAY && cg_replay_builtin(g, n, &rv))
		return rv.str ? clip_string(g, rv, n->type.size) : rv;
	if (n->type.kind == T_STRING)
		return clip_string(g, builtin_string(g, n, b), n->type.size);
	int16_t slot = cg_slot_new(g, n);

	switch (b) {
	case BI_PID:
	case BI_TID:
	case BI_UID:
	case BI_GID:
		task_id(g, n, slot, b);
		break;
	case BI_PPID:
		cg_task_field(g, n, slot, "task_struct.real_parent->tgid");
		break;
	case BI_VTIMESTAMP:
		cg_task_field(g, n, slot, "task_struct.se.sum_exec_runtime");
		break;
	case BI_TIMESTAMP:
		firing_timestamp(g, slot);
		break;
	case BI_WALLTIMESTAMP:
		emit_call(&g->e, BPF_FUNC_ktime_get_ns);
		emit_ld_map_value(&g->e, R1, MAP_GLOBALS, 0);
		emit_load(&g->e, 8, R1, R1, offsetof(struct globals_hdr, walltime_off));
		emit_alu_reg(&g->e, BPF_ADD, R0, R1);
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
		cg_probe_id(g);
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
		cg_arg_value(g, slot, b - BI_ARG0);
		break;
	}
	return cg_int_val(slot);
}
