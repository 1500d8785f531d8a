/*
 * spec.h -- a compiled D program, as the code generator leaves it for the
 * loader, the attacher and the consumer.
 *
 * The spec is the contract between the kernel side and the user side: cg
 * decides every layout (where each action's data sits in a record, how an
 * aggregation key is laid out, where a global variable lives) and writes
 * it down here; consume.c and agg.c read records and maps only through
 * these descriptions.  Nothing in the spec depends on the running kernel
 * until load.c fills in the fds.
 *
 * Records.  A clause that records data (printf, trace, exit, printa, ...)
 * builds one record per firing in the per-CPU scratch map and writes it to
 * the principal buffer (a perf event array, one ring per CPU) with a single
 * bpf_perf_event_output.  A record is
 *
 *	struct { u32 epid; u32 probe_id; u8 data[size - 8]; }
 *
 * where epid names the clause (its actions and their offsets) and probe_id
 * the probe that fired (a syscall program covers many probes).
 * A speculative clause's first field is its speculation's tag (see
 * MAP_SPEC below); the consumer holds such records until commit().
 *
 * One record per firing holds the data of every action of the clause, those
 * in the branches of an if statement too, each at its own offset; an action
 * in a branch also has a word, ran_off, set to 1 on the path that runs it
 * and to 0 on the other, so the consumer acts only on what ran.
 *
 * Ownership: the spec and everything it points to live in the compile
 * arena, except the fds, which belong to the loader (load.c closes them).
 */
#ifndef DSCOPE_SPEC_H
#define DSCOPE_SPEC_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "d/types.h"
#include "d/aggfunc.h"
#include "d/fmt.h"

struct probe;

/* Fixed maps every program has; aggregation maps follow. ORDER MAP. */
enum {
	MAP_GLOBALS,	/* ARRAY[1]: run state, global variables */
	MAP_SCRATCH,	/* PERCPU_ARRAY[SCRATCH_LEVELS]: record under
			 * construction, temps; one area a nesting level */
	MAP_BUF,	/* PERF_EVENT_ARRAY: the principal buffers */
	MAP_DROPS,	/* PERCPU_ARRAY[1]: counters of lost data, struct drop_counts */
	MAP_SYSINFO,	/* ARRAY[nr_syscalls]: struct sysinfo_entry per syscall */
	MAP_SPEC,	/* ARRAY[nspec + 1]: u64 generation << 1 | SPEC_ACTIVE per ID */
	MAP_WAKE,	/* RINGBUF: exit() writes a word here, forcing a wakeup */
	MAP_NEST,	/* PERCPU_ARRAY[1]: u64, the programs running on this CPU */
	MAP_FIRST_AGG,
};

/* Layout of MAP_GLOBALS' single value: this header, then globals. */
#define STATE_STOPPED 2	/* dscope__stop: every probe returns at once */
struct globals_hdr {
	uint64_t state;		/* 0 running, 1 exit() called, STATE_STOPPED:
				 * probes stop (END and ERROR run on) */
	uint64_t walltime_off;	/* walltimestamp = ktime + this */
	uint64_t exit_status;	/* exit()'s status, for when its record is
				 * lost to a full buffer */
	uint64_t fill_limit;	/* bufpolicy=fill: bytes a CPU's records may
				 * take (rt/bufpolicy.h); 0: other policies */
};

/* MAP_DROPS value: every way data can be lost, counted where it happens. */
struct drop_counts {
	uint64_t buf;		/* bpf_perf_event_output failed */
	uint64_t agg;		/* aggregation map full */
	uint64_t dynvar;	/* dynamic variable space full */
	uint64_t specunavail;	/* speculation() found every slot in use */
	uint64_t nested;	/* a firing found every scratch level in use */
	uint64_t fill_bytes;	/* bufpolicy=fill: bytes of records written */
	uint64_t fill_refused;	/* records refused since the buffer filled
				 * (not drops: fill's way to stop) */
};

