/*
 * cg_ustack.c -- ustack() in BPF: the frame-pointer walk, and the walk
 * through .eh_frame tables (DESIGN.md 3.9).
 *
 * Debian's libraries are built without frame pointers, so the kernel's
 * own walk (bpf_get_stack, which follows rbp) loses the caller of any
 * libc function the probe fires in.  So the runtime turns the .eh_frame
 * of the files of the processes ustack() walks into rows, lazily
 * (rt/unwind.c; the maps and their layout are in spec.h), and the
 * program walks frames itself:
 *
 *	for each frame (bpf_loop, or a global function in a bounded loop
 *	before 5.17; at most the frames asked for):
 *		record pc
 *		find the mapping holding pc and its file's rows (the last
 *		two mappings are kept): in the process's table, by binary
 *		search; without one, bpf_find_vma (or the mm's tree of
 *		mappings before 5.17) and the rows by the file's device
 *		and inode, and the table is asked for
 *		row = the last row at or below pc's file offset (binary
 *		search, UNWIND_SEARCH_STEPS steps, straight-line)
 *		no row: CFA = rbp + 16, rbp at CFA - 16 -- a frame pointer
 *		CFA = rsp or rbp + row.cfa_off
 *		pc = *(CFA - 8); rbp = *(CFA + row.rbp_off) if saved; rsp = CFA
 *		(the words from a window of the stack read a page at most
 *		at a time, not one read each: UW_WINDOW)
 *
 * The stack stays in the kernel, so @[ustack()] = count() still
 * aggregates there.  A return address is looked up at pc - 1: the call
 * may be its function's last instruction.  The walk stops at a row that
 * marks the outermost frame (_start), at an unreadable word, or when the
 * CFA does not move up the stack.
 *
 * Why callbacks.  The verifier follows every path through a loop body;
 * a frame step holds a binary search and several rules, and unrolling
 * it per frame multiplies its paths by the frames.  bpf_loop checks its
 * callback once.  A callback is a subprogram after the program's exit
 * whose address is loaded with BPF_PSEUDO_FUNC; it shares nothing with
 * the program but the stack word passed as its context (the offset of
 * the walk's state in the scratch area), so it looks up the scratch
 * area again.  The loader gives the kernel the BTF func_info callbacks
 * require (load.c).  Before bpf_loop, the step is a global function:
 * see unwind_usable.
 *
 * Why the process's table, kept by the runtime from /proc/PID/maps (as
 * the Parca and OpenTelemetry profilers keep theirs), and not only
 * bpf_find_vma.  In interrupt context (profile probes) bpf_find_vma
 * succeeds once per firing -- it defers its unlock to an irq_work that
 * stays busy until the interrupt ends -- so frames in a second file
 * fell back to the frame pointer there; a map lookup works anywhere,
 * and costs less than the mmap lock's trylock and a maple-tree walk.
 * A table is checked against the mm it was read from (end_code and
 * start_stack, which exec changes), so a pid used again or an exec'd
 * process asks for a new one rather than unwinding by the old.  A pc in
 * no mapping of the table (a library dlopen()ed since) asks again too.
 * Until the table comes (the runtime looks ten times a second), the walk
 * goes by bpf_find_vma, through the files whose rows are built already
 * (a target's are, before it runs).
 *
 * Why two mappings are kept.  A stack mostly alternates between two
 * files: a syscall's stack goes libc -> executable -> libc (start-up)
 * -> executable (_start).  With only the last mapping kept, each change
 * of file looked the mapping up again; with the last two, each file is
 * looked up once per walk.
 *
 * Short stacks are said.  A mapping without rows for a reason -- its
 * process's table or file's rows not built yet, or over the ustackrows
 * budget -- counts the stack once, by reason (count_short); a file that
 * has no .eh_frame is simply walked by its frame pointers.
 *
 * With -x ustackrows=0, bpf_get_stack's frame-pointer walk: cheaper,
 * and what bpftrace does.
 */
#include <stddef.h>
#include <string.h>

#include "cg/cg_impl.h"
#include "kern/kcaps.h"
#include "kern/ktypes.h"

#define PT_REGS_BP 32
#define PT_REGS_IP 128
#define PAGE_SHIFT 12

/* A mapping the walk has found. */
struct uw_map {
	uint64_t vstart, vend, vbias;	/* file offset = pc + vbias */
	struct unwind_obj obj;		/* its rows; count 0: none */
};

/* The walk's state, in a scratch temp. */
struct uw_state {
	uint64_t pc, sp, bp;		/* the frame being unwound */
	uint64_t out, end;		/* scratch offsets: the next frame's slot, past the last */
	uint64_t first;			/* 1: pc was interrupted, not returned to;
					 * 2: and it is a function's first
					 * instruction (pid entry probe) */
	struct uw_map cur;		/* the mapping of the frame being unwound */
	struct uw_map prev;		/* the one found before it; vend 0: none */
	struct unwind_key key;		/* cur's file, as bpf_find_vma saw it */
	struct unwind_key ukey;		/* and as its user sees it (below) */
	uint64_t off;			/* the file offset looked up */
	uint64_t tgid;			/* the process, its table's key */
	uint64_t mm_end, mm_stack;	/* its mm's end_code and start_stack */
	uint64_t mm;			/* its mm, whose tree rb_mapping walks */
	uint64_t node, vma;		/* rb_mapping's node, and its best mapping */
	uint64_t noted;			/* 1: its table was asked for */
	uint64_t why;			/* the unwind_why it was counted short by */
	uint64_t win_lo, win_hi;	/* the user addresses the window holds */
};

/*
 * The window: UW_WINDOW bytes of the user stack, read at once, after
 * the state in its temp.  A user read costs more for the call than for
 * the bytes (copy_from_user_nofault's checks; a third of a walk's time,
 * by perf, when each frame read its own words), and a stack's frames
 * lie one above the other, so a frame whose words are in the window
 * reads nothing.  A frame outside it reads a new window from its lowest
 * word up, to its page's end at most (window_words).
 */
#define UW_WINDOW 1024

#define ST(f) ((int16_t)offsetof(struct uw_state, f))
_Static_assert(sizeof(struct uw_map) == sizeof(struct unwind_vma) &&
	       offsetof(struct uw_map, obj) == offsetof(struct unwind_vma, obj) &&
	       sizeof(struct unwind_vma) == 32,
	       "a table's mapping is copied into the walk's word by word");
#define MAP_WORDS (sizeof(struct uw_map) / 8)
#define ST_MAX (SCRATCH_SIZE - sizeof(struct uw_state) - UW_WINDOW)
#define WIN ((int16_t)sizeof(struct uw_state))	/* the window's offset from st */

/* the kernel structures bpf_find_vma's callback reads, in order */
static const char *const vma_paths[] = {
	"vm_area_struct.vm_start", "vm_area_struct.vm_end",
	"vm_area_struct.vm_pgoff", "vm_area_struct.vm_file", "file.f_inode",
	"inode.i_ino", "inode.i_sb", "super_block.s_dev",
};
enum { VM_START, VM_END, VM_PGOFF, VM_FILE, F_INODE, I_INO, I_SB, S_DEV, NPATHS };

/* the mm fields a process's table is checked by (spec.h's unwind_proc) */
static const char *const mm_paths[] = {
	"task_struct.mm", "mm_struct.end_code", "mm_struct.start_stack",
};
enum { TASK_MM, MM_END_CODE, MM_START_STACK, NMMPATHS };

/* paths[0, count) into f, each one hop, or a compile error */
static void kfields(struct cg *g, const struct node *n, const char *const *paths,
		    int count, struct ktype_field *f)
{
	for (int i = 0; i < count; i++)
		if (ktype_field(paths[i], &f[i]) < 0 || f[i].nhops != 1)
			diag_fail(g->d, n->line, n->col, "D_KTYPE",
				  "ustack( ): kernel type information (BTF) lacks %s",
				  paths[i]);
}

static int push_map(struct cg *g, struct spec_map m)
{
	struct spec *sp = g->spec;

	*ARENA_PUSH(g->a, sp->maps, sp->nmaps, g->c->maps_cap) = m;
	return sp->nmaps - 1;
}

/*
 * The unwind maps (spec.h), made on first use; the runtime sizes the
 * rows and objects.  A process's table costs memory only while it is
 * kept (NO_PREALLOC), and is replaced whole: a walk reads the old table
 * or the new one, never half of each.
 */
static void unwind_maps(struct cg *g)
{
	struct spec *sp = g->spec;

	if (sp->unwind_rows_map >= 0)
		return;
	sp->unwind_objs_map = push_map(g, (struct spec_map){
		"dscope_uw_objs", BPF_MAP_TYPE_HASH, sizeof(struct unwind_key),
		sizeof(struct unwind_obj), 1, 0, -1 });
	sp->unwind_rows_map = push_map(g, (struct spec_map){
		"dscope_uw_rows", BPF_MAP_TYPE_ARRAY, 4, sizeof(struct unwind_row),
		1, BPF_F_RDONLY_PROG, -1 });
	sp->unwind_procs_map = push_map(g, (struct spec_map){
		"dscope_uw_procs", BPF_MAP_TYPE_HASH, 4, sizeof(struct unwind_proc),
		UNWIND_PROCS_MAX, BPF_F_NO_PREALLOC, -1 });
	sp->unwind_want_map = push_map(g, (struct spec_map){
		"dscope_uw_want", BPF_MAP_TYPE_HASH, 4, 4, UNWIND_WANT_MAX, 0, -1 });
	sp->unwind_short_map = push_map(g, (struct spec_map){
		"dscope_uw_short", BPF_MAP_TYPE_ARRAY, 4, 8, UW_WHY_COUNT, 0, -1 });
}

