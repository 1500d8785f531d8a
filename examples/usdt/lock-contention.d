#!/usr/bin/env -S dscope -qs
/*
 * Which locks make server.c's threads wait, for how long, and from
 * where?  lock-wait-start fires only when a thread finds the lock held
 * (server.d), so every wait counted here is a contended one; the time to
 * lock-wait-done is time spent blocked.  The waiting is the thread's own,
 * so self-> is the right key here.
 *
 * Usage: dscope -qs lock-contention.d -c ./server   (or -p PID, Ctrl-C)
 * For a flame graph, keep more frames: -x ustackframes=32.
 */
myserv$target:::lock-wait-start
{
	self->wait = timestamp;
}

myserv$target:::lock-wait-done
/self->wait/
{
	this->ns = timestamp - self->wait;
	@waits[arg0] = count();
	@waited[arg0] = sum(this->ns);
	@dist = quantize(this->ns);
	@stacks[ustack()] = sum(this->ns);
	self->wait = 0;
}

dtrace:::END
{
	printf("%-18s %8s %14s\n", "LOCK", "WAITS", "WAITED (ns)");
	printa("%-18p %@8d %@14d\n", @waits, @waited);
	printf("\ncontended wait (ns):\n");
	printa(@dist);
	printf("\nnanoseconds waited, by stack:\n");
	printa(@stacks);
}
