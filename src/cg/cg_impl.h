/*
 * cg_impl.h -- what the parts of the code generator share.
 *
 * The code generator, in the order a program is built:
 *   cg.c         the machine model (its opening comment), stack slots and
 *                scratch temps, small emission idioms, the maps a program
 *                names
 *   cg_prog.c    a program per probe point: guards, prologue, clauses,
 *                the fixed maps
 *   cg_clause.c  a clause: predicate, statements, actions, its record
 *   cg_expr.c    expressions
 *   cg_probe.c   the probe's context: built-in variables, arguments,
 *                reads of kernel and user memory that fault
 *   cg_var.c     variables; cg_mem.c kernel memory through pointers;
 *                cg_agg.c aggregations; cg_speculation.c speculations;
 *                cg_error.c the ERROR probe in the faulting firing
 *   cg_subr.c    subroutine dispatch and the tools subroutines are built
 *                with; cg_str.c strings; cg_copy.c copies of memory;
 *                cg_stack.c stacks and symbols; cg_ustack.c ustack();
 *                cg_net.c addresses as text and the network guards
 *   cg_record.c  -x record; cg_zone.c the container filter
 *   emit.c       BPF instructions, labels and jumps
 * They share the struct cg of the program being emitted, the value
 * representation (struct val) and the emission idioms below.
 * Nothing here is visible outside src/cg/.
 */
#ifndef DSCOPE_CG_IMPL_H
#define DSCOPE_CG_IMPL_H

#include "cg/cg.h"
#include "cg/emit.h"
#include "kern/ktypes.h"

#define STACK_MIN (-512)
#define SLOT_ZERO (-8)		/* u64 0: the key of single-entry maps */
#define SLOT_TIMESTAMP (-16)	/* timestamp, once read in this firing; 0: not yet */
#define SLOT_NEST (-24)		/* MAP_NEST's value once this firing took a
				 * level (its scratch area); 0: not yet */
#define SLOT_LEVEL (-32)	/* u64: that level, the key of its area */
#define SLOT_MAPIDX (-40)	/* u32: the slot of an outer map looked up */
#define SLOT_RECORDED (-48)	/* -x record: 1 once a clause of this firing
				 * recorded it (cg_record.c), 2 a return that
				 * copied its entry's strings; 0: not yet */
#define SLOT_FIRST (-56)

/*
 * A kernel program may name 64 maps.  MAP_FIXED counts dscope's own at
 * their most: buf, scratch, drops, wake, globals, nest, aggzero, the
 * ERROR or sleepable rings, cpuinfo, five of ustack()'s, and a stacks
 * map with its lanes' first few; MAP_OUTERS the outer maps of the
 * script maps past the rest (cg_ld_map), one a shape.
 */
#define MAP_LIMIT 64
#define MAP_FIXED 18
#define MAP_OUTERS 6

