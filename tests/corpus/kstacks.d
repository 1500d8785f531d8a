#!/usr/sbin/dtrace -s
/*
 * kstacks.d -- the kernel stacks a system call is made from.
 *
 * USAGE: kstacks.d -c command
 */
#pragma D option quiet

syscall::getppid:entry
/pid == $target/
{
	@[stack()] = count();
}
