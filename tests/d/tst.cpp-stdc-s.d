/*
 * -Xs (stdc=s) is K&R C: DTrace runs cpp -traditional-cpp (dt_preproc),
 * which does not define __STDC__; the other modes do.
 * @@args: -C -xstdc=s
 */
#pragma D option quiet

BEGIN
{
#ifdef __STDC__
	printf("ISO C\n");
#else
	printf("K&R C\n");
#endif
	exit(0);
}