/*
 * Speculations (see rt/specbuf.h for the user side).  The kernel only
 * hands out and takes back IDs: MAP_SPEC holds, for ID i in 1..nspec, one
 * u64 word, generation << 1 | active.  speculation() turns an inactive
 * word into (generation + 1) << 1 | 1 with a compare-and-exchange;
 * commit() and discard() clear the active bit the same way, so the ID is
 * free again at once.  A speculative record carries its tag, ID | gen <<
 * 32, in the field of its clause's ACT_SPECULATE action; commit() and
 * discard() record the tag they ended (0: none).  The consumer keeps
 * speculative records per tag until it sees the commit or discard.
 */
#define SPEC_ACTIVE 1ull
#define SPEC_TAG(id, gen) ((uint64_t)(id) | (uint64_t)(gen) << 32)

/* A CPU's place, for curcpu's cpu_chip and cpu_lgrp: its package
 * (sysfs' topology/physical_package_id) and NUMA node (its nodeN link);
 * filled by the runtime, -1 where sysfs does not say. */
struct cpu_topology {
	int32_t chip;
	int32_t lgrp;
	struct cpu_pinfo {		/* D's processor_info_t, member for member */
		int32_t pi_state;	/* P_ONLINE or P_OFFLINE */
		char pi_processor_type[16];
		char pi_fputypes[32];
		int32_t pi_clock;	/* MHz */
	} pinfo;
};

/* MAP_SYSINFO value: what a raw_syscalls program needs about syscall nr. */
#define SYSNAME_MAX 32
struct sysinfo_entry {
	char name[SYSNAME_MAX];	/* probefunc */
	uint32_t entry_id;	/* probe IDs of syscall::name:entry/return */
	uint32_t return_id;
	uint64_t entry_mask;	/* bit c: entry clause c of the program matches */
	uint64_t return_mask;
	uint8_t str_args[4];	/* -x record: the entry's string arguments
				 * (index + 1; 0: no more), copied at the
				 * probe (spec/record.h: RECORD_STRS) */
	uint32_t pad;
};

#define SCRATCH_SIZE (32 * 1024)	/* per-CPU scratch; the record is at 0 */
/*
 * A program in interrupt context (profile-N, io:::done, a packet's
 * receive) may run while another is part way through on the same CPU,
 * as DTrace's probes cannot (dtrace_probe() runs with interrupts off).
 * Each running program takes the next level of MAP_NEST's counter and
 * that level's scratch area, so the one it interrupted finds its own
 * unchanged: task, softirq, hardirq and NMI make four.  A firing past
 * them is dropped and counted (drop_counts.nested).
 */
#define SCRATCH_LEVELS 4
#define ERR_REC_OFF (SCRATCH_SIZE - 64)	/* where an error record is built */
#define REC_MAX (16 * 1024)		/* a record never exceeds this */
/* What precedes a record in the sleepable programs' ring buffer: the CPU
 * that a perf ring would have said by being that CPU's. */
struct sbuf_hdr {
	uint32_t cpu;
	uint32_t pad;
};
#define REC_HDR 8
/* alloca(): memory for the clause, below the error record; the default
 * scratchsize is DTrace's */
#define ALLOCA_REGION 4096
#define ALLOCA_OFF (ERR_REC_OFF - ALLOCA_REGION)
#define SCRATCHSIZE_DEFAULT 256

/*
 * A run-time error (a fault) abandons the clause and writes this record
 * instead of the clause's: the consumer reports it as DTrace does and runs
 * the dtrace:::ERROR clauses with arg1..arg5 = epid, action, -1, fault,
 * address.  Fault codes are DTrace's (DTRACEFLT_*).
 */
#define EPID_ERROR 0xffffffffu

struct err_record {
	uint32_t epid;		/* EPID_ERROR */
	uint32_t probe_id;	/* the probe that fired */
	uint32_t clause_epid;	/* the clause that faulted */
	uint32_t action;	/* 1-based action; 0: the predicate */
	uint64_t fault;		/* FLT_* */
	uint64_t addr;		/* the faulting address, if any */
};

enum {
	FLT_BADADDR = 1, FLT_BADALIGN, FLT_ILLOP, FLT_DIVZERO, FLT_NOSCRATCH,
	FLT_KPRIV, FLT_UPRIV, FLT_TUPOFLOW, FLT_BADSTACK,
	FLT_BADSIZE,		/* dtrace-utils' two: a size out of range, */
	FLT_BADINDEX,		/* a run-time array index out of bounds */
};

