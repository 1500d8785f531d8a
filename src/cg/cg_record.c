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
 * are loaded from the map, and so are stack() and ustack() where the
 * recording clause asked for them; any other (curthread, vtimestamp) and
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

_Static_assert(sizeof(((struct sysinfo_entry *)0)->str_args) == RECORD_STRS,
	       "sysinfo's str_args holds RECORD_STRS");

/* The clause's syscall entries (returns), by their sysinfo entries. */
static bool clause_has(const struct cg *g, const struct sysinfo_entry *e)
{
	uint64_t mask = g->att == ATTACH_SYS_ENTER ? e->entry_mask : e->return_mask;

	if (g->cl->mask_bit < 0)
		return mask != 0;
	return (mask >> g->cl->mask_bit) & 1;
}

/* How many strings a firing of this clause records: the most any of its
 * system calls' entries has (the driver's sysinfo says which, from
 * prov/syscalls.c); each firing fills as many as its own.  A return's
 * are those of its entry, copied again where the entry's faulted. */
static int record_nstrs(const struct cg *g)
{
	int most = 0;

	if (g->att != ATTACH_SYS_ENTER && g->att != ATTACH_SYS_EXIT)
		return 0;
	for (uint32_t i = 0; i < g->spec->nsysinfo; i++) {
		const struct sysinfo_entry *e = &g->spec->sysinfo[i];
		int n = 0;

		if (g->sys_late >= 0 ? (int32_t)i != g->sys_late : !clause_has(g, e))
			continue;
		while (n < RECORD_STRS && e->str_args[n])
			n++;
		if (n > most)
			most = n;
	}
	return most;
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

/* sysinfo's str_args[j] of the firing's syscall into reg (r7 is its
 * entry; a program of one syscall knows it) */
static void str_arg_of(struct cg *g, int reg, int j)
{
	if (g->sys_late >= 0)
		emit_mov_imm(&g->e, reg, g->spec->sysinfo[g->sys_late].str_args[j]);
	else
		emit_load(&g->e, 1, reg, R7,
			  (int16_t)(offsetof(struct sysinfo_entry, str_args) + j));
}

/* The strings the entries could not copy, by thread (record.h); LRU: a
 * thread may die in a call, and never return to take its own. */
static int retry_map(struct cg *g)
{
	struct spec *sp = g->spec;
	struct spec_map *m;

	for (int i = 0; i < sp->nmaps; i++)
		if (strcmp(sp->maps[i].name, "dscope_recretry") == 0)
			return i;
	m = ARENA_PUSH(g->a, sp->maps, sp->nmaps, g->c->maps_cap);
	m->name = "dscope_recretry";
	m->type = BPF_MAP_TYPE_LRU_HASH;
	m->key_size = 8;
	m->value_size = sizeof(struct record_retry);
	m->max_entries = 16384;
	m->fd = -1;
	return sp->nmaps - 1;
}

/* slot = the current thread's key in retry_map: its pid_tgid */
static void retry_key(struct cg *g, int16_t slot)
{
	emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
	cg_store_slot(g, slot, R0);
}

/*
 * After the entry's strings: the thread's retry, if a copy faulted.
 *	if (retry.faulted[0] | ... ) update(retry_map, &pid_tgid, &retry)
 */
static void retry_keep(struct cg *g, uint32_t retry, int nstrs)
{
	int none = emit_new_label(&g->e);
	int16_t key = cg_slot_new(g, builtin_node(g, BI_ARG0));

	emit_mov_imm(&g->e, R0, 0);
	for (int j = 0; j < nstrs; j++) {
		emit_load(&g->e, 8, R1, R9, (int16_t)(retry +
			  offsetof(struct record_retry, faulted) + 8 * (uint32_t)j));
		emit_alu_reg(&g->e, BPF_OR, R0, R1);
	}
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, none);
	retry_key(g, key);
	cg_ld_map(g, R1, retry_map(g));
	cg_fp_ptr(g, R2, key);
	cg_scratch_ptr(g, R3, retry);
	emit_mov_imm(&g->e, R4, BPF_ANY);
	emit_call(&g->e, BPF_FUNC_map_update_elem);
	emit_label(&g->e, none);
}

