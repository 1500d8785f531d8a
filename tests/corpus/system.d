#!/usr/sbin/dtrace -s
/*
 * system.d -- run a command when something happens (destructive).
 *
 * USAGE: system.d -c command
 */
#pragma D option quiet
#pragma D option destructive

proc:::exit
/pid == $target/
{
	system("echo %s exited, reason %d", execname, args[0]);
}
