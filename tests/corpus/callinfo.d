#!/usr/sbin/dtrace -s
/*
 * callinfo.d -- per system call: calls, the biggest request and the
 * total time, kept in an associative array of structs.
 *
 * USAGE: callinfo.d -c command
 */
#pragma D option quiet

struct callinfo {
	uint64_t ts;		/* timestamp of the last entry */
	uint64_t elapsed;	/* total time in nanoseconds */
	uint64_t calls;		/* number of calls */
	size_t maxbytes;	/* largest byte count asked for */
};

struct callinfo i[string];

syscall::read:entry,
syscall::write:entry
/pid == $target/
{
	i[probefunc].ts = timestamp;
	i[probefunc].calls = i[probefunc].calls + 1;
	i[probefunc].maxbytes = arg2 > i[probefunc].maxbytes ?
	    arg2 : i[probefunc].maxbytes;
}

syscall::read:return,
syscall::write:return
/pid == $target && i[probefunc].ts != 0/
{
	i[probefunc].elapsed += timestamp - i[probefunc].ts;
	i[probefunc].ts = 0;
}

syscall::exit_group:entry
/pid == $target/
{
	printf("read: %d calls, largest %d bytes, took time %s\n",
	    i["read"].calls, i["read"].maxbytes,
	    i["read"].elapsed > 0 ? "yes" : "no");
	printf("write: %d calls, largest %d bytes, took time %s\n",
	    i["write"].calls, i["write"].maxbytes,
	    i["write"].elapsed > 0 ? "yes" : "no");
	exit(0);
}