/* Room in act's fields for nstrs slots of a word and a string each, and
 * the firing's retry (record.h) in a temp that lives across the slots,
 * whose own temps start after it (the caller puts tmp_base back); false:
 * the clause keeps no strings. */
static bool strings_begin(struct cg *g, struct spec_action *act, int nstrs,
			  uint32_t *retry)
{
	struct spec_field *f;
	int n0 = act->nfields;

	g->strs_n = nstrs;
	g->strs_off = g->rec;
	if (!nstrs)
		return false;
	f = arena_alloc(g->a, sizeof(*f) * (size_t)(n0 + 2 * nstrs));
	memcpy(f, act->fields, sizeof(*f) * (size_t)n0);
	act->fields = f;
	*retry = cg_temp_new(g, builtin_node(g, BI_ARG0), sizeof(struct record_retry));
	g->tmp_base = g->tmp;
	return true;
}

/*
 * The strings of the firing, after its arguments in act's fields: for
 * each slot j, a word saying which argument and whether the copy
 * worked, then the string.  Which argument is the firing's system
 * call's, index + 1 in its sysinfo entry:
 *	k = str_args[j]; if (!k) goto end	(no more: the record ends here)
 *	a = arg(k - 1) (a switch on k); str = ""; r = copyinstr's copy (str, RECORD_STR, a)
 *	rec[...] = (k - 1) << 32 | (u32)r, str
 * end:
 * A copy that faults records "" and the fault, which the replay turns
 * back into copyinstr()'s, and the address, for the return to copy
 * again (retry_keep; record.h).  The record written out stops before the
 * first slot the firing does not fill (cg_record_size()): a system call
 * without strings costs the buffers nothing more.
 */
static void record_strings(struct cg *g, struct spec_action *act, int nstrs)
{
	struct spec_field *f;
	int end = emit_new_label(&g->e);
	uint32_t retry, base = g->tmp_base;

	if (!strings_begin(g, act, nstrs, &retry))
		return;
	f = act->fields;
	cg_zero_words(g, R9, retry, sizeof(struct record_retry));
	for (int j = 0; j < nstrs; j++) {
		struct node *word_n = builtin_node(g, BI_ARG0);
		struct node *sn = builtin_node(g, BI_EXECNAME);
		int16_t word = cg_slot_new(g, word_n), addr = cg_slot_new(g, word_n);
		int16_t sz = cg_slot_new(g, word_n);
		int have = emit_new_label(&g->e), copied = emit_new_label(&g->e);
		struct val str = { .str = true, .size = RECORD_STR };

		sn->type.size = RECORD_STR;
		str_arg_of(g, R1, j);
		emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, end);
		for (int k = 0; k < 6; k++) {	/* r1 holds k + 1 until one matches */
			int next = emit_new_label(&g->e);
			struct val a;

			emit_jmp_imm(&g->e, BPF_JNE, R1, k + 1, next);
			a = cg_expr(g, builtin_node(g, BI_ARG0 + k));
			cg_load_slot(g, R0, a.slot);
			cg_store_slot(g, addr, R0);
			emit_mov_imm(&g->e, R0, k);
			emit_alu_imm(&g->e, BPF_LSH, R0, 32);
			cg_store_slot(g, word, R0);
			emit_ja(&g->e, have);
			emit_label(&g->e, next);
		}
		emit_ja(&g->e, end);	/* an index past six: none */
		emit_label(&g->e, have);
		str.off = cg_temp_new(g, sn, RECORD_STR);
		cg_zero_words(g, R9, str.off, RECORD_STR);
		emit_store_imm(&g->e, 8, R10, sz, RECORD_STR);
		cg_read_user_str(g, sn, str.off, addr, sz);
		emit_jmp_imm(&g->e, BPF_JSGE, R0, 0, copied);
		cg_load_slot(g, R1, addr);	/* retry[j] = addr, faulted */
		emit_store(&g->e, 8, R9, (int16_t)(retry +
			   offsetof(struct record_retry, addr) + 8 * (uint32_t)j), R1);
		emit_store_imm(&g->e, 8, R9, (int16_t)(retry +
			       offsetof(struct record_retry, faulted) + 8 * (uint32_t)j), 1);
		emit_label(&g->e, copied);
		emit_alu_imm(&g->e, BPF_LSH, R0, 32);	/* (u32)r */
		emit_alu_imm(&g->e, BPF_RSH, R0, 32);
		cg_load_slot(g, R1, word);
		emit_alu_reg(&g->e, BPF_OR, R0, R1);
		cg_store_slot(g, word, R0);
		f[act->nfields++] = cg_record_val(g, word_n, cg_int_val(word));
		f[act->nfields++] = cg_record_val(g, sn, str);
		g->sp = SLOT_FIRST + 8;
		g->tmp = g->tmp_base;
	}
	emit_label(&g->e, end);
	retry_keep(g, retry, nstrs);
	g->sp = SLOT_FIRST + 8;
	g->tmp = g->tmp_base = base;
}

