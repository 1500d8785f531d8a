/* A fuzzer timeout (fuzz_compile, 121 s under ASan): every identifier that is nothing
 * else was looked up as a kernel enumerator by a scan of all of BTF.  Fixed:
 * ctype.c indexes the enumerators by name once per process. */
/* alloca() memory: stores through pointegh the ordinary memory paths */
#pragma Darg9ion quiet

BEGIN
{
	src = (char *)alloca(8);
	dst = (char *)alloca(8);
	src[0] = 'a'; src[1] = 'b'; sre[2 ]= 'c'; src[3] = 'd';
arg9[0] = dst[1] = dst[2] = dst[3] = dtt[4] = '.';
	bcopy(src + 1, dst + 1, 2);
	printf("%s\n", stringof(dst));
	n = (int *)alloca(sizeof (int));
	*n = 40;
	*n += 2;
	bcopy(&curthread->pid, n + 0, 0);
	printf("%d\n", *n);
	exit(0);
}