enum spec_attach {
	ATTACH_BEGIN,		/* run once by test_run before the rest attach */
	ATTACH_END,		/* run once by test_run after the rest detach */
	ATTACH_ERROR,		/* no program: the ERROR clauses, run in the
				 * faulting program (cg_error.c) */
	ATTACH_SYS_ENTER,	/* raw tracepoint sys_enter */
	ATTACH_SYS_EXIT,	/* raw tracepoint sys_exit */
	ATTACH_PROFILE,		/* cpu-clock perf event on every CPU */
	ATTACH_TICK,		/* cpu-clock perf event on one CPU */
	ATTACH_RAW_TP,		/* raw tracepoint probe->tp_event (sdt, sched, proc) */
	ATTACH_UPROBE,		/* pid entry probes: uprobe_multi links (uprobe.c) */
	ATTACH_URETPROBE,	/* pid return probes: the same, return flavour */
	ATTACH_USDT,		/* usdt probes: the same links, one site a cookie */
	ATTACH_KPROBE,		/* fbt entry probes: kprobe perf events (uprobe.c),
				 * told apart by cookie as pid probes are */
	ATTACH_KRETPROBE,	/* fbt return probes: kretprobes, the same */
	ATTACH_FENTRY,		/* fbt entry probes of a few functions: an fentry
				 * program loaded for each (uprobe.c), the same
				 * cookie table */
	ATTACH_FEXIT,		/* fbt return probes: fexit, the same */
	ATTACH_REPLAY,		/* -x replay: one recorded probe's clauses, run
				 * by test_run for each of its recorded firings
				 * with the firing in spec.replay_map (record.h) */
};

/*
 * pid and usdt probes.  Every pid entry probe of the script shares one
 * program, every return probe another, every usdt probe a third; each
 * uprobe is attached with a cookie, its index in spec.uprobes and in the
 * ARRAY map spec.uprobe_map, whose value tells the program which probe
 * fired, which clauses want it and, at a usdt site, where its arguments
 * are.
 */
#define ATTACH_TYPE_UPROBE_MULTI 48	/* BPF_TRACE_UPROBE_MULTI (6.6+) */
#define UPROBE_FUNC_MAX 128	/* DTrace's DTRACE_FUNCNAMELEN */
#define UPROBE_MOD_MAX 64	/* DTRACE_MODNAMELEN */
#define UPROBE_PROV_MAX 64	/* DTRACE_PROVNAMELEN */
#define UPROBE_NAME_MAX 64	/* DTRACE_NAMELEN */
#define USDT_ARGS_MAX 12	/* <sys/sdt.h> passes at most 12 */

/*
 * Where a usdt argument is at its site, for the program to compute at run
 * time (prov/usdt.c parses the note's "-4@8(%rdx,%rbx,4)" into one):
 *
 *	v = disp
 *	if (base != USDT_REG_NONE)  v += regs[base] >> shift
 *	if (index != USDT_REG_NONE) v += regs[index] << scale
 *	if (flags & USDT_ARG_DEREF) v = *(size bytes *)v    (user memory)
 *	v = v extended from size bytes, signed or not
 *
 * regs is the struct pt_regs of the uprobe, base and index byte offsets
 * in it.  regs->ip is the site's run-time address, so a symbol's run-time
 * address is regs->ip + (sym - pc), both link-time: a rip-relative or
 * position-independent symbol is base = ip, disp = sym - pc.  size 0: no
 * such argument (reads as 0).
 */
#define USDT_REG_NONE 0xff
#define USDT_ARG_SIGNED 1
#define USDT_ARG_DEREF 2
struct usdt_arg {
	int64_t disp;		/* immediate, displacement, symbol offset */
	uint8_t base, index;	/* pt_regs byte offsets; USDT_REG_NONE */
	uint8_t scale;		/* index << scale: log2 of 1, 2, 4, 8 */
	uint8_t shift;		/* base >> shift: 8 for %ah, %bh, %ch, %dh */
	uint8_t size;		/* bytes: 1, 2, 4, 8; 0: no argument */
	uint8_t flags;		/* USDT_ARG_* */
	uint8_t pad[2];
};

