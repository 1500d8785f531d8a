/*
 * cwd and root, the D library's names for the current thread's working
 * and root directories (procfs.d): loop runs in dscope's own directory,
 * given as $$1, under the root "/".
 * @@args: -c "$B/targets/loop 3" "$PWD"
 */
#pragma D option quiet

syscall::getppid:entry
/pid == $target/
{
	@[cwd == $$1, root] = count();
}

END
{
	printa("cwd is $$1 %d, root %s: %@d calls\n", @);
}