struct cg {
	struct cg_ctx *c;
	struct arena *a;
	struct diag *d;
	struct spec *spec;
	struct emit e;
	enum spec_attach att;
	const struct probe *probe;	/* single probe of the program, or NULL */
	const struct cg_clause *cl;	/* clause being emitted */
	struct spec_epid *ep;		/* its record layout */
	int epid;
	int16_t sp;			/* next free stack slot */
	uint32_t tmp;			/* next free scratch temp */
	uint32_t rec;			/* next free record offset */
	int out;			/* label: program exit */
	int bare;			/* label: exit before a level is taken (sys_late) */
	int clause_end;			/* label: end of this clause */
	int acts_cap;
	uint32_t tmp_base;		/* first temp after the clause-locals */
	int action;			/* 1-based statement of the clause; 0: predicate */
	uint32_t alloca_top;		/* alloca() bytes the clause has taken */
	bool save_offcpu_stack;		/* an on-cpu stack() was used */
	bool save_offcpu_ustack;	/* an on-cpu ustack() was used */
	bool self_task;			/* describe the current task, even at on-cpu */
	int nclauses;			/* in this program */
	bool have_scratch;		/* r9 is the scratch area on every path here */
	int32_t sys_late;		/* >= 0: the one syscall of this program, whose
					 * r7 is looked up with r9 (firing_lookup) */
	bool may_exit;			/* an earlier clause of the program calls exit() */
	bool uw_used;			/* ustack() walks .eh_frame tables: */
	int uw_step, uw_vma;		/* labels of its callbacks (uw_step: of
					 * its global function without bpf_loop) */
	int chill_cb;			/* label of chill()'s callback; 0: unused */
	int site_label;			/* label of the store of a uprobe program's
					 * site, patched per copy (no cookies);
					 * 0: none */
	bool sleepable;			/* a sleepable program (cg.c: "sleepable") */
	int ring_map;			/* spec map its records go to when not
					 * the perf rings (sleepable, ERROR);
					 * -1: the perf rings */
	int loop_depth;			/* such callbacks being emitted */
	struct emit_block *loop_bodies;	/* cut out, pasted after the exit */
	int nloop_bodies, loop_bodies_cap;
	uint32_t strtok_off;		/* the firing's strtok() state; 0: none */
	const struct cg_clause *strtok_first;	/* resets it; NULL: none */
	int branch_depth;		/* if statements around this code */
	int *agg_sites;			/* per aggregation: its statements in
					 * this program so far (cg_agg.c) */
	int stack_sites;		/* stack keys stored in it so far */
	uint8_t *agg_lanes_used;	/* per aggregation: bit l, lane l used
					 * by this program */
	int extra_lanes;		/* lanes past the first it uses */
	int *direct;			/* script maps this program names */
	int ndirect, direct_cap;
	int strs_n;			/* -x record: string slots of the clause's */
	uint32_t strs_off;		/*   record, from this offset (cg_record.c) */
	uint32_t rec_stk_off[2];	/* -x record: where the clause keeps the
					 * kernel [0] and user [1] stack it took
					 * for the record (cg_record.c) */
	uint32_t rec_stk_size[2];	/*   and its size; 0: none kept */
	uint8_t replay_stacks;		/* SPEC_REPLAY_KSTACK | _USTACK: the
					 * recorded stacks a replayed program reads */
	int own_reads;			/* probe_read_kernel_str calls that copy
					 * the program's own memory (scratch, the
					 * replay map): a replay may run them */
	int fault_label;		/* label: the ERROR clauses' run for this
					 * clause's faults (cg_error.c); 0: none */
};

/* kernel stack bytes kept per thread for sched:::on-cpu's stack() */
#define OFFCPU_STACK (8 * 21)

#define F_USER_STACK (1ull << 8)	/* bpf_get_stack(): BPF_F_USER_STACK */
/* struct pt_regs, x86-64: the offsets of the registers read */
#define PT_REGS_SP 152
#define PT_REGS_AX 80
#define PT_REGS_ORIG_AX 120
#define PT_REGS_IP 128
#define PT_REGS_CS 136
/* Before 5.15 (kcaps.h: task_pt_regs) a thread's user registers are read
 * where x86-64's task_pt_regs() finds them, at the top of its kernel
 * stack of THREAD_SIZE (16 KiB, without KASAN) */
#define THREAD_SIZE 16384
#define PT_REGS_SIZE 168

/* A NULL string (what strtok, strchr, strstr ... return when they find
 * nothing) is "" with this byte after its NUL, which no copy of a string
 * puts there; s == NULL tests it, comparisons of strings ignore it. */
#define STR_NULL_MARK 0xff

/* An expression's value: a stack slot, or a string temp in scratch. */
struct val {
	bool str;
	int16_t slot;
	uint32_t off, size;	/* string: scratch offset and padded size */
};

uint32_t cg_round8(uint32_t n);

/* -x record and -x replay (cg_record.c) */
void cg_record_firing(struct cg *g);
void cg_errno_of_ret(struct cg *g, int16_t slot);	/* cg_probe.c */
void cg_replay_arg(struct cg *g, int16_t slot, int n);
void cg_replay_self_key(struct cg *g, int16_t slot);
bool cg_replay_builtin(struct cg *g, struct node *n, struct val *out);
void cg_replay_check(struct cg *g);
struct val cg_replay_stack(struct cg *g, struct node *n, bool user);
void cg_record_clause_begin(struct cg *g);
struct val cg_record_kept_stack(struct cg *g, const struct node *n, struct val v);
/* r5 = the bytes of the record to write: fewer where the firing's system
 * call fills fewer string slots than the clause has */
