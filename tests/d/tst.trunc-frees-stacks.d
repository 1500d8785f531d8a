/*
 * A stack key's frames are kept once, by id, in a map as big as
 * aggsize allows (here some ten stacks of 50 frames); trunc() lets go
 * of the stacks no key names any more, so a script that truncates as
 * it goes never fills it.  recurse rounds takes a new stack each round (one
 * frame deeper) and waits for SIGUSR1 between rounds: each of the 30
 * rounds prints its one count, none is dropped.
 * @@args: -q -w -x aggsize=4400 -c "$B/targets/recurse rounds 30"
 */
pid$target::leaf:entry
{
	@s[ustack(50)] = count();
}

pid$target::leaf:return
{
	printa("%@d\n", @s);
	trunc(@s);
	system("kill -USR1 %d", pid);
}