/*
 * The task's mm and user registers into st, by typed pointers:
 *
 *	task = bpf_get_current_task_btf()
 *	st->mm = task->mm
 *	st->mm_end = task->mm->end_code; st->mm_stack = task->mm->start_stack
 *	regs = bpf_task_pt_regs(task)
 *	st->pc, sp, bp = regs->ip, sp, bp
 */
static void regs_by_btf(struct cg *g, uint32_t st, const struct ktype_field *mm)
{
	emit_call(&g->e, BPF_FUNC_get_current_task_btf);
	emit_load(&g->e, 8, R1, R0, (int16_t)mm[TASK_MM].off[0]);
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(mm)), R1);
	emit_load(&g->e, 8, R2, R1, (int16_t)mm[MM_END_CODE].off[0]);
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(mm_end)), R2);
	emit_load(&g->e, 8, R2, R1, (int16_t)mm[MM_START_STACK].off[0]);
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(mm_stack)), R2);
	emit_mov_reg(&g->e, R1, R0);
	emit_call(&g->e, BPF_FUNC_task_pt_regs);
	emit_load(&g->e, 8, R1, R0, PT_REGS_IP);
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(pc)), R1);
	emit_load(&g->e, 8, R1, R0, PT_REGS_SP);
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(sp)), R1);
	emit_load(&g->e, 8, R1, R0, PT_REGS_BP);
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(bp)), R1);
}

/* scratch[dst, dst + size) = the kernel's bytes at r3, zero if they
 * cannot be read (bpf_probe_read_kernel clears them) */
static void kread_scratch(struct cg *g, uint32_t dst, int size)
{
	cg_scratch_ptr(g, R1, dst);
	emit_mov_imm(&g->e, R2, size);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
}

/*
 * The same before 5.15 (kcaps.h: task_pt_regs), by probe reads from
 * bpf_get_current_task: the registers where x86-64's task_pt_regs()
 * finds them, at the top of the thread's kernel stack, as uregs[] reads
 * them there (cg_expr.c); read whole into the window, which holds nothing
 * yet.  A read that fails leaves zeros: a kernel thread's mm is NULL,
 * and a pc of 0 ends the walk before its first frame.
 *
 *	task = bpf_get_current_task(); window[0] = task
 *	st->mm = task->mm
 *	st->mm_end = st->mm->end_code; st->mm_stack = st->mm->start_stack
 *	window[1] = task->stack
 *	window[0, PT_REGS_SIZE) = *(struct pt_regs *)(window[1] + THREAD_SIZE - PT_REGS_SIZE)
 *	st->pc, sp, bp = the window's ip, sp, bp
 */
static void regs_by_stack(struct cg *g, const struct node *n, uint32_t st,
			  const struct ktype_field *mm)
{
	struct ktype_field stack;
	uint32_t win = st + WIN;

	if (ktype_field("task_struct.stack", &stack) < 0 || stack.nhops != 1)
		diag_fail(g->d, n->line, n->col, "D_KTYPE",
			  "ustack( ): kernel type information (BTF) lacks task_struct.stack");
	emit_call(&g->e, BPF_FUNC_get_current_task);
	emit_store(&g->e, 8, R9, (int16_t)win, R0);
	emit_mov_reg(&g->e, R3, R0);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)mm[TASK_MM].off[0]);
	kread_scratch(g, st + ST(mm), 8);
	emit_load(&g->e, 8, R3, R9, (int16_t)(st + ST(mm)));
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)mm[MM_END_CODE].off[0]);
	kread_scratch(g, st + ST(mm_end), 8);
	emit_load(&g->e, 8, R3, R9, (int16_t)(st + ST(mm)));
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)mm[MM_START_STACK].off[0]);
	kread_scratch(g, st + ST(mm_stack), 8);
	emit_load(&g->e, 8, R3, R9, (int16_t)win);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)stack.off[0]);
	kread_scratch(g, win + 8, 8);
	emit_load(&g->e, 8, R3, R9, (int16_t)(win + 8));
	emit_alu_imm(&g->e, BPF_ADD, R3, THREAD_SIZE - PT_REGS_SIZE);
	kread_scratch(g, win, PT_REGS_SIZE);
	emit_load(&g->e, 8, R1, R9, (int16_t)(win + PT_REGS_IP));
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(pc)), R1);
	emit_load(&g->e, 8, R1, R9, (int16_t)(win + PT_REGS_SP));
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(sp)), R1);
	emit_load(&g->e, 8, R1, R9, (int16_t)(win + PT_REGS_BP));
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(bp)), R1);
}

/*
 * The frames without bpf_loop: the step is a global function (5.6),
 * which the verifier checks once, from its one u64 argument, and a
 * call of it costs the caller's check a few instructions; the loop
 * around the calls is a bounded loop (5.3), checked once a frame:
 *
 *	cnt = frames
 * top:
 *	if (uw_step(*ctx)) goto done
 *	if (--cnt > 0) goto top
 * done:
 */
static void step_loop(struct cg *g, const struct node *n, int16_t ctx, uint32_t frames)
{
	int16_t cnt = cg_slot_new(g, n);
	int top = emit_new_label(&g->e), done = emit_new_label(&g->e);

	emit_store_imm(&g->e, 8, R10, cnt, (int32_t)frames);
	emit_label(&g->e, top);
	emit_load(&g->e, 8, R1, R10, ctx);
	emit_call_func(&g->e, g->uw_step);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, done);
	emit_load(&g->e, 8, R1, R10, cnt);
	emit_alu_imm(&g->e, BPF_SUB, R1, 1);
	emit_store(&g->e, 8, R10, cnt, R1);
	emit_jmp_imm(&g->e, BPF_JSGT, R1, 0, top);
	emit_label(&g->e, done);
}

/*
 * The walk, from the user registers of the current task:
 *
 *	task = bpf_get_current_task_btf()
 *	st->mm_end = task->mm->end_code; st->mm_stack = task->mm->start_stack
 *	regs = bpf_task_pt_regs(task)
 *	st = { regs->ip, regs->sp, regs->bp, out = &temp[1],
 *	       end = &temp[1 + frames], first = 1 + entry, no mappings,
 *	       tgid = temp[0], noted = why = win_lo = win_hi = 0 }
 *
 * entry: the pid program's uprobe_entry says whether this uprobe is at a
 * function's first instruction (an offset probe shares the program):
 *	entry = uprobe_entry->flags & UPROBE_F_ENTRY		(r7)
 *	ctx = offset of st
 *	bpf_loop(frames, uw_step, &ctx, 0)	or step_loop()
 * (the mm and registers by regs_by_btf, or regs_by_stack before 5.15)
 */
static void walk(struct cg *g, const struct node *n, struct val v,
		 uint32_t frames, bool entry)
{
	struct ktype_field f[NPATHS], mm[NMMPATHS];
	uint32_t st = cg_temp_new(g, n, sizeof(struct uw_state) + UW_WINDOW);
	int16_t ctx = cg_slot_new(g, n);

	kfields(g, n, vma_paths, NPATHS, f);
	kfields(g, n, mm_paths, NMMPATHS, mm);
	unwind_maps(g);
	if (!g->uw_used) {
		g->uw_used = true;
		g->uw_step = emit_new_label(&g->e);
		g->uw_vma = emit_new_label(&g->e);
	}
	if (kcaps_has(KCAP_TASK_PT_REGS))
		regs_by_btf(g, st, mm);
	else
		regs_by_stack(g, n, st, mm);
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(out)), (int32_t)(v.off + 8));
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(end)),
		       (int32_t)(v.off + 8 + 8 * frames));
	if (entry) {
		emit_load(&g->e, 4, R1, R7, offsetof(struct uprobe_entry, flags));
		emit_alu_imm(&g->e, BPF_AND, R1, UPROBE_F_ENTRY);
		emit_alu_imm(&g->e, BPF_ADD, R1, 1);
		emit_store(&g->e, 8, R9, (int16_t)(st + ST(first)), R1);
	} else {
		emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(first)), 1);
	}
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(cur.vstart)), 0);
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(cur.vend)), 0);
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(prev.vstart)), 0);
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(prev.vend)), 0);
	emit_load(&g->e, 8, R1, R9, (int16_t)v.off);
	emit_store(&g->e, 8, R9, (int16_t)(st + ST(tgid)), R1);
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(noted)), 0);
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(why)), 0);
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(win_lo)), 0);
	emit_store_imm(&g->e, 8, R9, (int16_t)(st + ST(win_hi)), 0);
	/* the callbacks find the state in this firing's level's area */
	emit_load(&g->e, 8, R1, R10, SLOT_LEVEL);
	emit_alu_imm(&g->e, BPF_LSH, R1, 32);
	emit_alu_imm(&g->e, BPF_OR, R1, (int32_t)st);
	emit_store(&g->e, 8, R10, ctx, R1);
	if (!kcaps_has(KCAP_LOOP)) {
		step_loop(g, n, ctx, frames);
		return;
	}
	emit_mov_imm(&g->e, R1, (int32_t)frames);
	emit_ld_func(&g->e, R2, g->uw_step);
	cg_fp_ptr(g, R3, ctx);
	emit_mov_imm(&g->e, R4, 0);
	emit_call(&g->e, BPF_FUNC_loop);
}

