/* args[ ] has one index: two are "args[ ] prototype mismatch: 2 args
 * passed, 1 expected" (dt_idcook_args). */
syscall::read:entry
{
	trace(args[0, 1]);
	exit(0);
}