struct uprobe_entry {
	char func[UPROBE_FUNC_MAX];	/* probefunc */
	char mod[UPROBE_MOD_MAX];	/* probemod */
	char prov[UPROBE_PROV_MAX];	/* probeprov: "pid123", "myprov123" */
	char name[UPROBE_NAME_MAX];	/* probename: usdt's, pid's offsets ("1f") */
	uint32_t probe_id;
	uint32_t flags;			/* UPROBE_F_* */
	uint32_t nargs;			/* fentry, fexit: the function's arguments */
	uint32_t pad;
	uint64_t mask;			/* bit c: clause c of the program matches */
	uint64_t addr;			/* fexit: the function's address */
	struct usdt_arg args[USDT_ARGS_MAX];	/* usdt: this site's arguments */
};

/* The uprobe is at a function's first instruction (a pid entry probe):
 * the function has no frame yet and its return address is at [sp].  The
 * entry program also runs offset probes, which are inside the frame. */
#define UPROBE_F_ENTRY 1

struct spec_uprobe {
	const struct probe *probe;
	enum spec_attach att;		/* its program: UPROBE, URETPROBE, USDT,
					 * KPROBE, KRETPROBE */
	uint64_t offset;		/* the uprobe: offset in probe->upath */
	uint64_t ref_ctr;		/* usdt: semaphore's file offset; 0: none */
	const struct usdt_arg *args;	/* usdt: USDT_ARGS_MAX; NULL: pid */
	uint64_t mask;			/* uprobe_entry.mask */
};

/*
 * User stacks through code without frame pointers (DESIGN.md 3.9).  The
 * runtime reduces the .eh_frame of the ELF objects traced processes map
 * to rows (rt/unwind.c): from its pc on, a row says where the caller's
 * frame is.  All objects' rows sit in one ARRAY map, spec.unwind_rows_map
 * (option ustackrows rows), each object's sorted by pc, written once and
 * shared by every process that maps the file.  A row's pc is a file
 * offset: pc - vm_start + vm_pgoff * page size.  On x86-64 the return
 * address is at CFA - 8.
 *
 * A program finds the mapping of a pc in its process's table,
 * spec.unwind_procs_map (HASH by tgid of unwind_proc): the executable
 * mappings of /proc/PID/maps, sorted, each with its file's rows, kept by
 * the runtime.  A process it does not know (or whose mm is not the one
 * the table was read from: exec, pid reuse) it notes in
 * spec.unwind_want_map for the runtime to read at its next tick, and
 * meanwhile finds the mapping with bpf_find_vma and the rows by the
 * file's identity in spec.unwind_objs_map.  Stacks that lacked rows for
 * a reason other than the file having none are counted by reason in
 * spec.unwind_short_map and reported at the end.
 */
enum unwind_rule {
	UW_NONE,	/* no unwind information: follow the frame pointer */
	UW_CFA_RSP,	/* CFA = rsp + cfa_off */
	UW_CFA_RBP,	/* CFA = rbp + cfa_off */
	UW_CFA_PLT,	/* a PLT stub: CFA = rsp + 8, + 8 if (pc & 15) >= cfa_off */
	UW_END,		/* the return address is undefined: the outermost frame */
};

struct unwind_row {
	uint32_t pc;		/* file offset of the first byte the row covers */
	uint8_t rule;		/* enum unwind_rule */
	uint8_t pad;
	int16_t rbp_off;	/* caller's rbp saved at CFA + rbp_off; 0: rbp
				 * is unchanged */
	int32_t cfa_off;
};

struct unwind_key {
	uint64_t dev;		/* the kernel's dev_t: major << 20 | minor */
	uint64_t ino;
};

/*
 * An object's rows in the rows map, from first: npages + 1 index rows,
 * npages being the pages (file offset >> UNWIND_PAGE_SHIFT) from the
 * file's start to its last row's; then the rows, sorted by pc.  The
 * index row of page p holds, in pc and cfa_off, the rows map's indices
 * [lo, hi) of the rows an offset in page p may fall under: the last row
 * below the page, then the page's own.  The one of page npages stands
 * for every offset past the last page: the last row.  So a walk reads
 * one index row, then binary-searches a few rows, not log2(count).
 */
struct unwind_obj {
	uint32_t first;		/* index of its first index row in the rows map */
	uint32_t count;		/* npages; 0: no rows, and first says why */
};

#define UNWIND_PAGE_SHIFT 12