/*
 * The frame-pointer walk:
 *
 *	bpf_get_stack(ctx, &temp[1], n * 8, BPF_F_USER_STACK)
 *
 * At a pid entry probe the function has not pushed its frame, so the
 * walk goes from the function's pc straight to the caller's caller: the
 * caller's return address, still at [sp], is put second (DESIGN.md 3.8):
 *
 *	bpf_get_stack(ctx, &temp[2], (n - 1) * 8, BPF_F_USER_STACK)
 *	temp[1] = temp[2]			the pc
 *	bpf_probe_read_user(&temp[2], 8, regs->sp)
 *
 * In the pid entry program that is decided per firing, by the probe's
 * UPROBE_F_ENTRY: offset probes share the program, inside the frame.
 */
static void fp_walk_one(struct cg *g, struct val v, uint32_t frames, bool entry)
{
	emit_mov_reg(&g->e, R1, R6);
	cg_scratch_ptr(g, R2, v.off + (entry ? 16 : 8));
	emit_mov_imm(&g->e, R3, (int32_t)((entry ? frames - 1 : frames) * 8));
	emit_mov_imm(&g->e, R4, (int32_t)F_USER_STACK);
	emit_call(&g->e, BPF_FUNC_get_stack);
	if (entry) {
		emit_load(&g->e, 8, R0, R9, (int16_t)(v.off + 16));
		emit_store(&g->e, 8, R9, (int16_t)(v.off + 8), R0);
		cg_scratch_ptr(g, R1, v.off + 16);
		emit_mov_imm(&g->e, R2, 8);
		emit_load(&g->e, 8, R3, R6, PT_REGS_SP);
		emit_call(&g->e, BPF_FUNC_probe_read_user);
	}
}

/*
 *	if (uprobe_entry->flags & UPROBE_F_ENTRY) goto at_entry	(r7)
 *	the plain walk; goto done
 * at_entry:
 *	the entry walk
 */
static void fp_walk(struct cg *g, struct val v, uint32_t frames, bool entry)
{
	int at_entry = emit_new_label(&g->e), done = emit_new_label(&g->e);

	if (!entry) {
		fp_walk_one(g, v, frames, false);
		return;
	}
	emit_load(&g->e, 4, R1, R7, offsetof(struct uprobe_entry, flags));
	emit_jmp_imm(&g->e, BPF_JSET, R1, UPROBE_F_ENTRY, at_entry);
	fp_walk_one(g, v, frames, false);
	emit_ja(&g->e, done);
	emit_label(&g->e, at_entry);
	fp_walk_one(g, v, frames, true);
	emit_label(&g->e, done);
}

/*
 * ustack() of another task: sched:::on-cpu runs in the task leaving the
 * CPU, and BPF cannot read the incoming task's memory from there.  A
 * blocked task's user stack does not change, so, as for stack(), the
 * on-cpu program saves each leaving task's user stack at its end
 * (cg_save_offcpu_ustack), keyed by thread, and ustack() looks up the
 * incoming one's (DESIGN.md 3.6).  Kept: OFFCPU_USTACK_FRAMES frames, in
 * an LRU map, as threads come and go.  It costs a walk per context
 * switch, paid only by scripts that ask for ustack() at on-cpu.
 */
#define OFFCPU_USTACK_FRAMES 32
#define OFFCPU_USTACK ((OFFCPU_USTACK_FRAMES + 2) * 8)

static int offcpu_ustack_map(struct cg *g)
{
	struct spec *sp = g->spec;
	struct spec_map *m;

	for (int i = 0; i < sp->nmaps; i++)
		if (strcmp(sp->maps[i].name, "dscope_offustk") == 0)
			return i;
	m = ARENA_PUSH(g->a, sp->maps, sp->nmaps, g->c->maps_cap);
	*m = (struct spec_map){ "dscope_offustk", BPF_MAP_TYPE_LRU_HASH, 8,
				OFFCPU_USTACK, 4096, 0, -1 };
	return sp->nmaps - 1;
}

static struct val saved_ustack(struct cg *g, struct node *n, struct val v)
{
	g->save_offcpu_ustack = true;
	return cg_saved_stack(g, n, v, offcpu_ustack_map(g), OFFCPU_USTACK);
}

/*
 * At the end of an on-cpu program that used ustack(): the leaving task's
 * user stack, walked as ustack() walks it, kept for when it comes back.
 *
 *	temp = ustack(OFFCPU_USTACK_FRAMES)	of the current task
 *	key = pid_tgid; update(offustk, &key, temp)
 */
void cg_save_offcpu_ustack(struct cg *g)
{
	struct node at = { .line = 0 };
	struct val v;
	int16_t key;

	if (!g->save_offcpu_ustack)
		return;
	g->sp = SLOT_FIRST + 8;
	g->tmp = g->tmp_base;
	at.type.kind = T_STACK;
	at.type.user = true;
	at.type.size = OFFCPU_USTACK;
	g->self_task = true;
	v = cg_ustack(g, &at);
	g->self_task = false;
	key = cg_slot_new(g, &at);
	emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
	cg_store_slot(g, key, R0);
	cg_ld_map(g, R1, offcpu_ustack_map(g));
	cg_fp_ptr(g, R2, key);
	cg_scratch_ptr(g, R3, v.off);
	emit_mov_imm(&g->e, R4, BPF_ANY);
	emit_call(&g->e, BPF_FUNC_map_update_elem);
}

/*
 * The .eh_frame walk's loop is bpf_loop's (5.17); before it, a bounded
 * loop (5.3) calling the step as a global function (5.6): the verifier
 * checks a global function once, on its own, from its prototype -- one
 * u64, the state's word, as bpf_loop's callback gets a pointer to it --
 * and each call costs the loop's check a few instructions.  Measured in
 * the 5.10 guest (Debian 11's 5.10.0-46, under qemu's TCG) for
 * profile-997 { @[ustack(n)] = count(); }: 12,204 instructions processed
 * at n = 5, 13,780 at 100 (the default), 14,263 at 127 (the most a stack
 * holds), of the 1,000,000 the verifier allows; loaded in 0.2-0.4 s
 * there (0.02 s on this host's 6.18 with the same code).  Every frame a
 * stack can hold is reachable.  The routes not taken: the step unrolled
 * in place, once a frame, multiplies the paths the verifier follows by
 * the frames ("Why callbacks", above: the step is most of the 12,204,
 * so, by estimate, not measured, some 80 frames would meet the limit);
 * tail calls carry no state but a map's and cost a program per depth.  What a
 * global function may not do: take a pointer to the caller's stack
 * (only scalars and the context), so it looks its state up again from
 * the word, as the callbacks do.
 *
 * Without bpf_find_vma (5.17) each mapping the tables do not hold yet
 * is found in the mm's red-black tree (rb_mapping); without
 * bpf_task_pt_regs (5.15) the registers are read at the top of the
 * kernel stack (regs_by_stack).  Without both bpf_loop and global
 * functions, the frame-pointer walk, as with -x ustackrows=0.
 */
static bool unwind_usable(void)
{
	return kcaps_has(KCAP_LOOP) || kcaps_has(KCAP_GLOBAL_FUNC);
}

/*
 * ustack([n]): the pid, then the user stack, in a temp of n + 2 words
 * (the last, and any the walk leaves, zero):
 *
 *	temp = { 0 }
 *	temp[0] = pid
 *	the .eh_frame walk (a target) or the frame-pointer walk
 */
struct val cg_ustack(struct cg *g, struct node *n)
{
	struct val v = { .str = true, .size = n->type.size };
	uint32_t frames = v.size / 8 - 2;
	bool entry = g->att == ATTACH_UPROBE;

	g->spec->user_stacks = true;
	if (g->att == ATTACH_REPLAY)	/* the recorded frames */
		return cg_replay_stack(g, n, true);
	v.off = cg_temp_new(g, n, v.size);
	if (cg_other_task(g))
		return saved_ustack(g, n, v);
	cg_zero_words(g, R9, v.off, v.size);
	emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
	emit_alu_imm(&g->e, BPF_RSH, R0, 32);
	emit_store(&g->e, 8, R9, (int16_t)v.off, R0);
	if (frames == 0)
		return v;
	if (g->c->unwind && unwind_usable())
		walk(g, n, v, frames, entry);
	else
		fp_walk(g, v, frames, entry && frames >= 2);
	return v;
}

/* ---- the callbacks ---- */

