/*
 * %A names a user address in the -c target after the target has exited:
 * the END clause prints it, so the target's maps are read at its exit,
 * as for ustack() (DTrace's hotuser prints module`function this way).
 * @@args: -q -c "$B/targets/loop 5"
 */
pid$target:a.out:main:entry
{
	@[uregs[R_PC]] = count();
}

END
{
	printa("%A %@d\n", @);
}