void cg_record_size(struct cg *g);
/* r0 = bpf_probe_read_user_str(r9 + doff, slot sz, slot addr), tried
 * again, faulting, in a sleepable program (cg_copy.c) */
void cg_read_user_str(struct cg *g, struct node *n, uint32_t doff, int16_t addr,
		      int16_t sz);
/* r0 = the string recorded from the address in slot addr, copied to
 * r9 + doff (at most the size in slot size); -EFAULT if none was */
void cg_replay_copyinstr(struct cg *g, uint32_t doff, int16_t addr, int16_t size);

/* slot = the key of self-> variables: tgid << 32 | pid of the thread the
 * probe describes (sched:::on-cpu: the incoming one) */
void cg_self_key(struct cg *g, const struct node *n, int16_t slot);

/* Stack slots and scratch temps, released at the end of each statement. */
int16_t cg_slot_new(struct cg *g, const struct node *n);
uint32_t cg_temp_new(struct cg *g, const struct node *n, uint32_t size);
struct val cg_int_val(int16_t slot);
/* n's value where a pointer is wanted: a string's is the address of its
 * bytes in scratch (D's string is a char array, so it may be passed as
 * a void *, dt_node_is_ptrcompat) */
struct val cg_expr_addr(struct cg *g, struct node *n);
/* slot = the pointer in reg as an integer (the verifier's: a number) */
void cg_ptr_number(struct cg *g, const struct node *n, int16_t slot, int reg);
/* slot = the kernel address of scratch offset off, as an integer */
void cg_scratch_addr(struct cg *g, const struct node *n, int16_t slot,
		     uint32_t off);

/* reg = reg converted to type t (truncated, sign- or zero-extended) */
void cg_normalize(struct cg *g, int reg, const struct dtype *t);
void cg_load_slot(struct cg *g, int reg, int16_t slot);
void cg_store_slot(struct cg *g, int16_t slot, int reg);
/* zero n bytes (a multiple of 8) at base + off */
void cg_zero_words(struct cg *g, int base, uint32_t off, uint32_t n);
/* copy a value of ssize bytes to one of dsize, zero-padding it; a string
 * (str) cut short keeps a NUL as its last byte */
void cg_copy_words(struct cg *g, bool str, int dbase, uint32_t doff,
		   uint32_t dsize, int sbase, uint32_t soff, uint32_t ssize);
/* true but for the byte values that are not strings: stacks, usym() pairs */
bool cg_is_str(const struct dtype *t);
void cg_ld_map(struct cg *g, int reg, int map);		/* reg = &map */
void cg_fp_ptr(struct cg *g, int reg, int16_t off);		/* reg = fp + off */
void cg_scratch_ptr(struct cg *g, int reg, uint32_t off);	/* reg = r9 + off */
/* increment field off of struct drop_counts */
void cg_count_drop(struct cg *g, uint32_t off);
struct val cg_string_const(struct cg *g, const struct node *n, const char *s,
			   uint32_t size);
/* slot = *(size *)(r3 + off) read with bpf_probe_read_kernel; r0 = it */
void cg_kread(struct cg *g, int16_t slot, int size, int32_t off);
/* r0 = the task the builtins describe (current, or a probe's other) */
void cg_cur_task(struct cg *g);
/* slot = r0 = task->path... (ktypes.h's member path); fails to compile,
 * naming n, where BTF lacks the path */
void cg_task_field(struct cg *g, const struct node *n, int16_t slot,
		   const char *path);
void cg_need_ktype(struct cg *g, const struct node *n, const char *path,
		  struct ktype_field *f);
