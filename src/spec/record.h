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

struct replay_rec {
	int64_t args[RECORD_ARGS];
	uint64_t timestamp;
	uint32_t pid, tid, uid, gid;
	uint32_t cpu, pad;
	char execname[RECORD_COMM];
};

#endif /* DSCOPE_RECORD_H */
