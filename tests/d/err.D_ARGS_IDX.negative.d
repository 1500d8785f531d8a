/* DTrace's parser folds -1 to a constant before args[ ] checks it, so a
 * negative index is out of range (D_ARGS_IDX), not a non-constant. */
syscall::read:entry
{
	trace(args[-1]);
	exit(0);
}
