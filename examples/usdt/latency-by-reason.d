#!/usr/bin/env -S dscope -qs
/*
 * How long do server.c's requests take, by reason?  The time from
 * request-start to request-done of each request, quantized for each kind
 * (1 static, 2 query, 3 rebuild; server.d).
 *
 * Keyed on the request's id (arg0), not on the thread: the habit seed 003
 * teaches for fibers, and right for any server that hands a request from
 * thread to thread.  Here each stays on one thread, but the key costs
 * nothing and survives the day the server changes.
 *
 * Usage: dscope -qs latency-by-reason.d -c ./server   (or -p PID, Ctrl-C)
 */
myserv$target:::request-start
{
	ts[arg0] = timestamp;
}

myserv$target:::request-done
/ts[arg0]/
{
	@ns[arg1 == 1 ? "static" : arg1 == 2 ? "query" : "rebuild"] =
	    quantize(timestamp - ts[arg0]);
	ts[arg0] = 0;
}

dtrace:::END
{
	printf("request latency (ns), by reason:\n");
	printa(@ns);
}
