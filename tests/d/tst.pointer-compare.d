/* What DTrace's pointer rules accept: a pointer and 0 or NULL, two of
 * one type, one and void *, p - q of one type, ! and && on pointers. */
#pragma D option quiet

BEGIN
{
	p = curthread;
	printf("%d %d %d %d\n", p != 0, p != NULL, p == curthread,
	    (void *)p == p);
	printf("%d %d %d\n", (int *)p + 2 - (int *)p, !p, p && 1);
	exit(0);
}
