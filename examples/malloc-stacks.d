#!/usr/bin/env -S dscope -qs
/*
 * Why am I calling malloc?  User stacks of every malloc() call, counted.
 * Usage: dscope -qs malloc-stacks.d -c CMD (or -p PID)
 */
pid$target::malloc:entry
{
	@[ustack()] = count();
}
