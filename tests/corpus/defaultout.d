#!/usr/sbin/dtrace -s
/*
 * defaultout.d -- DTrace's default output: no quiet, so each firing
 * prints its CPU, probe ID and function:name before what it traces.
 *
 * USAGE: defaultout.d -c command
 */
syscall::getppid:entry
/pid == $target/
{
	trace(execname);
}
