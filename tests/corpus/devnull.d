#!/usr/sbin/dtrace -s
/*
 * devnull.d -- opens by path, with clause-local variables and string
 * comparisons: how many opens were of /dev/null, which others were
 * there, and how long the longest path was.
 *
 * USAGE: devnull.d -c command
 */
#pragma D option quiet

syscall::openat:entry
/pid == $target/
{
	this->path = copyinstr(arg1);
	this->null = this->path == "/dev/null";
	@kind[this->null ? "/dev/null" : "other"] = count();
	@longest = max(strlen(this->path));
}

syscall::openat:entry
/pid == $target && this->path != "/dev/null" &&
    strstr(this->path, "dscope") != NULL/
{
	@missing[this->path] = count();
}

dtrace:::END
{
	printa("%-10s %@d\n", @kind);
	printa("missing %s %@d\n", @missing);
	printa("longest path %@d\n", @longest);
}
