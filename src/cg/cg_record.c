/*
 * cg_record.c -- the code of -x record and -x replay (spec/record.h).
 *
 * Recording: a clause of a recording script ends by recording the firing
 * -- the built-in variables a trace keeps and the probe's arguments --
 * as one ACT_RECORD action, in the clause's record, through the same
 * principal buffers as printf's.  Its predicate still decides: a firing
 * it rejects is not kept.
 *
 * Replaying: the same compiler makes the same programs, but a replayed
 * probe's program (ATTACH_REPLAY) takes the firing from spec.replay_map
 * rather than from the kernel.  The invariant: a replayed program reads
 * nothing of the machine it runs on.  Built-in variables the trace holds
 * are loaded from the map; any other (curthread, vtimestamp, stacks) and
 * any read of kernel or user memory would describe the replaying
 * machine, not the recorded one, and are refused when compiling --
 * cg_replay_check() looks at every helper the finished program calls,
 * so nothing new that reads the machine slips through unrefused.
 */
#include <stddef.h>
#include <string.h>

#include "cg/cg_impl.h"
#include "front/sema.h"
#include "prov/catalog.h"
#include "spec/record.h"

/* ORDER RECORD */
static const int record_builtins[RECORD_FIELDS_] = {
	BI_TIMESTAMP, BI_PID, BI_TID, BI_UID, BI_GID, BI_EXECNAME,
};

/* How many arguments a probe of this attachment has (arg_value's). */
static int record_nargs(const struct cg *g)
{
	switch (g->att) {
	case ATTACH_SYS_ENTER:
	case ATTACH_UPROBE:
	case ATTACH_KPROBE:
	case ATTACH_FENTRY:
		return 6;
	case ATTACH_SYS_EXIT:
	case ATTACH_PROFILE:
	case ATTACH_TICK:
	case ATTACH_URETPROBE:
	case ATTACH_KRETPROBE:
	case ATTACH_FEXIT:
		return 2;
	case ATTACH_RAW_TP:
		return g->probe->tp_nargs < RECORD_ARGS ? g->probe->tp_nargs
							 : RECORD_ARGS;
	case ATTACH_USDT:
		return USDT_ARGS_MAX < RECORD_ARGS ? USDT_ARGS_MAX : RECORD_ARGS;
	default:
		return 0;
	}
}

/* A built-in variable's node, as sema would have typed it. */
static struct node *builtin_node(struct cg *g, int b)
{
	struct node *n = arena_alloc(g->a, sizeof(*n));

	n->kind = N_IDENT;
	n->symkind = SYM_BUILTIN;
	n->sym = b;
	n->str = builtin_name((enum builtin)b);
	if (b == BI_EXECNAME)
		n->type = (struct dtype){ .kind = T_STRING, .size = RECORD_COMM,
					  .name = "string" };
	else
		n->type = (struct dtype){ .kind = T_INT, .size = 8,
					  .is_signed = true, .name = "int64_t" };
	return n;
}

/*
 * The firing, recorded at the clause's end, once however many of its
 * clauses take it (a trace holds each firing once, and a replay runs
 * every clause on it):
 *	if (fp[SLOT_RECORDED]) { ran = 0; goto done }   (or, when the
 *				record is all the clause does, skip it)
 *	fp[SLOT_RECORDED] = 1
 *	rec[...] = timestamp, pid, tid, uid, gid, execname, arg0 .. argN-1
 * done:
 * BEGIN, END and ERROR are dscope's own, not events of the kernel: they
 * record nothing.
 */
void cg_record_firing(struct cg *g)
{
	int nargs = record_nargs(g), fresh = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);
	bool alone = g->ep->nacts == 0 && g->branch_depth == 0;
	struct spec_action *act;

	if (g->att == ATTACH_BEGIN || g->att == ATTACH_END ||
	    g->att == ATTACH_ERROR)
		return;
	g->branch_depth++;	/* a word that says whether it ran */
	act = cg_new_action(g, ACT_RECORD);
	g->branch_depth--;
	emit_load(&g->e, 8, R0, R10, SLOT_RECORDED);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, fresh);
	if (alone) {
		emit_ja(&g->e, g->clause_end);
	} else {
		emit_store_imm(&g->e, 8, R9, (int16_t)act->ran_off, 0);
		emit_ja(&g->e, done);
	}
	emit_label(&g->e, fresh);
	emit_store_imm(&g->e, 8, R10, SLOT_RECORDED, 1);
	act->nfields = RECORD_FIELDS_ + nargs;
	act->fields = arena_alloc(g->a, sizeof(*act->fields) *
					       (size_t)act->nfields);
	for (int i = 0; i < act->nfields; i++) {
		int b = i < RECORD_FIELDS_ ? record_builtins[i]
					   : BI_ARG0 + i - RECORD_FIELDS_;
		struct node *n = builtin_node(g, b);

		act->fields[i] = cg_record_val(g, n, cg_expr(g, n));
		g->sp = SLOT_FIRST + 8;
		g->tmp = g->tmp_base;
	}
	emit_label(&g->e, done);
}

/* r0 = &replay_map[0] + off */
static void replay_ptr(struct cg *g, int reg, uint32_t off)
{
	emit_ld_map_value(&g->e, reg, g->spec->replay_map, off);
}

/*
 *	slot = *(size *)(&replay_map[0] + off)
 */
static void replay_int(struct cg *g, int16_t slot, uint32_t off, int size)
{
	replay_ptr(g, R1, off);
	emit_load(&g->e, size, R0, R1, 0);
	cg_store_slot(g, slot, R0);
}

