/*
 * copyout() writes into a process: destructive, refused without -w.
 * @@args: -c "$B/targets/fillme"
 */
pid$target::fill_me:entry
{
	copyout(alloca(4), arg0, 4);
}