/* cgroup, zonename, nspid into slot (cg_zone.c) */
void cg_zone_builtin(struct cg *g, const struct node *n, int16_t slot, int b);
/* option zone: goto out unless the thread's cgroup is admitted */
void cg_zone_filter(struct cg *g, int out);
/* the same from the probe's process memory (a userland pointer's) */
void cg_uread(struct cg *g, int16_t slot, int size, int32_t off);
/* the helper that copies user bytes: one that faults the pages in, in a
 * sleepable program (it zeroes the copy where it fails, as the other does) */
int cg_user_read_func(const struct cg *g);
/* A run-time fault: write an error record (the address from addr_reg,
 * or 0 if addr_reg < 0), run the ERROR clauses and abandon the clause. */
void cg_fault(struct cg *g, int fault, int addr_reg);
/* The read-or-fault idiom: call func, its arguments set; if it failed, in
 * a clause, a fault at the address in addr_slot -- or in r8 already, for
 * addr_slot 0.
 * The _str helpers fail with r0 < 0 (they return a length), the others
 * with r0 != 0. */
void cg_call_or_fault(struct cg *g, int func, int16_t addr_slot);
/* cg_clause.c: one clause of the program, in its place */
void cg_emit_clause(struct cg *g, const struct cg_clause *cc);

/* cg_error.c: dtrace:::ERROR where the fault is.  cg_fault goes to
 * cg_fault_target(); cg_emit_clause ends with cg_error_run() when one
 * of its faults went there; an ERROR clause's epid is its own
 * (cg_error_epid: false for other clauses), its layout checked at its
 * end; its arg0..arg9 are the fault's. */
int cg_fault_target(struct cg *g);
void cg_error_run(struct cg *g);
bool cg_error_epid(struct cg *g, const struct cg_clause *cc);
void cg_error_epid_done(struct cg *g, const struct cg_clause *cc);
void cg_error_arg(struct cg *g, int16_t slot, int n);
struct val cg_xlate_expand(struct cg *g, struct node *n);
void cg_alloca_load_check(struct cg *g, const struct node *n,
			  int16_t addr_slot, uint32_t size);
/* r0 = strcmp(a, b) as -1, 0, 1 */
void cg_strcmp_words(struct cg *g, struct val a, struct val b);
void cg_str_set_null(struct cg *g, uint32_t off);
void cg_str_unmark(struct cg *g, uint32_t off);

struct val cg_expr(struct cg *g, struct node *n);
/* r0 = r0 op r1 for a binary arithmetic operator */
void cg_alu_op(struct cg *g, const struct node *n, int op, bool is_signed);

/* cg_mem.c: kernel memory -- lvalue addresses, scalar reads, strings */
struct val cg_mem_addr(struct cg *g, struct node *n);
struct val cg_mem_read(struct cg *g, struct node *n);
struct val cg_stringof(struct cg *g, struct node *n);
/* d_path(), __psargs(): true if n is one, its value in *out */
bool cg_kernel_subr(struct cg *g, struct node *n, struct val *out);

/* cg_var.c: variables of every kind, read, assigned, incremented */
struct val cg_var_read(struct cg *g, struct node *n);
struct val cg_var_assign(struct cg *g, struct node *n);
struct val cg_var_incdec(struct cg *g, struct node *n);
struct val cg_var_addr(struct cg *g, struct node *n);
/* a tuple key (aggregation, associative array) built in a scratch temp */
void cg_key_field(struct cg *g, struct val v, const struct spec_field *kf,
		  uint32_t dst);
uint32_t cg_tuple_key(struct cg *g, struct node *at, struct node_list *args,
		      const struct spec_field *fields, uint32_t key_size);

/* records */
struct spec_action *cg_new_action(struct cg *g, enum act_kind kind);
struct spec_field cg_record_val(struct cg *g, const struct node *n,
				struct val v);
/* size bytes at the address in addr_slot into the record at its next
 * free offset (returned); a bad address is a fault */
uint32_t cg_record_bytes(struct cg *g, const struct node *n,
			 int16_t addr_slot, uint32_t size);
void cg_record_args(struct cg *g, struct spec_action *act,
		    struct node_list *args, int first);
void cg_agg_list(struct cg *g, struct spec_action *act, struct node_list *args,
		 int first, int last);

