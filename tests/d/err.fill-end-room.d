/*
 * Under bufpolicy=fill the principal buffer keeps room for END's records,
 * as DTrace does: 100 bytes hold the largest record (32 bytes with its
 * perf framing) but not that plus three END records of 32, so tracing is
 * refused with DTrace's words.
 * @@stage: enable
 */
#pragma D option bufpolicy=fill
#pragma D option bufsize=100

BEGIN
{
	exit(0);
}

END { trace(1); }
END { trace(2); }
END { trace(3); }