/*
 * Both callbacks start by finding the walk's state; ctx_reg holds their
 * context, the caller's stack word with the firing's scratch level
 * (SCRATCH_LEVELS, spec.h) and the state's offset in that area:
 *
 *	r8 = *ctx_reg; level = r8 >> 32; r8 &= 0xffffffff
 *	r9 = lookup(scratch, &level); if (!r9) goto fail
 *	if (r8 > ST_MAX) goto fail
 *	r8 += r9				st
 */
static void find_state(struct cg *g, int ctx_reg, int fail)
{
	emit_load(&g->e, 8, R8, ctx_reg, 0);
	emit_mov_reg(&g->e, R1, R8);
	emit_alu_imm(&g->e, BPF_RSH, R1, 32);
	emit_store(&g->e, 8, R10, -8, R1);
	emit_alu_imm(&g->e, BPF_LSH, R8, 32);
	emit_alu_imm(&g->e, BPF_RSH, R8, 32);
	cg_ld_map(g, R1, MAP_SCRATCH);
	cg_fp_ptr(g, R2, -8);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, fail);
	emit_mov_reg(&g->e, R9, R0);
	emit_jmp_imm(&g->e, BPF_JGT, R8, (int32_t)ST_MAX, fail);
	emit_alu_reg(&g->e, BPF_ADD, R8, R9);
}

static void st_load(struct cg *g, int size, int reg, int16_t field)
{
	emit_load(&g->e, size, reg, R8, field);
}

static void st_store(struct cg *g, int16_t field, int reg)
{
	emit_store(&g->e, 8, R8, field, reg);
}

/*
 * *(fp - 8) = *(*(fp - 8) + off), size bytes, by bpf_probe_read_kernel:
 * one step along pointers the verifier cannot type; to out if the read
 * fails or gives 0.
 */
static void read_hop(struct cg *g, int32_t off, int size, int out)
{
	emit_load(&g->e, 8, R3, R10, -8);
	emit_alu_imm(&g->e, BPF_ADD, R3, off);
	emit_store_imm(&g->e, 8, R10, -8, 0);
	cg_fp_ptr(g, R1, -8);
	emit_mov_imm(&g->e, R2, size);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, out);
	emit_load(&g->e, 8, R1, R10, -8);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, out);
}

/*
 * A file mapped through overlayfs (containers; the test guests' root) is
 * on 6.8 and later a backing_file: vm_file->f_inode is the layer's inode,
 * but /proc/PID/maps and stat() show the overlay's, which is what the
 * runtime keys the file's rows by (rt/unwind.c).  So where BTF has
 * backing_file.user_path, the callback also reads the overlay's inode
 * from there into st->ukey, tried when st->key finds nothing.  vm_file
 * may be a plain file, whose memory past struct file is another
 * object's: the reads are probe reads, and what they find names no
 * object but by a chance not worth counting.
 *
 *	fp[-8] = vm_file; hop(user_path.dentry); hop(d_inode); fp[-16] = it
 *	hop(i_ino): st->ukey.ino; fp[-8] = fp[-16]; hop(i_sb); hop(s_dev): st->ukey.dev
 */
static void user_inode(struct cg *g, int file_reg, int out)
{
	struct ktype_field up, di, ino, sb, dev;

	if (ktype_field("backing_file.user_path.dentry", &up) < 0 || up.nhops != 1 ||
	    ktype_field("dentry.d_inode", &di) < 0 || di.nhops != 1 ||
	    ktype_field("inode.i_ino", &ino) < 0 || ktype_field("inode.i_sb", &sb) < 0 ||
	    ktype_field("super_block.s_dev", &dev) < 0)
		return;
	emit_store(&g->e, 8, R10, -8, file_reg);
	read_hop(g, (int32_t)up.off[0], 8, out);
	read_hop(g, (int32_t)di.off[0], 8, out);
	emit_load(&g->e, 8, R1, R10, -8);
	emit_store(&g->e, 8, R10, -16, R1);
	read_hop(g, (int32_t)ino.off[0], (int)ino.size, out);
	st_store(g, ST(ukey.ino), R1);
	emit_load(&g->e, 8, R1, R10, -16);
	emit_store(&g->e, 8, R10, -8, R1);
	read_hop(g, (int32_t)sb.off[0], 8, out);
	read_hop(g, (int32_t)dev.off[0], (int)dev.size, out);
	st_store(g, ST(ukey.dev), R1);
}

/*
 * uw_vma(task, vma, ctx), bpf_find_vma's callback: the mapping's range,
 * its bias and its file's identity into st.
 *
 *	st->cur.vstart = vma->vm_start; st->cur.vend = vma->vm_end
 *	st->cur.vbias = (vma->vm_pgoff << PAGE_SHIFT) - vma->vm_start
 *	if (vma->vm_file && (i = vma->vm_file->f_inode))
 *		st->key = { i->i_sb->s_dev, i->i_ino }
 *	st->ukey = the overlay's inode, if a backing file (user_inode)
 *	return 0
 */
static void emit_vma_callback(struct cg *g)
{
	struct node at = { .str = "ustack" };
	struct ktype_field f[NPATHS];
	int out = emit_new_label(&g->e);

	kfields(g, &at, vma_paths, NPATHS, f);
	emit_label(&g->e, g->uw_vma);
	emit_mov_reg(&g->e, R6, R2);
	emit_mov_reg(&g->e, R7, R3);
	find_state(g, R7, out);
	emit_load(&g->e, 8, R1, R6, (int16_t)f[VM_START].off[0]);
	st_store(g, ST(cur.vstart), R1);
	emit_load(&g->e, 8, R2, R6, (int16_t)f[VM_END].off[0]);
	st_store(g, ST(cur.vend), R2);
	emit_load(&g->e, 8, R2, R6, (int16_t)f[VM_PGOFF].off[0]);
	emit_alu_imm(&g->e, BPF_LSH, R2, PAGE_SHIFT);
	emit_alu_reg(&g->e, BPF_SUB, R2, R1);
	st_store(g, ST(cur.vbias), R2);
	emit_load(&g->e, 8, R1, R6, (int16_t)f[VM_FILE].off[0]);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, out);
	emit_load(&g->e, 8, R1, R1, (int16_t)f[F_INODE].off[0]);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, out);
	emit_load(&g->e, (int)f[I_INO].size, R2, R1, (int16_t)f[I_INO].off[0]);
	st_store(g, ST(key.ino), R2);
	emit_load(&g->e, 8, R1, R1, (int16_t)f[I_SB].off[0]);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, out);
	emit_load(&g->e, (int)f[S_DEV].size, R2, R1, (int16_t)f[S_DEV].off[0]);
	st_store(g, ST(key.dev), R2);
	emit_load(&g->e, 8, R1, R6, (int16_t)f[VM_FILE].off[0]);
	user_inode(g, R1, out);
	emit_label(&g->e, out);
	emit_mov_imm(&g->e, R0, 0);
	emit_exit(&g->e);
}

/*
 * st->cur and st->prev change places, word by word:
 *
 *	r1 = cur.w; r2 = prev.w; cur.w = r2; prev.w = r1	(each word)
 */
static void swap_maps(struct cg *g)
{
	for (int i = 0; i < (int)MAP_WORDS; i++) {
		st_load(g, 8, R1, (int16_t)(ST(cur) + 8 * i));
		st_load(g, 8, R2, (int16_t)(ST(prev) + 8 * i));
		st_store(g, (int16_t)(ST(cur) + 8 * i), R2);
		st_store(g, (int16_t)(ST(prev) + 8 * i), R1);
	}
}

/*
 * The mapping of r7 in the process's table (spec.h), into st->cur, then
 * goto have; to unknown if the process has no table, one read from
 * another mm, or no mapping there holds r7 (mapped since: dlopen).  No
 * helper is called between the lookup and the copy, so r0-r5 are free
 * for the search (the last mapping starting at or below r7):
 *
 *	fp[-8] = st->tgid
 *	r0 = lookup(procs, &fp[-8]); if (!r0) goto unknown
 *	if (r0->end_code != st->mm_end || r0->start_stack != st->mm_stack)
 *		goto unknown
 *	lo = 0 (r1); hi = min(r0->n, UNWIND_PROC_VMAS) (r2)
 *	each of UNWIND_PROC_STEPS steps:
 *		if (hi - lo <= 1) goto found
 *		mid = lo + (hi - lo) / 2
 *		if (r0->vmas[mid].start > r7) hi = mid; else lo = mid
 * found:
 *	if (!hi) goto unknown; v = &r0->vmas[lo]	(r4)
 *	if (r7 < v->start || r7 >= v->end) goto unknown
 *	st->cur = *v; goto have
 */
