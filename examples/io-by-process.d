#!/usr/bin/env -S dscope -qs
/*
 * Which process is doing I/O?  Bytes and requests sent to each block
 * device, by process, reads and writes apart, for ten seconds.  io:::start
 * fires in the thread that submits the request, so the process named is
 * the one that asked for the I/O.  Usage: dscope -qs io-by-process.d
 */
io:::start
{
	this->dir = args[0]->b_flags & B_READ ? "read" : "write";
	@bytes[execname, pid, args[1]->dev_statname, this->dir] =
	    sum(args[0]->b_bcount);
	@requests[execname, pid, args[1]->dev_statname, this->dir] = count();
}

tick-10s
{
	exit(0);
}

END
{
	printf("%-16s %7s %-8s %-5s %12s %8s\n", "PROCESS", "PID", "DEVICE",
	    "DIR", "BYTES", "REQUESTS");
	printa("%-16s %7d %-8s %-5s %@12d %@8d\n", @bytes, @requests);
}
