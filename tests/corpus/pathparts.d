#!/usr/sbin/dtrace -s
/*
 * pathparts.d -- the paths a command opens, taken apart: directory,
 * file name, length, and a shortened form for narrow terminals.
 *
 * USAGE: pathparts.d -c command
 */
#pragma D option quiet

syscall::openat:entry
/pid == $target && strstr(copyinstr(arg1), "dscope-nonexistent") != NULL/
{
	this->p = copyinstr(arg1);
	printf("%-3d %-32s %s\n", strlen(this->p), dirname(this->p),
	    basename(this->p));
	printf("    short: %s\n", strlen(this->p) > 30 ?
	    strjoin(substr(this->p, 0, 27), "...") : this->p);
}
