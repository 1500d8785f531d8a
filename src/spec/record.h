/*
 * record.h -- what -x record keeps of a firing, and what -x replay gives
 * the same clauses back.
 *
 * A recording clause ends with an ACT_RECORD action whose fields are, in
 * this order, the firing's timestamp, pid, tid, uid, gid and execname,
 * then the probe's first nargs arguments (cg_record.c); the consumer
 * writes them as one CTF event (rt/ctf.h).  Replaying, the consumer puts
 * each recorded event in a struct replay_rec, the one value of
 * spec.replay_map, and runs the probe's program on it (BPF_PROG_TEST_RUN):
 * the program's built-in variables read that value instead of the
 * running kernel's.
 *
 * Strings at the probe: a system call's entry whose argument is a user
 * string (syscalls_string_args()) records it too, copied at the firing,
 * since its memory is gone by the time a replay asks: after the
 * arguments, per such argument, a word (k << 32 | (u32)r, k the
 * argument's index and r bpf_probe_read_user_str's result, negative
 * where the copy faulted) and the string, RECORD_STR bytes at most; a
 * clause has as many such slots as the most any of its system calls
 * needs, and a firing's record ends before the first it does not fill.
 * Replaying, the strings copied follow the replay_rec in the map value
 * (struct replay_val), each with the address it was copied from, and
 * copyinstr() of that address returns it; of any other, it faults.
 *
 * Stacks: a recording clause that uses stack() (ustack()) records the
 * firing's kernel (user) stack too, as stack() (ustack()) takes it, right
 * after the arguments and before the string slots (cg_record.c).  The
 * trace names each distinct stack once, with its frames' symbols looked
 * up while the process lived (rt/ctf.h); a replayed stack() gives the
 * recorded frames back, and printing them names them from the trace.
 */
#ifndef DSCOPE_RECORD_H
#define DSCOPE_RECORD_H

#include <stdint.h>

enum record_field {	/* ORDER RECORD: cg_record.c's record_builtins[] */
	RF_TIMESTAMP, RF_PID, RF_TID, RF_UID, RF_GID, RF_EXECNAME,
	RECORD_FIELDS_		/* the arguments follow */
};

#define RECORD_ARGS 10		/* arg0..arg9, as many as D names */
#define RECORD_COMM 16		/* execname's bytes, the kernel's comm */
#define RECORD_STRS 4		/* strings kept per firing (request_key's 3) */
#define RECORD_STR 256		/* a string's bytes, its NUL included */
#define RECORD_STACK 130	/* a stack's words kept: a user stack's pid,
				 * up to 128 frames, and the 0 that ends it */

/*
 * A string the entry could not copy (its page not yet in memory: the
 * probe may not wait for it) is often there at the return, the call
 * itself having brought the page in, and a live copyinstr() at the
 * return reads it.  So the entry keeps, per thread, where each string it
 * could not copy was (spec map "dscope_recretry"), and the return copies
 * those, into string slots laid out as the entry's (its system call's
 * str_args): a word (k << 32 | (u32)r, r -1 for a string the entry had)
 * and the string.  A return that finds nothing ends its record before
 * its first slot.
 */
struct record_retry {
	uint64_t addr[RECORD_STRS];	/* where slot j's string is */
	uint64_t faulted[RECORD_STRS];	/* 1: the entry's copy of it faulted */
};

struct replay_rec {
	int64_t args[RECORD_ARGS];
	uint64_t timestamp;
	uint32_t pid, tid, uid, gid;
	uint32_t cpu, pad;
	char execname[RECORD_COMM];
	uint64_t str_addr[RECORD_STRS];	/* where each string was copied from */
	uint8_t str_ok[RECORD_STRS];	/* 1: strs[i] holds it; 0: slot unused */
	uint32_t pad2;
};

/* spec.replay_map's value: the firing, its strings and its stacks, laid
 * out as stack() and ustack() lay them out live (a kernel stack's frames;
 * a user stack's pid, then its frames), 0 where the trace holds none */
struct replay_val {
	struct replay_rec rec;
	char strs[RECORD_STRS][RECORD_STR];
	uint64_t kstack[RECORD_STACK];
	uint64_t ustack[RECORD_STACK];
};

#endif /* DSCOPE_RECORD_H */
