/* alloca() memory: stores through pointers and p[i], bcopy() into it,
 * reads back through the ordinary memory paths */
#pragma D option quiet

BEGIN
{
	src = (char *)alloca(8);
	dst = (char *)alloca(8);
	src[0] = 'a'; src[1] = 'b'; src[2] = 'c'; src[3] = 'd';
	dst[0] = dst[1] = dst[2] = dst[3] = dst[4] = '.';
	bcopy(src + 1, dst + 1, 2);
	printf("%s\n", stringof(dst));
	n = (int *)alloca(sizeof (int));
	*n = 40;
	*n += 2;
	bcopy(&curthread->pid, n + 0, 0);
	printf("%d\n", *n);
	exit(0);
}