/*
 * A return's strings: those its entry could not copy, copied now, in
 * slots laid out as the entry's (record.h):
 *	if (!str_args[0]) goto end
 *	retry = lookup(retry_map, &pid_tgid); if (!retry) goto end
 *	keep *retry; delete(retry_map, &pid_tgid); fp[SLOT_RECORDED] = 2
 *	for each slot j: k = str_args[j]; if (!k) goto end
 *		word = (k - 1) << 32 | (u32)-1; str = ""
 *		if (retry.faulted[j])
 *			r = copyinstr's copy (str, RECORD_STR, retry.addr[j])
 *			word = (k - 1) << 32 | (u32)r
 *		rec[...] = word, str
 * end:
 * SLOT_RECORDED's 2 tells cg_record_size() the slots were written.
 */
static void record_return_strings(struct cg *g, struct spec_action *act, int nstrs)
{
	struct spec_field *f;
	int end = emit_new_label(&g->e);
	uint32_t retry, base = g->tmp_base;
	int16_t key;

	if (!strings_begin(g, act, nstrs, &retry))
		return;
	f = act->fields;
	str_arg_of(g, R1, 0);	/* a call without strings looks nothing up */
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, end);
	key = cg_slot_new(g, builtin_node(g, BI_ARG0));
	retry_key(g, key);
	cg_ld_map(g, R1, retry_map(g));
	cg_fp_ptr(g, R2, key);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, end);
	emit_mov_reg(&g->e, R8, R0);
	cg_copy_words(g, false, R9, retry, sizeof(struct record_retry), R8, 0,
		      sizeof(struct record_retry));
	cg_ld_map(g, R1, retry_map(g));
	cg_fp_ptr(g, R2, key);
	emit_call(&g->e, BPF_FUNC_map_delete_elem);
	emit_store_imm(&g->e, 8, R10, SLOT_RECORDED, 2);
	for (int j = 0; j < nstrs; j++) {
		struct node *word_n = builtin_node(g, BI_ARG0);
		struct node *sn = builtin_node(g, BI_EXECNAME);
		int16_t word = cg_slot_new(g, word_n), addr = cg_slot_new(g, word_n);
		int16_t sz = cg_slot_new(g, word_n), hi = cg_slot_new(g, word_n);
		int keep = emit_new_label(&g->e);
		struct val str = { .str = true, .size = RECORD_STR };

		sn->type.size = RECORD_STR;
		str.off = cg_temp_new(g, sn, RECORD_STR);
		str_arg_of(g, R1, j);
		emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, end);
		emit_alu_imm(&g->e, BPF_ADD, R1, -1);
		emit_alu_imm(&g->e, BPF_LSH, R1, 32);
		cg_store_slot(g, hi, R1);
		emit_alu32_imm(&g->e, BPF_MOV, R0, -1);	/* r: not copied here */
		emit_alu_reg(&g->e, BPF_OR, R0, R1);
		cg_store_slot(g, word, R0);
		emit_store_imm(&g->e, 8, R9, (int16_t)str.off, 0);
		emit_load(&g->e, 8, R0, R9, (int16_t)(retry +
			  offsetof(struct record_retry, faulted) + 8 * (uint32_t)j));
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, keep);
		emit_load(&g->e, 8, R0, R9, (int16_t)(retry +
			  offsetof(struct record_retry, addr) + 8 * (uint32_t)j));
		cg_store_slot(g, addr, R0);
		cg_zero_words(g, R9, str.off, RECORD_STR);
		emit_store_imm(&g->e, 8, R10, sz, RECORD_STR);
		cg_read_user_str(g, sn, str.off, addr, sz);
		emit_alu_imm(&g->e, BPF_LSH, R0, 32);	/* (u32)r */
		emit_alu_imm(&g->e, BPF_RSH, R0, 32);
		cg_load_slot(g, R1, hi);
		emit_alu_reg(&g->e, BPF_OR, R0, R1);
		cg_store_slot(g, word, R0);
		emit_label(&g->e, keep);
		f[act->nfields++] = cg_record_val(g, word_n, cg_int_val(word));
		f[act->nfields++] = cg_record_val(g, sn, str);
		g->tmp = g->tmp_base;
	}
	emit_label(&g->e, end);
	g->sp = SLOT_FIRST + 8;
	g->tmp = g->tmp_base = base;
}