static void proc_mapping(struct cg *g, int unknown, int have)
{
	int found = emit_new_label(&g->e), capped = emit_new_label(&g->e);
	const int16_t vmas = offsetof(struct unwind_proc, vmas);

	st_load(g, 8, R1, ST(tgid));
	emit_store(&g->e, 8, R10, -8, R1);
	cg_ld_map(g, R1, g->spec->unwind_procs_map);
	cg_fp_ptr(g, R2, -8);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, unknown);
	emit_load(&g->e, 8, R1, R0, offsetof(struct unwind_proc, end_code));
	st_load(g, 8, R2, ST(mm_end));
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, unknown);
	emit_load(&g->e, 8, R1, R0, offsetof(struct unwind_proc, start_stack));
	st_load(g, 8, R2, ST(mm_stack));
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, unknown);
	emit_load(&g->e, 4, R2, R0, offsetof(struct unwind_proc, n));
	emit_mov_imm(&g->e, R1, 0);
	emit_jmp_imm(&g->e, BPF_JLE, R2, UNWIND_PROC_VMAS, capped);
	emit_mov_imm(&g->e, R2, UNWIND_PROC_VMAS);
	emit_label(&g->e, capped);
	for (int k = 0; k < UNWIND_PROC_STEPS; k++) {
		int upper = emit_new_label(&g->e), next = emit_new_label(&g->e);

		emit_mov_reg(&g->e, R3, R2);
		emit_alu_reg(&g->e, BPF_SUB, R3, R1);
		emit_jmp_imm(&g->e, BPF_JLE, R3, 1, found);
		emit_alu_imm(&g->e, BPF_RSH, R3, 1);
		emit_alu_reg(&g->e, BPF_ADD, R3, R1);
		emit_mov_reg(&g->e, R4, R3);
		emit_alu_imm(&g->e, BPF_AND, R4, UNWIND_PROC_VMAS - 1);
		emit_alu_imm(&g->e, BPF_LSH, R4, 5);	/* sizeof(struct unwind_vma) */
		emit_alu_reg(&g->e, BPF_ADD, R4, R0);
		emit_load(&g->e, 8, R5, R4, (int16_t)(vmas + offsetof(struct unwind_vma, start)));
		emit_jmp_reg(&g->e, BPF_JGT, R5, R7, upper);
		emit_mov_reg(&g->e, R1, R3);
		emit_ja(&g->e, next);
		emit_label(&g->e, upper);
		emit_mov_reg(&g->e, R2, R3);
		emit_label(&g->e, next);
	}
	emit_label(&g->e, found);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, unknown);
	emit_mov_reg(&g->e, R4, R1);
	emit_alu_imm(&g->e, BPF_AND, R4, UNWIND_PROC_VMAS - 1);
	emit_alu_imm(&g->e, BPF_LSH, R4, 5);
	emit_alu_reg(&g->e, BPF_ADD, R4, R0);
	emit_load(&g->e, 8, R5, R4, (int16_t)(vmas + offsetof(struct unwind_vma, start)));
	emit_jmp_reg(&g->e, BPF_JGT, R5, R7, unknown);
	emit_load(&g->e, 8, R5, R4, (int16_t)(vmas + offsetof(struct unwind_vma, end)));
	emit_jmp_reg(&g->e, BPF_JGE, R7, R5, unknown);
	for (int i = 0; i < (int)MAP_WORDS; i++) {
		emit_load(&g->e, 8, R5, R4, (int16_t)(vmas + 8 * i));
		st_store(g, (int16_t)(ST(cur) + 8 * i), R5);
	}
	emit_ja(&g->e, have);
}

/* st[field, field + size) = the kernel's bytes at r3, zero if they
 * cannot be read */
static void st_kread(struct cg *g, int16_t field, int size)
{
	emit_mov_reg(&g->e, R1, R8);
	emit_alu_imm(&g->e, BPF_ADD, R1, field);
	emit_mov_imm(&g->e, R2, size);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
}

/* r3 = st->field + off */
static void st_addr(struct cg *g, int16_t field, int32_t off)
{
	st_load(g, 8, R3, field);
	emit_alu_imm(&g->e, BPF_ADD, R3, off);
}

/* the tree of an mm's mappings, before 6.1's maple tree */
static const char *const rb_paths[] = {
	"mm_struct.mm_rb.rb_node", "vm_area_struct.vm_rb",
	"rb_node.rb_left", "rb_node.rb_right",
};
enum { MM_RB, VM_RB, RB_LEFT, RB_RIGHT, NRBPATHS };

/* The deepest red-black tree of vm.max_map_count's 65530 mappings is
 * 2 log2(65531) < 32 nodes deep. */
#define UW_RB_STEPS 32

static bool rb_fields(struct ktype_field *rb)
{
	for (int i = 0; i < NRBPATHS; i++)
		if (ktype_field(rb_paths[i], &rb[i]) < 0 || rb[i].nhops != 1)
			return false;
	return true;
}

/*
 * bpf_find_vma's work before 5.17, where it is missing: the mapping of
 * r7 from the mm's red-black tree of mappings (kernels before 6.1 keep
 * one), as the kernel's find_vma() descends it -- the lowest mapping
 * ending above r7 -- by probe reads, into st as uw_vma puts it there.
 * No lock is taken: a tree changing under the walk (a mapping made or
 * unmapped in another thread at that moment) can lose its way, and the
 * read that fails, or a node of 0, ends the descent with what it has;
 * a mapping that does not hold r7 leaves st->cur.vend 0, and the frame
 * goes by its frame pointer.  Without the tree in BTF (6.1's maple
 * tree comes with bpf_find_vma), the tables alone.
 *
 *	st->vma = 0; st->node = st->mm->mm_rb.rb_node
 *	each of UW_RB_STEPS steps:
 *		if (!st->node) break
 *		v = st->node - offsetof(vm_rb)
 *		if (r7 >= v->vm_end) { st->node = st->node->rb_right; continue }
 *		st->vma = v; if (v->vm_start <= r7) break
 *		st->node = st->node->rb_left
 *	if (!(v = st->vma)) goto out
 *	st->cur.vstart = v->vm_start; st->cur.vend = v->vm_end
 *	if (r7 < st->cur.vstart) { st->cur.vstart = st->cur.vend = 0; goto out }
 *	st->cur.vbias = (v->vm_pgoff << PAGE_SHIFT) - st->cur.vstart
 *	i = v->vm_file->f_inode (0: out); st->key = { i->i_sb->s_dev, i->i_ino }
 * out:
 * (st->cur.vstart, vend, vbias and st->node serve as the reads' places)
 */
static void rb_mapping(struct cg *g)
{
	struct ktype_field f[NPATHS], rb[NRBPATHS];
	int walked = emit_new_label(&g->e), out = emit_new_label(&g->e);
	int above = emit_new_label(&g->e);

	if (!rb_fields(rb))
		return;
	kfields(g, &(struct node){ .str = "ustack" }, vma_paths, NPATHS, f);
	emit_store_imm(&g->e, 8, R8, ST(vma), 0);
	st_load(g, 8, R3, ST(mm));
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, out);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)rb[MM_RB].off[0]);
	st_kread(g, ST(node), 8);
	for (int k = 0; k < UW_RB_STEPS; k++) {
		int right = emit_new_label(&g->e), next = emit_new_label(&g->e);

		st_load(g, 8, R3, ST(node));
		emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, walked);
		emit_alu_imm(&g->e, BPF_ADD, R3,
			     (int32_t)f[VM_END].off[0] - (int32_t)rb[VM_RB].off[0]);
		st_kread(g, ST(cur.vend), 8);
		st_load(g, 8, R1, ST(cur.vend));
		emit_jmp_reg(&g->e, BPF_JGE, R7, R1, right);
		st_load(g, 8, R3, ST(node));
		emit_alu_imm(&g->e, BPF_SUB, R3, (int32_t)rb[VM_RB].off[0]);
		st_store(g, ST(vma), R3);
		emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)f[VM_START].off[0]);
		st_kread(g, ST(cur.vstart), 8);
		st_load(g, 8, R1, ST(cur.vstart));
		emit_jmp_reg(&g->e, BPF_JLE, R1, R7, walked);
		st_addr(g, ST(node), (int32_t)rb[RB_LEFT].off[0]);
		st_kread(g, ST(node), 8);
		emit_ja(&g->e, next);
		emit_label(&g->e, right);
		st_addr(g, ST(node), (int32_t)rb[RB_RIGHT].off[0]);
		st_kread(g, ST(node), 8);
		emit_label(&g->e, next);
	}
	emit_label(&g->e, walked);
	emit_store_imm(&g->e, 8, R8, ST(cur.vstart), 0);
	emit_store_imm(&g->e, 8, R8, ST(cur.vend), 0);
	st_load(g, 8, R3, ST(vma));
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, out);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)f[VM_START].off[0]);
	st_kread(g, ST(cur.vstart), 8);
	st_addr(g, ST(vma), (int32_t)f[VM_END].off[0]);
	st_kread(g, ST(cur.vend), 8);
	st_load(g, 8, R1, ST(cur.vstart));
	emit_jmp_reg(&g->e, BPF_JLE, R1, R7, above);
	emit_store_imm(&g->e, 8, R8, ST(cur.vstart), 0);
	emit_store_imm(&g->e, 8, R8, ST(cur.vend), 0);
	emit_ja(&g->e, out);
	emit_label(&g->e, above);
	st_addr(g, ST(vma), (int32_t)f[VM_PGOFF].off[0]);
	st_kread(g, ST(cur.vbias), 8);
	st_load(g, 8, R2, ST(cur.vbias));
	emit_alu_imm(&g->e, BPF_LSH, R2, PAGE_SHIFT);
	st_load(g, 8, R1, ST(cur.vstart));
	emit_alu_reg(&g->e, BPF_SUB, R2, R1);
	st_store(g, ST(cur.vbias), R2);
	st_addr(g, ST(vma), (int32_t)f[VM_FILE].off[0]);
	st_kread(g, ST(node), 8);
	st_addr(g, ST(node), 0);
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, out);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)f[F_INODE].off[0]);
	st_kread(g, ST(node), 8);
	st_addr(g, ST(node), 0);
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, out);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)f[I_INO].off[0]);
	st_kread(g, ST(key.ino), (int)f[I_INO].size);
	st_addr(g, ST(node), (int32_t)f[I_SB].off[0]);
	st_kread(g, ST(node), 8);
	st_addr(g, ST(node), 0);
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, out);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)f[S_DEV].off[0]);
	st_kread(g, ST(key.dev), (int)f[S_DEV].size);
	emit_label(&g->e, out);
}

