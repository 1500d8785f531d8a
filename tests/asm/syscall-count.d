/* A syscall counted: the prologue, the guards and count()'s update. */
syscall::read:entry
{
	@reads = count();
}