#define UNWIND_SEARCH_STEPS 20	/* binary search steps in BPF */
#define UNWIND_ROWS_MAX (1u << UNWIND_SEARCH_STEPS)

/* Why a mapping has no rows: unwind_obj.first when count is 0. */
enum unwind_why {
	UW_WHY_NONE,		/* the file has none: frame pointers expected */
	UW_WHY_PENDING,		/* the process's or file's table is not built yet */
	UW_WHY_BUDGET,		/* the file's rows did not fit in ustackrows */
	UW_WHY_COUNT,
};

struct unwind_vma {
	uint64_t start, end;	/* [start, end) */
	uint64_t bias;		/* file offset = pc + bias */
	struct unwind_obj obj;	/* its file's rows; count 0: none (first: why) */
};

#define UNWIND_PROCS_MAX 8192	/* processes with a table at once */
#define UNWIND_WANT_MAX 1024	/* processes waiting for one */
#define UNWIND_PROC_STEPS 8	/* binary search steps over a process's mappings */
#define UNWIND_PROC_VMAS (1u << UNWIND_PROC_STEPS)

struct unwind_proc {
	uint64_t end_code;	/* the mm the table was read from, as */
	uint64_t start_stack;	/* /proc/PID/stat shows it */
	uint32_t n;		/* vmas used, sorted by start */
	uint32_t pad;
	struct unwind_vma vmas[UNWIND_PROC_VMAS];
};

/* option zone's map: the cgroup ids whose threads' probes fire; the
 * consumer fills it (rt/container.c) */
#define SPEC_ZONE_MAP "dscope_zones"

struct spec_map {
	const char *name;
	enum bpf_map_type type;
	uint32_t key_size, value_size, max_entries, flags;
	int fd;			/* -1 until loaded */
	bool nestable;		/* the script's (an aggregation's, an array's):
				 * may be reached through an outer map */
	int inner_tmpl;		/* ARRAY_OF_MAPS: a map of the shape its slots
				 * hold (created before it); 0: not an outer */
};

/*
 * A program may name 64 maps (the kernel's MAX_USED_MAPS).  A script map
 * past what a program can name directly is reached through an outer
 * ARRAY_OF_MAPS of its shape: slot `slot` of map `outer` holds map
 * `inner`, put there by the loader.
 */
struct spec_nest {
	int outer, inner;
	uint32_t slot;
};

/* A subprogram after the program's main body: a callback (of bpf_loop,
 * bpf_find_vma).  The loader describes each in BTF (func_info), without
 * which the kernel refuses a function's address. */
struct spec_subprog {
	uint32_t insn;			/* its first instruction */
	const char *name;
	bool global;			/* a global function of one u64, checked
					 * once (ustack()'s step without bpf_loop);
					 * else a static callback of none */
};

struct spec_prog {
	const char *name;
	enum spec_attach attach;
	enum bpf_prog_type type;
	uint32_t expected_attach_type;	/* BPF_TRACE_UPROBE_MULTI for uprobes */
	uint64_t period_ns;		/* ATTACH_PROFILE / ATTACH_TICK */
	const struct probe *probe;	/* the probe for single-probe programs */
	struct bpf_insn *insns;		/* map references hold spec map indexes */
	int ninsns;
	struct spec_subprog *subprogs;	/* in instruction order */
	int nsubprogs;
	bool sleepable;			/* BPF_F_SLEEPABLE: faulting user reads, its
					 * scratch in MAP_TSCRATCH, its records
					 * through MAP_SBUF (cg.c: "sleepable") */
	int site_insn;			/* >= 0: a kernel without attach cookies
					 * loads a copy per probe, this store's
					 * imm set to the probe's uprobes[] index
					 * (cg_prog.c uprobe_prologue); -1: none */
	uint8_t replay_stacks;		/* ATTACH_REPLAY: the recorded stacks it
					 * reads (SPEC_REPLAY_KSTACK, _USTACK),
					 * which the trace must hold (replay.c) */
	int fd;				/* -1 until loaded */
};
enum { SPEC_REPLAY_KSTACK = 1, SPEC_REPLAY_USTACK = 2 };