/*
 * r5 = the bytes of the clause's record to write out: all of them, or
 * up to the first string slot of record_strings() the firing's system
 * call does not fill (the slots after it are not written either); at a
 * return, none of the slots unless it found its entry's retry:
 *	if (return && fp[SLOT_RECORDED] != 2) { r5 = slot 0's offset; goto done }
 *	r5 = rec; for (j = n - 1; j >= 0; j--) if (!str_args[j]) r5 = slot j's offset
 * done:
 */
void cg_record_size(struct cg *g)
{
	int found = emit_new_label(&g->e), done = emit_new_label(&g->e);

	if (g->att == ATTACH_SYS_EXIT) {	/* none unless the retry was found */
		emit_load(&g->e, 8, R0, R10, SLOT_RECORDED);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 2, found);
		emit_mov_imm(&g->e, R5, (int32_t)g->strs_off);
		emit_ja(&g->e, done);
	}
	emit_label(&g->e, found);
	emit_mov_imm(&g->e, R5, (int32_t)g->rec);
	for (int j = g->strs_n - 1; j >= 0; j--) {
		int full = emit_new_label(&g->e);

		str_arg_of(g, R0, j);	/* r1-r4 hold the output's arguments */
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, full);
		emit_mov_imm(&g->e, R5, (int32_t)(g->strs_off + (uint32_t)j * (8 + RECORD_STR)));
		emit_label(&g->e, full);
	}
	emit_label(&g->e, done);
}

/* The clause's first stack() (user: ustack()) call, or NULL. */
static const struct node *stack_call(const struct node *n, bool user)
{
	const struct node *k[] = { n ? n->a : NULL, n ? n->b : NULL,
				   n ? n->c : NULL, n ? n->agg : NULL,
				   n ? n->call : NULL };
	const struct node_list *lists[] = { n ? &n->args : NULL,
					    n ? &n->body : NULL,
					    n ? &n->else_body : NULL };
	const struct node *found;

	if (!n)
		return NULL;
	if (n->kind == N_CALL && n->type.kind == T_STACK &&
	    n->type.user == user && n->fn == (user ? DF_USTACK : DF_STACK))
		return n;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if ((found = stack_call(k[i], user)))
			return found;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (int j = 0; j < lists[i]->n; j++)
			if ((found = stack_call(lists[i]->v[j], user)))
				return found;
	return NULL;
}

/* The clause's first call of stack() (user: ustack()), or NULL. */
static const struct node *clause_stack(const struct cg *g, bool user)
{
	const struct clause *cl = g->cl->clause;
	const struct node *call = stack_call(cl->pred, user);

	for (int i = 0; !call && i < cl->body.n; i++)
		call = stack_call(cl->body.v[i], user);
	return call;
}