/*
 * st->cur becomes the mapping of the lookup address r7: it is already,
 * or st->prev is (they change places), or the process's table has it
 * (and the old cur becomes prev), or bpf_find_vma finds it while the
 * runtime is asked for the process's table:
 *
 *	if (r7 >= st->cur.vstart && r7 < st->cur.vend) goto have
 *	r3 = r7 >= st->prev.vstart && r7 < st->prev.vend
 *	swap(st->cur, st->prev)
 *	if (r3) goto have
 *	proc_mapping(): goto have, or unknown
 * unknown:
 *	if (!st->noted) {
 *		st->noted = 1; fp[-16] = 1
 *		update(want, &fp[-8] (the tgid), &fp[-16], BPF_NOEXIST)
 *	}
 *	st->cur = { .obj = { UW_WHY_PENDING, 0 } }; st->key = st->ukey = 0
 *	bpf_find_vma(bpf_get_current_task_btf(), r7, uw_vma, ctx, 0)
 *		(before 5.17: rb_mapping(), the same from the mm's tree)
 *	if (st->cur.vend && !st->key.ino)	found, and no file: no rows to wait for
 *		st->cur.obj = { UW_WHY_NONE, 0 }; goto have
 *	if (st->key.ino && (o = lookup(objs, &st->key))) st->cur.obj = *o
 *	else if (st->ukey.ino && (o = lookup(objs, &st->ukey))) st->cur.obj = *o
 * have:
 */
static void find_mapping(struct cg *g)
{
	int not_cur = emit_new_label(&g->e), swap = emit_new_label(&g->e);
	int have = emit_new_label(&g->e), unknown = emit_new_label(&g->e);
	int noted = emit_new_label(&g->e), file = emit_new_label(&g->e);

	st_load(g, 8, R1, ST(cur.vstart));
	emit_jmp_reg(&g->e, BPF_JLT, R7, R1, not_cur);
	st_load(g, 8, R1, ST(cur.vend));
	emit_jmp_reg(&g->e, BPF_JLT, R7, R1, have);
	emit_label(&g->e, not_cur);
	emit_mov_imm(&g->e, R3, 0);
	st_load(g, 8, R1, ST(prev.vstart));
	emit_jmp_reg(&g->e, BPF_JLT, R7, R1, swap);
	st_load(g, 8, R1, ST(prev.vend));
	emit_jmp_reg(&g->e, BPF_JGE, R7, R1, swap);
	emit_mov_imm(&g->e, R3, 1);
	emit_label(&g->e, swap);
	swap_maps(g);				/* r1, r2 only */
	emit_jmp_imm(&g->e, BPF_JNE, R3, 0, have);
	proc_mapping(g, unknown, have);
	emit_label(&g->e, unknown);
	st_load(g, 8, R1, ST(noted));
	emit_jmp_imm(&g->e, BPF_JNE, R1, 0, noted);
	emit_store_imm(&g->e, 8, R8, ST(noted), 1);
	emit_store_imm(&g->e, 8, R10, -16, 1);
	cg_ld_map(g, R1, g->spec->unwind_want_map);
	cg_fp_ptr(g, R2, -8);
	cg_fp_ptr(g, R3, -16);
	emit_mov_imm(&g->e, R4, BPF_NOEXIST);
	emit_call(&g->e, BPF_FUNC_map_update_elem);
	emit_label(&g->e, noted);
	emit_store_imm(&g->e, 8, R8, ST(cur.vstart), 0);
	emit_store_imm(&g->e, 8, R8, ST(cur.vend), 0);
	emit_store_imm(&g->e, 8, R8, ST(cur.obj), UW_WHY_PENDING);	/* first, count 0 */
	emit_store_imm(&g->e, 8, R8, ST(key.dev), 0);
	emit_store_imm(&g->e, 8, R8, ST(key.ino), 0);
	emit_store_imm(&g->e, 8, R8, ST(ukey.dev), 0);
	emit_store_imm(&g->e, 8, R8, ST(ukey.ino), 0);
	if (kcaps_has(KCAP_FIND_VMA)) {
		emit_call(&g->e, BPF_FUNC_get_current_task_btf);
		emit_mov_reg(&g->e, R1, R0);
		emit_mov_reg(&g->e, R2, R7);
		emit_ld_func(&g->e, R3, g->uw_vma);
		emit_mov_reg(&g->e, R4, R6);
		emit_mov_imm(&g->e, R5, 0);
		emit_call(&g->e, BPF_FUNC_find_vma);
	} else {
		rb_mapping(g);
	}
	st_load(g, 8, R1, ST(cur.vend));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, file);
	st_load(g, 8, R1, ST(key.ino));
	emit_jmp_imm(&g->e, BPF_JNE, R1, 0, file);
	emit_store_imm(&g->e, 8, R8, ST(cur.obj), UW_WHY_NONE);
	emit_ja(&g->e, have);
	emit_label(&g->e, file);
	for (int k = 0; k < 2; k++) {	/* key, then ukey */
		int16_t key = k ? ST(ukey) : ST(key);
		int next = emit_new_label(&g->e);

		st_load(g, 8, R1, (int16_t)(key + 8));	/* .ino */
		emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, next);
		cg_ld_map(g, R1, g->spec->unwind_objs_map);
		emit_mov_reg(&g->e, R2, R8);
		emit_alu_imm(&g->e, BPF_ADD, R2, key);
		emit_call(&g->e, BPF_FUNC_map_lookup_elem);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, next);
		emit_load(&g->e, 8, R1, R0, 0);
		st_store(g, ST(cur.obj), R1);
		emit_ja(&g->e, have);
		emit_label(&g->e, next);
	}
	emit_label(&g->e, have);
}

/* r0 = &rows[*(u32 *)(fp - 16)]; if (!r0) goto none */
static void row_lookup(struct cg *g, int none)
{
	cg_ld_map(g, R1, g->spec->unwind_rows_map);
	cg_fp_ptr(g, R2, -16);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, none);
}

/*
 * The rows of st->off's page, as [r6, r7) for search_rows, from the
 * page's index row (spec.h's unwind_obj); offsets past the last page
 * have the index row after it:
 *
 *	p = min(st->off >> UNWIND_PAGE_SHIFT, st->cur.obj.count)
 *	i = rows[st->cur.obj.first + p]; [r6, r7) = [i.pc, i.cfa_off)
 */
static void page_rows(struct cg *g, int none)
{
	int in = emit_new_label(&g->e);

	st_load(g, 8, R1, ST(off));
	emit_alu_imm(&g->e, BPF_RSH, R1, UNWIND_PAGE_SHIFT);
	emit_load(&g->e, 4, R2, R8, ST(cur.obj.count));
	emit_jmp_reg(&g->e, BPF_JLE, R1, R2, in);
	emit_mov_reg(&g->e, R1, R2);
	emit_label(&g->e, in);
	emit_load(&g->e, 4, R2, R8, ST(cur.obj.first));
	emit_alu_reg(&g->e, BPF_ADD, R1, R2);
	emit_store(&g->e, 4, R10, -16, R1);
	row_lookup(g, none);
	emit_load(&g->e, 4, R6, R0, offsetof(struct unwind_row, pc));
	emit_load(&g->e, 4, R7, R0, offsetof(struct unwind_row, cfa_off));
}

/*
 * The row of st->off among the object's rows (r6 = lo, r7 = hi: the
 * last row at or below off is in [lo, hi)); its rule, cfa_off and
 * rbp_off in r1, r2, r3, or goto none.  Each step, straight-line:
 *
 *	if (hi - lo <= 1) goto found
 *	mid = lo + (hi - lo) / 2
 *	if (rows[mid].pc > st->off) hi = mid; else lo = mid
 * found:
 *	if (rows[lo].pc > st->off) goto none	before the first row
 */
