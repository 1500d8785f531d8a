#!/usr/sbin/dtrace -s
/*
 * iosnoop.d -- block I/O requests: device, direction, size, and the
 * process that issued them.
 *
 * USAGE: iosnoop.d -c command
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%-10s %-6s %1s %8s\n", "COMM", "DEVICE", "D", "BYTES");
}

io:::start
/pid == $target/
{
	printf("%-10s %-6s %1s %8d\n", execname, args[1]->dev_statname,
	    args[0]->b_flags & B_READ ? "R" : "W", args[0]->b_bcount);
	this->dir = args[0]->b_flags & B_READ ? "R" : "W";
	@reqs[execname, args[1]->dev_statname, this->dir, args[0]->b_bcount] =
	    count();
	@bytes[execname, args[1]->dev_statname, this->dir, args[0]->b_bcount] =
	    sum(args[0]->b_bcount);
}

dtrace:::END
{
	printa("%s %s %s %d: %@d requests, %@d bytes\n", @reqs, @bytes);
}