enum act_kind {
	ACT_PRINTF,	/* fmt + args */
	ACT_TRACE,	/* one value */
	ACT_EXIT,	/* one int: the exit status */
	ACT_PRINTA,	/* fmt (may be NULL) + aggregations */
	ACT_CLEAR,	/* aggregation: zero every value */
	ACT_TRUNC,	/* aggregation [, n]: keep the top n (all removed if no n) */
	ACT_NORMALIZE,	/* aggregation, n: divide values by n when printing */
	ACT_DENORMALIZE,	/* aggregation: print values undivided again */
	ACT_SETOPT,	/* name [, value]: set a run-time option */
	ACT_SYSTEM,	/* fmt + args: run the formatted command (destructive) */
	ACT_FREOPEN,	/* fmt + args: redirect output to the file ("" restores) */
	ACT_DEFAULT,	/* clause with no actions: print the probe */
	ACT_SPECULATE,	/* one u64: the tag of the speculation, 0: none */
	ACT_COMMIT,	/* one u64: the tag committed, 0: nothing */
	ACT_DISCARD,	/* one u64: the tag discarded, 0: nothing */
	ACT_PRINT,	/* print(p): the address, then the bytes of *p (type
			 * and size of fields[1]), at most PRINT_MAX */
	ACT_TRACEMEM,	/* tracemem(a, n[, d]): n bytes (fields[1], a
			 * T_ARRAY of n) and d as fields[0] (< 0: all n) */
	ACT_RECORD,	/* -x record: the firing, REPLAY_FIELDS_ then its
			 * arguments (record.h), for the trace file */
};

#define PRINT_MAX 8192		/* bytes of an object print() records */

/* One recorded value: where it sits in the record and its D type. */
struct spec_field {
	uint32_t off;		/* from the start of the record */
	struct dtype type;
	const char *name;	/* an aggregation key's simple name, from the
				 * first use that has one (execname, pid,
				 * self->fd: fd, ustack()); else NULL */
	uint32_t koff;		/* an aggregation key's offset in the kernel
				 * map's key (see spec_agg) */
};

struct spec_action {
	enum act_kind kind;
	struct fmt *fmt;		/* ACT_PRINTF, ACT_PRINTA (NULL: default) */
	struct spec_field *fields;	/* recorded arguments */
	int nfields;
	int *aggs;			/* ACT_PRINTA/CLEAR/TRUNC: aggregation ids */
	int naggs;
	uint32_t ran_off;		/* in a branch of an if: the record word
					 * that says whether it ran (0 or 1);
					 * 0: it always runs */
};

struct spec_epid {
	int clause;			/* index in program order */
	bool end;			/* END writes this record: under
					 * bufpolicy=fill, room is kept for it */
	uint32_t size;			/* record size including the header */
	struct spec_action *acts;
	int nacts;
};

/*
 * Lanes.  A PERCPU_HASH map without preallocation takes a new entry's
 * per-CPU value from a per-CPU cache the kernel refills by irq_work, a
 * cache of one (kernel/bpf/memalloc.c, since 6.8: a percpu cache's
 * watermarks are 1 and 3).  Where interrupts are off -- profile and tick
 * probes, sched, anything in interrupt context -- the refill cannot run
 * until the firing is over, so one map takes one new key per window and
 * the next fails with ENOMEM.  Preallocating every entry would cost some
 * 100 ms of start-up per aggregation (65,536 per-CPU allocations), so
 * an aggregation spreads instead over lanes: maps alike, each with its
 * own cache, tried in order when the one before cannot make the entry
 * (cg_agg.c).  A key may be in several lanes; the consumer merges them
 * as it merges CPUs.  The stacks map of stack keys has lanes too
 * (spec.stacks_lanes): its non-per-CPU cache starts with one entry of a
 * stack's size.  A lane holds memory only for what it holds.
 */
#define SPEC_AGG_LANES 8

/*
 * An aggregation's key as the consumer sees it is each key's bytes at its
 * off, key_size in all.  The kernel's map holds the same keys at koff,
 * kkey_size in all, but for stacks: a stack key (a stack of more than one
 * frame) is an 8-byte id there, a hash of its words, and the words are
 * kept once in the stacks map (spec.stacks_lanes) under that id.  A stack
 * is hundreds of bytes that the map would otherwise hash and compare on
 * every update; its id costs a hash of the frames walked and a lookup.
 * The consumer puts the frames back when it reads the map (rt/agg.c).
 */