static void search_rows(struct cg *g, int none)
{
	int found = emit_new_label(&g->e);

	for (int k = 0; k < UNWIND_SEARCH_STEPS; k++) {
		int upper = emit_new_label(&g->e), next = emit_new_label(&g->e);

		emit_mov_reg(&g->e, R1, R7);
		emit_alu_reg(&g->e, BPF_SUB, R1, R6);
		emit_jmp_imm(&g->e, BPF_JLE, R1, 1, found);
		emit_alu_imm(&g->e, BPF_RSH, R1, 1);
		emit_alu_reg(&g->e, BPF_ADD, R1, R6);
		emit_store(&g->e, 4, R10, -16, R1);
		row_lookup(g, none);
		emit_load(&g->e, 4, R1, R0, offsetof(struct unwind_row, pc));
		st_load(g, 8, R2, ST(off));
		emit_load(&g->e, 4, R3, R10, -16);
		emit_jmp_reg(&g->e, BPF_JGT, R1, R2, upper);
		emit_mov_reg(&g->e, R6, R3);
		emit_ja(&g->e, next);
		emit_label(&g->e, upper);
		emit_mov_reg(&g->e, R7, R3);
		emit_label(&g->e, next);
	}
	emit_label(&g->e, found);
	emit_store(&g->e, 4, R10, -16, R6);
	row_lookup(g, none);
	emit_load(&g->e, 4, R1, R0, offsetof(struct unwind_row, pc));
	st_load(g, 8, R2, ST(off));
	emit_jmp_reg(&g->e, BPF_JGT, R1, R2, none);
	emit_load(&g->e, 1, R1, R0, offsetof(struct unwind_row, rule));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, UW_NONE, none);
	emit_load(&g->e, 4, R2, R0, offsetof(struct unwind_row, cfa_off));
	emit_alu_imm(&g->e, BPF_LSH, R2, 32);			/* sign-extend */
	emit_alu_imm(&g->e, BPF_ARSH, R2, 32);
	emit_load(&g->e, 2, R3, R0, offsetof(struct unwind_row, rbp_off));
	emit_alu_imm(&g->e, BPF_LSH, R3, 48);
	emit_alu_imm(&g->e, BPF_ARSH, R3, 48);
}

/*
 * A frame's words from the window (UW_WINDOW, above): the return
 * address at cfa - 8 (r6 = cfa) and, if rbp_off (r7), the saved rbp at
 * cfa + rbp_off, into st; goto kept.  To exact if the window cannot
 * give them: each offset into it is checked as the verifier needs.
 *
 *	lo = cfa + (rbp_off ? rbp_off : -8)		the lowest word
 *	if (rbp_off > -8 && rbp_off) goto exact		not below the CFA
 *	if (lo < st->win_lo || cfa > st->win_hi) {	not in the window
 *		len = min(PAGE_SIZE - lo % PAGE_SIZE, UW_WINDOW)
 *		st->win_lo = st->win_hi = 0; fp[-8] = lo; fp[-16] = lo + len
 *		if (probe_read_user(window, len, lo)) goto exact
 *		st->win_lo = fp[-8]; st->win_hi = fp[-16]
 *		if (cfa > st->win_hi) goto exact	the frame crosses a page
 *	}
 *	o = cfa - 8 - st->win_lo; if (o > UW_WINDOW - 8) goto exact
 *	st->pc = window[o]
 *	if (rbp_off) {
 *		o = lo - st->win_lo; if (o > UW_WINDOW - 8) goto exact
 *		st->bp = window[o]
 *	}
 *	goto kept
 *
 * A window ends at its page's end: lo's page is mapped if lo is, the
 * next one may not be, and a read that faults fails whole, after the
 * fault's cost (a window reaching past the main stack's mapping made
 * the walk twice as slow).  So a stack takes one read per page it
 * spans, not one per frame.
 */
static void window_words(struct cg *g, int exact, int kept)
{
	int have = emit_new_label(&g->e), low = emit_new_label(&g->e);
	int short_len = emit_new_label(&g->e), no_bp = emit_new_label(&g->e);
	int refill = emit_new_label(&g->e);

	emit_mov_imm(&g->e, R3, -8);
	emit_jmp_imm(&g->e, BPF_JEQ, R7, 0, low);
	emit_jmp_imm(&g->e, BPF_JSGT, R7, -8, exact);
	emit_mov_reg(&g->e, R3, R7);
	emit_label(&g->e, low);
	emit_alu_reg(&g->e, BPF_ADD, R3, R6);			/* lo */
	st_load(g, 8, R1, ST(win_lo));
	emit_jmp_reg(&g->e, BPF_JLT, R3, R1, refill);
	st_load(g, 8, R1, ST(win_hi));
	emit_jmp_reg(&g->e, BPF_JLE, R6, R1, have);
	emit_label(&g->e, refill);
	emit_mov_reg(&g->e, R2, R3);
	emit_alu_imm(&g->e, BPF_AND, R2, (1 << PAGE_SHIFT) - 1);
	emit_mov_imm(&g->e, R1, 1 << PAGE_SHIFT);
	emit_alu_reg(&g->e, BPF_SUB, R1, R2);
	emit_mov_reg(&g->e, R2, R1);				/* len */
	emit_jmp_imm(&g->e, BPF_JLE, R2, UW_WINDOW, short_len);
	emit_mov_imm(&g->e, R2, UW_WINDOW);
	emit_label(&g->e, short_len);
	emit_store_imm(&g->e, 8, R8, ST(win_lo), 0);
	emit_store_imm(&g->e, 8, R8, ST(win_hi), 0);
	emit_store(&g->e, 8, R10, -8, R3);
	emit_mov_reg(&g->e, R1, R3);
	emit_alu_reg(&g->e, BPF_ADD, R1, R2);
	emit_store(&g->e, 8, R10, -16, R1);
	emit_mov_reg(&g->e, R1, R8);
	emit_alu_imm(&g->e, BPF_ADD, R1, WIN);
	emit_call(&g->e, BPF_FUNC_probe_read_user);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, exact);
	emit_load(&g->e, 8, R1, R10, -8);
	st_store(g, ST(win_lo), R1);
	emit_load(&g->e, 8, R1, R10, -16);
	st_store(g, ST(win_hi), R1);
	emit_jmp_reg(&g->e, BPF_JGT, R6, R1, exact);
	emit_label(&g->e, have);
	st_load(g, 8, R1, ST(win_lo));
	emit_mov_reg(&g->e, R2, R6);
	emit_alu_imm(&g->e, BPF_SUB, R2, 8);
	emit_alu_reg(&g->e, BPF_SUB, R2, R1);
	emit_jmp_imm(&g->e, BPF_JGT, R2, UW_WINDOW - 8, exact);
	emit_alu_reg(&g->e, BPF_ADD, R2, R8);
	emit_load(&g->e, 8, R3, R2, WIN);
	st_store(g, ST(pc), R3);
	emit_jmp_imm(&g->e, BPF_JEQ, R7, 0, no_bp);
	emit_mov_reg(&g->e, R2, R6);
	emit_alu_reg(&g->e, BPF_ADD, R2, R7);
	emit_alu_reg(&g->e, BPF_SUB, R2, R1);
	emit_jmp_imm(&g->e, BPF_JGT, R2, UW_WINDOW - 8, exact);
	emit_alu_reg(&g->e, BPF_ADD, R2, R8);
	emit_load(&g->e, 8, R3, R2, WIN);
	st_store(g, ST(bp), R3);
	emit_label(&g->e, no_bp);
	emit_ja(&g->e, kept);
}

/*
 * Apply the rule in r1 (cfa_off r2, rbp_off r3) to st, or goto stop:
 *
 *	cfa = (rule == UW_CFA_RBP ? st->bp : st->sp) + cfa_off
 *	PLT: cfa = st->sp + 8 + ((st->pc & 15) >= cfa_off ? 8 : 0)
 *	window_words(): st->pc and st->bp from the window; goto kept
 * exact:					the window could not give them
 *	if (rbp_off == -16) {			pushed first: one read
 *		(fp[-16], fp[-8]) = *(u64 (*)[2])(cfa - 16)
 *		st->bp = fp[-16]; st->pc = fp[-8]
 *	} else {
 *		st->pc = *(u64 *)(cfa - 8)
 *		if (rbp_off) st->bp = *(u64 *)(cfa + rbp_off)
 *	}
 *	if (cfa <= st->sp) goto stop		the stack must move up
 *
 * The exact path reads into the callback's stack (its two words, free by
 * now: the zero key and the row index), not the scratch area:
 * hardened usercopy checks a stack destination by its bounds alone, a
 * map value by the page and object it lies in, which cost more than
 * the copy.  A frame that pushed rbp first (most of them) keeps it
 * beside the return address, and one read of both halves the reads.
 *	st->sp = cfa; st->first = 0
 */
