/* the predicate's store of alloca() memory, the body's of another pointer */
#pragma D option quiet

BEGIN / (new++ == 0) ? bar = alloca(10) : bar /
{
	trace(new);
	bar = (void *)curthread;
	exit(0);
}
