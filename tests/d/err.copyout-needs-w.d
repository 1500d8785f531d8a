/*
 * copyout() writes into a process: destructive, refused without -w.
 * @@args: -c "$B/targets/fillme"
 * @@stage: enable
 */
pid$target::fill_me:entry
{
	copyout(alloca(4), arg0, 4);
}