void cg_replay_arg(struct cg *g, int16_t slot, int n)
{
	if (n >= RECORD_ARGS) {
		emit_store_imm(&g->e, 8, R10, slot, 0);
		return;
	}
	replay_int(g, slot, (uint32_t)(offsetof(struct replay_rec, args) + 8 * n), 8);
}

/* self-> variables' key, the recorded thread's (the one the built-ins
 * describe, as live):
 *	slot = (u64)rec->pid << 32 | rec->tid */
void cg_replay_self_key(struct cg *g, int16_t slot)
{
	replay_ptr(g, R1, offsetof(struct replay_rec, pid));
	emit_load(&g->e, 4, R0, R1, 0);
	emit_alu_imm(&g->e, BPF_LSH, R0, 32);
	emit_load(&g->e, 4, R2, R1, offsetof(struct replay_rec, tid) -
				    offsetof(struct replay_rec, pid));
	emit_alu_reg(&g->e, BPF_OR, R0, R2);
	cg_store_slot(g, slot, R0);
}

/* errno at a syscall's return, from its recorded return value (arg1) */
static void replay_errno(struct cg *g, int16_t slot)
{
	const struct probe *p = g->probe;

	if (catalog_mech(p->kind) != MECH_SYSCALL ||
	    strcmp(p->name, "return") != 0) {
		emit_store_imm(&g->e, 8, R10, slot, 0);
		return;
	}
	replay_ptr(g, R1, offsetof(struct replay_rec, args) + 8);
	emit_load(&g->e, 8, R0, R1, 0);
	cg_errno_of_ret(g, slot);
}

bool cg_replay_builtin(struct cg *g, struct node *n, struct val *out)
{
	static const struct { int b; uint32_t off; int size; } ints[] = {
		{ BI_PID, offsetof(struct replay_rec, pid), 4 },
		{ BI_TID, offsetof(struct replay_rec, tid), 4 },
		{ BI_UID, offsetof(struct replay_rec, uid), 4 },
		{ BI_GID, offsetof(struct replay_rec, gid), 4 },
		{ BI_CPU, offsetof(struct replay_rec, cpu), 4 },
		{ BI_TIMESTAMP, offsetof(struct replay_rec, timestamp), 8 },
	};
	int b = n->sym;

	switch (b) {
	case BI_PROBEPROV:
	case BI_PROBEMOD:
	case BI_PROBEFUNC:
	case BI_PROBENAME:
	case BI_EPID:
	case BI_ID:
		return false;	/* the program's own, as live */
	case BI_EXECNAME:
		*out = (struct val){ .str = true, .size = RECORD_COMM };
		out->off = cg_temp_new(g, n, RECORD_COMM);
		replay_ptr(g, R1, offsetof(struct replay_rec, execname));
		cg_copy_words(g, true, R9, out->off, RECORD_COMM, R1, 0, RECORD_COMM);
		return true;
	case BI_ERRNO:
		*out = cg_int_val(cg_slot_new(g, n));
		replay_errno(g, out->slot);
		return true;
	default:
		break;
	}
	if (b >= BI_ARG0 && b <= BI_ARG9) {
		*out = cg_int_val(cg_slot_new(g, n));
		cg_replay_arg(g, out->slot, b - BI_ARG0);
		return true;
	}
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		if (ints[i].b == b) {
			*out = cg_int_val(cg_slot_new(g, n));
			replay_int(g, out->slot, ints[i].off, ints[i].size);
			return true;
		}
	diag_fail(g->d, n->line, n->col, "D_REPLAY", "%s is not in a recorded "
		  "trace: a replayed probe has only timestamp, pid, tid, uid, gid, "
		  "cpu, execname, errno and its arguments", n->str);
	return false;
}

/* What each helper would read of the replaying machine. */
static const struct {
	int func;
	const char *what;
} machine_reads[] = {
	{ BPF_FUNC_probe_read_kernel, "kernel memory" },
	{ BPF_FUNC_probe_read_kernel_str, "kernel memory" },
	{ BPF_FUNC_probe_read_user, "user memory" },
	{ BPF_FUNC_probe_read_user_str, "user memory" },
	{ BPF_FUNC_copy_from_user, "user memory" },
	{ BPF_FUNC_get_current_task, "the current thread" },
	{ BPF_FUNC_get_current_task_btf, "the current thread" },
	{ BPF_FUNC_get_current_pid_tgid, "the current thread" },
	{ BPF_FUNC_get_current_uid_gid, "the current thread" },
	{ BPF_FUNC_get_current_comm, "the current thread" },
	{ BPF_FUNC_get_current_cgroup_id, "the current thread's cgroup" },
	{ BPF_FUNC_get_stackid, "a stack" },
	{ BPF_FUNC_get_stack, "a stack" },
	{ BPF_FUNC_get_task_stack, "a stack" },
	{ BPF_FUNC_ktime_get_ns, "the clock" },
	{ BPF_FUNC_get_smp_processor_id, "the CPU" },
};

void cg_replay_check(struct cg *g)
{
	for (int i = 0; i < g->e.n; i++) {
		const struct bpf_insn *in = &g->e.insns[i];

		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != 0)
			continue;
		for (size_t k = 0; k < sizeof(machine_reads) / sizeof(machine_reads[0]); k++)
			if (machine_reads[k].func == in->imm)
				diag_fail(g->d, 0, 0, "D_REPLAY", "the clauses of %s:%s:%s:%s "
					  "read %s, which a recorded trace does not "
					  "hold: they cannot be replayed",
					  g->probe->prov, g->probe->mod,
					  g->probe->func, g->probe->name,
					  machine_reads[k].what);
	}
}