/*
 * A recording clause that asks for stack() (ustack()) records the
 * firing's stack too, the one its own call took (at sched:::on-cpu the
 * incoming thread's), at most RECORD_STACK words: the consumer gives
 * the trace its id and names (rt/ctf.h).  Taking it again at the record
 * would cost a second walk, and a second ustack() walk in one firing
 * loses frames today (two ustack() in one clause show it, live): so the
 * clause keeps the stack its call takes, in room of its own set aside
 * here, after the predicate (cg_record_kept_stack), and the record takes
 * it from there -- or takes it itself where no call ran (a branch not
 * taken).  Its first word is 0 until then: a kernel stack's innermost
 * frame, a user stack's pid.
 */
void cg_record_clause_begin(struct cg *g)
{
	g->rec_stk_size[0] = g->rec_stk_size[1] = 0;
	if (g->att == ATTACH_BEGIN || g->att == ATTACH_END || g->att == ATTACH_ERROR)
		return;
	for (int user = 0; user < 2; user++) {
		const struct node *call = clause_stack(g, user);
		uint32_t size;

		if (!call)
			continue;
		size = call->type.size < RECORD_STACK * 8 ? call->type.size
							  : RECORD_STACK * 8;
		g->rec_stk_off[user] = cg_temp_new(g, builtin_node(g, BI_ARG0), size);
		g->rec_stk_size[user] = size;
		g->tmp_base = g->tmp;	/* the clause's end puts it back */
		emit_store_imm(&g->e, 8, R9, (int16_t)g->rec_stk_off[user], 0);
	}
}

/* v, the value of call n: a stack the clause records is kept (above). */
struct val cg_record_kept_stack(struct cg *g, const struct node *n, struct val v)
{
	int user = n->type.user;
	uint32_t off = g->rec_stk_off[user], size = g->rec_stk_size[user];

	if (n->type.kind != T_STACK || !size || g->att == ATTACH_REPLAY)
		return v;
	cg_copy_words(g, false, R9, off, size, R9, v.off, v.size < size ? v.size : size);
	emit_store_imm(&g->e, 8, R9, (int16_t)(off + size - 8), 0);	/* its end */
	return v;
}

/*
 * The stacks into the record, kernel first, then user, both before the
 * string slots, which a record may end early (cg_record_size):
 *	if (!kept[0]) take it (the call keeps it)
 *	rec[...] = kept
 */
static void record_stacks(struct cg *g, struct spec_action *act)
{
	for (int user = 0; user < 2; user++) {
		uint32_t off = g->rec_stk_off[user], size = g->rec_stk_size[user];
		int kept = emit_new_label(&g->e);
		struct node *n;

		if (!size)
			continue;
		n = arena_alloc(g->a, sizeof(*n));
		*n = *clause_stack(g, user);
		n->type.size = size;
		emit_load(&g->e, 8, R0, R9, (int16_t)off);
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, kept);
		cg_expr(g, n);
		emit_label(&g->e, kept);
		g->sp = SLOT_FIRST + 8;
		g->tmp = g->tmp_base;
		act->fields[act->nfields++] = cg_record_val(g, n,
			(struct val){ .str = true, .off = off, .size = size });
	}
	g->rec_stk_size[0] = g->rec_stk_size[1] = 0;
}

/*
 * The firing, recorded at the clause's end, once however many of its
 * clauses take it (a trace holds each firing once, and a replay runs
 * every clause on it):
 *	if (fp[SLOT_RECORDED]) { ran = 0; goto done }   (or, when the
 *				record is all the clause does, skip it)
 *	fp[SLOT_RECORDED] = 1
 *	rec[...] = timestamp, pid, tid, uid, gid, execname, arg0 .. argN-1
 *	rec[...] = stack(), ustack(), where the clause asks (record_stacks)
 *	rec[...] = a word and a string per string argument (record_strings)
 * done:
 * BEGIN, END and ERROR are dscope's own, not events of the kernel: they
 * record nothing.
 */
