#!/usr/sbin/dtrace -s
/*
 * userprofile.d -- sample the command's user stacks at 997 Hertz and
 * show where it spends its time.
 *
 * USAGE: userprofile.d -c command
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("Sampling... Hit Ctrl-C to end.\n");
}

profile-997
/pid == $target/
{
	@samples[arg1 ? "user" : "kernel"] = count();
	@stacks[ustack()] = count();
}

dtrace:::END
{
	trunc(@stacks, 5);
	printa(@stacks);
	printa("%-8s %@d\n", @samples);
}