/* cg_agg.c: @name[keys] = func(args); and the actions on aggregations
 * (printa, clear, trunc, ...): true if n is one of those */
void cg_agg_stmt(struct cg *g, struct node *st);
bool cg_agg_action(struct cg *g, struct node *n);

/* cg_speculation.c: speculations.  clause_begin reserves the tag of a clause
 * that calls speculate(), clause_end gives a speculation with no data the
 * default action; cg_speculation_action: speculate, commit, discard (true if n
 * is one). */
void cg_speculation_clause_begin(struct cg *g, const struct node_list *body);
void cg_speculation_clause_end(struct cg *g);
bool cg_speculation_action(struct cg *g, struct node *n);
struct val cg_speculation(struct cg *g, struct node *n);

/* cg_probe.c: does this program describe a task other than the current one
 * (sched:::on-cpu's incoming task)? */
bool cg_other_task(const struct cg *g);
/* slot = the self-> key (pid_tgid) of the task the builtins describe */
void cg_self_key(struct cg *g, const struct node *n, int16_t slot);
/* the LRU map of saved off-cpu stacks, created on first use */
int cg_offcpu_stack_map(struct cg *g);
void cg_save_offcpu_stack(struct cg *g);
void cg_save_offcpu_ustack(struct cg *g);	/* the same for ustack() */
/* the incoming thread's stack, kept in map (saved bytes a thread) */
struct val cg_saved_stack(struct cg *g, struct node *n, struct val v, int map,
			  uint32_t saved);
/* slot = caller or stackdepth (user: ucaller, ustackdepth) */
void cg_stack_builtin(struct cg *g, struct node *n, int16_t slot, bool user,
		      bool caller);

/* cg_ustack.c: ustack(); the callbacks its walk needs, appended after
 * the program's exit (their starts into *subs; the count) */
struct val cg_ustack(struct cg *g, struct node *n);
int cg_ustack_callbacks(struct cg *g, struct spec_subprog **subs);
/* chill()'s callback, if chill() was used: returns 1 and fills *sub */
int cg_chill_callback(struct cg *g, struct spec_subprog *sub);
/* Paste the string loops' callbacks after the program; their count, each
 * named in subs[0..count) (arena). */
int cg_loop_callbacks(struct cg *g, struct spec_subprog **subs);

/* cg_str.c: whether clause c calls subroutine name (in its predicate,
 * its body or an inline they use) */
bool cg_clause_calls(struct cg *g, const struct clause *c, enum dfunc fn);
/* cg_str.c: a program whose clauses call strtok() keeps one state for
 * the firing (strtok_off: the position, then the string) above the
 * clause-locals, raising tmp_base; strtok_first: the first such clause,
 * which resets it */
void cg_strtok_reserve(struct cg *g, const struct cg_clause *clauses,
		       int nclauses);
/* cg_net.c: addresses as text */
struct val cg_inet_ntoa(struct cg *g, struct node *n);
struct val cg_inet_ntoa6(struct cg *g, struct node *n);
struct val cg_inet_ntop(struct cg *g, struct node *n);
struct val cg_link_ntop(struct cg *g, struct node *n);
/* the prologue of a tcp, udp or ip probe: leave (g->out) on firings not
 * its own (catalog.h's GUARD_NET_*, GUARD_TCP_*); false for other guards */
bool cg_net_guard(struct cg *g);

/* cg_subr.c: a subroutine call; its value (unused for void ones) */
struct val cg_subr_call(struct cg *g, struct node *n);
/* print() and tracemem(): true if n is one */
bool cg_data_action(struct cg *g, struct node *n);
/* lvalue = value where the lvalue is memory (p->m, *p, p[i]): allowed in
 * alloca() memory only, a fault elsewhere */
struct val cg_mem_store(struct cg *g, struct node *n);

/* cg_clause.c: the per-firing work that clauses ask for, around which cg_prog.c
 * builds the program */
void cg_zero_slots(struct cg *g);
void cg_state_test(struct cg *g);
void cg_scratch_lookup(struct cg *g);
void cg_epilogue(struct cg *g);
int cg_early_out(const struct cg *g);

