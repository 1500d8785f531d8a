/*
 * With scratchsize=64, a clause may take 64 bytes of alloca() memory;
 * a size known only at run time that exceeds it is a fault.
 */
#pragma D option quiet
#pragma D option scratchsize=64

BEGIN
{
	p = alloca(64);
	printf("64 bytes: ok\n");
}

BEGIN
{
	n = 65;
	p = alloca(n);
	printf("not reached\n");
}

ERROR
{
	printf("65 bytes: fault %d\n", arg4);
	exit(0);
}
