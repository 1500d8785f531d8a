/*
 * chill() over DTrace's chill_max (500 ms) is an illegal operation: the
 * clause is abandoned, ERROR fires, and tracing goes on.
 * @@args: -w -q
 * @@needs: $B/dscope -vV | grep -q '^  bpf_loop  *yes' || { echo "chill() waits in bpf_loop, which this kernel lacks (dscope -vV)" >&2; false; }
 */
BEGIN
{
	chill(600000000);
	printf("not reached\n");
}

ERROR
{
	printf("ERROR: fault %d\n", arg4);
}

BEGIN
{
	printf("still tracing\n");
	exit(0);
}
