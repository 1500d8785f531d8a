#!/usr/sbin/dtrace -s
/*
 * fddist.d -- the file descriptors a command reads and writes, as
 * distributions, in the DTraceToolkit's fddist manner; with option 4,
 * the bytes asked of each file by name.  Probes take effect at main():
 * the dynamic linker's reads of the libraries are not the program's.
 *
 * USAGE: fddist.d -c command [options]
 *
 *   options is a sum of:  1  reads only
 *                         2  writes only
 *                         4  bytes by file name too
 */
#pragma D option quiet
#pragma D option defaultargs
#pragma D option evaltime=main

inline int OPT_read  = ($1 & 3) != 2;
inline int OPT_write = ($1 & 3) != 1;
inline int OPT_paths = ($1 & 4) != 0;
inline int FILE_MAX  = 16;

dtrace:::BEGIN
{
	printf("Tracing... Hit Ctrl-C to end.\n");
}

syscall::read:entry,
syscall::readv:entry
/OPT_read && pid == $target/
{
	@Read[execname, pid] = lquantize(arg0, 0, FILE_MAX, 1);
	OPT_paths ? @ReadBytes[fds[arg0].fi_pathname] = sum(arg2) : 1;
	@Calls["read"] = count();
}

syscall::write:entry,
syscall::writev:entry
/OPT_write && pid == $target/
{
	@Write[execname, pid] = lquantize(arg0, 0, FILE_MAX, 1);
	OPT_paths ? @WriteBytes[fds[arg0].fi_pathname] = sum(arg2) : 1;
	@Calls["write"] = count();
}

dtrace:::END
{
	OPT_read ? printf("\nREAD FDs\n") : 1;
	OPT_read ? printa("%s (PID %d)%@d\n", @Read) : 1;
	OPT_write ? printf("\nWRITE FDs\n") : 1;
	OPT_write ? printa("%s (PID %d)%@d\n", @Write) : 1;
	OPT_paths && OPT_read ? printf("\n%-40s %10s\n", "READ FILE", "BYTES") : 1;
	OPT_paths && OPT_read ? printa("%-40s %@10d\n", @ReadBytes) : 1;
	OPT_paths && OPT_write ?
	    printf("\n%-40s %10s\n", "WRITE FILE", "BYTES") : 1;
	OPT_paths && OPT_write ? printa("%-40s %@10d\n", @WriteBytes) : 1;
	printa("%-6s calls %@d\n", @Calls);
}