static inline bool spec_key_by_id(const struct dtype *t)
{
	return t->kind == T_STACK && t->size > 16;
}

struct spec_agg {
	const char *name;		/* without '@'; "" for the anonymous one */
	enum agg_func func;
	int lanes[SPEC_AGG_LANES];	/* spec.maps of its lanes (above) */
	int nlanes;			/* 0: no program updates it */
	struct spec_field *keys;	/* offsets within the map key */
	int nkeys;
	uint32_t key_size;
	uint32_t kkey_size;		/* the kernel map's key (above) */
	uint32_t nwords;		/* value words, see aggprint.h */
	int64_t params[4];		/* lquantize / llquantize parameters */
};

struct spec_global {
	const char *name;
	struct dtype type;
	uint32_t off;			/* offset in MAP_GLOBALS' value */
};

/*
 * Dynamic variables: associative arrays and thread-locals live in BPF
 * hash maps shared by all CPUs, one map per variable, keyed by the tuple
 * (assoc) or the thread ID (self); a missing entry reads as zero and
 * storing zero deletes the entry, as DTrace frees dynamic variables.
 * Clause-locals (this) live in the scratch area of the firing, at
 * REC_MAX + off, for as long as one probe firing runs its clauses.
 */
enum dvar_kind { DVAR_ASSOC, DVAR_SELF, DVAR_THIS };

struct spec_dvar {
	const char *name;
	enum dvar_kind kind;
	struct dtype type;		/* the value's type */
	struct spec_field *keys;	/* DVAR_ASSOC: key layout, as aggregations */
	int nkeys;
	uint32_t key_size;
	int map;			/* DVAR_ASSOC/SELF: spec map index */
	uint32_t off;			/* DVAR_THIS: offset in the clause-local area */
};

struct spec {
	struct spec_map *maps;
	int nmaps;
	struct spec_prog *progs;
	int nprogs;
	struct spec_epid *epids;
	int nepids;
	struct spec_agg *aggs;
	int naggs;
	struct spec_global *globals;
	int nglobals;
	uint32_t globals_size;
	struct spec_dvar *dvars;
	int ndvars;
	uint32_t this_size;		/* clause-local area, after REC_MAX */
	struct sysinfo_entry *sysinfo;	/* MAP_SYSINFO contents, by syscall nr */
	uint32_t nsysinfo;
	struct spec_uprobe *uprobes;	/* pid and usdt sites, by cookie */
	int nuprobes;
	int uprobe_map;			/* spec map of uprobe_entry; -1: none */
	int unwind_objs_map;		/* spec maps of unwind_obj and unwind_row;
					 * -1: ustack() walks frame pointers */
	int unwind_rows_map;
	int unwind_procs_map;		/* unwind_proc by tgid */
	int unwind_want_map;		/* tgids whose table is wanted */
	int unwind_short_map;		/* u64 stacks short of rows, by unwind_why */
	int cpuinfo_map;		/* spec map of cpu_topology by CPU; -1: none */
	int tscratch_map;		/* TASK_STORAGE scratch of sleepable
					 * programs; -1: none is */
	int sbuf_map;			/* RINGBUF of their records, each after
					 * a struct sbuf_hdr; -1: none */
	int replay_map;			/* -x replay: ARRAY[1] of the firing
					 * being replayed (struct replay_rec);
					 * -1: not replaying */
	int stacks_lanes[SPEC_AGG_LANES];	/* HASH: aggregation keys'
					 * stacks by id (spec_agg), lanes */
	int nstacks_lanes;		/* 0: no stack keys */
	struct spec_nest *nests;	/* script maps in outer maps */
	int nnests;
	uint32_t nspec;		/* option nspec: speculation IDs 1..nspec */
	int nprobes;		/* probes matched, for "matched N probes" */
	const struct probe **enabled;	/* -x record: the probes recorded
					 * (each clause's, dscope's own
					 * BEGIN/END/ERROR not), once each */
	int nenabled;
	bool quiet;		/* option quiet */
	bool destructive;	/* uses a destructive action: needs -w */
	bool user_stacks;	/* ustack(), usym(), %A: processes' maps are wanted */
};

#endif /* DSCOPE_SPEC_H */
