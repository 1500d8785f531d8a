#!/usr/bin/env -S dscope -qs
/*
 * Which files is this process reading, and how much?  Bytes asked of
 * read(2), by path.  Usage: dscope -qs files-read.d -c CMD (or -p PID)
 */
syscall::read:entry
/pid == $target/
{
	@[fds[arg0].fi_pathname] = sum(arg2);
}