/* cg_copy.c: the subroutines that copy memory (emitters, for cg_subr_call) */
struct val cg_copyout(struct cg *g, struct node *n);
struct val cg_copyin(struct cg *g, struct node *n);
struct val cg_copyinto(struct cg *g, struct node *n);
struct val cg_copyinstr(struct cg *g, struct node *n);
struct val cg_bcopy(struct cg *g, struct node *n);
struct val cg_alloca(struct cg *g, struct node *n);

/* cg_expr.c: a predicate as a jump to the clause's end when it is false */
bool cg_predicate_jump(struct cg *g, struct node *pred);

/* cg_probe.c: the probe's context: the kind of program, its registers and
 * arguments, its output when sleepable, its probe id */
bool cg_is_uprobe(const struct cg *g);
bool cg_is_sys(const struct cg *g);
void cg_sys_regs_word(struct cg *g, int16_t slot, int16_t off);
void cg_sbuf_output(struct cg *g, uint32_t off, uint32_t size, int full);
void cg_probe_id(struct cg *g);
struct val cg_builtin(struct cg *g, struct node *n);
void cg_arg_value(struct cg *g, int16_t slot, int n);

/* cg_stack.c: the subroutines of stacks and symbols (emitters, for cg_subr_call) */
struct val cg_usym(struct cg *g, struct node *n);
struct val cg_stack(struct cg *g, struct node *n);
struct val cg_ksym(struct cg *g, struct node *n);

/* cg_str.c: the string subroutines (emitters, for cg_subr_call) */
struct val cg_substr(struct cg *g, struct node *n);
struct val cg_strtok(struct cg *g, struct node *n);
struct val cg_strstr(struct cg *g, struct node *n);
struct val cg_strlen(struct cg *g, struct node *n);
struct val cg_strjoin(struct cg *g, struct node *n);
struct val cg_strchr(struct cg *g, struct node *n);
struct val cg_lltostr(struct cg *g, struct node *n);
struct val cg_index(struct cg *g, struct node *n);
struct val cg_cleanpath(struct cg *g, struct node *n);
struct val cg_case(struct cg *g, struct node *n);
struct val cg_basename(struct cg *g, struct node *n);

/* A loop being emitted (cg_subr.c, "loops"): cg_loop_begin ... cg_loop_end */
struct loop {
	int16_t it;	/* the struct bpf_iter_num on the stack */
	int head;	/* continue */
	int brk;	/* break: the iterator is destroyed there */
	int body;	/* callback: where its instructions start */
};

/* cg_subr.c: the tools the subroutines are built with (its head says how):
 * string temps and lengths, clamps, loops and the cells they carry,
 * kfunc calls */
struct val cg_str_temp(struct cg *g, const struct node *n, uint32_t bound);
struct val cg_int_result(struct cg *g, const struct node *n, int reg);
void cg_clamp_range(struct cg *g, int reg, int32_t lo, int32_t hi);
void cg_str_len(struct cg *g, struct val v);
struct val cg_str_arg(struct cg *g, struct node *a);
void cg_read_str(struct cg *g, uint32_t doff);
void cg_loop_end(struct cg *g, const struct node *n, struct loop *l);
void cg_loop_begin(struct cg *g, const struct node *n, struct loop *l,
		   uint32_t count);
void cg_kfunc_call(struct cg *g, const struct node *n, const char *name);
void cg_fault_if_neg(struct cg *g, int16_t addr_slot);
void cg_copy_part(struct cg *g, struct val v, struct val d, int r_idx,
		  int r_cnt, uint32_t bound);
void cg_clamp_or(struct cg *g, int reg, uint32_t max, int label);
uint32_t cg_cells_new(struct cg *g, const struct node *n, int count);
void cg_cell_store(struct cg *g, uint32_t cell, int reg);
void cg_cell_set(struct cg *g, uint32_t cell, int32_t imm);
void cg_cell_load(struct cg *g, int reg, uint32_t cell);
void cg_byte_at(struct cg *g, int dst, int idx, uint32_t off);

#endif /* DSCOPE_CG_IMPL_H */