static void apply_rule(struct cg *g, int stop)
{
	int cfa = emit_new_label(&g->e), plt = emit_new_label(&g->e);
	int plt_low = emit_new_label(&g->e), kept = emit_new_label(&g->e);
	int apart = emit_new_label(&g->e), exact = emit_new_label(&g->e);

	st_load(g, 8, R4, ST(sp));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, UW_CFA_RSP, cfa);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, UW_CFA_PLT, plt);
	emit_jmp_imm(&g->e, BPF_JNE, R1, UW_CFA_RBP, stop);	/* UW_END */
	st_load(g, 8, R4, ST(bp));
	emit_ja(&g->e, cfa);
	emit_label(&g->e, plt);
	st_load(g, 8, R5, ST(pc));
	emit_alu_imm(&g->e, BPF_AND, R5, 15);
	emit_alu_imm(&g->e, BPF_ADD, R4, 8);
	emit_jmp_reg(&g->e, BPF_JLT, R5, R2, plt_low);
	emit_alu_imm(&g->e, BPF_ADD, R4, 8);
	emit_label(&g->e, plt_low);
	emit_mov_imm(&g->e, R2, 0);
	emit_mov_imm(&g->e, R3, 0);
	emit_label(&g->e, cfa);
	emit_alu_reg(&g->e, BPF_ADD, R4, R2);
	emit_mov_reg(&g->e, R6, R4);				/* r6 = cfa */
	emit_mov_reg(&g->e, R7, R3);				/* r7 = rbp_off */
	window_words(g, exact, kept);
	emit_label(&g->e, exact);
	emit_jmp_imm(&g->e, BPF_JNE, R7, -16, apart);
	cg_fp_ptr(g, R1, -16);
	emit_mov_imm(&g->e, R2, 16);
	emit_mov_reg(&g->e, R3, R6);
	emit_alu_imm(&g->e, BPF_SUB, R3, 16);
	emit_call(&g->e, BPF_FUNC_probe_read_user);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, stop);
	emit_load(&g->e, 8, R1, R10, -16);
	st_store(g, ST(bp), R1);
	emit_load(&g->e, 8, R1, R10, -8);
	st_store(g, ST(pc), R1);
	emit_ja(&g->e, kept);
	emit_label(&g->e, apart);
	cg_fp_ptr(g, R1, -8);
	emit_mov_imm(&g->e, R2, 8);
	emit_mov_reg(&g->e, R3, R6);
	emit_alu_imm(&g->e, BPF_SUB, R3, 8);
	emit_call(&g->e, BPF_FUNC_probe_read_user);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, stop);
	emit_load(&g->e, 8, R1, R10, -8);
	st_store(g, ST(pc), R1);
	emit_jmp_imm(&g->e, BPF_JEQ, R7, 0, kept);
	cg_fp_ptr(g, R1, -8);
	emit_mov_imm(&g->e, R2, 8);
	emit_mov_reg(&g->e, R3, R6);
	emit_alu_reg(&g->e, BPF_ADD, R3, R7);
	emit_call(&g->e, BPF_FUNC_probe_read_user);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, stop);
	emit_load(&g->e, 8, R1, R10, -8);
	st_store(g, ST(bp), R1);
	emit_label(&g->e, kept);
	st_load(g, 8, R1, ST(sp));
	emit_jmp_reg(&g->e, BPF_JLE, R6, R1, stop);
	st_store(g, ST(sp), R6);
	emit_store_imm(&g->e, 8, R8, ST(first), 0);
}

/*
 * A mapping without rows for a reason (unwind_why) makes the stack short
 * of what its tables would give (a frame is still to come: emit_step
 * stops at the last); the first such reason of a walk counts it, for
 * the report at the end (rt/unwind.c):
 *
 *	why = st->cur.obj.first
 *	if (!why || why >= UW_WHY_COUNT || st->why) goto done
 *	st->why = why; fp[-16] = why
 *	if ((c = lookup(short, &fp[-16]))) atomic *c += 1
 * done:
 */
static void count_short(struct cg *g, int done)
{
	emit_load(&g->e, 4, R1, R8, ST(cur.obj.first));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, done);
	emit_jmp_imm(&g->e, BPF_JGE, R1, UW_WHY_COUNT, done);
	st_load(g, 8, R2, ST(why));
	emit_jmp_imm(&g->e, BPF_JNE, R2, 0, done);
	st_store(g, ST(why), R1);
	emit_store(&g->e, 8, R10, -16, R1);
	cg_ld_map(g, R1, g->spec->unwind_short_map);
	cg_fp_ptr(g, R2, -16);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, done);
	emit_mov_imm(&g->e, R1, 1);
	emit_insn(&g->e, (struct bpf_insn){ .code = BPF_STX | BPF_DW | BPF_ATOMIC,
					    .dst_reg = R0, .src_reg = R1,
					    .imm = BPF_ADD });
}

/*
 * One frame: record it, unwind it; goto stop if the walk ends.  r6 is
 * the callback's context (bpf_find_vma passes it on), kept at fp[-32]
 * since the search takes r6:
 *
 *	r6 = fp[-32]
 *	if (!st->pc || st->out >= st->end) goto stop
 *	scratch[st->out] = st->pc; st->out += 8
 *	if (st->out >= st->end) goto stop	the last frame: nothing to unwind
 *	r7 = st->first ? st->pc : st->pc - 1	the lookup address
 *	find_mapping(r7)
 *	if (st->cur.obj.count) {
 *		st->off = r7 + st->cur.vbias
 *		page_rows(); search_rows()	the rows of off's page
 *	} else {
 *		count_short(st->cur.obj.first)	why there are none
 *	none:
 *		rule = UW_CFA_RBP, 16, -16	the frame pointer
 *		if (st->first == 2) rule = UW_CFA_RSP, 8, 0	at an entry
 *	}
 *	apply_rule()
 */
static void emit_step(struct cg *g, int stop)
{
	int exact = emit_new_label(&g->e), none = emit_new_label(&g->e);
	int rule = emit_new_label(&g->e), no_rows = emit_new_label(&g->e);

	emit_load(&g->e, 8, R6, R10, -32);
	st_load(g, 8, R7, ST(pc));
	emit_jmp_imm(&g->e, BPF_JEQ, R7, 0, stop);
	st_load(g, 8, R1, ST(out));
	st_load(g, 8, R2, ST(end));
	emit_jmp_reg(&g->e, BPF_JGE, R1, R2, stop);
	emit_jmp_imm(&g->e, BPF_JGT, R1, SCRATCH_SIZE - 8, stop);
	emit_mov_reg(&g->e, R3, R9);
	emit_alu_reg(&g->e, BPF_ADD, R3, R1);
	emit_store(&g->e, 8, R3, 0, R7);
	emit_alu_imm(&g->e, BPF_ADD, R1, 8);
	st_store(g, ST(out), R1);
	emit_jmp_reg(&g->e, BPF_JGE, R1, R2, stop);
	st_load(g, 8, R1, ST(first));
	emit_jmp_imm(&g->e, BPF_JNE, R1, 0, exact);
	emit_alu_imm(&g->e, BPF_SUB, R7, 1);
	emit_label(&g->e, exact);
	find_mapping(g);
	emit_load(&g->e, 4, R1, R8, ST(cur.obj.count));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, no_rows);
	st_load(g, 8, R2, ST(cur.vbias));
	emit_alu_reg(&g->e, BPF_ADD, R2, R7);
	st_store(g, ST(off), R2);
	page_rows(g, none);
	search_rows(g, none);
	emit_ja(&g->e, rule);
	emit_label(&g->e, no_rows);
	count_short(g, none);
	emit_label(&g->e, none);
	emit_mov_imm(&g->e, R1, UW_CFA_RBP);
	emit_mov_imm(&g->e, R2, 16);
	emit_mov_imm(&g->e, R3, -16);
	st_load(g, 8, R4, ST(first));
	emit_jmp_imm(&g->e, BPF_JNE, R4, 2, rule);
	emit_mov_imm(&g->e, R1, UW_CFA_RSP);
	emit_mov_imm(&g->e, R2, 8);
	emit_mov_imm(&g->e, R3, 0);
	emit_label(&g->e, rule);
	apply_rule(g, stop);
}

/*
 * uw_step(i, ctx), bpf_loop's callback: a frame.  Returns 0 to go on,
 * 1 to stop.  (Two frames a call measured no faster here: the calls
 * are not what a walk spends its time on.)  Without bpf_loop, the
 * global function uw_step(word) (step_loop), whose context is its own
 * stack's word, which it is given:
 *
 *	[global: fp[-24] = word; r2 = &fp[-24]]
 *	fp[-32] = ctx (r2); find_state(); emit_step(); return 0
 * stop:
 *	return 1
 */
static void emit_step_callback(struct cg *g, bool global)
{
	int stop = emit_new_label(&g->e);

	emit_label(&g->e, g->uw_step);
	if (global) {
		emit_store(&g->e, 8, R10, -24, R1);
		cg_fp_ptr(g, R2, -24);
	}
	emit_store(&g->e, 8, R10, -32, R2);
	find_state(g, R2, stop);
	emit_step(g, stop);
	emit_mov_imm(&g->e, R0, 0);
	emit_exit(&g->e);
	emit_label(&g->e, stop);
	emit_mov_imm(&g->e, R0, 1);
	emit_exit(&g->e);
}

int cg_ustack_callbacks(struct cg *g, struct spec_subprog **subs)
{
	bool global;

	if (!g->uw_used)	/* and no capability tried: a trial is a load */
		return 0;
	global = !kcaps_has(KCAP_LOOP);
	*subs = arena_alloc(g->a, 2 * sizeof(**subs));
	(*subs)[0] = (struct spec_subprog){ (uint32_t)g->e.n, "dscope_uw_step", global };
	emit_step_callback(g, global);
	if (!kcaps_has(KCAP_FIND_VMA))
		return 1;
	(*subs)[1] = (struct spec_subprog){ (uint32_t)g->e.n, "dscope_uw_vma", false };
	emit_vma_callback(g);
	return 2;
}