void cg_record_firing(struct cg *g)
{
	/* a syscall's program writes to the perf buffers, whose record
	 * size may vary (cg_record_size); the ring of a sleepable one's
	 * may not, and it has no strings to keep */
	int nstrs = g->ring_map < 0 ? record_nstrs(g) : 0;
	int nargs = record_nargs(g), fresh = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);
	bool alone = g->ep->nacts == 0 && g->branch_depth == 0;
	struct spec_action *act;

	g->strs_n = 0;
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
					       (size_t)(act->nfields + 2));
	for (int i = 0; i < RECORD_FIELDS_ + nargs; i++) {
		int b = i < RECORD_FIELDS_ ? record_builtins[i]
					   : BI_ARG0 + i - RECORD_FIELDS_;
		struct node *n = builtin_node(g, b);

		act->fields[i] = cg_record_val(g, n, cg_expr(g, n));
		g->sp = SLOT_FIRST + 8;
		g->tmp = g->tmp_base;
	}
	record_stacks(g, act);
	if (g->att == ATTACH_SYS_EXIT)
		record_return_strings(g, act, nstrs);
	else
		record_strings(g, act, nstrs);
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

/*
 * copyinstr(addr) replayed: the string the probe copied from addr, if it
 * copied one, else a fault (as live, of a bad address):
 *	for each slot j of the firing's strings:
 *		if (rec->str_ok[j] && rec->str_addr[j] == addr)
 *			return probe_read_kernel_str(d, size, val->strs[j])
 *	return -EFAULT
 */
void cg_replay_copyinstr(struct cg *g, uint32_t doff, int16_t addr, int16_t size)
{
	int found = emit_new_label(&g->e), done = emit_new_label(&g->e);

	for (int j = 0; j < RECORD_STRS; j++) {
		int next = emit_new_label(&g->e);

		replay_ptr(g, R1, (uint32_t)(offsetof(struct replay_rec, str_ok) + j));
		emit_load(&g->e, 1, R2, R1, 0);
		emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, next);
		replay_ptr(g, R1, (uint32_t)(offsetof(struct replay_rec, str_addr) + 8 * j));
		emit_load(&g->e, 8, R2, R1, 0);
		cg_load_slot(g, R3, addr);
		emit_jmp_reg(&g->e, BPF_JNE, R2, R3, next);
		replay_ptr(g, R3, (uint32_t)(offsetof(struct replay_val, strs) +
					     RECORD_STR * j));
		emit_ja(&g->e, found);
		emit_label(&g->e, next);
	}
	emit_mov_imm(&g->e, R0, -14);	/* EFAULT */
	emit_ja(&g->e, done);
	emit_label(&g->e, found);
	cg_scratch_ptr(g, R1, doff);
	cg_load_slot(g, R2, size);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
	g->own_reads++;
	emit_label(&g->e, done);
}

/*
 * stack() (user: ustack()) replayed: the frames the trace recorded, as
 * the live call lays them out, into a temp of n's size:
 *	temp = first words of replay_val.kstack (ustack); temp's last word = 0
 * The trace must hold it: replay_open() refuses a trace whose events of
 * the probe have no such stack (g->replay_stacks says which it reads).
 */
struct val cg_replay_stack(struct cg *g, struct node *n, bool user)
{
	struct val v = { .str = true, .size = n->type.size };
	uint32_t have = RECORD_STACK * 8, n_copy = v.size < have ? v.size : have;

	g->replay_stacks |= user ? SPEC_REPLAY_USTACK : SPEC_REPLAY_KSTACK;
	v.off = cg_temp_new(g, n, v.size);
	replay_ptr(g, R8, user ? offsetof(struct replay_val, ustack)
			       : offsetof(struct replay_val, kstack));
	cg_copy_words(g, false, R9, v.off, v.size, R8, 0, n_copy);
	emit_store_imm(&g->e, 8, R9, (int16_t)(v.off + v.size - 8), 0);
	return v;
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
	int own = g->own_reads;	/* copies of its own memory: allowed */

	for (int i = 0; i < g->e.n; i++) {
		const struct bpf_insn *in = &g->e.insns[i];

		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != 0)
			continue;
		if (in->imm == BPF_FUNC_probe_read_kernel_str && own > 0) {
			own--;
			continue;
		}
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
